// Package evm is the EVM signer of the worker. For a swap job it finds the
// token's Uniswap-V2-compatible pair against the quote asset (on the job's
// chain, or on every configured chain when the job names none), applies
// the market filters (liquidity and market-cap bounds in US dollars, the
// tax probe), reads every wallet, checks that every wallet can pay before
// anything is signed, and signs for each wallet an EIP-1559 swap through
// the router's Tipped functions, which pay the processor tip to the block
// builder in the same transaction, preceded by an approval where the
// router may not yet spend the wallet's tokens.
//
// # Nonces
//
// A wallet's nonces are assigned by exactly one owner at a time: its
// record in the nonces bucket (bus.BucketNonces), keyed by chain and
// wallet. Workers never keep nonces in memory; each order takes the nonces
// it needs with a compare-and-set on the record's revision, so two
// workers, in one process or many, before or after a restart, can never
// hand out the same nonce, and a wallet's nonces come out contiguous.
// Nonces are taken only after every check has passed and every key is in
// hand, just before signing, and given back (Nonces.Release) when signing
// fails and nothing was taken after them. A redelivered job republishes
// its recorded batch (the worker loop does that), so it takes no nonces.
//
// The record is reconciled with the chain's pending nonce P (which counts
// the transactions the node holds in order) on every take:
//
//   - P at or above the record: nothing handed out is missing, and a P
//     above the record means the wallet was used elsewhere; hand out from P.
//   - P below the record: transactions handed out are on their way (signed
//     but not yet broadcast, or queued behind an earlier one). The record
//     remembers P and since when the chain has sat at it. If P has not
//     moved for the bound (DefaultNonceStale, 30 s), nonce P, handed out
//     at least that long ago, is lost: its transaction was refused,
//     dropped, or its order was never published. The record then hands
//     out again from P, so one lost transaction never blocks the wallet
//     for longer than the bound.
//
// A transaction that reverts still uses its nonce and leaves no gap. After
// a reclaim, transactions of older orders still queued behind the gap
// compete with the new ones for their nonces: the node keeps one of the
// two (the second is refused as an underpriced replacement unless it pays
// 10% more), so no order trades twice, and a late one cannot trade after
// its swap deadline (Config.DeadlineAfter). The bound must exceed the time
// from signing to broadcast; the broadcaster sends within a second.
package evm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"golang.org/x/sync/errgroup"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// KeySource hands out wallet keys: for EVM the 32-byte secp256k1 scalar.
// The signer keeps no key beyond one Sign call.
type KeySource interface {
	PrivateKey(ctx context.Context, family wire.Family, address string) ([]byte, error)
}

// Chain is a chain the signer trades on: its configuration and a client of
// its RPC.
type Chain struct {
	ChainConfig
	Client ChainClient
}

// chainState is a configured chain with what the signer learns of it.
type chainState struct {
	ChainConfig
	client ChainClient
	asset  *chains.Chain
	signer types.Signer

	mu        sync.Mutex
	pairs     map[[2]common.Address]pairInfo // immutable once created
	decimals  map[common.Address]uint8
	approvals map[approvalKey]time.Time // approvals signed here, by expiry of trust
}

// pairInfo is a pair's address and its first token.
type pairInfo struct {
	addr   common.Address
	token0 common.Address
}

type approvalKey struct {
	token, wallet common.Address
}

// Signer builds and signs the transactions of EVM swap jobs. It is safe
// for concurrent use.
type Signer struct {
	chains map[string]*chainState
	order  []string // configured chain names, in wire.EVMChains order
	keys   KeySource
	nonces *Nonces
	cfg    Config
	log    *slog.Logger
	now    func() time.Time
}

// NewSigner returns a signer trading on chains, signing with keys and
// taking nonces from nonces.
func NewSigner(list []Chain, keys KeySource, nonces *Nonces, cfg Config, log *slog.Logger) (*Signer, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if nonces == nil || keys == nil {
		return nil, errors.New("evm signer: nonces and keys are required")
	}
	s := &Signer{chains: map[string]*chainState{}, keys: keys, nonces: nonces, cfg: withDefaults(cfg),
		log: log.With("component", "signer", "chain", wire.ChainAnyEVM), now: time.Now}
	for _, c := range list {
		if err := c.Validate(); err != nil {
			return nil, err
		}
		if c.Client == nil {
			return nil, fmt.Errorf("evm chain %s: no client", c.Name)
		}
		if _, dup := s.chains[c.Name]; dup {
			return nil, fmt.Errorf("evm chain %s: configured twice", c.Name)
		}
		asset, _ := chains.Get(c.Name)
		s.chains[c.Name] = &chainState{ChainConfig: c.ChainConfig, client: c.Client, asset: asset,
			signer:   types.LatestSignerForChainID(c.ChainID),
			pairs:    map[[2]common.Address]pairInfo{},
			decimals: map[common.Address]uint8{}, approvals: map[approvalKey]time.Time{}}
	}
	for _, name := range wire.EVMChains {
		if _, ok := s.chains[name]; ok {
			s.order = append(s.order, name)
		}
	}
	if len(s.order) == 0 {
		return nil, errors.New("evm signer: no chains configured")
	}
	return s, nil
}

