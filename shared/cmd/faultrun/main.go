// Command faultrun is a bounded fault-injection run of the multi-process
// deployment on 127.0.0.1: it proves that no accepted order is lost or
// executed twice when any part of the service dies.
//
//	go run ./shared/cmd/faultrun [-duration 60s] [-rate 20] [-signal kill|term] [-chains solana,eth,base]
//
// It builds tradeapi from the module into a scratch folder and starts,
// each as its own process on free 127.0.0.1 ports: a three-node NATS
// cluster (`tradeapi nats` on configs/cluster, NATS credentials required), `tradeapi devnet`,
// `tradeapi registry`, two `tradeapi worker --chain solana`, two `tradeapi
// worker --chain eth,base`, `tradeapi broadcaster`, `tradeapi exits` and
// two `tradeapi ingress` (EU with EVM, and US), every role with
// configs/cluster/tradeapi.yaml (streams and buckets at three replicas).
// Through the admin API it makes an account with funded Solana and EVM
// wallets and an API key per family, then sends a steady stream of buys
// and sells of the demo pump.fun coin to both Solana hosts and of the demo
// V2 token on each EVM chain to the EVM host, each logical order with its
// own Idempotency-Key and retried with that key on a 5xx or a failed
// connection. Beside it, at a low rate and retried the same way, it
// launches pump.fun tokens (POST /api/v1/deploy, packed and non_packed,
// the account's wallets as creator and buyers) and buys from a wallet of
// their own with a time exit and a take-profit. Meanwhile it kills and
// restarts, in turn, a worker of each group, the broadcaster, the exits
// engine, an ingress, the registry and the NATS node leading the ORDERS
// stream. The account's webhook, a receiver of its own, answers 503 in the
// load's first third and hangs until its half, then takes every delivery:
// the events of the first half wait for retries through the kills.
//
// Once the pipeline has settled (every named order final, every time exit
// fired and its sell final) it reconciles the answers with the local
// chains (Solana: getSignaturesForAddress, getTransaction,
// getSignatureStatuses, getTransactionCount; EVM: every block and the
// receipts), the order store (GET /api/v1/orders/{id} for every order an
// answer named, and the orders bucket for the orders none named) and the
// positions bucket, prints the figures, stops every process with SIGTERM
// and reports how long each took. It exits 1 when an order traded more
// than once, when an order answered 200 was lost or named a transaction
// that never landed, when an order an answer named has no final state in
// the store, when a mint was created twice or by no launch order, when a
// launch answered 200 with a mint or transaction the chain does not show,
// when an exit sold twice or fired without its sell order, when an event
// of the account never reached its webhook or reached it badly signed,
// when a process exited on its own, when a role took more than 10 s to stop, or when
// something listened beyond 127.0.0.1.
//
// Every process it starts is killed by its process group when it ends, on
// failure and on Ctrl-C too. The scratch folder, with every process's log,
// is removed after a clean run and kept otherwise (or with -keep).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// knownChains are the chains a run can trade on, by name; -chains picks
// among them. The EVM chains trade the demo token's V2 pool and share two
// worker processes.
var knownChains = map[string]chainSpec{
	wire.ChainSolana: {Name: wire.ChainSolana, Family: string(wire.FamilySol), Venue: "pump_fun",
		Funding: "100", BuyBase: "0.001", Workers: "solana"},
}

func init() {
	for _, name := range wire.EVMChains {
		knownChains[name] = chainSpec{Name: name, Family: string(wire.FamilyEVM), Venue: "v2",
			Funding: "100", BuyBase: "0.0001", Workers: "evm", EVM: true}
	}
}

// newLedger returns the reader of a chain's local node.
func newLedger(c chainSpec, rpcURL string, hc *http.Client) ledger {
	if c.Family == string(wire.FamilySol) {
		return &solanaLedger{url: rpcURL, c: hc}
	}
	return &evmLedger{url: rpcURL, c: hc}
}

// options are the command line.
type options struct {
	duration time.Duration
	rate     int
	wallets  int
	signal   syscall.Signal
	down     time.Duration
	settle   time.Duration
	chains   []string
	keep     bool
}

// stopLimit is how long a role may take to exit after SIGTERM.
const stopLimit = 10 * time.Second

