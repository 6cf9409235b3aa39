package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/tradeapi/tradeapi/shared/freeport"
)

// Role process names. Faults and the graceful-stop measurement refer to
// processes by these names.
const (
	procDevnet      = "devnet"
	procRegistry    = "registry"
	procBroadcaster = "broadcaster"
	procExits       = "exits"
	procIngressEU   = "ingress-eu"
	procIngressUS   = "ingress-us"
)

// deployment is the multi-process service under test: a three-node NATS
// cluster and every tradeapi role as its own process, all on 127.0.0.1 with
// free ports, in one scratch folder.
type deployment struct {
	sup    *supervisor
	root   string // module root
	dir    string // scratch folder
	tapi   string // tradeapi binary
	chains []chainSpec

	nats    []*proc
	natsURL string
	roles   []*proc // in start order
	addr    struct{ solEU, solUS, evm, admin, devnet string }

	adminToken string
	masterKey  string
}

// moduleRoot returns the folder of the go.mod that the go command sees
// from the current folder.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run from inside the tradeapi module")
	}
	return filepath.Dir(mod), nil
}

// build compiles tradeapi from the module: every process of the run,
// the NATS nodes included (`tradeapi nats`), is that one binary.
func (d *deployment) build(ctx context.Context) error {
	bin := filepath.Join(d.dir, "bin")
	d.tapi = filepath.Join(bin, "tradeapi")
	for _, args := range [][]string{
		{"build", "-o", d.tapi, "."},
	} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = d.root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

func freeAddr() (string, error) {
	p, err := freeport.Port()
	return fmt.Sprintf("127.0.0.1:%d", p), err
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// plan lays out every process on free ports without starting any.
func (d *deployment) plan() error {
	logs := filepath.Join(d.dir, "logs")
	if err := os.MkdirAll(logs, 0o700); err != nil {
		return err
	}
	// NATS: `tradeapi nats` on the committed cluster files, their ports
	// overridden by flags so that the run does not collide with a
	// deployment on the defaults. The first node to start generates the
	// deployment's credentials under the shared data folder; the others
	// and every role read them there, as in the Procfile deployment.
	var client, route, monitor [3]int
	for i := range 3 {
		for _, dst := range []*int{&client[i], &route[i], &monitor[i]} {
			p, err := freeport.Port()
			if err != nil {
				return err
			}
			*dst = p
		}
	}
	var routes, urls []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", route[i]))
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", client[i]))
	}
	d.natsURL = strings.Join(urls, ",")
	for i := range 3 {
		name := fmt.Sprintf("nats-%d", i+1)
		d.nats = append(d.nats, d.sup.add(&proc{
			name: name, bin: d.tapi, dir: d.dir, env: []string{"TRADEAPI_DATA_DIR=" + filepath.Join(d.dir, "data"),
				"TRADEAPI_LOG_FORMAT=json"},
			args: []string{"nats", "--conf", filepath.Join(d.root, "configs", "cluster", name+".conf"),
				"--listen", fmt.Sprintf("127.0.0.1:%d", client[i]), "--monitor", fmt.Sprintf("127.0.0.1:%d", monitor[i]),
				"--cluster-listen", fmt.Sprintf("127.0.0.1:%d", route[i]), "--routes", strings.Join(routes, ",")},
			ready: fmt.Sprintf("http://127.0.0.1:%d/healthz", monitor[i]),
			log:   filepath.Join(logs, name+".log"),
		}))
	}

	for _, dst := range []*string{&d.addr.solEU, &d.addr.solUS, &d.addr.evm, &d.addr.admin, &d.addr.devnet} {
		a, err := freeAddr()
		if err != nil {
			return err
		}
		*dst = a
	}
	d.adminToken, d.masterKey = randomHex(24), randomHex(32)
	env := []string{
		"TRADEAPI_DATA_DIR=" + filepath.Join(d.dir, "data"),
		"TRADEAPI_NATS_URL=" + d.natsURL,
		"TRADEAPI_SOL_EU_ADDR=" + d.addr.solEU,
		"TRADEAPI_SOL_US_ADDR=" + d.addr.solUS,
		"TRADEAPI_EVM_ADDR=" + d.addr.evm,
		"TRADEAPI_ADMIN_ADDR=" + d.addr.admin,
		"TRADEAPI_DEVNET_ADDR=" + d.addr.devnet,
		"TRADEAPI_ADMIN_TOKEN=" + d.adminToken,
		"TRADEAPI_MASTER_KEY=" + d.masterKey,
		"TRADEAPI_LOG_FORMAT=json",
		"TRADEAPI_LOG_LEVEL=info",
	}
	config := filepath.Join(d.root, "configs", "cluster", "tradeapi.yaml")
	role := func(name string, args ...string) error {
		metrics, err := freeAddr()
		if err != nil {
			return err
		}
		d.roles = append(d.roles, d.sup.add(&proc{
			name: name, bin: d.tapi, dir: d.dir, env: env,
			args:  append(args, "--config", config, "--metrics-addr", metrics),
			ready: "http://" + metrics + "/readyz",
			log:   filepath.Join(logs, name+".log"),
		}))
		return nil
	}
	steps := [][]string{{procDevnet, "devnet"}, {procRegistry, "registry"}}
	for _, g := range workerGroups(d.chains) {
		for i := range workersPerGroup {
			steps = append(steps, []string{fmt.Sprintf("worker-%s-%d", g.name, i+1), "worker", "--chain", strings.Join(g.chains, ",")})
		}
	}
	steps = append(steps,
		[]string{procBroadcaster, "broadcaster"},
		[]string{procExits, "exits"},
		[]string{procIngressEU, "ingress", "--listeners", "eu,evm"},
		[]string{procIngressUS, "ingress", "--listeners", "us"})
	for _, s := range steps {
		if err := role(s[0], s[1:]...); err != nil {
			return err
		}
	}
	return nil
}

// workersPerGroup is how many worker processes serve each group of chains.
const workersPerGroup = 2

// workerGroup is a set of chains that the same worker processes serve.
type workerGroup struct {
	name   string
	chains []string
}

// workerGroups groups the chains by their Workers field, in order.
func workerGroups(chains []chainSpec) []workerGroup {
	var out []workerGroup
	idx := map[string]int{}
	for _, c := range chains {
		i, ok := idx[c.Workers]
		if !ok {
			i = len(out)
			idx[c.Workers] = i
			out = append(out, workerGroup{name: c.Workers})
		}
		out[i].chains = append(out[i].chains, c.Name)
	}
	return out
}

// up starts the cluster, then every role in order, each once the one
// before is ready.
func (d *deployment) up(ctx context.Context) error {
	for _, p := range d.nats {
		if err := d.sup.start(p); err != nil {
			return err
		}
	}
	for _, p := range d.nats {
		if err := d.sup.waitReady(ctx, p, 60*time.Second); err != nil {
			return err
		}
	}
	for _, p := range d.roles {
		if err := d.sup.start(p); err != nil {
			return err
		}
		if err := d.sup.waitReady(ctx, p, 90*time.Second); err != nil {
			return err
		}
	}
	return nil
}

// proc returns the process of the given name.
func (d *deployment) proc(name string) *proc {
	for _, p := range append(append([]*proc(nil), d.nats...), d.roles...) {
		if p.name == name {
			return p
		}
	}
	return nil
}

// pids returns every running child by name.
func (d *deployment) pids() map[string]int {
	out := map[string]int{}
	for _, p := range append(append([]*proc(nil), d.nats...), d.roles...) {
		out[p.name] = p.pid()
	}
	return out
}

// demoToken finds the demo token the registry created on chain at venue,
// from the registry's log line announcing it.
func (d *deployment) demoToken(ctx context.Context, chain, venue string) (string, error) {
	p := d.proc(procRegistry)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if addr := scanDemoToken(p.log, chain, venue); addr != "" {
			return addr, nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no demo %s token on %s in the registry's log", venue, chain)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func scanDemoToken(path, chain, venue string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var line struct {
			Msg, Chain, Venue, Address string
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "demo token created" &&
			line.Chain == chain && line.Venue == venue {
			return line.Address
		}
	}
	return ""
}
