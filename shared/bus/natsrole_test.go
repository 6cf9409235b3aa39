package bus_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/freeport"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// freePorts returns n ports of 127.0.0.1 that were free a moment ago,
// below the ephemeral range (freeport). The nodes of a cluster must know
// each other's route ports before they start.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		p, err := freeport.Port()
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, p)
	}
	return ports
}

// TestNATSRoleCluster runs three nats roles as a cluster, as the cluster
// configuration files describe it, on free ports: they share the data
// folder, so they generate one set of credentials together, and a stream of
// three replicas carries a job from ingress on one node to a worker on
// another.
func TestNATSRoleCluster(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	ports := freePorts(t, 3)
	var routes []string
	for _, p := range ports {
		routes = append(routes, "nats-route://127.0.0.1:"+strconv.Itoa(p))
	}
	ctx, stop := context.WithCancel(context.Background())
	var logged logtest.Buffer
	log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ready := make(chan *bus.Server, 3)
	done := make(chan error, 3)
	for i := range 3 {
		cfg := bus.NATSRoleConfig{
			DataDir:    dataDir,
			StoreDir:   filepath.Join(dataDir, "nats-"+strconv.Itoa(i+1)),
			ServerName: "tradeapi-" + strconv.Itoa(i+1),
			Listen:     "127.0.0.1:0",
			Cluster:    bus.ClusterConfig{Name: "tradeapi", Listen: "127.0.0.1:" + strconv.Itoa(ports[i]), Routes: routes},
			Ready:      func(s *bus.Server) { ready <- s },
		}
		if i == 0 {
			cfg.Monitor = "127.0.0.1:0"
		}
		go func() { done <- bus.RunNATS(ctx, cfg, log.With("node", i+1)) }()
	}
	stopped := false
	stopAll := func() {
		if stopped {
			return
		}
		stopped = true
		stop()
		for range 3 {
			if err := <-done; err != nil {
				t.Errorf("nats role: %v", err)
			}
		}
	}
	t.Cleanup(stopAll)
	var nodes []*bus.Server
	for range 3 {
		select {
		case s := <-ready:
			nodes = append(nodes, s)
		case err := <-done:
			t.Fatalf("a nats role stopped at start: %v", err)
		case <-time.After(20 * time.Second):
			t.Fatal("the nats roles did not start")
		}
	}

	creds, err := bus.LoadCredentials(dataDir, bus.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if _, err := nats.Connect(n.ClientURL()); err == nil || !strings.Contains(err.Error(), authViolation) {
			t.Fatalf("a client without credentials on %s: err = %v, want %q", n.ClientURL(), err, authViolation)
		}
	}
	routeRefusesAnonymous(t, ports[1])
	// /healthz answers 200 once JetStream is up, which in a cluster means
	// once the meta group has its leader.
	var monitor string
	for _, n := range nodes {
		if a := n.MonitorAddr(); a != nil {
			monitor = "http://" + a.String() + "/healthz"
		}
	}
	if monitor == "" {
		t.Fatal("no node serves monitoring")
	}
	var status string
	if !poll.True(30*time.Second, func() bool {
		resp, err := http.Get(monitor)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		status = resp.Status
		return resp.StatusCode == http.StatusOK
	}) {
		t.Fatalf("%s: %s", monitor, status)
	}

	reg := dialRole(t, nodes[0].ClientURL(), bus.RoleRegistry, creds)
	in := dialRole(t, nodes[1].ClientURL(), bus.RoleIngress, creds)
	wk := dialRole(t, nodes[2].ClientURL(), bus.RoleWorker, creds)
	tctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// A node may still be catching up with the meta group; try again.
	orders := jetstream.StreamConfig{Name: bus.StreamOrders, Subjects: []string{"orders.>"},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: 3}
	retry(t, tctx, "create a stream of three replicas", func(ctx context.Context) error {
		_, err := reg.js.CreateOrUpdateStream(ctx, orders)
		return err
	})
	deadline, _ := tctx.Deadline()
	var peers []string
	if !poll.True(time.Until(deadline), func() bool {
		st, err := reg.js.Stream(tctx, bus.StreamOrders)
		must(t, "stream information", err)
		info := st.CachedInfo()
		peers = nil
		if info.Cluster != nil {
			peers = append(peers, info.Cluster.Leader)
			for _, r := range info.Cluster.Replicas {
				if r.Current {
					peers = append(peers, r.Name)
				}
			}
		}
		slices.Sort(peers)
		return slices.Equal(peers, []string{"tradeapi-1", "tradeapi-2", "tradeapi-3"})
	}) {
		t.Fatalf("the stream's current peers are %v, want the three nodes", peers)
	}

	// A node learns of the new stream's subjects over the routes a moment
	// after its creation; ingress publishes again with the same message id
	// until the stream answers, as it does when a stream fails over.
	job := &nats.Msg{Subject: bus.OrdersSubject("solana"), Data: []byte(`{}`), Header: nats.Header{}}
	job.Header.Set(bus.HeaderOrder, "o-1")
	retry(t, tctx, "ingress publishes a job", func(ctx context.Context) error {
		_, err := in.js.PublishMsg(ctx, job, jetstream.WithMsgID("o-1"))
		return err
	})
	var cons jetstream.Consumer
	retry(t, tctx, "the workers' consumer", func(ctx context.Context) (err error) {
		cons, err = wk.js.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
			Durable: bus.WorkerConsumer("solana"), FilterSubject: bus.OrdersSubject("solana"),
			AckPolicy: jetstream.AckExplicitPolicy, Replicas: 3})
		return err
	})
	if m := fetchOne(t, tctx, "the worker takes the job", cons); m.Headers().Get(bus.HeaderOrder) != "o-1" {
		t.Errorf("the worker took %q, want o-1", m.Headers().Get(bus.HeaderOrder))
	}

	// A compare-and-set that loses on a bucket of three replicas is a
	// conflict (Conflict), as on one replica: missed, a lost race would
	// read as the store's trouble in a cluster only.
	var kv jetstream.KeyValue
	retry(t, tctx, "a bucket of three replicas", func(ctx context.Context) (err error) {
		kv, err = reg.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bus.BucketVenues, Storage: jetstream.FileStorage, Replicas: 3})
		return err
	})
	var rev uint64
	retry(t, tctx, "a first write", func(ctx context.Context) (err error) {
		rev, err = kv.Put(ctx, "k", []byte("1"))
		return err
	})
	if _, err := kv.Update(tctx, "k", []byte("2"), rev+1); !bus.Conflict(err) {
		t.Errorf("an update at a revision not the last: %v, not a conflict", err)
	}
	if _, err := kv.Create(tctx, "k", []byte("2")); !bus.Conflict(err) {
		t.Errorf("a create of a key that exists: %v, not a conflict", err)
	}
	if err := kv.Delete(tctx, "k", jetstream.LastRevision(rev+1)); !bus.Conflict(err) {
		t.Errorf("a delete at a revision not the last: %v, not a conflict", err)
	}

	// Every declared stream and bucket on three replicas, and a webhook
	// delivery put to wait there: the server schedules it on the stream's
	// leader, and the dispatcher's consumer takes it when due.
	retry(t, tctx, "declare everything on three replicas", func(ctx context.Context) error {
		return bus.Declare(ctx, reg.js, bus.Options{Replicas: 3})
	})
	br := dialRole(t, nodes[1].ClientURL(), bus.RoleBroadcaster, creds)
	wait := nats.NewMsg(bus.WebhookWaitSubject("acct1", "k1"))
	wait.Data = []byte(`{}`)
	wait.Header.Set("Nats-Schedule", "@at "+time.Now().Add(time.Second).UTC().Format(time.RFC3339))
	wait.Header.Set("Nats-Schedule-Target", bus.WebhookDueSubject("acct1", "k1"))
	retry(t, tctx, "put a webhook delivery to wait", func(ctx context.Context) error {
		_, err := br.js.PublishMsg(ctx, wait)
		return err
	})
	var due jetstream.Consumer
	retry(t, tctx, "the webhook retries' consumer", func(ctx context.Context) (err error) {
		due, err = br.js.CreateOrUpdateConsumer(ctx, bus.StreamWebhookRetries, jetstream.ConsumerConfig{
			Durable: bus.WebhookDueConsumer, FilterSubject: bus.AllWebhookDue, AckPolicy: jetstream.AckExplicitPolicy})
		return err
	})
	if m := fetchOne(t, tctx, "the due delivery", due); m.Subject() != bus.WebhookDueSubject("acct1", "k1") {
		t.Errorf("due delivery on %s", m.Subject())
	}
	reg.clean(t)
	in.clean(t)
	wk.clean(t)
	br.clean(t)
	stopAll()

	// Nothing the servers logged, at any level, shows a password.
	out := logged.String()
	if !strings.Contains(out, "nats server ready") {
		t.Errorf("the servers logged nothing recognisable:\n%s", out)
	}
	secrets := []string{creds.Password}
	for _, role := range bus.Roles() {
		_, pass := bus.ClientCredentials(role, creds)
		secrets = append(secrets, pass)
	}
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Fatal("a password shows in the servers' log")
		}
	}
}