func main() {
	var o options
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "how long new orders are sent (at most 10m)")
	flag.IntVar(&o.rate, "rate", 20, "logical orders started per second (at most 500)")
	flag.IntVar(&o.wallets, "wallets", 6, "wallets per family (at most 100)")
	sig := flag.String("signal", "kill", "how faults stop a process: kill (SIGKILL) or term (SIGTERM)")
	flag.DurationVar(&o.down, "down", 2*time.Second, "how long a killed process stays down")
	flag.DurationVar(&o.settle, "settle", 120*time.Second, "how long to wait for answered orders to reach a final state")
	chains := flag.String("chains", "solana,eth,base", "comma-separated chains to trade on: solana, eth, bsc, base, rbh, arc")
	flag.BoolVar(&o.keep, "keep", false, "keep the scratch folder and logs after a clean run")
	flag.Parse()
	switch *sig {
	case "kill":
		o.signal = syscall.SIGKILL
	case "term":
		o.signal = syscall.SIGTERM
	default:
		fmt.Fprintln(os.Stderr, "faultrun: -signal is kill or term")
		os.Exit(2)
	}
	if o.duration <= 0 || o.duration > 10*time.Minute || o.rate < 1 || o.rate > 500 || o.wallets < 2 || o.wallets > 100 {
		fmt.Fprintln(os.Stderr, "faultrun: -duration 1s..10m, -rate 1..500, -wallets 2..100")
		os.Exit(2)
	}
	o.chains = strings.Split(*chains, ",")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, o, os.Stdout)
	stop()
	os.Exit(code)
}

