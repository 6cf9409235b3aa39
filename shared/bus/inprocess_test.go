package bus

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/poll"
)

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

// TestInProcessViolationLogged: a permissions violation on a connection of
// `up` is the service's log line naming the connection, as on a role
// process's, not a line nats.go prints to stderr (nor only the server's).
func TestInProcessViolationLogged(t *testing.T) {
	var out logtest.Buffer
	srv, err := StartServer(ServerConfig{StoreDir: t.TempDir(),
		Credentials: Credentials{User: "tradeapi", Password: "in-process-master"}}, slog.New(slog.NewTextHandler(&out, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := srv.ConnectAs(RoleIngress, "ingress-orders")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	if err := nc.Publish("not.granted", nil); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Second, "the violation in the log", func() bool {
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.Contains(line, `msg="nats error"`) && strings.Contains(line, "connection=ingress-orders") &&
				strings.Contains(line, `Permissions Violation for Publish to \"not.granted\"`) {
				return true
			}
		}
		return false
	})
}
