package exits

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

func TestOwnerMovesOnlyTheShareOfAnEngine(t *testing.T) {
	t.Parallel()
	keys := make([]tokenKey, 3000)
	for i := range keys {
		keys[i] = tokenKey{wire.ChainSolana, fmt.Sprintf("Mint%d", i), ""}
	}
	three := []string{"engine-a", "engine-b", "engine-c"}
	before := map[tokenKey]string{}
	share := map[string]int{}
	for _, k := range keys {
		before[k] = owner(k, three)
		share[before[k]]++
	}
	for _, id := range three {
		if n := share[id]; n < len(keys)/4 || n > len(keys)*5/12 {
			t.Errorf("%s owns %d of %d tokens, want about a third", id, n, len(keys))
		}
	}

	four := append(slices.Clone(three), "engine-d")
	moved := 0
	for _, k := range keys {
		if now := owner(k, four); now != before[k] {
			moved++
			if now != "engine-d" {
				t.Fatalf("%v moved from %s to %s when engine-d joined", k, before[k], now)
			}
		}
	}
	if moved < len(keys)/6 || moved > len(keys)/3 {
		t.Errorf("engine-d took %d of %d tokens, want about a quarter", moved, len(keys))
	}

	two := []string{"engine-a", "engine-c"}
	for _, k := range keys {
		if now := owner(k, two); before[k] != "engine-b" && now != before[k] {
			t.Fatalf("%v moved from %s to %s when engine-b left", k, before[k], now)
		}
	}
	if got := owner(keys[0], nil); got != "" {
		t.Fatalf("owner among no engines: %q", got)
	}
	if owner(keys[0], []string{"x"}) != "x" || weight("a", tokenKey{"b", "c", ""}) == weight("ab", tokenKey{"", "c", ""}) {
		t.Fatal("weight does not keep its parts apart")
	}
}

// board is the market of the split tests: a price per token (the entry
// price, 0.002, unless set) and who read which token how often.
type board struct {
	mu     sync.Mutex
	prices map[string]*big.Rat
	reads  map[string]map[string]int // engine -> token -> reads
}

func newBoard() *board {
	return &board{prices: map[string]*big.Rat{}, reads: map[string]map[string]int{}}
}

func (bd *board) read(engine, token string) *big.Rat {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	if bd.reads[engine] == nil {
		bd.reads[engine] = map[string]int{}
	}
	bd.reads[engine][token]++
	if p := bd.prices[token]; p != nil {
		return new(big.Rat).Set(p)
	}
	return parseRat("0.002")
}

func (bd *board) set(token, price string) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	bd.prices[token] = parseRat(price)
}

// snapshot copies the read counts.
func (bd *board) snapshot() map[string]map[string]int {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	out := map[string]map[string]int{}
	for e, m := range bd.reads {
		out[e] = map[string]int{}
		for k, n := range m {
			out[e][k] = n
		}
	}
	return out
}

// boardChain reads prices from a board on behalf of one engine.
type boardChain struct {
	tokensChain
	bd     *board
	engine string
}

func (c boardChain) Market(p *wire.Position) (Market, error) {
	return boardMarket{c.bd, c.engine, p.Token}, nil
}

type boardMarket struct {
	bd            *board
	engine, token string
}

func (m boardMarket) Observe(context.Context) (Observation, error) {
	return Observation{Price: m.bd.read(m.engine, m.token), At: time.Now()}, nil
}

// runningEngine is an engine on a connection of its own, as another
// process would run it.
type runningEngine struct {
	e    *Engine
	nc   *nats.Conn
	stop func()
}

// kill closes the engine's connection before stopping it, so that no
// goodbye reaches the others: they notice only when its beats expire.
func (r *runningEngine) kill() {
	r.nc.Close()
	r.stop()
}

