// Command loadgen measures the service over loopback with bounded load,
// against a bare net/http handler measured in the same run: on a shared
// machine absolute figures drift, ratios to a floor taken minutes apart
// do not. It starts the whole service in this process (embedded NATS, the
// local chains) on free 127.0.0.1 ports with a scratch data folder, or
// drives a running `up` given its addresses; prepares an account of its
// own with funded wallets and a token of each venue; runs each scenario
// for a bounded time; prints one table with each figure's ratio to the
// floor and whether it meets its target; and stops.
//
//	go run ./shared/cmd/loadgen -scenario all
//	go run ./shared/cmd/loadgen -scenario orders -cpuprofile cpu.pb.gz
//	go run ./shared/cmd/loadgen -sol-url http://127.0.0.1:8080 -evm-url http://127.0.0.1:8082 \
//		-admin-url http://127.0.0.1:8090 -admin-token "$TRADEAPI_ADMIN_TOKEN"
//
// The floors run first. floor-seq, the bare handler's sequential POST,
// always: every latency target is a multiple of its p50. It is served by a
// child process (this program again), as a service answers a bot from
// another process; floor-seq-in, with -scenario all, is the same handler
// in this process, for reference (a server in its client's process is
// spared waking another process, which halves its p50 here). floor-post
// and floor-get, the requests/s at 32 connections, when a selected
// scenario is compared with them; they are served the way the service is,
// in this process when the service runs here (client and server then share
// one Go scheduler in both measurements) and by the child against a
// running `up`. floor-seq runs once more at the end, to show the drift.
// Then, in this order (-scenario takes a comma list of names, "orders" for
// every order scenario, or "all"):
//
//	listing   GET /api/v1/wallets, 32 connections, closed loop
//	buy-seq   one-wallet pump.fun buys, one connection, one at a time
//	buy-200   one-wallet buys at 200/s, open loop
//	buy10-20  ten-wallet buys at 20/s, open loop
//	evm-50    one-wallet V2 buys on base at 50/s, open loop
//	buy-500   one-wallet buys at 500/s, open loop
//	buy-c32   one-wallet buys, 32 connections, closed loop
//	buy-c64   one-wallet buys, 64 connections, closed loop
//
// After the table it prints what JetStream stored and delivered per order
// of each order scenario, counted from the streams' and consumers'
// sequences: exact where times are not. With -cpuprofile the order
// scenarios (and the pauses between them) are profiled, and the CPU time
// is printed by role per 1,000 orders: every goroutine of the service
// carries a role label (shared/service, profile.go), this program's own
// carry role=loadgen and the bare handler's role=floor.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nuid"
)

// options are the command line.
type options struct {
	scenarios  []string
	dur        time.Duration
	settle     time.Duration
	wallets    int
	idem       bool
	cpuprofile string
	memprofile string
	remote     target
}

