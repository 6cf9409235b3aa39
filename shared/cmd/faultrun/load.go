package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// chainSpec is one chain the run trades on: the worker processes that
// serve it and how its swaps are written.
type chainSpec struct {
	// Name is the chain as the API spells it.
	Name string
	// Family is the family of its wallets and API key: sol or evm.
	Family string
	// Venue is the venue of the demo token the run trades.
	Venue string
	// Funding is the native coin given to each wallet, in whole units.
	Funding string
	// BuyBase is the smallest buy, a decimal whose last digits the run
	// replaces by the order number so that no two orders sign the same
	// transaction bytes.
	BuyBase string
	// Workers names the group of worker processes that serve it: the run
	// starts two `tradeapi worker --chain ...` per group, each serving
	// every chain of the group.
	Workers string
	// EVM marks a chain whose swaps name it in the body's chain field.
	EVM bool
}

// chainRun is a chain during the run: its spec and what the run learned.
type chainRun struct {
	chainSpec
	hosts   []string // base URLs of the listeners that take its swaps
	key     string
	wallets []string // the wallets the swap load and the launches use
	// exitWallet buys with auto-orders and nothing else, so that no sell of
	// the swap load closes its positions before their exits fire.
	exitWallet string
	token      string
	ledger     ledger
	next       atomic.Int64
	// nextAuto numbers the auto buys, whose wallet only they use.
	nextAuto atomic.Int64
}

// body returns the JSON body of the k-th order on the chain.
func (c *chainRun) body(k int, side string, wallets []string) string {
	var ws []string
	amount := "50" // a sell's percent
	for i, w := range wallets {
		if side == "Buy" {
			// Distinct per order and wallet: two orders never sign the
			// same bytes, so every landed transaction names one order.
			amount = fmt.Sprintf("%s%06d", c.BuyBase, (2*k+i)%1_000_000)
		}
		ws = append(ws, fmt.Sprintf(`{"address":%q,"amount":%q}`, w, amount))
	}
	chain := ""
	if c.EVM {
		chain = fmt.Sprintf(`,"chain":%q`, c.Name)
	}
	return fmt.Sprintf(`{"address":%q,"side":%q,"amount":%q,"slippage":50,"wallets":[%s]%s}`,
		c.token, side, amount, strings.Join(ws, ","), chain)
}

// allWallets returns every wallet of the chain's family the run uses.
func (c *chainRun) allWallets() []string {
	if c.exitWallet == "" {
		return c.wallets
	}
	return append(append([]string(nil), c.wallets...), c.exitWallet)
}

// logical is one order as a bot means it: one Idempotency-Key, sent until
// it gets an answer worth keeping.
type logical struct {
	n       int
	chain   *chainRun
	path    string // pathSwap or pathDeploy; empty is a swap
	key     string
	side    string
	wallets []string
	body    string
	// auto marks a buy with auto_orders; configs is how many tokens a
	// launch asked for.
	auto     bool
	configs  int
	attempts []attempt
}

// attempt is one HTTP request of a logical order.
type attempt struct {
	host string
	at   time.Duration // sent, since the load started
	took time.Duration // until the answer or the failure
	answer
}

// final is the last answer of a logical order.
func (o *logical) final() answer {
	if len(o.attempts) == 0 {
		return answer{}
	}
	return o.attempts[len(o.attempts)-1].answer
}

// orderIDs returns every order id the answers named, in order, once each.
func (o *logical) orderIDs() []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range o.attempts {
		if a.OrderID != "" && !seen[a.OrderID] {
			seen[a.OrderID] = true
			out = append(out, a.OrderID)
		}
	}
	return out
}

// loadConfig bounds the load.
type loadConfig struct {
	rate        int           // logical orders per second
	duration    time.Duration // how long new orders start
	maxInflight int           // logical orders in flight at most
	maxAttempts int           // HTTP attempts per logical order
	orderBudget time.Duration // time per logical order, retries included
	runID       string        // prefix of every Idempotency-Key
}

// loadResult is what the load did.
type loadResult struct {
	orders  []*logical
	notSent int       // ticks dropped because maxInflight orders were in flight
	start   time.Time // when the load starts; set by the caller
}

// runLoad sends logical orders at a fixed rate (open loop) over every
// chain, each to the chain's listeners in turn, retrying a 5xx or a failed
// connection with the same Idempotency-Key on the next listener, and waits
// for every order it started.
func runLoad(ctx context.Context, cfg loadConfig, chains []*chainRun, c *http.Client, res *loadResult) {
	interval := time.Second / time.Duration(cfg.rate)
	total := int(cfg.duration / interval)
	sem := make(chan struct{}, cfg.maxInflight)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < total; i++ {
		select {
		case <-ctx.Done():
		case <-time.After(time.Until(res.start.Add(time.Duration(i) * interval))):
		}
		if ctx.Err() != nil {
			break
		}
		select {
		case sem <- struct{}{}:
		default:
			res.notSent++
			continue
		}
		ch := chains[i%len(chains)]
		k := int(ch.next.Add(1) - 1)
		w := len(ch.wallets)
		side := "Buy"
		// Each wallet buys twice, then sells half, and so on.
		if (k/w)%3 == 2 {
			side = "Sell"
		}
		wallets := []string{ch.wallets[k%w]}
		if side == "Buy" && k%5 == 4 && w > 1 {
			wallets = append(wallets, ch.wallets[(k+1)%w])
		}
		o := &logical{n: i, chain: ch, key: fmt.Sprintf("%s-%s-%d", cfg.runID, ch.Name, k), side: side, wallets: wallets}
		o.body = ch.body(k, side, wallets)
		mu.Lock()
		res.orders = append(res.orders, o)
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			o.send(ctx, cfg, c, res.start)
		}()
	}
	wg.Wait()
}

// send runs one logical order to its end.
func (o *logical) send(ctx context.Context, cfg loadConfig, c *http.Client, loadStart time.Time) {
	deadline := time.Now().Add(cfg.orderBudget)
	hosts := o.chain.hosts
	for try := 0; ; try++ {
		host := hosts[(o.n+try)%len(hosts)]
		at := time.Since(loadStart)
		path := o.path
		if path == "" {
			path = pathSwap
		}
		a := post(ctx, c, host+path, o.chain.key, o.key, o.body)
		o.attempts = append(o.attempts, attempt{host: host, at: at, took: time.Since(loadStart) - at, answer: a})
		// A 4xx is an answer; a replayed answer is the stored first one and
		// will not change however often it is asked for.
		if a.Status > 0 && a.Status < 500 || a.Replayed {
			return
		}
		if try+1 >= cfg.maxAttempts || time.Now().After(deadline) || ctx.Err() != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(min(200*time.Millisecond<<try, 3*time.Second)):
		}
	}
}
