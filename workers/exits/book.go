package exits

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// tokenKey names one watched market of a token: one price reader each.
// The positions of one token bought on different pools (a V2 pair and a
// V3 pool, a WETH pair and a USDC one, a pump.fun curve and a PumpSwap
// pool) read their prices each where they traded, in their own quote, and
// a position's creator, which on EVM is found per buy, is watched for its
// own dev_sell: market holds what its reader is made of (marketOf).
type tokenKey struct {
	chain, token, market string
}

// keyOf is the key of a position's reader.
func keyOf(p *wire.Position) tokenKey {
	return tokenKey{p.Chain, p.Token, marketOf(p)}
}

// marketOf is what a position's price reader is made of besides its
// token: its venue, pool, quote asset and decimals, and its creator.
func marketOf(p *wire.Position) string {
	return strings.Join([]string{p.Venue, p.Pool, p.QuoteAsset, strconv.Itoa(int(p.Decimals)),
		strconv.Itoa(int(p.QuoteDecimals)), p.Dev}, "|")
}

// holding names a wallet's holding of a token, for the sells that reduce
// positions: EVM addresses are compared in lower case.
type holding struct {
	chain, wallet, token string
}

func holdingOf(chain, wallet, token string) holding {
	if chain != wire.ChainSolana {
		wallet, token = strings.ToLower(wallet), strings.ToLower(token)
	}
	return holding{chain, wallet, token}
}

// entry is one position as this engine knows it: its entry price and the
// highest price and creator holding as stored, the extremes seen since
// (never lower), and the price line of each exit (see lines).
type entry struct {
	p          *wire.Position
	entryPrice *big.Rat
	storedHigh *big.Rat
	storedDev  *big.Int
	high       *big.Rat
	highF      float64
	devMax     *big.Int
	// devLow counts the reads in a row that found the creator holding
	// less than devMax: a dev_sell fires on the second (devSellReads), so
	// that one read from a node behind the one that saw the most (a
	// provider's pool answers from either) does not sell the position.
	devLow int
	lines  []*big.Rat
	linesF []float64
	// moved is set when the extremes rose above what is stored.
	moved bool
	// fresh is when this process saw the position open, or its sell
	// settle (what it holds changed): a read asked before then may show
	// the market before the buy or the sale, and is not judged on.
	fresh time.Time
}

func newEntry(p *wire.Position) *entry {
	en := &entry{p: p, entryPrice: storedEntry(p), storedHigh: storedHigh(p), storedDev: parseInt(p.DevBalance)}
	en.high, en.highF, en.devMax = en.storedHigh, approx(en.storedHigh), en.storedDev
	return en
}

// see raises the extremes to an observation's, moving the trailing lines
// with a new high.
func (en *entry) see(obs Observation) {
	if obs.Price != nil && (en.high == nil || cmpPrice(obs.Price, obs.approx, en.high, en.highF) > 0) {
		en.high, en.highF = obs.Price, obs.approx
		en.lines = nil
		en.moved = true
	}
	if obs.DevBalance != nil && (en.devMax == nil || obs.DevBalance.Cmp(en.devMax) > 0) {
		en.devMax = obs.DevBalance
		en.moved = true
	}
	if obs.DevBalance != nil {
		if en.devMax != nil && obs.DevBalance.Cmp(en.devMax) < 0 {
			en.devLow++
		} else {
			en.devLow = 0
		}
	}
	if en.lines == nil {
		en.setLines()
	}
}

func (en *entry) setLines() {
	en.lines = lines(en.p, en.entryPrice, en.high)
	en.linesF = make([]float64, len(en.lines))
	for i, l := range en.lines {
		en.linesF[i] = approx(l)
	}
}

// book is this process's view of the positions bucket, kept by watching
// it, with indexes by token and by holding. It holds every position that
// is open; closed ones are dropped.
type book struct {
	// now is the engine's clock.
	now      func() time.Time
	mu       sync.Mutex
	pos      map[string]*entry
	byToken  map[tokenKey]map[string]*entry
	byHolder map[holding]map[string]struct{}
}

func newBook() *book {
	return &book{now: time.Now, pos: map[string]*entry{}, byToken: map[tokenKey]map[string]*entry{},
		byHolder: map[holding]map[string]struct{}{}}
}

func (b *book) size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.pos)
}

func addTo[K comparable, V any](m map[K]map[string]V, k K, id string, v V) {
	s := m[k]
	if s == nil {
		s = map[string]V{}
		m[k] = s
	}
	s[id] = v
}

func removeFrom[K comparable, V any](m map[K]map[string]V, k K, id string) {
	if s := m[k]; s != nil {
		delete(s, id)
		if len(s) == 0 {
			delete(m, k)
		}
	}
}

func holdingsOf(p *wire.Position) []holding {
	hs := []holding{holdingOf(p.Chain, p.Wallet, p.Token)}
	if p.Address != p.Token {
		hs = append(hs, holdingOf(p.Chain, p.Wallet, p.Address))
	}
	return hs
}