func main() {
	var o options
	scenario := flag.String("scenario", "all", "comma list of scenarios (listing, buy-seq, buy-200, buy10-20, evm-50, buy-500, buy-c32, buy-c64), orders, or all")
	flag.DurationVar(&o.dur, "duration", 5*time.Second, "how long each scenario runs (at most 60s)")
	flag.DurationVar(&o.settle, "settle", time.Second, "pause between scenarios, so that one's confirmations do not run into the next")
	flag.IntVar(&o.wallets, "wallets", 64, "Solana wallets the one-wallet buys rotate over (at least 10)")
	flag.BoolVar(&o.idem, "idempotency", false, "send every order with a fresh Idempotency-Key, as a careful bot does")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the order scenarios to this file and print the CPU by role")
	flag.StringVar(&o.memprofile, "memprofile", "", "write this process's allocations (the service's too when it runs here) before and after the order scenarios, to this file.base and this file (go tool pprof -sample_index alloc_space -base F.base F)")
	flag.StringVar(&o.remote.sol, "sol-url", "", "a running service's Solana listener (empty: start the service in this process)")
	flag.StringVar(&o.remote.evm, "evm-url", "", "a running service's EVM listener")
	flag.StringVar(&o.remote.admin, "admin-url", "", "a running service's admin listener")
	flag.StringVar(&o.remote.metrics, "metrics-url", "", "a running service's metrics listener, for the stage means (optional)")
	flag.StringVar(&o.remote.natsURL, "nats-url", "", "a running service's NATS, to count JetStream's work per order (optional, with -data-dir)")
	flag.StringVar(&o.remote.dataDir, "data-dir", "", "a running service's data folder, where its NATS credentials are")
	flag.StringVar(&o.remote.adminToken, "admin-token", os.Getenv("TRADEAPI_ADMIN_TOKEN"), "a running service's admin token")
	child := flag.Bool("floor-child", false, "serve the bare handler for a parent loadgen (internal)")
	client := flag.Bool("client-child", false, "run one scenario's client for a parent loadgen (internal)")
	flag.Parse()
	if *child {
		if err := floorChild(); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen floor:", err)
			os.Exit(1)
		}
		return
	}
	if *client {
		if err := clientChild(); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen client:", err)
			os.Exit(1)
		}
		return
	}
	o.dur = min(o.dur, time.Minute)
	o.wallets = max(o.wallets, 10)
	var err error
	if o.scenarios, err = selectScenarios(*scenario); err == nil {
		// This program's own goroutines carry role=loadgen, so that a
		// profile tells the client's CPU from the service's.
		pprof.Do(context.Background(), pprof.Labels(labelRole, roleLoadgen), func(context.Context) { err = run(o) })
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// selectScenarios turns -scenario into scenario names, in run order.
func selectScenarios(s string) ([]string, error) {
	want := map[string]bool{}
	for _, name := range strings.Split(s, ",") {
		switch name = strings.TrimSpace(name); name {
		case "all":
			for _, sc := range scenarios {
				want[sc.name] = true
			}
		case "orders":
			for _, sc := range scenarios {
				want[sc.name] = want[sc.name] || sc.order
			}
		// The names of earlier versions of this program.
		case "latency":
			want["buy-200"] = true
		case "throughput":
			want["buy-c32"], want["buy-c64"] = true, true
		case "evm":
			want["evm-50"] = true
		default:
			if !slices.ContainsFunc(scenarios, func(sc scenario) bool { return sc.name == name }) {
				return nil, fmt.Errorf("unknown scenario %q", name)
			}
			want[name] = true
		}
	}
	var out []string
	for _, sc := range scenarios {
		if want[sc.name] {
			out = append(out, sc.name)
		}
	}
	return out, nil
}

// env is what the scenarios run with.
type env struct {
	opts    options
	t       *target
	f       *fixture
	floor   *floor       // the bare handler in a child process
	floorIn *floor       // the bare handler in this process
	pool    *http.Client // keep-alive connections, as many as in flight
	one     *http.Client // a single connection
	solBuys [][]byte     // one-wallet buy bodies, one per wallet
	tenBuys [][]byte     // ten-wallet buy bodies
	evmBuys [][]byte
}

func run(o options) error {
	t := &o.remote
	if t.sol == "" {
		var err error
		if t, err = startInProcess(); err != nil {
			return err
		}
		defer t.stop()
	} else if t.evm == "" || t.admin == "" || t.adminToken == "" {
		return fmt.Errorf("a running service needs -sol-url, -evm-url, -admin-url and -admin-token")
	}
	e := newEnv(o)
	e.t = t
	admin := &adminAPI{base: t.admin, token: t.adminToken, c: e.pool}
	var err error
	if e.f, err = admin.prepare(o.wallets, 16); err != nil {
		return fmt.Errorf("prepare the load account: %w", err)
	}
	e.buildBodies()
	// The floor serves the listing's own bytes.
	listing, err := fetch(e.pool, t.sol+"/api/v1/wallets", e.f.solKey)
	if err != nil {
		return fmt.Errorf("wallet listing: %w", err)
	}
	if e.floor, err = startFloorProcess(listing); err != nil {
		return err
	}
	defer e.floor.close()
	if e.floorIn, err = startFloor(listing); err != nil {
		return err
	}
	defer e.floorIn.close()
	fmt.Printf("loadgen: %s per scenario, %d Solana wallets, %d EVM wallets, %d cores, GOMAXPROCS %d, idempotency keys %v, load average %s\n",
		o.dur, len(e.f.solWallets), len(e.f.evmWallets), runtime.NumCPU(), runtime.GOMAXPROCS(0), o.idem, loadAverage())

	var probe *busProbe
	if t.natsURL != "" && t.dataDir != "" {
		if probe, err = dialBus(t.natsURL, t.dataDir); err != nil {
			return fmt.Errorf("count JetStream's work: %w", err)
		}
		defer probe.close()
	}
	fl := &floors{}
	var rows []row
	var prof *profiling
	memBase := false
	var busNames []string
	var busPer []perOrder
	var before *busCounts
	// count reads the bus counts and charges the difference since the last
	// read to the order scenario that ran in between.
	count := func(last *row) error {
		if probe == nil {
			return nil
		}
		now, err := probe.counts()
		if err != nil {
			return fmt.Errorf("count JetStream's work: %w", err)
		}
		if last != nil && before != nil {
			busNames = append(busNames, last.sc.name)
			busPer = append(busPer, now.since(before, last.r.n()-last.r.errors))
		}
		before = now
		return nil
	}
	for i, sc := range append(neededFloors(o.scenarios), pick(o.scenarios)...) {
		if i > 0 {
			time.Sleep(o.settle)
		}
		if sc.order {
			var last *row
			if len(rows) > 0 && rows[len(rows)-1].sc.order {
				last = &rows[len(rows)-1]
			}
			if err := count(last); err != nil {
				return err
			}
		}
		if sc.order && !memBase && o.memprofile != "" {
			if err := writeAllocs(o.memprofile + ".base"); err != nil {
				return err
			}
			memBase = true
		}
		if sc.order && prof == nil && o.cpuprofile != "" {
			if prof, err = startProfiling(o.cpuprofile); err != nil {
				return err
			}
		}
		fmt.Fprintf(os.Stderr, "loadgen: %s ...\n", sc.name)
		r, err := e.runInClient(sc)
		if err != nil {
			return err
		}
		fl.note(sc.name, r)
		rows = append(rows, row{sc: sc, r: r})
		if sc.order && prof != nil {
			prof.orders += r.n() - r.errors
		}
	}
	if prof != nil {
		if err := prof.stop(); err != nil {
			return err
		}
	}
	if memBase {
		if err := writeAllocs(o.memprofile); err != nil {
			return err
		}
	}
	if last := &rows[len(rows)-1]; last.sc.order {
		time.Sleep(o.settle)
		if err := count(last); err != nil {
			return err
		}
	}
	// The floor once more: on a shared machine the load of others drifts,
	// and a floor that moved a lot during the run makes its ratios
	// uncertain by as much.
	time.Sleep(o.settle)
	again, err := e.runInClient(floorSeqEnd)
	if err != nil {
		return err
	}
	rows = append(rows, row{sc: floorSeqEnd, r: again})
	printTable(os.Stdout, rows, fl)
	fmt.Printf("load average at the end %s\n", loadAverage())
	printBus(os.Stdout, busNames, busPer)
	if prof != nil {
		if err := prof.print(os.Stdout); err != nil {
			return err
		}
	}
	if t.metrics != "" {
		stages(e.pool, t.metrics+"/metrics")
	}
	return nil
}

// besideService is the bare handler that shares the machine with this
// program the way the service does, for the throughput floors: in this
// process when the service runs here, since this program's client and the
// server then share one Go scheduler, and in a process of its own when the
// service is a running `up`.
func (e *env) besideService() *floor {
	if e.opts.remote.sol != "" {
		return e.floor
	}
	return e.floorIn
}

// buildBodies encodes every order body once, so that the client's cost is
// the same for the service and the floor: sending bytes.
func (e *env) buildBodies() {
	one := func(token, chain string, wallets ...string) []byte {
		var b strings.Builder
		fmt.Fprintf(&b, `{"address":%q,"side":"Buy","amount":"0.0001","slippage":50`, token)
		if chain != "" {
			fmt.Fprintf(&b, `,"chain":%q`, chain)
		}
		b.WriteString(`,"wallets":[`)
		for i, w := range wallets {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"address":%q}`, w)
		}
		b.WriteString("]}")
		return []byte(b.String())
	}
	ws := e.f.solWallets
	for i, w := range ws {
		e.solBuys = append(e.solBuys, one(e.f.mint, "", w))
		var ten []string
		for k := range 10 {
			ten = append(ten, ws[(10*i+k)%len(ws)])
		}
		e.tenBuys = append(e.tenBuys, one(e.f.mint, "", ten...))
	}
	for _, w := range e.f.evmWallets {
		e.evmBuys = append(e.evmBuys, one(e.f.evmToken, "base", w))
	}
}

// buy returns a call that posts bodies[pick(worker, i)] to base's swap
// route with key.
func (e *env) buy(c *http.Client, base, key string, bodies [][]byte, pick func(worker, i int) int) call {
	return func(worker, i int) (int, []byte, error) {
		var h map[string]string
		if e.opts.idem {
			h = map[string]string{"Idempotency-Key": nuid.Next()}
		}
		return httpDo(c, "POST", base+"/api/v1/swap", key, bodies[pick(worker, i)%len(bodies)], h)
	}
}

// byRequest rotates over the bodies request by request; byWorker gives
// each connection of a closed loop its own wallet, so that no two orders
// of one wallet are in flight at once while wallets outnumber connections.
func byRequest(_, i int) int { return i }
func byWorker(w, _ int) int  { return w }

// seqLimit bounds a sequential scenario in requests as well as in time.
const seqLimit = 100_000

// floorScenarios run before every selection: the figures the others are
// compared with.
var floorScenarios = []scenario{
	{name: "floor-seq", what: "bare POST decoding the same JSON, another process, one connection", run: func(e *env) *result {
		return sequential(e.opts.dur, seqLimit, e.buy(e.one, e.floor.url, "", e.solBuys, byRequest))
	}},
	{name: "floor-seq-in", what: "the same, served in this program's own process (reference)", run: func(e *env) *result {
		return sequential(e.opts.dur, seqLimit, e.buy(e.one, e.floorIn.url, "", e.solBuys, byRequest))
	}},
	{name: "floor-post", what: "bare POST, 32 connections", run: func(e *env) *result {
		return closedLoop(32, e.opts.dur, e.buy(e.pool, e.besideService().url, "", e.solBuys, byWorker))
	}},
	{name: "floor-get", what: "bare GET of the listing's bytes, 32 connections", run: func(e *env) *result {
		return closedLoop(32, e.opts.dur, get(e.pool, e.besideService().url+"/api/v1/wallets", ""))
	}},
}

// floorSeqEnd is floor-seq once more after the scenarios.
var floorSeqEnd = scenario{name: "floor-seq-end", what: "floor-seq again, after the scenarios", run: func(e *env) *result {
	return sequential(min(e.opts.dur, 3*time.Second), seqLimit, e.buy(e.one, e.floor.url, "", e.solBuys, byRequest))
}}

// scenarios are the measured scenarios, in run order: the lighter first,
// so that the heavy ones' tails do not run into them.
var scenarios = []scenario{
	{name: "listing", what: "wallet listing, 32 connections", goal: rateGoal("floor-get", 0.70, false),
		run: func(e *env) *result {
			return closedLoop(32, e.opts.dur, get(e.pool, e.t.sol+"/api/v1/wallets", e.f.solKey))
		}},
	{name: "buy-seq", what: "one-wallet buy, one connection", order: true, goal: latencyGoal("p50", 4, false),
		run: func(e *env) *result {
			return sequential(e.opts.dur, seqLimit, e.buy(e.one, e.t.sol, e.f.solKey, e.solBuys, byRequest))
		}},
	{name: "buy-200", what: "one-wallet buys at 200/s", order: true,
		run: func(e *env) *result {
			return openLoop(200, e.opts.dur, e.buy(e.pool, e.t.sol, e.f.solKey, e.solBuys, byRequest))
		}},
	{name: "buy10-20", what: "ten-wallet buys at 20/s", order: true, goal: latencyGoal("p50", 10, false),
		run: func(e *env) *result {
			return openLoop(20, e.opts.dur, e.buy(e.pool, e.t.sol, e.f.solKey, e.tenBuys, byRequest))
		}},
	{name: "evm-50", what: "one-wallet V2 buys on base at 50/s", order: true, goal: latencyGoal("p50", 20, false),
		run: func(e *env) *result {
			return openLoop(50, e.opts.dur, e.buy(e.pool, e.t.evm, e.f.evmKey, e.evmBuys, byRequest))
		}},
	{name: "buy-500", what: "one-wallet buys at 500/s", order: true, goal: latencyGoal("p99", 60, true),
		run: func(e *env) *result {
			return openLoop(500, e.opts.dur, e.buy(e.pool, e.t.sol, e.f.solKey, e.solBuys, byRequest))
		}},
	{name: "buy-c32", what: "one-wallet buys, 32 connections", order: true, goal: rateGoal("floor-post", 0.15, true),
		run: func(e *env) *result {
			return closedLoop(32, e.opts.dur, e.buy(e.pool, e.t.sol, e.f.solKey, e.solBuys, byWorker))
		}},
	{name: "buy-c64", what: "one-wallet buys, 64 connections", order: true, goal: rateGoal("floor-post", 0.15, true),
		run: func(e *env) *result {
			return closedLoop(64, e.opts.dur, e.buy(e.pool, e.t.sol, e.f.solKey, e.solBuys, byWorker))
		}},
}

// neededFloors are the floors the selected scenarios are compared with:
// floor-seq always, the throughput floors when a goal names them, and the
// in-process reference when every scenario runs.
func neededFloors(names []string) []scenario {
	need := map[string]bool{"floor-seq": true, "floor-seq-in": len(names) == len(scenarios)}
	for _, sc := range pick(names) {
		need[sc.goal.floor] = true
	}
	var out []scenario
	for _, f := range floorScenarios {
		if need[f.name] {
			out = append(out, f)
		}
	}
	return out
}

func pick(names []string) []scenario {
	var out []scenario
	for _, sc := range scenarios {
		if slices.Contains(names, sc.name) {
			out = append(out, sc)
		}
	}
	return out
}

func get(c *http.Client, url, key string) call {
	return func(int, int) (int, []byte, error) { return httpDo(c, "GET", url, key, nil, nil) }
}

func fetch(c *http.Client, url, key string) ([]byte, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%d %s", resp.StatusCode, b)
	}
	return b, err
}

// scenario is one bounded measurement.
type scenario struct {
	name, what string
	// order: every request is an order; profiled with -cpuprofile.
	order bool
	goal  goal
	run   func(*env) *result
}

// goal is a scenario's target, relative to the floors of the same run.
type goal struct {
	text  string
	floor string // the floor scenario it is relative to, besides floor-seq
	check func(r *result, fl *floors) (ratio string, met bool)
}

// latencyGoal: the p50 or p99 at most factor times the floor's p50, and
// with noErrors not a single error.
func latencyGoal(metric string, factor float64, noErrors bool) goal {
	text := fmt.Sprintf("%s ≤ %gx floor p50", metric, factor)
	if noErrors {
		text += ", no error"
	}
	return goal{text: text, check: func(r *result, fl *floors) (string, bool) {
		v := r.pct(.5)
		if metric == "p99" {
			v = r.pct(.99)
		}
		x := float64(v) / float64(fl.p50)
		return fmt.Sprintf("%s %.1fx", metric, x), x <= factor && (!noErrors || r.errors == 0)
	}}
}

// rateGoal: requests/s at least share of the floor scenario's, and with
// noErrors not a single error.
func rateGoal(floorName string, share float64, noErrors bool) goal {
	text := fmt.Sprintf("≥ %.0f%% of %s", 100*share, floorName)
	if noErrors {
		text += ", no error"
	}
	return goal{text: text, floor: floorName, check: func(r *result, fl *floors) (string, bool) {
		ref := fl.rate[floorName]
		if ref == 0 {
			return "-", false
		}
		x := r.rate() / ref
		return fmt.Sprintf("%.1f%% of %s", 100*x, floorName), x >= share && (!noErrors || r.errors == 0)
	}}
}

// floors are the bare handler's figures of this run.
type floors struct {
	p50  time.Duration
	rate map[string]float64
}

func (f *floors) note(name string, r *result) {
	if f.rate == nil {
		f.rate = map[string]float64{}
	}
	switch name {
	case "floor-seq":
		f.p50 = r.pct(.5)
	case "floor-post", "floor-get":
		f.rate[name] = r.rate()
	}
}

type row struct {
	sc scenario
	r  *result
}

// printTable prints one line per scenario; a scenario without a goal shows
// its p50 as a multiple of the floor's.
func printTable(w io.Writer, rows []row, fl *floors) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\twhat\tn\tp50 ms\tp99 ms\tmax ms\treq/s\terrors\tratio\ttarget\tmet")
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)) }
	var notes []string
	for _, rw := range rows {
		r := rw.r
		ratio, target, met := "", "-", "-"
		switch {
		case rw.sc.goal.check != nil:
			var ok bool
			ratio, ok = rw.sc.goal.check(r, fl)
			target, met = rw.sc.goal.text, "no"
			if ok {
				met = "yes"
			}
		case rw.sc.name == "floor-post" || rw.sc.name == "floor-get":
			ratio = "(floor)"
		case fl.p50 > 0:
			ratio = fmt.Sprintf("p50 %.1fx", float64(r.pct(.5))/float64(fl.p50))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%.0f\t%d\t%s\t%s\t%s\n", rw.sc.name, rw.sc.what, r.n(),
			ms(r.pct(.5)), ms(r.pct(.99)), ms(r.pct(1)), r.rate(), r.errors, ratio, target, met)
		if r.errors > 0 {
			notes = append(notes, fmt.Sprintf("%s: statuses %v; first error: %s", rw.sc.name, r.statuses, r.firstErr))
		}
	}
	_ = tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(w, "  "+n)
	}
}

// loadAverage is the machine's load average over 1, 5 and 15 minutes,
// where the system tells it: what others ran beside the measurement.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// profiling is a CPU profile of the order scenarios.
type profiling struct {
	path   string
	f      *os.File
	start  time.Time
	window time.Duration
	orders int
}

func startProfiling(path string) (*profiling, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return &profiling{path: path, f: f, start: time.Now()}, nil
}

// writeAllocs writes the allocations of the whole process so far: the
// order scenarios' own are the difference between the two written.
func writeAllocs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (p *profiling) stop() error {
	pprof.StopCPUProfile()
	p.window = time.Since(p.start)
	return p.f.Close()
}

func (p *profiling) print(w io.Writer) error {
	f, err := os.Open(p.path)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := splitProfile(f)
	if err != nil {
		return err
	}
	printSplit(w, s, p.orders, p.window)
	fmt.Fprintf(w, "profile written to %s (go tool pprof -tags %s)\n", p.path, p.path)
	return nil
}

// stages prints the mean of each pipeline stage from the service's metrics,
// over the whole run.
func stages(c *http.Client, url string) {
	body, err := fetch(c, url, "")
	if err != nil {
		return
	}
	sums, counts := map[string]float64{}, map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		var name string
		var v float64
		if _, err := fmt.Sscanf(line, "%s %g", &name, &v); err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(name, "tradeapi_stage_duration_seconds_sum"):
			sums[strings.TrimPrefix(name, "tradeapi_stage_duration_seconds_sum")] = v
		case strings.HasPrefix(name, "tradeapi_stage_duration_seconds_count"):
			counts[strings.TrimPrefix(name, "tradeapi_stage_duration_seconds_count")] = v
		}
	}
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println("\nstage means over the whole run (service metrics):")
	for _, k := range keys {
		if counts[k] > 0 {
			fmt.Printf("  %s: %s over %.0f\n", k, time.Duration(sums[k]/counts[k]*float64(time.Second)).Round(time.Microsecond), counts[k])
		}
	}
}