// run does the whole run and returns the exit code.
func run(ctx context.Context, o options, out io.Writer) (code int) {
	say := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }
	var specs []chainSpec
	for _, name := range o.chains {
		c, ok := knownChains[strings.TrimSpace(name)]
		if !ok {
			say("faultrun: unknown chain %q", name)
			return 2
		}
		specs = append(specs, c)
	}
	root, err := moduleRoot(ctx)
	if err != nil {
		say("faultrun: %v", err)
		return 2
	}
	dir, err := os.MkdirTemp("", "tradeapi-faultrun-")
	if err != nil {
		say("faultrun: %v", err)
		return 2
	}
	d := &deployment{sup: newSupervisor(), root: root, dir: dir, chains: specs}
	defer func() {
		d.sup.killAll()
		if code == 0 && !o.keep {
			_ = os.RemoveAll(dir)
			return
		}
		say("scratch folder and logs kept in %s", dir)
	}()
	fail := func(err error) int {
		if ctx.Err() != nil {
			say("faultrun: %v", errInterrupted)
			return 130
		}
		say("faultrun: %v", err)
		return 1
	}

	say("faultrun: building tradeapi")
	if err := d.build(ctx); err != nil {
		return fail(err)
	}
	if err := d.plan(); err != nil {
		return fail(err)
	}
	say("faultrun: starting the NATS cluster and %d role processes", len(d.roles))
	if err := d.up(ctx); err != nil {
		return fail(err)
	}
	nv, err := dialNATS(d.natsURL, filepath.Join(d.dir, "data"))
	if err != nil {
		return fail(err)
	}
	defer nv.close()
	if err := checkReplicas(ctx, nv, say); err != nil {
		return fail(err)
	}

	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConnsPerHost: 256, IdleConnTimeout: 30 * time.Second}}
	adm := &admin{base: "http://" + d.addr.admin, token: d.adminToken, c: hc}
	// One wallet per family more than -wallets: the exit wallet, which
	// only the buys with auto-orders use.
	acct, err := adm.prepareAccount(ctx, specs, o.wallets+1)
	if err != nil {
		return fail(fmt.Errorf("prepare account: %w", err))
	}
	var runs []*chainRun
	for _, c := range specs {
		ws := acct.Wallets[c.Family]
		r := &chainRun{chainSpec: c, key: acct.Keys[c.Family], wallets: ws[:len(ws)-1], exitWallet: ws[len(ws)-1]}
		if r.token, err = d.demoToken(ctx, c.Name, c.Venue); err != nil {
			return fail(err)
		}
		rpcURL, err := adm.rpcURL(ctx, c.Name)
		if err != nil {
			return fail(err)
		}
		r.ledger = newLedger(c, rpcURL, hc)
		if c.Family == string(wire.FamilySol) {
			r.hosts = []string{"http://" + d.addr.solEU, "http://" + d.addr.solUS}
		} else {
			r.hosts = []string{"http://" + d.addr.evm}
		}
		runs = append(runs, r)
		say("faultrun: %s: %d wallets and an exit wallet, token %s", c.Name, len(r.wallets), r.token)
	}
	listenOK := checkListeners(d, say)

	// Load and faults together.
	sigName := map[syscall.Signal]string{syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM"}[o.signal]
	side := sideConfig{launchEvery: 2500 * time.Millisecond, autoEvery: 4 * time.Second}
	say("faultrun: %s of swaps at %d/s, a launch every %s, a buy with auto-order exits every %s; %s and restart in turn: a worker of each group, the broadcaster, the exits engine, an ingress, the registry, a NATS node",
		o.duration, o.rate, side.launchEvery, side.autoEvery, sigName)
	lc := loadConfig{rate: o.rate, duration: o.duration, maxInflight: 50 * o.rate, maxAttempts: 8,
		orderBudget: 60 * time.Second, runID: "fr" + randomHex(4)}
	// The account's webhook fails through the first half of the load (503,
	// then hanging), so that its events wait for retries across the kills.
	hook, err := startReceiver(time.Now(), o.duration)
	if err != nil {
		return fail(fmt.Errorf("webhook receiver: %w", err))
	}
	defer hook.close()
	var set struct{ Secret string }
	if err := adm.call(ctx, http.MethodPut, "/admin/v1/accounts/"+acct.ID+"/webhook", map[string]any{"url": hook.url}, &set); err != nil {
		return fail(fmt.Errorf("set the webhook: %w", err))
	}
	hook.secret = set.Secret
	res := &loadResult{start: time.Now()}
	var faults []faultEvent
	var fwg sync.WaitGroup
	fwg.Add(1)
	go func() {
		defer fwg.Done()
		faults = runFaults(ctx, d, nv, o, res.start, say)
	}()
	var sides sideResult
	fwg.Add(1)
	go func() {
		defer fwg.Done()
		sides = runSideLoad(ctx, lc, side, runs, hc, res.start)
	}()
	runLoad(ctx, lc, runs, hc, res)
	fwg.Wait()
	res.orders = append(res.orders, sides.autos...)
	if ctx.Err() != nil {
		return fail(ctx.Err())
	}
	say("faultrun: load done after %s; settling", time.Since(res.start).Round(time.Second))

	ev, err := gather(ctx, o, nv, acct, runs, res.orders, sides.launches, hc, say)
	if err != nil {
		return fail(err)
	}
	f := reconcile(ev)
	if err := writeOrders(filepath.Join(dir, "orders.jsonl"), append(res.orders, sides.launches...)); err != nil {
		say("faultrun: %v", err)
	}
	if err := writeFigures(filepath.Join(dir, "figures.json"), f); err != nil {
		say("faultrun: %v", err)
	}
	var onChain uint64
	var perChain []string
	for _, r := range runs {
		n, err := r.ledger.Count(ctx)
		if err != nil {
			return fail(err)
		}
		onChain += n
		var logical, ok200, swaps int
		for _, lo := range res.orders {
			if lo.chain == r {
				logical++
				if lo.final().Status == http.StatusOK {
					ok200++
				}
			}
		}
		for _, tx := range ev.sent {
			if tx.Chain == r.Name {
				swaps++
			}
		}
		perChain = append(perChain, fmt.Sprintf("    %-8s %5d logical orders, %5d ended 200, %5d of the account's transactions landed, %5d transactions on chain",
			r.Name, logical, ok200, swaps, n))
	}
	listenOK = checkListeners(d, say) && listenOK
	say("faultrun: waiting for the webhook deliveries")
	hf, err := settleWebhooks(ctx, nv, acct.ID, hook, webhookSettle)
	if err != nil {
		return fail(err)
	}

	stops := stopAll(d)
	exits := d.sup.unexpected()
	ok := printFigures(out, f, onChain, perChain, res.notSent, faults, byFault(append(res.orders, sides.launches...), faults), o.signal, stops, exits, listenOK)

	secrets := map[string]string{"admin token": d.adminToken, "master key": d.masterKey}
	for fam, k := range acct.Keys {
		secrets[fam+" API key"] = k
	}
	if c, err := bus.LoadCredentials(filepath.Join(d.dir, "data"), bus.Credentials{}); err == nil {
		secrets["nats password"] = c.Password
	} else {
		say("faultrun: nats credentials: %v", err)
		ok = false
	}
	ok = printWebhooks(out, hf) && ok
	leaks, lines, err := leakedSecrets(filepath.Join(dir, "logs"), secrets)
	switch {
	case err != nil:
		fmt.Fprintf(out, "secrets in log lines: could not read the logs: %v\n", err)
		ok = false
	case len(leaks) > 0:
		fmt.Fprintf(out, "secrets in log lines                 %d   must be 0: %s\n", len(leaks), strings.Join(leaks, "; "))
		ok = false
	default:
		fmt.Fprintf(out, "secrets in %d log lines               0   (API keys, admin token, master key, NATS password)\n", lines)
	}
	if !ok {
		return 1
	}
	return 0
}

