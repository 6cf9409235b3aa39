package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// A nonce whose transaction never reached the chain (the node refused it
// after the nonce was taken, say for a fee cap under a base fee that
// jumped, or dropped it) leaves a gap: the wallet's later transactions,
// signed with the nonces after it, wait in the node's pool behind it. The
// wallet's next order would reclaim the nonce after the reclaim bound, but
// a bot may send none, and the waiting swaps would land late or revert on
// their deadlines. FillGaps watches the wallets this signer took nonces
// for lately; a gap the chain has sat at for the bound while later nonces
// are out is filled with a transfer of nothing from the wallet to itself,
// which costs a plain transfer's gas and lets the later transactions land.

// gapEvery is how often FillGaps checks, and gapWatch how long after its
// last order a wallet is watched.
const (
	gapEvery = 5 * time.Second
	gapWatch = 10 * time.Minute
)

// gapWatchlist are the wallets whose nonces this signer took, by chain,
// with when, and the priority fee cap of the account's last order there.
type gapWatchlist struct {
	mu sync.Mutex
	m  map[gapWallet]gapNote
}

type gapWallet struct {
	chain  string
	wallet common.Address
}

// gapNote is when a wallet was last used, and maxTip the priority fee per
// gas its filler may pay: the account's cap as its last order carried it
// (nil: none seen, DefaultMaxPriorityFee).
type gapNote struct {
	at     time.Time
	maxTip *big.Int
}

// gapWatched is a watched wallet and its filler's tip cap.
type gapWatched struct {
	gapWallet
	maxTip *big.Int
}

// note watches wallet on chain from now; maxTip nil keeps the cap noted
// before.
func (g *gapWatchlist) note(chain string, wallet common.Address, now time.Time, maxTip *big.Int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = map[gapWallet]gapNote{}
	}
	k := gapWallet{chain, wallet}
	if maxTip == nil {
		maxTip = g.m[k].maxTip
	}
	g.m[k] = gapNote{at: now, maxTip: maxTip}
}

// watched returns the wallets used within gapWatch before now, forgetting
// the others.
func (g *gapWatchlist) watched(now time.Time) []gapWatched {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]gapWatched, 0, len(g.m))
	for w, n := range g.m {
		if now.Sub(n.at) > gapWatch {
			delete(g.m, w)
			continue
		}
		out = append(out, gapWatched{w, n.maxTip})
	}
	return out
}

// FillGaps checks the watched wallets every few seconds until ctx ends.
// At its start it watches every wallet with a nonce record on its chains,
// for gapWatch: a gap left by a process that died (its signed transactions
// never sent) holds that wallet's later transactions back whoever signed
// them, and the wallet may see no order here for a long while.
func (s *Signer) FillGaps(ctx context.Context) error {
	for _, c := range s.chains {
		for _, o := range []string{"filled", "failed"} {
			metrics.NonceGaps.WithLabelValues(c.Name, o).Add(0)
		}
		metrics.RPCErrors.WithLabelValues(c.Name, gapCheckMethod).Add(0)
	}
	s.watchRecorded(ctx)
	t := time.NewTicker(s.gapEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			s.checkGaps(ctx)
		}
	}
}

// watchRecorded watches every wallet with a nonce record on the signer's
// chains.
func (s *Signer) watchRecorded(ctx context.Context) {
	now := s.now()
	for _, c := range s.chains {
		wallets, err := s.nonces.Wallets(ctx, c.Name)
		if err != nil {
			s.log.Warn("list the wallets to watch for nonce gaps", "on", c.Name, "err", err)
		}
		for _, w := range wallets {
			s.gaps.note(c.Name, w, now, nil)
		}
	}
}