// Sign builds and signs the transactions of job: per wallet an approval
// where one is needed, then the swap, each with its own nonce.
//
// A job without a chain (or with chain "evm") is looked up on every
// configured chain that offers its quote asset; the batch names the chain
// it trades on and its Route says why. A buy spends the leg's amount of
// the quote asset; a sell sells the leg's percent of the wallet's token
// balance, skipping wallets that hold none. Min-out is quoted from the
// pool's reserves with the V2 formula, leg after leg, less the probed tax
// (when max_tax asked for a probe) and the slippage.
//
// Business errors are *apierr.Error: INVALID_REQUEST for a malformed or
// unsupported field, TOKEN_NOT_FOUND when no chain has a pool of the token
// against the quote asset, TAX_OUT_OF_RANGE, LIQUIDITY_OUT_OF_RANGE and
// MARKET_CAP_OUT_OF_RANGE with the measured figures in details,
// INSUFFICIENT_BALANCE naming the first wallet that cannot pay (checked for
// every wallet before any signature), BROADCAST_FAILED when the chain's
// simulation of a swap reverts. Any other error (RPC failures, timeouts,
// the key source, the nonces bucket) is a plain error worth retrying.
func (s *Signer) Sign(ctx context.Context, job *wire.SwapJob) (*wire.TxBatch, error) {
	// One bound for all the order's chain reads: a slow node must not hold
	// a job past the point its bot stopped waiting.
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	// Everything the job says is read into chain types first, fees held to
	// the caps: a malformed field costs no RPC call.
	o, err := parseJob(job)
	if err != nil {
		return nil, err
	}
	cands, err := s.candidates(job)
	if err != nil {
		return nil, err
	}
	// The pool is chosen before anything about the wallets is read: the
	// token and quote asset decide it, and the route says why.
	p, route, err := s.resolve(ctx, o, cands)
	if err != nil {
		return nil, err
	}
	// The client's market filters come before the wallets: a market
	// outside them is refused whatever the wallets hold.
	if err := s.checkBounds(ctx, p, job); err != nil {
		return nil, err
	}
	// The tax probe simulates a round trip on the pool; its measured tax
	// also lowers the legs' min-out, so that a taxed token does not trip
	// its own slippage bound.
	var tax *wire.TaxProbe
	if job.MaxTaxBps != nil {
		t, err := s.probeTax(ctx, p)
		if err != nil {
			return nil, err
		}
		if err := t.check(*job.MaxTaxBps); err != nil {
			return nil, err
		}
		o.tax = t
		tax = t.wire()
	}
	// Every leg is quoted, estimated and checked against its wallet before
	// any nonce is taken or key touched: an order is signed whole or not
	// at all.
	legs, err := s.plan(ctx, p, o)
	if err != nil {
		return nil, err
	}
	txs, err := s.signLegs(ctx, p, o, legs)
	if err != nil {
		return nil, fmt.Errorf("sign order %s on %s: %w", job.OrderID, p.ch.Name, err)
	}
	s.log.Debug("signed order", "order_id", job.OrderID, "on", p.ch.Name, "side", string(job.Side), "txs", len(txs))
	return &wire.TxBatch{
		OrderID:   job.OrderID,
		AccountID: job.AccountID,
		Family:    wire.FamilyEVM,
		Chain:     p.ch.Name,
		Token:     job.Token,
		Side:      job.Side,
		Txs:       txs,
		SignedAt:  s.now().UTC(),
		Route:     route,
		Tax:       tax,
	}, nil
}