// checkReplicas prints the replicas of every stream and bucket and fails
// when one is not at three.
func checkReplicas(ctx context.Context, nv *natsView, say func(string, ...any)) error {
	reps, err := nv.replicas(ctx)
	if err != nil {
		return fmt.Errorf("stream info: %w", err)
	}
	var names, bad []string
	for name, r := range reps {
		names = append(names, name)
		if r[0] != 3 {
			bad = append(bad, fmt.Sprintf("%s at %d", name, r[0]))
		}
	}
	sort.Strings(names)
	if len(bad) > 0 || len(names) == 0 {
		return fmt.Errorf("streams not at 3 replicas: %v", bad)
	}
	say("faultrun: %d streams and buckets at 3 replicas: %s", len(names), strings.Join(names, " "))
	return nil
}

// checkListeners prints any process listening beyond 127.0.0.1 and
// reports whether there was none.
func checkListeners(d *deployment, say func(string, ...any)) bool {
	ls, err := listeners(d.pids())
	if err != nil {
		say("faultrun: listeners not checked: %v", err)
		return true
	}
	ok, n := true, 0
	for name, addrs := range ls {
		for _, a := range addrs {
			n++
			if !strings.HasPrefix(a, "127.0.0.1:") {
				say("faultrun: %s listens on %s, beyond 127.0.0.1", name, a)
				ok = false
			}
		}
	}
	if ok {
		say("faultrun: %d listening sockets, all on 127.0.0.1", n)
	}
	return ok
}

// orderRef is an order to look up, and the chain whose key may read it.
type orderRef struct {
	id  string
	run *chainRun
}