// checkGaps fills the gaps of the watched wallets that have one: per
// chain, every watched wallet's pending nonce in JSON-RPC batches, then the
// records of those whose nonces run past it.
func (s *Signer) checkGaps(ctx context.Context) {
	byChain := map[string][]common.Address{}
	maxTips := map[gapWallet]*big.Int{}
	for _, w := range s.gaps.watched(s.now()) {
		byChain[w.chain] = append(byChain[w.chain], w.wallet)
		maxTips[w.gapWallet] = w.maxTip
	}
	for name, wallets := range byChain {
		c, ok := s.chains[name]
		if !ok {
			continue
		}
		for start := 0; start < len(wallets); start += gapBatch {
			batch := wallets[start:min(start+gapBatch, len(wallets))]
			cctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
			pending, err := txCounts(cctx, c, "pending", batch)
			if err != nil {
				metrics.RPCErrors.WithLabelValues(c.Name, gapCheckMethod).Inc()
				s.gapWarns.WarnContext(ctx, s.log, c.Name, "check for nonce gaps", "on", c.Name, "wallets", len(batch), "err", err)
			}
			for i, wallet := range batch {
				if err != nil || cctx.Err() != nil {
					break
				}
				ferr := s.checkGap(cctx, c, wallet, pending[i], maxTips[gapWallet{name, wallet}])
				var unread *gapUnread
				switch {
				case errors.As(ferr, &unread):
					// No gap is known: the wallet's nonce record could not be
					// read or claimed (NATS away, its own alerts; another
					// worker's claim). The next check looks again; counted as
					// a failed fill it raised the alert of gaps left open.
					s.gapWarns.WarnContext(ctx, s.log, c.Name+" nonce record", "read the nonce record for gaps",
						"on", c.Name, "wallet", wallet.Hex(), "err", unread.err)
				case ferr != nil:
					metrics.NonceGaps.WithLabelValues(c.Name, "failed").Inc()
					s.log.Warn("fill a nonce gap", "on", c.Name, "wallet", wallet.Hex(), "err", ferr)
				}
			}
			cancel()
		}
	}
}

// gapCheckMethod is the method label of a gap check's failed read in
// tradeapi_rpc_errors_total: its wallets' gaps wait for the next check.
const gapCheckMethod = "nonce_gap_check"

// gapBatch is how many wallets' pending nonces one JSON-RPC batch asks.
const gapBatch = 100

// txCounts reads the transaction count at tag ("pending": the next nonce
// past the node's pool; "latest": the mined count) of each of wallets on c
// in one JSON-RPC batch.
func txCounts(ctx context.Context, c *chainState, tag string, wallets []common.Address) ([]uint64, error) {
	out := make([]hexutil.Uint64, len(wallets))
	b := make([]rpc.BatchElem, len(wallets))
	for i, w := range wallets {
		b[i] = rpc.BatchElem{Method: "eth_getTransactionCount", Args: []any{w, tag}, Result: &out[i]}
	}
	if err := c.client.BatchCallContext(ctx, b); err != nil {
		return nil, fmt.Errorf("%s %s transaction counts: %w", c.Name, tag, err)
	}
	counts := make([]uint64, len(wallets))
	for i := range b {
		if b[i].Error != nil {
			return nil, fmt.Errorf("%s %s transaction count of %s: %w", c.Name, tag, wallets[i].Hex(), b[i].Error)
		}
		counts[i] = uint64(out[i])
	}
	return counts, nil
}

// checkGap fills wallet's gap on c from its pending nonce, if it is one:
// every lost nonce of the run at once, in order, each paying at most
// maxTip per gas above the base fee, or the least cap of the orders the
// record holds behind the gap when that is less, or when maxTip is nil (a
// wallet watched from the records at the signer's start, or whose
// orders another process signed); DefaultMaxPriorityFee when neither says.
func (s *Signer) checkGap(ctx context.Context, c *chainState, wallet common.Address, pending uint64, maxTip *big.Int) error {
	count, recorded, err := s.nonces.ClaimGaps(ctx, c.Name, wallet, pending)
	if err != nil {
		return &gapUnread{err}
	}
	if count == 0 {
		return nil
	}
	if recorded != nil && (maxTip == nil || recorded.Cmp(maxTip) < 0) {
		maxTip = recorded
	}
	for nonce := pending; nonce < pending+count; nonce++ {
		hash, err := s.fillGap(ctx, c, wallet, nonce, maxTip)
		if err != nil {
			return fmt.Errorf("nonce %d: %w", nonce, err)
		}
		metrics.NonceGaps.WithLabelValues(c.Name, "filled").Inc()
		s.log.Warn("filled a nonce gap that held the wallet's later transactions back: a transfer of nothing to itself",
			"on", c.Name, "wallet", wallet.Hex(), "nonce", nonce, "tx", hash.Hex())
	}
	return nil
}