func startSplitEngine(t *testing.T, b *bustest.Bus, id string, bd *board, tune func(*Config)) *runningEngine {
	t.Helper()
	nc, err := b.Server.Connect(id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	buckets, err := bus.OpenBuckets(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{ID: id, PollInterval: 20 * time.Millisecond, Beat: 50 * time.Millisecond, PeerExpiry: 400 * time.Millisecond,
		SellSlippageBps: 2000}
	if tune != nil {
		tune(&cfg)
	}
	e, err := New(cfg, js, buckets, map[string]Chain{wire.ChainSolana: boardChain{bd: bd, engine: id}}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stopRun := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(runCtx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			stopRun()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("engine %s: %v", id, err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("engine %s did not stop", id)
			}
		})
	}
	t.Cleanup(stop)
	return &runningEngine{e: e, nc: nc, stop: stop}
}

// openTokens opens one position on each of n tokens with the given exit.
func openTokens(t *testing.T, e *Engine, prefix string, n int, x wire.AutoOrder) (tokens []string, positions []*wire.Position) {
	t.Helper()
	for i := range n {
		tok := fmt.Sprintf("%sMint%d", prefix, i)
		tokens = append(tokens, tok)
		positions = append(positions, openTestPositionOn(t, e, fmt.Sprintf("eu-%s%d", prefix, i), tok, x))
	}
	return tokens, positions
}

// settledReaders waits for a stretch in which every token was read at
// least three times and each by one engine only, and returns that reader
// of each token; it fails the test if none comes within the deadline.
func settledReaders(t *testing.T, bd *board, tokens []string, within time.Duration) map[string]string {
	t.Helper()
	// Each stretch starts from a snapshot of the reads and ends once every
	// token was read three times since; a stretch with a token read by
	// two engines starts the next one.
	from := bd.snapshot()
	var single map[string]string
	if !poll.True(within, func() bool {
		if !allReadSince(bd, from, tokens, 3) {
			return false
		}
		readers := readersSince(bd, from, tokens)
		from = bd.snapshot()
		single = map[string]string{}
		for _, tok := range tokens {
			if len(readers[tok]) == 1 {
				single[tok] = readers[tok][0]
			}
		}
		return len(single) == len(tokens)
	}) {
		t.Fatalf("the engines did not settle on one reader per token: %v", readersSince(bd, from, tokens))
	}
	return single
}

// readersSince lists, for each token, the engines that read it since from.
func readersSince(bd *board, from map[string]map[string]int, tokens []string) map[string][]string {
	now := bd.snapshot()
	out := map[string][]string{}
	for engine, m := range now {
		for _, tok := range tokens {
			if m[tok] > from[engine][tok] {
				out[tok] = append(out[tok], engine)
			}
		}
	}
	for tok := range out {
		slices.Sort(out[tok])
	}
	return out
}

// allReadSince reports whether every token was read at least n times, by
// any engines, since from.
func allReadSince(bd *board, from map[string]map[string]int, tokens []string, n int) bool {
	now := bd.snapshot()
	for _, tok := range tokens {
		got := 0
		for engine, m := range now {
			got += m[tok] - from[engine][tok]
		}
		if got < n {
			return false
		}
	}
	return true
}

// checkOwners fails unless each token's reader is its owner among ids.
func checkOwners(t *testing.T, readers map[string]string, ids []string) map[string][]string {
	t.Helper()
	byEngine := map[string][]string{}
	for tok, r := range readers {
		if want := owner(tokenKey{wire.ChainSolana, tok, ""}, ids); r != want {
			t.Fatalf("%s read by %s, owner among %v is %s", tok, r, ids, want)
		}
		byEngine[r] = append(byEngine[r], tok)
	}
	return byEngine
}

// waitTaken waits until every token was read by an engine other than gone
// since from, and returns how long that took from start.
func waitTaken(t *testing.T, bd *board, from map[string]map[string]int, tokens []string, gone string, start time.Time, within time.Duration) time.Duration {
	t.Helper()
	if !poll.True(time.Until(start.Add(within)), func() bool {
		readers := readersSince(bd, from, tokens)
		for _, tok := range tokens {
			if !slices.ContainsFunc(readers[tok], func(e string) bool { return e != gone }) {
				return false
			}
		}
		return true
	}) {
		t.Fatalf("the tokens of %s were not taken over within %v", gone, within)
	}
	return time.Since(start)
}

// TestEnginesSplitTheTokens runs two engines over ten tokens: once they
// have heard each other every token is read, each by its owner only; the
// engine that stops says goodbye, and the other reads its tokens well
// before the expiry would have handed them over.
func TestEnginesSplitTheTokens(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	bd := newBoard()
	long := func(c *Config) { c.PeerExpiry = 5 * time.Second }
	a := startSplitEngine(t, b, "engine-a", bd, long)
	other := startSplitEngine(t, b, "engine-b", bd, long)
	tokens, _ := openTokens(t, a.e, "Split", 10, wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(1000), SellPct: 100})

	byEngine := checkOwners(t, settledReaders(t, bd, tokens, 10*time.Second), []string{"engine-a", "engine-b"})
	if len(byEngine["engine-a"]) == 0 || len(byEngine["engine-b"]) == 0 {
		t.Fatalf("one engine reads every token: %v", byEngine)
	}
	t.Logf("split: engine-a %d tokens, engine-b %d", len(byEngine["engine-a"]), len(byEngine["engine-b"]))

	from, stopped := bd.snapshot(), time.Now()
	other.stop()
	took := waitTaken(t, bd, from, byEngine["engine-b"], "engine-b", stopped, 10*time.Second)
	if took >= 2500*time.Millisecond {
		t.Fatalf("the stopped engine's tokens were taken over after %v: the goodbye was not heard", took)
	}
	t.Logf("tokens taken over %v after the goodbye (expiry 5s)", took)
	checkOwners(t, settledReaders(t, bd, tokens, 5*time.Second), []string{"engine-a"})
	if m := a.e.peers.view(); m.live != 1 {
		t.Fatalf("engine-a sees %d live engines after the other stopped, want 1", m.live)
	}
}