// gather reads the idempotency records, waits for every order they or the
// answers name to settle (the launches, and the exit sells the buys with
// auto-orders fire, included), then reads the chains, the order store and
// the positions, in that order: an order is stored before its transactions
// are signed and an exit is claimed before its sell is stored, so each
// read holds what the one before it refers to.
func gather(ctx context.Context, o options, nv *natsView, acct *account, runs []*chainRun, orders, launches []*logical,
	hc *http.Client, say func(string, ...any)) (evidence, error) {
	ev := evidence{orders: orders, launches: launches, views: map[string]order{}, sent: map[string]onChain{},
		landed: map[string]onChain{}, idem: map[string]idemRecord{}}
	// The idempotency records name the order of a key even when no answer
	// did (a request cut off by a killed ingress).
	for _, r := range runs {
		if err := readIdempotency(ctx, nv, acct.ID, r, pathSwap, orders, ev.idem); err != nil {
			return ev, err
		}
		if err := readIdempotency(ctx, nv, acct.ID, r, pathDeploy, launches, ev.idem); err != nil {
			return ev, err
		}
	}
	var refs, autoRefs []orderRef
	var autos []*logical
	seen := map[string]bool{}
	for _, lo := range append(append([]*logical(nil), orders...), launches...) {
		ids := lo.orderIDs()
		if r, ok := ev.idem[lo.key]; ok && r.OrderID != "" {
			ids = append(ids, r.OrderID)
		}
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				refs = append(refs, orderRef{id, lo.chain})
				if lo.auto {
					autoRefs = append(autoRefs, orderRef{id, lo.chain})
				}
			}
		}
		if lo.auto {
			autos = append(autos, lo)
		}
	}
	// Poll every named order until all are final, the buys with
	// auto-orders again each round for their positions, adding the exit
	// sells they name, until nothing is due or the settle time is up.
	deadline := time.Now().Add(o.settle)
	for {
		var todo []orderRef
		for _, r := range refs {
			if v, ok := ev.views[r.id]; !ok || !isFinal(v.State) {
				todo = append(todo, r)
			}
		}
		pending := fetchViews(ctx, hc, todo, ev.views)
		fetchViews(ctx, hc, autoRefs, ev.views)
		sells, due := exitSells(autos, ev.views, ev.idem)
		added := 0
		for _, s := range sells {
			if !seen[s.id] {
				seen[s.id] = true
				refs = append(refs, s)
				added++
			}
		}
		if pending+due+added == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			say("faultrun: %d orders named (%d exit sells), %d not final, %d exits or positions still due", len(refs), len(sells), pending, due)
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(2 * time.Second):
		}
	}
	if ctx.Err() != nil {
		return ev, ctx.Err()
	}

	for _, r := range runs {
		if err := readChain(ctx, r, orders, launches, &ev); err != nil {
			return ev, fmt.Errorf("%s: %w", r.Name, err)
		}
	}
	var err error
	if ev.store, err = nv.orders(ctx, acct.ID); err != nil {
		return ev, fmt.Errorf("read the orders bucket: %w", err)
	}
	if ev.positions, err = nv.positions(ctx, acct.ID); err != nil {
		return ev, fmt.Errorf("read the positions bucket: %w", err)
	}
	return ev, nil
}

// readIdempotency reads the idempotency records of the orders of r sent
// to path into recs.
func readIdempotency(ctx context.Context, nv *natsView, accountID string, r *chainRun, path string, orders []*logical, recs map[string]idemRecord) error {
	var keys []string
	for _, lo := range orders {
		if lo.chain == r {
			keys = append(keys, lo.key)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	got, err := nv.idempotency(ctx, accountID, r.Family, path, keys)
	if err != nil {
		return fmt.Errorf("read the idempotency bucket: %w", err)
	}
	for k, v := range got {
		recs[k] = v
	}
	return nil
}

// fetchViews looks up every ref, 16 at a time, into views, and returns how
// many are not found or not final.
func fetchViews(ctx context.Context, hc *http.Client, refs []orderRef, views map[string]order) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	pending := 0
	for _, r := range refs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			v, found, err := getOrder(ctx, hc, r.run.hosts[len(r.run.hosts)-1], r.run.key, r.id)
			mu.Lock()
			defer mu.Unlock()
			if err == nil && found {
				views[r.id] = v
			}
			if err != nil || !found || !isFinal(v.State) {
				pending++
			}
		}()
	}
	wg.Wait()
	return pending
}

// readChain reads from r's chain the transactions of the account's
// wallets, whether each signature an answer named landed, and on Solana
// the creates of every mint the launches named.
func readChain(ctx context.Context, r *chainRun, orders, launches []*logical, ev *evidence) error {
	sent, err := r.ledger.Sent(ctx, r.allWallets())
	if err != nil {
		return err
	}
	for k, v := range sent {
		v.Chain = r.Name
		ev.sent[k] = v
	}
	var sigs []string
	for _, lo := range append(append([]*logical(nil), orders...), launches...) {
		if lo.chain != r {
			continue
		}
		for _, a := range lo.attempts {
			sigs = append(sigs, a.Sigs...)
		}
	}
	landed, err := r.ledger.Landed(ctx, sigs)
	if err != nil {
		return err
	}
	for k, v := range landed {
		ev.landed[k] = v
	}
	if sl, ok := r.ledger.(*solanaLedger); ok && len(launches) > 0 {
		creates, err := sl.Creates(ctx, launchMints(launches, ev.views))
		if err != nil {
			return err
		}
		ev.creates = creates
	}
	return nil
}