// put takes a position as stored; an older version than the one known is
// ignored, and a closed position leaves the book.
func (b *book) put(p *wire.Position) {
	b.mu.Lock()
	defer b.mu.Unlock()
	old := b.pos[p.ID]
	if old != nil && old.p.Version > p.Version {
		return
	}
	if old != nil {
		b.unindex(old.p)
	}
	if p.State != wire.PositionOpen {
		delete(b.pos, p.ID)
		return
	}
	e := newEntry(p)
	e.fresh = b.now()
	if old != nil {
		// What this process saw since the last write is kept.
		e.high = maxRat(e.high, old.high)
		e.devMax = maxInt(e.devMax, old.devMax)
		e.devLow = old.devLow
		if old.p.Remaining == p.Remaining && (old.p.PendingSell == "" || p.PendingSell != "") {
			e.fresh = old.fresh // nothing it holds changed, and no sell settled
		}
	}
	e.highF = approx(e.high)
	e.setLines()
	b.pos[p.ID] = e
	addTo(b.byToken, keyOf(p), p.ID, e)
	for _, h := range holdingsOf(p) {
		addTo(b.byHolder, h, p.ID, struct{}{})
	}
}

func (b *book) unindex(p *wire.Position) {
	removeFrom(b.byToken, keyOf(p), p.ID)
	for _, h := range holdingsOf(p) {
		removeFrom(b.byHolder, h, p.ID)
	}
}

func (b *book) remove(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if old := b.pos[id]; old != nil {
		b.unindex(old.p)
		delete(b.pos, id)
	}
}

// tokens lists the watched markets with one position of each, from which
// its reader is made (every position of a market makes the same one). A
// market none of whose positions has an exit armed is not read: a
// position whose exits all fired, failed or were cancelled (a take-profit
// of half that sold) stays open, and was read every tick for good.
func (b *book) tokens() map[tokenKey]*wire.Position {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[tokenKey]*wire.Position, len(b.byToken))
	for k, ids := range b.byToken {
		for _, e := range ids {
			if anyArmed(e.p) {
				out[k] = e.p
				break
			}
		}
	}
	return out
}

// anyArmed reports whether one of p's exits waits for its trigger.
func anyArmed(p *wire.Position) bool {
	for _, x := range p.Exits {
		if x.State == wire.ExitArmed {
			return true
		}
	}
	return false
}

// watching returns the entries of a token's positions, after raising
// their extremes to what obs saw. The positions are shared: callers only
// read them.
func (b *book) watching(k tokenKey, obs Observation) []entry {
	b.mu.Lock()
	defer b.mu.Unlock()
	ids := b.byToken[k]
	out := make([]entry, 0, len(ids))
	for _, e := range ids {
		if !obs.Asked.IsZero() && e.fresh.After(obs.Asked) {
			continue // judged on the next read
		}
		e.see(obs)
		out = append(out, *e)
	}
	return out
}

// dueExit is one exit due to fire, with its position's entry as known.
type dueExit struct {
	en entry
	i  int
}

// timeDue returns, for each open position of the given tokens with no sell
// in flight, its first time exit due at at.
func (b *book) timeDue(tokens []tokenKey, at time.Time) []dueExit {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []dueExit
	for _, k := range tokens {
		for _, e := range b.byToken[k] {
			p := e.p
			if p.State != wire.PositionOpen || p.PendingSell != "" {
				continue
			}
			for i := range p.Exits {
				if x := &p.Exits[i]; x.Type == wire.ExitTime && due(x, nil, 0, p, 0, Observation{}, at) {
					out = append(out, dueExit{en: *e, i: i})
					break
				}
			}
		}
	}
	return out
}

// held returns the open positions of a holding, oldest first.
func (b *book) held(h holding) []*wire.Position {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []*wire.Position
	for id := range b.byHolder[h] {
		out = append(out, b.pos[id].p)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].OpenedAt.Equal(out[j].OpenedAt) {
			return out[i].OpenedAt.Before(out[j].OpenedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// all returns every open position.
func (b *book) all() []*wire.Position {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]*wire.Position, 0, len(b.pos))
	for _, e := range b.pos {
		out = append(out, e.p)
	}
	return out
}

// watch follows the positions bucket into the book. The returned channel
// is closed once every stored position has been read.
func (e *Engine) watch(ctx context.Context) (<-chan struct{}, error) {
	w, err := e.kv.WatchAll(ctx)
	if err != nil {
		return nil, fmt.Errorf("watch positions: %w", err)
	}
	synced := make(chan struct{})
	go func() {
		defer func() { _ = w.Stop() }()
		first := true
		for {
			select {
			case <-ctx.Done():
				return
			case u, ok := <-w.Updates():
				if !ok {
					return
				}
				if u == nil {
					if first {
						first = false
						close(synced)
					}
					continue
				}
				e.apply(u)
			}
		}
	}()
	return synced, nil
}

func (e *Engine) apply(u jetstream.KeyValueEntry) {
	if strings.HasPrefix(u.Key(), budgetPrefix) {
		if u.Operation() == jetstream.KeyValuePut {
			e.budget.apply(u.Key(), u.Value())
		}
		return
	}
	if strings.HasPrefix(u.Key(), salesPrefix) {
		return // read where they are needed (reconcile)
	}
	if u.Operation() != jetstream.KeyValuePut {
		e.book.remove(u.Key())
		e.notDue(u.Key())
		return
	}
	var p wire.Position
	if err := json.Unmarshal(u.Value(), &p); err != nil {
		e.log.Error("undecodable position skipped", "position", u.Key(), "err", err)
		return
	}
	e.keep(&p)
}

// keep puts a position as stored into the book. One closed while its due
// exit waited for a paused venue (sold by hand, say) leaves nothing behind
// that waits.
func (e *Engine) keep(p *wire.Position) {
	e.book.put(p)
	if p.State != wire.PositionOpen {
		e.notDue(p.ID)
	}
}