// TestDeadEngineTokensAreTakenOver kills one of three engines without a
// goodbye: the other two read its tokens once its beats expire, and a
// take-profit on one of them fires, once.
func TestDeadEngineTokensAreTakenOver(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	bd := newBoard()
	const expiry = 400 * time.Millisecond
	a := startSplitEngine(t, b, "engine-a", bd, nil)
	dead := startSplitEngine(t, b, "engine-b", bd, nil)
	startSplitEngine(t, b, "engine-c", bd, nil)
	tokens, positions := openTokens(t, a.e, "Dead", 12, wire.AutoOrder{Type: wire.ExitTakeProfit, TriggerPct: pct(10), SellPct: 100})

	byEngine := checkOwners(t, settledReaders(t, bd, tokens, 10*time.Second), []string{"engine-a", "engine-b", "engine-c"})
	orphans := byEngine["engine-b"]
	if len(orphans) == 0 {
		t.Fatalf("engine-b owns no token: %v", byEngine)
	}

	from, died := bd.snapshot(), time.Now()
	dead.kill()
	took := waitTaken(t, bd, from, orphans, "engine-b", died, 10*time.Second)
	if took > expiry+time.Second {
		t.Fatalf("the dead engine's tokens were taken over after %v, expiry %v", took, expiry)
	}
	if took < expiry/2 {
		t.Fatalf("the dead engine's tokens were taken over after %v, before its beats could expire: it said goodbye", took)
	}
	t.Logf("tokens of the dead engine taken over %v after its death (expiry %v)", took, expiry)
	checkOwners(t, settledReaders(t, bd, tokens, 5*time.Second), []string{"engine-a", "engine-c"})

	// The price of one of its tokens rises past the take-profit line.
	i := slices.Index(tokens, orphans[0])
	p := positions[i]
	bd.set(orphans[0], "0.003")
	var got *wire.Position
	if !poll.True(10*time.Second, func() bool {
		var err error
		if got, _, err = a.e.load(context.Background(), p.ID); err != nil {
			t.Fatal(err)
		}
		return got.Exits[0].State == wire.ExitFired
	}) {
		t.Fatalf("exit of the dead engine's token: %+v", got.Exits[0])
	}
	x := got.Exits[0]
	if x.State != wire.ExitFired || x.Attempts != 1 || x.SellOrderID != sellID(p.ID, 0, 0) || x.FiredPrice != "0.003" {
		t.Fatalf("exit of the dead engine's token: %+v", x)
	}
	if n := jobsFor(t, b.JS, x.SellOrderID); n != 1 {
		t.Fatalf("%d sell jobs stored, want 1", n)
	}
	for j, q := range positions {
		if j == i {
			continue
		}
		if got, _, _ := a.e.load(context.Background(), q.ID); got.Exits[0].State != wire.ExitArmed {
			t.Fatalf("position %s on an unmoved token fired: %+v", q.ID, got.Exits[0])
		}
	}
}

