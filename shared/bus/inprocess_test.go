package bus

import (
	"bytes"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// TestInProcessRolesConnect checks that a server with
// credentials requires them of in-process clients too, as `up` runs it, and
// that Connect and ConnectAs present them. (A refused in-process client is
// not tried here: the server's answer and the client's CONNECT block each
// other on the unbuffered pipe until the server's write deadline.)
func TestInProcessRolesConnect(t *testing.T) {
	t.Parallel()
	srv := startWithCredentials(t, nil)
	for _, role := range append([]string{RoleAdmin}, Roles()...) {
		nc, err := srv.ConnectAs(role, "test")
		if err != nil {
			t.Fatalf("%s connects in process: %v", role, err)
		}
		if !nc.AuthRequired() {
			t.Errorf("%s: the server does not require authentication", role)
		}
		// A worker's publishes are never held to land after a reconnect
		// (see ConnectOptions), in process as over the network.
		if held := nc.Opts.ReconnectBufSize != -1; held != (role != RoleWorker) {
			t.Errorf("%s: reconnect buffer %d", role, nc.Opts.ReconnectBufSize)
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
	t.Parallel()
	var out logtest.Buffer
	srv := startWithCredentials(t, slog.New(slog.NewTextHandler(&out, nil)))
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

// TestInProcessConnectCrossingTheFirstPing: the server pings a client about
// two seconds after its CONNECT, and a handshake slower than that reads the
// server's PING where nats.go waits for the PONG to its own ("expected
// 'PONG', got 'PING'"), which stopped `up` at start on a machine loaded far
// past its cores. The connect is made again, and succeeds.
func TestInProcessConnectCrossingTheFirstPing(t *testing.T) {
	t.Parallel()
	srv := startWithCredentials(t, nil)
	pipes := &pingFirst{server: srv.pipes}
	pipes.meddle.Store(2)
	srv.pipes = pipes
	nc, err := srv.ConnectAs(RoleIngress, "ingress-orders")
	if err != nil {
		t.Fatalf("connect after two handshakes crossed by a PING: %v", err)
	}
	t.Cleanup(nc.Close)
	if err := nc.Flush(); err != nil {
		t.Fatalf("the connection made on the third handshake: %v", err)
	}
	if got := pipes.handed.Load(); got != 3 {
		t.Errorf("%d in-process connections made, want 3 (two crossed, one clean)", got)
	}
}

// pingFirst hands out in-process connections, the first meddle of which
// read a PING from the server before anything else once the client has
// sent its CONNECT: the server's first ping arriving ahead of its PONG.
type pingFirst struct {
	server nats.InProcessConnProvider
	meddle atomic.Int32
	handed atomic.Int32
}

func (p *pingFirst) InProcessConn() (net.Conn, error) {
	c, err := p.server.InProcessConn()
	if err != nil {
		return nil, err
	}
	p.handed.Add(1)
	if p.meddle.Add(-1) >= 0 {
		return &pingBeforePong{Conn: c}, nil
	}
	return c, nil
}

type pingBeforePong struct {
	net.Conn
	mu  sync.Mutex
	due bool
}

func (c *pingBeforePong) Write(b []byte) (int, error) {
	if bytes.HasPrefix(b, []byte("CONNECT ")) {
		c.mu.Lock()
		c.due = true
		c.mu.Unlock()
	}
	return c.Conn.Write(b)
}

func (c *pingBeforePong) Read(b []byte) (int, error) {
	c.mu.Lock()
	due := c.due
	c.due = false
	c.mu.Unlock()
	if due {
		return copy(b, "PING\r\n"), nil
	}
	return c.Conn.Read(b)
}

// startWithCredentials starts a server that requires credentials, as `up`
// runs it, logging to log.
func startWithCredentials(t *testing.T, log *slog.Logger) *Server {
	t.Helper()
	srv, err := StartServer(ServerConfig{StoreDir: t.TempDir(),
		Credentials: Credentials{User: "tradeapi", Password: "in-process-master"}}, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	return srv
}