func TestRunNATSRefuses(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		cfg  bus.NATSRoleConfig
		want string
	}{
		"no data folder": {bus.NATSRoleConfig{}, "no data folder"},
		"a creds file": {bus.NATSRoleConfig{DataDir: t.TempDir(), Credentials: bus.Credentials{CredsFile: "a.creds"}},
			"creds file"},
		"a cluster without server names": {bus.NATSRoleConfig{DataDir: t.TempDir(), Listen: "127.0.0.1:0",
			Cluster: bus.ClusterConfig{Name: "tradeapi", Listen: "127.0.0.1:0"}}, "server name"},
		"a bad route": {bus.NATSRoleConfig{DataDir: t.TempDir(), Listen: "127.0.0.1:0", ServerName: "n1",
			Cluster: bus.ClusterConfig{Name: "tradeapi", Listen: "127.0.0.1:0", Routes: []string{"nats-route://u:hidden@"}}},
			"route"},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err := bus.RunNATS(ctx, tc.cfg, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hidden") {
				t.Errorf("the error shows a route's password: %v", err)
			}
		})
	}
}

// retry runs op until it succeeds or ctx ends, each try bounded.
func retry(t *testing.T, ctx context.Context, what string, op func(context.Context) error) {
	t.Helper()
	deadline, _ := ctx.Deadline()
	var err error
	if !poll.True(time.Until(deadline), func() bool {
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		err = op(tctx)
		return err == nil
	}) {
		t.Fatalf("%s: %v", what, err)
	}
}

