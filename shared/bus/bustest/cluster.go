package bustest

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tradeapi/tradeapi/shared/bus"
)

// A Cluster is three NATS nodes with JetStream, each a process of its own
// (the test binary started again, running ServeNodeIfAsked), so that a test can
// SIGKILL one as a machine or an OOM killer does: a node stopped in
// process hands its leaderships over first, and its groups never go
// leaderless as a killed node's do (for 4 to 9 s, nats-server's election
// timeout).
type Cluster struct {
	t     testing.TB
	specs [3]nodeSpec
	mu    sync.Mutex
	procs [3]*exec.Cmd
}

// nodeSpec is what a node process is told, in nodeEnv.
type nodeSpec struct {
	Name, Dir, Listen, Cluster string
	Routes                     []string
}

const nodeEnv = "BUSTEST_NATS_NODE"

// ServeNodeIfAsked runs a node of a Cluster, and never returns, when the
// test binary was started as one (StartCluster starts it so); otherwise it
// returns at once. A package whose tests start a Cluster calls it first
// thing in its TestMain.
func ServeNodeIfAsked() {
	raw := os.Getenv(nodeEnv)
	if raw == "" {
		return
	}
	var s nodeSpec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		fmt.Fprintln(os.Stderr, "bustest node:", err)
		os.Exit(2)
	}
	if _, err := bus.StartServer(bus.ServerConfig{StoreDir: s.Dir, Listen: s.Listen, ServerName: s.Name,
		Cluster: bus.ClusterConfig{Name: "bustest", Listen: s.Cluster, Routes: s.Routes}}, nil); err != nil {
		fmt.Fprintln(os.Stderr, "bustest node:", err)
		os.Exit(2)
	}
	// Until killed, or until the test that started it is gone (a test
	// binary stopped by its timeout leaves no node behind).
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			os.Exit(0)
		}
	}
}

// StartCluster starts the three nodes n1, n2 and n3, each the test binary
// again (its TestMain calls ServeNodeIfAsked), and waits until each
// accepts clients. The test's cleanup kills them. The nodes listen on free
// ports of 127.0.0.1, or from BUSTEST_PORT_BASE on (six ports) when set.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	ports := clusterPorts(t)
	c := &Cluster{t: t}
	var routes []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("127.0.0.1:%d", ports[3+i]))
	}
	for i := range 3 {
		c.specs[i] = nodeSpec{Name: fmt.Sprintf("n%d", i+1), Dir: t.TempDir(),
			Listen: fmt.Sprintf("127.0.0.1:%d", ports[i]), Cluster: routes[i], Routes: routes}
	}
	t.Cleanup(func() {
		for i := range 3 {
			c.Kill(i)
		}
	})
	for i := range 3 {
		c.Start(i)
	}
	return c
}

func clusterPorts(t testing.TB) []int {
	if base := os.Getenv("BUSTEST_PORT_BASE"); base != "" {
		b, err := strconv.Atoi(base)
		if err != nil {
			t.Fatalf("BUSTEST_PORT_BASE: %v", err)
		}
		return []int{b, b + 1, b + 2, b + 3, b + 4, b + 5}
	}
	var ports []int
	var lns []net.Listener
	for range 6 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// Start starts node i (0 to 2) on its folder and ports, and waits until it
// accepts clients.
func (c *Cluster) Start(i int) {
	c.t.Helper()
	spec, _ := json.Marshal(c.specs[i])
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), nodeEnv+"="+string(spec))
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	c.mu.Lock()
	c.procs[i] = cmd
	c.mu.Unlock()
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", c.specs[i].Listen, 100*time.Millisecond)
		if err == nil {
			conn.Close()
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("node %s not accepting clients: %v", c.specs[i].Name, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill SIGKILLs node i, if it runs, and waits for its process.
func (c *Cluster) Kill(i int) {
	c.mu.Lock()
	cmd := c.procs[i]
	c.procs[i] = nil
	c.mu.Unlock()
	if cmd != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
}

// Name is node i's server name.
func (c *Cluster) Name(i int) string { return c.specs[i].Name }

// URL is node i's client URL.
func (c *Cluster) URL(i int) string { return "nats://" + c.specs[i].Listen }

// URLs lists every node's client URL, as the roles are given them.
func (c *Cluster) URLs() string {
	return strings.Join([]string{c.URL(0), c.URL(1), c.URL(2)}, ",")
}

// Lead makes node i the leader of a stream (consumer empty) or of one of
// its consumers, asking the current leader to step down in its favour,
// and waits until it is.
func (c *Cluster) Lead(nc *nats.Conn, i int, stream, consumer string) {
	c.t.Helper()
	subject := "$JS.API.STREAM.LEADER.STEPDOWN." + stream
	if consumer != "" {
		subject = "$JS.API.CONSUMER.LEADER.STEPDOWN." + stream + "." + consumer
	}
	req := fmt.Sprintf(`{"placement":{"preferred":%q}}`, c.specs[i].Name)
	deadline := time.Now().Add(30 * time.Second)
	for LeaderOf(nc, stream, consumer) != c.specs[i].Name {
		if time.Now().After(deadline) {
			c.t.Fatalf("%s does not lead %s %s", c.specs[i].Name, stream, consumer)
		}
		_, _ = nc.Request(subject, []byte(req), 2*time.Second)
		time.Sleep(200 * time.Millisecond)
	}
}

// LeaderOf names the leader of a stream (consumer empty) or of one of its
// consumers, or "" when it has none or did not answer within a second.
func LeaderOf(nc *nats.Conn, stream, consumer string) string {
	subject := "$JS.API.STREAM.INFO." + stream
	if consumer != "" {
		subject = "$JS.API.CONSUMER.INFO." + stream + "." + consumer
	}
	m, err := nc.Request(subject, nil, time.Second)
	if err != nil {
		return ""
	}
	var info struct {
		Cluster struct {
			Leader string `json:"leader"`
		} `json:"cluster"`
	}
	_ = json.Unmarshal(m.Data, &info)
	return info.Cluster.Leader
}