// candidates returns the chains a job may trade on: its own, or every
// configured chain that offers its quote asset when it names none.
func (s *Signer) candidates(job *wire.SwapJob) ([]*chainState, error) {
	name := strings.ToLower(job.Chain)
	if name != "" && name != wire.ChainAnyEVM {
		c, ok := s.chains[name]
		if !ok {
			if ch, known := chains.Get(name); !known || ch.Family != wire.FamilyEVM {
				return nil, apierr.Invalid("chain", "unknown chain %q; valid: %s", job.Chain, strings.Join(wire.EVMChains, ", "))
			}
			return nil, fmt.Errorf("chain %s is not configured on this worker", name)
		}
		if _, ok := c.asset.Asset(job.QuoteAsset); !ok {
			return nil, apierr.Invalid("quote_asset", "quote asset %q is not available on %s; valid: %s",
				job.QuoteAsset, name, strings.Join(c.asset.Symbols(), ", "))
		}
		return []*chainState{c}, nil
	}
	var out []*chainState
	for _, n := range s.order {
		c := s.chains[n]
		if _, ok := c.asset.Asset(job.QuoteAsset); ok {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, apierr.Invalid("quote_asset", "quote asset %q is not available on any EVM chain", job.QuoteAsset)
	}
	return out, nil
}

// signLegs takes the keys and the nonces and signs every planned
// transaction. Nonces are taken last, so that nothing before can fail
// with nonces in hand; if signing fails they are given back.
func (s *Signer) signLegs(ctx context.Context, p *pool, o *order, legs []*leg) ([]wire.SignedTx, error) {
	var active []*leg
	for _, l := range legs {
		if !l.skip {
			active = append(active, l)
		}
	}
	keys := make([]*ecdsa.PrivateKey, len(active))
	g, gctx := errgroup.WithContext(ctx)
	for i, l := range active {
		g.Go(func() error {
			raw, err := s.keys.PrivateKey(gctx, wire.FamilyEVM, l.wallet.Hex())
			if err != nil {
				return fmt.Errorf("key of %s: %w", l.wallet.Hex(), err)
			}
			k, err := crypto.ToECDSA(raw)
			clear(raw)
			if err != nil {
				return fmt.Errorf("key of %s: %w", l.wallet.Hex(), err)
			}
			if crypto.PubkeyToAddress(k.PublicKey) != l.wallet {
				return fmt.Errorf("key of %s: belongs to another address", l.wallet.Hex())
			}
			keys[i] = k
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}

	firsts := make([]uint64, len(active))
	taken := make([]bool, len(active))
	release := func() {
		// A fresh context: the order's may be what ended.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		for i, l := range active {
			if taken[i] {
				if _, err := s.nonces.Release(rctx, p.ch.Name, l.wallet, firsts[i], l.txCount()); err != nil {
					s.log.Warn("give back nonces", "on", p.ch.Name, "wallet", l.wallet.Hex(), "err", err)
				}
			}
		}
	}
	g, gctx = errgroup.WithContext(ctx)
	for i, l := range active {
		g.Go(func() error {
			first, err := s.nonces.Take(gctx, p.ch.Name, l.wallet, l.txCount(), l.pendingNonce)
			if err != nil {
				return fmt.Errorf("nonces of %s: %w", l.wallet.Hex(), err)
			}
			firsts[i], taken[i] = first, true
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		release()
		return nil, err
	}

	out := make([]wire.SignedTx, 0, 2*len(active))
	for i, l := range active {
		nonce := firsts[i]
		for _, u := range l.txs() {
			tx, err := types.SignNewTx(keys[i], p.ch.signer, &types.DynamicFeeTx{
				ChainID:   p.ch.ChainID,
				Nonce:     nonce,
				GasTipCap: o.fees.tipCap,
				GasFeeCap: o.fees.feeCap,
				Gas:       u.gas,
				To:        &u.to,
				Value:     u.value,
				Data:      u.data,
			})
			if err != nil {
				release()
				return nil, fmt.Errorf("sign for %s: %w", l.wallet.Hex(), err)
			}
			raw, err := tx.MarshalBinary()
			if err != nil {
				release()
				return nil, fmt.Errorf("encode for %s: %w", l.wallet.Hex(), err)
			}
			out = append(out, wire.SignedTx{Wallet: l.wallet.Hex(), Private: o.antiMEV, Signature: tx.Hash().Hex(), Raw: raw})
			nonce++
		}
	}
	now := s.now()
	p.ch.mu.Lock()
	for _, l := range active {
		if l.approve != nil {
			p.ch.approvals[approvalKey{token: l.approve.to, wallet: l.wallet}] = now.Add(s.cfg.ApprovalMemory)
		}
	}
	p.ch.mu.Unlock()
	return out, nil
}