// routeRefusesAnonymous speaks the route protocol to a node's cluster port
// without credentials and expects to be refused.
func routeRefusesAnonymous(t *testing.T, port int) {
	t.Helper()
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(c)
	info, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(info, "INFO ") {
		t.Fatalf("route port: %q, %v", info, err)
	}
	if _, err := fmt.Fprint(c, "CONNECT {\"verbose\":false,\"pedantic\":false,\"name\":\"intruder\",\"cluster\":\"tradeapi\"}\r\nPING\r\n"); err != nil {
		t.Fatal(err)
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("route without credentials: no refusal (%v)", err)
		}
		if strings.HasPrefix(line, "-ERR") {
			if !strings.Contains(line, authViolation) {
				t.Fatalf("route without credentials: %q, want %q", line, authViolation)
			}
			return
		}
		if strings.HasPrefix(line, "PONG") {
			t.Fatal("a route without credentials was accepted")
		}
	}
}

// TestLoadNATSConfRefusesWhatItDrops: a setting the nats role would not
// carry over is refused naming it, never dropped: a tls block among them,
// which dropped would leave the server in plain text while its operator
// believes it encrypted.
func TestLoadNATSConfRefusesWhatItDrops(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ conf, want string }{
		"tls":                    {"listen: 127.0.0.1:4222\ntls {\n  cert_file: a.pem\n  key_file: b.pem\n}\n", "tls is not carried over"},
		"accounts":               {"accounts {\n  A {\n    users: [{user: a, password: b}]\n  }\n}\n", "accounts is not carried over"},
		"leafnodes":              {"leafnodes {\n  port: 7422\n}\n", "leafnodes is not carried over"},
		"the cluster's tls":      {"cluster {\n  name: t\n  listen: 127.0.0.1:6222\n  tls {\n    cert_file: a.pem\n  }\n}\n", "cluster.tls is not carried over"},
		"users with permissions": {"authorization {\n  users: [{user: a, password: b}]\n}\n", "authorization.users is not carried over"},
		"a jetstream limit":      {"jetstream {\n  store_dir: d\n  max_file_store: 1GB\n}\n", "jetstream.max_file_store is not carried over"},
		"a sync period":          {"jetstream {\n  sync_interval: 10s\n}\n", "only \"always\""},
		"another payload":        {"max_payload: 1MB\n", "max_payload"},
		"jetstream off":          {"jetstream: disabled\n", "always runs JetStream"},
		"jetstream switched off": {"jetstream {\n  enabled: false\n}\n", "always runs JetStream"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "n.conf")
			if err := os.WriteFile(path, []byte(tc.conf), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := bus.LoadNATSConf(path); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
	path := filepath.Join(t.TempDir(), "n.conf")
	ok := "server_name: n\nlisten: 127.0.0.1:4222\nmax_payload: 8MB\njetstream {\n  enabled: true\n  store_dir: d\n  sync: always\n}\n" +
		"authorization {\n  user: ops\n  password: pw\n}\n"
	if err := os.WriteFile(path, []byte(ok), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := bus.LoadNATSConf(path)
	if err != nil || !cfg.SyncAlways || cfg.StoreDir != "d" || cfg.Credentials.User != "ops" {
		t.Fatalf("%+v, %v", cfg, err)
	}
}

func TestLoadNATSConf(t *testing.T) {
	t.Parallel()
	for i := 1; i <= 3; i++ {
		path := filepath.Join("..", "..", "configs", "cluster", fmt.Sprintf("nats-%d.conf", i))
		cfg, err := bus.LoadNATSConf(path)
		if err != nil {
			t.Fatal(err)
		}
		want := bus.NATSRoleConfig{
			ServerName: fmt.Sprintf("tradeapi-%d", i),
			StoreDir:   fmt.Sprintf("data/nats-%d", i),
			Listen:     fmt.Sprintf("127.0.0.1:%d", 4221+i),
			Monitor:    fmt.Sprintf("127.0.0.1:%d", 8221+i),
			Cluster: bus.ClusterConfig{Name: "tradeapi", Listen: fmt.Sprintf("127.0.0.1:%d", 6221+i),
				Routes: []string{"nats-route://127.0.0.1:6222", "nats-route://127.0.0.1:6223", "nats-route://127.0.0.1:6224"}},
		}
		if cfg.ServerName != want.ServerName || filepath.ToSlash(cfg.StoreDir) != want.StoreDir || cfg.Listen != want.Listen ||
			cfg.Monitor != want.Monitor || cfg.Cluster.Name != want.Cluster.Name || cfg.Cluster.Listen != want.Cluster.Listen ||
			!slices.Equal(cfg.Cluster.Routes, want.Cluster.Routes) || !cfg.Credentials.IsZero() {
			t.Errorf("%s:\n got %+v\nwant %+v", path, cfg, want)
		}
	}
}
