package evm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"

	"github.com/tradeapi/tradeapi/shared/guard"
)

// callKind is a kind of transaction the signer sends; each kind has a gas
// limit the signer knows per chain, so that no order waits for an
// eth_estimateGas of its own.
type callKind int

const (
	kindApprove callKind = iota
	kindTip
	kindV2BuyNative
	kindV2SellNative
	kindV2Tokens
	kindV3BuyNative
	kindV3SellNative
	kindV3Tokens
	numKinds
)

var kindNames = [numKinds]string{"approve", "tip", "v2 native buy", "v2 native sell", "v2 token swap",
	"v3 native buy", "v3 native sell", "v3 token swap"}

func (k callKind) String() string { return kindNames[k] }

// swapCushion is added to a refreshed estimate besides the margin: the
// estimate runs on the latest block, and a pair or pool whose price
// accumulators (V2) or oracle (V3) were written earlier in that block's
// timestamp costs less there than in the next block, where the swap lands:
// on a chain that seals a block per transaction, a swap right after a
// liquidity change uses about 44,000 gas more than its estimate.
const swapCushion = 50_000

// defaultGas are the limits a chain starts with, before the chain is
// asked: what each kind uses on a chain with Ethereum mainnet's gas
// schedule (measured on the local chains with the project's tax token,
// whose taxed transfers are the dearest of its tokens), plus about half
// again and swapCushion. An estimate never lowers a kind below these.
var defaultGas = [numKinds]uint64{
	kindApprove:      80_000,
	kindTip:          30_000,
	kindV2BuyNative:  260_000,
	kindV2SellNative: 280_000,
	kindV2Tokens:     280_000,
	kindV3BuyNative:  280_000,
	kindV3SellNative: 300_000,
	kindV3Tokens:     280_000,
}

// v3Overhead is what a V3 swap through SwapRouter02 costs besides the
// pool's own swap, which QuoterV2 estimates (it grows with every
// initialised tick the swap crosses): the multicall, the token transfers
// and the unwrap (about 55,000 gas on the local chains over the quoter's
// figure), with room, and swapCushion.
const v3Overhead = 120_000

// gasBook holds a chain's gas limit of each kind: the default until the
// chain's own estimate of a real order's transaction replaces it, then
// estimated again every Config.GasRefresh, off the orders' path.
type gasBook struct {
	mu      sync.Mutex
	entries [numKinds]gasEntry
}

type gasEntry struct {
	limit     uint64
	measured  time.Time // zero: never measured on this chain
	measuring bool
}

func newGasBook() *gasBook {
	b := &gasBook{}
	for k := range b.entries {
		b.entries[k].limit = defaultGas[k]
	}
	return b
}

// limit returns the kind's limit; first says the chain was never asked
// for it, stale that it is due to be asked again.
func (b *gasBook) limit(k callKind, now time.Time, every time.Duration) (limit uint64, first, stale bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entries[k]
	return e.limit, e.measured.IsZero(), !e.measured.IsZero() && now.Sub(e.measured) >= every
}

// record sets the kind's limit from an estimate: the estimate plus the
// margin and swapCushion, never below the kind's default.
func (b *gasBook) record(k callKind, estimate, marginBps uint64, now time.Time) uint64 {
	limit := max(defaultGas[k], plusBps(estimate, marginBps)+swapCushion)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entries[k].limit, b.entries[k].measured = limit, now
	return limit
}

// claim marks the kind as being measured and reports whether the caller
// is the one to measure it: one estimate per kind and chain at a time.
func (b *gasBook) claim(k callKind) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.entries[k].measuring {
		return false
	}
	b.entries[k].measuring = true
	return true
}

func (b *gasBook) release(k callKind) {
	b.mu.Lock()
	b.entries[k].measuring = false
	b.mu.Unlock()
}

// gasFor returns the gas limit of a transaction of the kind: the chain's
// known limit, and for a V3 swap at least QuoterV2's estimate of the
// pool's swap with the margin plus v3Overhead, for a swap that crosses
// many ticks.
func (s *Signer) gasFor(c *chainState, u *unsigned, quoteGas uint64) uint64 {
	limit, _, _ := c.gas.limit(u.kind, s.now(), s.cfg.GasRefresh)
	if u.kind >= kindV3BuyNative && quoteGas > 0 {
		limit = max(limit, plusBps(quoteGas, s.cfg.GasMarginBps)+v3Overhead)
	}
	return limit
}

// measure asks the chain to estimate msg, a real order's transaction of
// the kind, and records the result. It reports the new limit.
func (s *Signer) measure(ctx context.Context, c *chainState, k callKind, msg ethereum.CallMsg) (uint64, error) {
	est, err := c.client.EstimateGas(ctx, msg)
	if err != nil {
		return 0, err
	}
	return c.gas.record(k, est, s.cfg.GasMarginBps, s.now()), nil
}

// refreshLater measures the kind again in the background when it is due
// and no other measurement of it runs; a failed estimate (the state moved
// under it) leaves the limit as it was until the next order of the kind.
func (s *Signer) refreshLater(c *chainState, k callKind, msg ethereum.CallMsg) {
	if _, _, stale := c.gas.limit(k, s.now(), s.cfg.GasRefresh); !stale || !c.gas.claim(k) {
		return
	}
	go func() {
		defer c.gas.release(k)
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.RPCTimeout)
		defer cancel()
		if err := guard.Run(func() error { _, err := s.measure(ctx, c, k, msg); return err }); err != nil {
			var p *guard.Panic
			if errors.As(err, &p) {
				s.log.Error("refresh gas limit panicked", "on", c.Name, "kind", k.String(), "panic", fmt.Sprint(p.Value), "stack", string(p.Stack))
				return
			}
			s.log.Debug("refresh gas limit", "on", c.Name, "kind", k.String(), "err", err)
		}
	}()
}