// TestTimeExitFiresWhenItsReaderLetsItWait runs an engine beside a peer
// that announces itself but never reads: the time exit of a token that
// peer owns is fired by the engine once it has waited past the handover
// time, without the engine ever reading the token.
func TestTimeExitFiresWhenItsReaderLetsItWait(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	bd := newBoard()
	ghost := newPeers(b.Conn, "ghost", []string{wire.ChainSolana}, 50*time.Millisecond, time.Minute, slog.New(slog.DiscardHandler))
	goodbye, err := ghost.announce()
	if err != nil {
		t.Fatal(err)
	}
	defer goodbye()
	// The ghost beats every 50 ms: an expiry of 1.5 s keeps a loaded
	// machine's pauses from taking its token from it.
	a := startSplitEngine(t, b, "engine-a", bd, func(c *Config) { c.PeerExpiry = 1500 * time.Millisecond })
	tok := ""
	for i := 0; tok == ""; i++ {
		if c := fmt.Sprintf("GhostMint%d", i); owner(tokenKey{wire.ChainSolana, c, ""}, []string{"engine-a", "ghost"}) == "ghost" {
			tok = c
		}
	}
	poll.Until(t, 5*time.Second, "engine-a hears the other peer", func() bool { return a.e.peers.view().live == 2 })
	from := bd.snapshot()
	p := openTestPositionOn(t, a.e, "eu-Ghost", tok, wire.AutoOrder{Type: wire.ExitTime, AfterSeconds: secs(1), SellPct: 100})
	dueAt := p.BoughtAt.Add(time.Second)

	var got *wire.Position
	if !poll.True(15*time.Second, func() bool {
		if got, _, err = a.e.load(context.Background(), p.ID); err != nil {
			t.Fatal(err)
		}
		return got.Exits[0].State == wire.ExitFired
	}) {
		t.Fatalf("time exit of the silent peer's token: %+v", got.Exits[0])
	}
	x := got.Exits[0]
	if x.State != wire.ExitFired || x.Attempts != 1 || x.FiredAt == nil || x.FiredPrice != "" {
		t.Fatalf("time exit of the silent peer's token: %+v", x)
	}
	if late := x.FiredAt.Sub(dueAt); late < a.e.handover() {
		t.Fatalf("fired %v after it was due, before the handover time %v", late, a.e.handover())
	}
	if n := jobsFor(t, b.JS, x.SellOrderID); n != 1 {
		t.Fatalf("%d sell jobs stored, want 1", n)
	}
	if r := readersSince(bd, from, []string{tok}); len(r[tok]) != 0 {
		t.Fatalf("token owned by the other peer read by %v", r[tok])
	}
}
