package bus

import "testing"

// TestInProcessRolesConnect checks that a server with
// credentials requires them of in-process clients too, as `up` runs it, and
// that Connect and ConnectAs present them. (A refused in-process client is
// not tried here: the server's answer and the client's CONNECT block each
// other on the unbuffered pipe until the server's write deadline.)
func TestInProcessRolesConnect(t *testing.T) {
	srv, err := StartServer(ServerConfig{StoreDir: t.TempDir(),
		Credentials: Credentials{User: "tradeapi", Password: "in-process-master"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	for _, role := range append([]string{RoleAdmin}, Roles()...) {
		nc, err := srv.ConnectAs(role, "test")
		if err != nil {
			t.Fatalf("%s connects in process: %v", role, err)
		}
		if !nc.AuthRequired() {
			t.Errorf("%s: the server does not require authentication", role)
		}
		nc.Close()
	}
	nc, err := srv.Connect("core")
	if err != nil {
		t.Fatalf("the admin's in-process connection: %v", err)
	}
	nc.Close()
}