// gapUnread is a gap check that found no gap to fill, or none, because
// the wallet's nonce record could not be read or claimed.
type gapUnread struct{ err error }

func (e *gapUnread) Error() string { return "read the nonce record: " + e.err.Error() }
func (e *gapUnread) Unwrap() error { return e.err }

// fillGap signs and sends wallet's transfer of nothing to itself at nonce,
// at the chain's fees of the moment and its gas estimate, its priority fee
// the node's suggestion raised to the chain's floor (a filler under it
// would not be mined, and every later transaction of the wallet would wait
// behind it) and held to maxTip (nil: DefaultMaxPriorityFee), the cap the
// account's orders are held to: the node's figure is no more trusted here
// than in a swap. A cap under the floor sends nothing: its filler could
// not land.
func (s *Signer) fillGap(ctx context.Context, c *chainState, wallet common.Address, nonce uint64, maxTip *big.Int) (common.Hash, error) {
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		return common.Hash{}, fmt.Errorf("latest header: %w", err)
	}
	tip, err := c.client.SuggestGasTipCap(ctx)
	if err != nil {
		return common.Hash{}, fmt.Errorf("priority fee: %w", err)
	}
	if maxTip == nil {
		maxTip = DefaultMaxPriorityFee
	}
	floor := c.MinTipCap
	if floor == nil {
		floor = DefaultMinTipCap
	}
	if maxTip.Cmp(floor) < 0 {
		return common.Hash{}, fmt.Errorf("the account's max_priority_fee cap, %s wei, is below %s's least priority fee, %s wei: a filler paying it would not be mined",
			maxTip, c.Name, floor)
	}
	tip = bigMax(tip, floor)
	if tip.Cmp(maxTip) > 0 {
		s.log.Warn("the node's priority fee for a nonce gap's filler is above the account's cap; the cap is paid",
			"on", c.Name, "wallet", wallet.Hex(), "suggested_wei", tip.String(), "cap_wei", maxTip.String())
		tip = new(big.Int).Set(maxTip)
	}
	gas, err := c.client.EstimateGas(ctx, ethereum.CallMsg{From: wallet, To: &wallet, Value: new(big.Int)})
	if err != nil {
		return common.Hash{}, fmt.Errorf("estimate the transfer: %w", err)
	}
	feeCap := new(big.Int).Add(tip, new(big.Int).Mul(baseFee(head), big.NewInt(2)))
	raw, err := s.keys.PrivateKey(ctx, wire.FamilyEVM, wallet.Hex())
	if err != nil {
		return common.Hash{}, fmt.Errorf("key: %w", err)
	}
	key, err := crypto.ToECDSA(raw)
	clear(raw)
	if err != nil || crypto.PubkeyToAddress(key.PublicKey) != wallet {
		return common.Hash{}, fmt.Errorf("key of %s: not the wallet's", wallet.Hex())
	}
	tx, err := types.SignNewTx(key, c.signer, &types.DynamicFeeTx{ChainID: c.ChainID, Nonce: nonce,
		GasTipCap: tip, GasFeeCap: feeCap, Gas: gas + gas/5, To: &wallet, Value: new(big.Int)})
	if err != nil {
		return common.Hash{}, fmt.Errorf("sign: %w", err)
	}
	data, err := tx.MarshalBinary()
	if err != nil {
		return common.Hash{}, err
	}
	var hash common.Hash
	b := []rpc.BatchElem{{Method: "eth_sendRawTransaction", Args: []any{hexutil.Encode(data)}, Result: &hash}}
	if err := c.client.BatchCallContext(ctx, b); err != nil {
		return common.Hash{}, fmt.Errorf("send: %w", err)
	}
	if b[0].Error != nil {
		return common.Hash{}, fmt.Errorf("send: %w", b[0].Error)
	}
	return tx.Hash(), nil
}

// baseFee is a header's base fee, zero before London.
func baseFee(h *types.Header) *big.Int {
	if h == nil || h.BaseFee == nil {
		return new(big.Int)
	}
	return h.BaseFee
}
