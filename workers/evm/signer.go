// Package evm is the EVM signer of the worker. For a swap job it quotes
// the token against the quote asset on its official Uniswap pools (the V2
// pair and the V3 pool of every fee tier, on the job's chain, or on every
// configured chain when the job names none) and takes the one that pays the
// most, applies the market filters (liquidity and market-cap bounds in US
// dollars, the tax probe on that pool), reads every wallet, checks that
// every wallet can pay before anything is signed, and signs for each wallet
// an EIP-1559 exact-input swap through the pool's official router
// (UniswapV2Router02 for a V2 pair, SwapRouter02 for a V3 pool), preceded
// by an approval of that router where it may not yet spend the wallet's
// tokens. A processor tip is a plain transfer of the native coin to the
// chain's tip address, sent with the approval and the swap as one bundle
// to the chain's relay, so that it is paid only if the swap lands; on a
// chain without a bundle market the tip is refused.
//
// # Gas
//
// No order waits for an eth_estimateGas: each kind of transaction (an
// approval, a tip, a V2 or V3 buy or sell with the native coin or a
// stable) has a gas limit the signer knows per chain, from a default sized
// for Ethereum mainnet's gas schedule, replaced by the chain's own estimate
// of the first order of that kind and measured again every
// Config.GasRefresh in the background. A V3 swap also gets at least
// QuoterV2's estimate of its pool swap, which grows with the ticks it
// crosses. Each swap is simulated with eth_call at its limit while the
// nonces are taken (a native-coin buy without a processor tip, whose swap
// needs nothing of the wallets' reads, from the moment the quotes are in,
// while the wallets are read): a swap that would revert refuses the order
// (BROADCAST_FAILED with the node's reason) and its nonces are given back.
//
// # Nonces
//
// A wallet's nonces are assigned by exactly one owner at a time: its
// record in the nonces bucket (bus.BucketNonces), keyed by chain and
// wallet. Workers never keep nonces in memory; each order takes the nonces
// it needs with a compare-and-set on the record's revision, so two
// workers, in one process or many, before or after a restart, can never
// hand out the same nonce, and a wallet's nonces come out contiguous.
// Nonces are taken only after every check has passed but the swaps'
// simulation, which runs meanwhile, with the keys read, just before
// signing, and given back (Nonces.Release) when the simulation refuses
// the order or signing fails, and nothing was taken after them. A redelivered job republishes
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
// from signing to broadcast; the broadcaster sends within a second. A
// bundle the relay refuses (its swap would revert when it is built) uses
// none of its nonces: they are such a gap, and the reclaim closes it.
package evm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/capped"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/lograte"
	"github.com/tradeapi/tradeapi/shared/venues"
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
	gas    *gasBook

	pairs    capped.Cache[[2]common.Address, pairInfo] // immutable once created
	v3Pools  capped.Cache[common.Address, bool]        // V3 pools seen deployed; a deployed pool stays
	decimals capped.Cache[common.Address, uint8]

	mu        sync.Mutex
	approvals map[approvalKey]approvalMemo // approvals signed here
	// noSimulateV1: the node does not serve eth_simulateV1.
	noSimulateV1 atomic.Bool
}

// pairInfo is a pair's address and its first token.
type pairInfo struct {
	addr   common.Address
	token0 common.Address
}

// approvalKey is a wallet's approval of a spender (a router) for a token.
type approvalKey struct {
	token, spender, wallet common.Address
}

// approvalMemo is an approval signed here: by which order, trusted until
// when to be on its way.
type approvalMemo struct {
	order string
	until time.Time
}

// Signer builds and signs the transactions of EVM swap jobs. It is safe
// for concurrent use.
type Signer struct {
	chains map[string]*chainState
	order  []string // configured chain names, in wire.EVMChains order
	keys   KeySource
	nonces *Nonces
	spends *spends
	// gaps are the wallets FillGaps watches, gapEvery how often;
	// gapWarns keeps a failing check to a warning a minute per chain.
	gaps     gapWatchlist
	gapWarns lograte.Warner
	gapEvery time.Duration
	cfg      Config
	log      *slog.Logger
	now      func() time.Time
	// gate refuses the orders of a paused venue before anything is signed
	// (WithVenueGate); nil lets every venue trade.
	gate VenueGate
	// skips, when set, claim a skip_if_bought buy's token before it is
	// signed (WithSkipClaims).
	skips SkipClaims
	// beforeTakes, set by tests only, runs between an order's plan and
	// its nonce takes.
	beforeTakes func()
}

// VenueGate tells whether a venue takes orders (venues.Gate).
type VenueGate = venues.Gate

// WithVenueGate makes the signer refuse, with gate's error and before
// anything is signed, an order whose pool is of a venue (uniswap_v2,
// uniswap_v3) gate reports paused on the pool's chain: only here is an
// order's pool known. A job without a chain trades on another chain whose
// pool's venue is not paused, if any has the token (see Sign).
func (s *Signer) WithVenueGate(gate VenueGate) *Signer {
	s.gate = gate
	return s
}

// SkipClaims claim the token a buy with skip_if_bought resolved to, before
// any nonce is taken for it; *skipclaim.Claims implements it. Hold's error
// (a skipclaim.ErrHeld) skips the buy.
type SkipClaims interface {
	Hold(ctx context.Context, f wire.Family, job *wire.SwapJob, chain, token string) error
}

// WithSkipClaims makes the signer claim, through c, the token of every buy
// with skip_if_bought before signing it, so that a buy naming the token
// and one naming its pair or pool trade at most once.
func (s *Signer) WithSkipClaims(c SkipClaims) *Signer {
	s.skips = c
	return s
}

// venueOpen is nil when the venue of p, the pool chosen on its chain,
// takes orders.
func (s *Signer) venueOpen(p *pool) error {
	if s.gate == nil {
		return nil
	}
	return s.gate.Open(p.ch.Name, p.venue())
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
	s := &Signer{chains: map[string]*chainState{}, keys: keys, nonces: nonces, spends: newSpends(), gapEvery: gapEvery, cfg: withDefaults(cfg),
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
			signer: types.LatestSignerForChainID(c.ChainID), gas: newGasBook(),
			approvals: map[approvalKey]approvalMemo{}}
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

// TakesTips reports whether the signer pays a processor tip on the named
// chain: the chain has a tip address, where its relay's bundles pay. A job
// with a processor_tip above 0 on another chain is refused.
func (s *Signer) TakesTips(chain string) bool {
	c, ok := s.chains[strings.ToLower(chain)]
	return ok && c.takesTips()
}

// Sign builds and signs the transactions of job: per wallet an approval
// where one is needed, a tip where the job pays one, then the swap, each
// with its own nonce.
//
// A job without a chain (or with chain "evm") is looked up on every
// configured chain that offers its quote asset; the batch names the chain
// it trades on and its Route says why (see market.route). A buy spends the
// leg's amount of the quote asset; a sell sells the leg's percent of the
// wallet's token balance, skipping wallets that hold none. Min-out is the
// pool's quote, leg after leg, less the probed tax (when max_tax asked for
// a probe) and the slippage.
//
// The pool a chain offers is the best one there of the venues not paused
// on it (WithVenueGate); when every pool of the token there is of a paused
// venue, the order is refused VENUE_PAUSED before anything is signed, and
// a job without a chain leaves such chains out of its choice instead, its
// route naming them, and is refused only when every chain with a pool of
// the token is left out.
//
// Business errors are *apierr.Error: INVALID_REQUEST for a malformed or
// unsupported field (a processor_tip on a chain without a bundle market
// among them), TOKEN_NOT_FOUND when no chain has a pool of the token
// against the quote asset, TAX_OUT_OF_RANGE, LIQUIDITY_OUT_OF_RANGE and
// MARKET_CAP_OUT_OF_RANGE with the measured figures in details,
// VENUE_PAUSED naming the venue, INSUFFICIENT_BALANCE naming the first
// wallet that cannot pay (checked for every wallet before any signature),
// BROADCAST_FAILED when the chain's simulation of a swap reverts,
// CHAIN_UNAVAILABLE naming the chain for a sale that the wallet's sales on
// other workers outran every time it was worked out (or an order whose
// router allowance the wallet's orders on other workers spent each time).
// Any other error (RPC failures, timeouts,
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
	cands, err := s.candidates(job, o)
	if err != nil {
		return nil, err
	}
	// The wallets' earlier orders that spend what this one does are
	// signed, and noted, before this one reads their balances.
	release, err := s.spends.take(ctx, turnKeys(o, cands))
	if err != nil {
		return nil, err
	}
	defer release()
	for again := 0; ; again++ {
		b, err := s.signRead(ctx, job, o, cands)
		// A sale another worker's sale of its wallet outran (the turns
		// are per process), or an order whose allowance another worker's
		// order spent, is worked out again from a fresh read; nothing of
		// it was taken or signed.
		var since *soldSince
		if !errors.As(err, &since) {
			return b, err
		}
		if again == soldAgain {
			return nil, since.outrun(again + 1)
		}
		what := "sale worked out again: another sale of the wallet came first"
		if since.allowance {
			what = "order worked out again: another order of the wallet spent the router's allowance first"
		}
		s.log.Info(what, "order_id", job.OrderID, "reason", since.Error())
		// Apart a little, longer each time: two orders of the same
		// wallets on two workers that outran each other wallet by wallet
		// do not meet again in step, and a worker whose own sales of the
		// wallet follow one another may let this one in between.
		if err := sleep(ctx, time.Duration(rand.Int64N(int64(20*(again+1))*int64(time.Millisecond)))); err != nil {
			return nil, err
		}
		if o, err = parseJob(job); err != nil {
			return nil, err
		}
	}
}

// tradingChains leaves out of cands the chains whose every venue is
// paused, before any of their pools is read: a chain paused because its
// RPC serves another chain would find no pool there, and answer the order
// TOKEN_NOT_FOUND, charged, where VENUE_PAUSED is free. When none is left,
// the first chain's pause is the error; otherwise it is leftOut, the
// answer when the chains left have no pool of the token.
func (s *Signer) tradingChains(cands []*chainState) (open []*chainState, leftOut, err error) {
	if s.gate == nil {
		return cands, nil, nil
	}
	for _, c := range cands {
		if paused := venues.ChainPaused(s.gate, c.Name); paused != nil {
			if leftOut == nil {
				leftOut = paused
			}
			continue
		}
		open = append(open, c)
	}
	if len(open) == 0 && leftOut != nil {
		return nil, nil, leftOut
	}
	return open, leftOut, nil
}

// soldAgain bounds how often a sale is worked out again after another
// worker's sale of its wallet came first, each time from a fresh read after
// a random pause.
const soldAgain = 8

// signRead reads the order's market and wallets and signs it.
func (s *Signer) signRead(ctx context.Context, job *wire.SwapJob, o *order, cands []*chainState) (*wire.TxBatch, error) {
	named := len(cands) == 1 && job.Chain != "" && !strings.EqualFold(job.Chain, wire.ChainAnyEVM)
	return s.signReadOn(ctx, job, o, cands, named)
}

// signReadOn is signRead; named tells that cands is the one chain the
// order named, or the one a chainless sale's chain was chosen as.
func (s *Signer) signReadOn(ctx context.Context, job *wire.SwapJob, o *order, cands []*chainState, named bool) (*wire.TxBatch, error) {
	cands, leftOut, err := s.tradingChains(cands)
	if err != nil {
		return nil, err
	}
	// On a known chain the wallets and the fees are read while the pools
	// are quoted: none of it depends on the pool.
	var r *reads
	if len(cands) == 1 {
		r = s.startReads(ctx, cands[0], o)
	}
	// The pool is chosen before anything else about the wallets is read:
	// the token, the quote asset and the amounts decide it.
	m, err := s.resolve(ctx, o, cands, r)
	if ae := (*apierr.Error)(nil); errors.As(err, &ae) && ae.Code == apierr.TokenNotFound {
		// No pool where the venues trade: a paused venue may hold it (a
		// pause for a wrong factory or quoter finds no pool through them,
		// and one for a chain's whole RPC reads none), and that is what
		// keeps the order from trading: VENUE_PAUSED, free, not a charged
		// 404 an Idempotency-Key would replay once the venue is back.
		paused := leftOut
		if named && s.gate != nil {
			paused = venues.EVMVenuePaused(s.gate, cands[0].Name)
		}
		if paused != nil {
			ae := apierr.From(paused)
			return nil, apierr.Newf(apierr.VenuePaused, ae.Details,
				"no pool of %s was found on the venues trading, and %s may hold one: %s", o.token.Hex(), ae.Details, ae.Message)
		}
		// A buy that named its quote asset and no chain looked only on the
		// chains offering that asset: a token that trades on another chain
		// is one whose chain does not support the asset.
		if !named && o.side == wire.Buy && o.quote != "" {
			if c := s.tradedWithoutQuote(ctx, o, cands); c != nil {
				return nil, apierr.Invalid("quote_asset", "quote asset %q is not available on %s, where %s trades; valid there: %s",
					job.QuoteAsset, c.Name, o.token.Hex(), strings.Join(c.asset.Symbols(), ", "))
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if err := s.venueOpen(m.best); err != nil {
		return nil, &wire.Refusal{Err: err, Chain: m.best.ch.Name, Route: m.route()}
	}
	if o.chosen != "" {
		// Why this chain was chosen among several, before the sale was
		// worked out again on it alone, for the route.
		m.reason = o.chosen
	}
	if o.side == wire.Sell && r.on(m.ch) == nil {
		// A sale whose chain was just chosen is worked out again on that
		// chain as one naming it: its share then comes from the balances
		// read with the wallets' records of sales in flight, and a sale
		// another worker signs meanwhile is found when this one takes its
		// nonce (it is worked out again then), where shares of reads made
		// while the chain was chosen could sell more than the wallet will
		// hold, which the chain refuses. One more quote of the pool.
		fresh, err := parseJob(job)
		if err != nil {
			return nil, err
		}
		fresh.chosen = m.reason
		return s.signReadOn(ctx, job, fresh, []*chainState{m.ch}, true)
	}
	b, err := s.signOn(ctx, job, o, m, r)
	if ae := (*apierr.Error)(nil); errors.As(err, &ae) {
		// A refusal keeps where the order would have traded, and the tax
		// when it was probed, for the failed order's record.
		return nil, &wire.Refusal{Err: err, Chain: m.best.ch.Name, Route: m.route(), Tax: o.tax.wire()}
	}
	return b, err
}

// signOn signs the order on the market resolve chose; r are the wallets'
// reads when they were started on its chain.
func (s *Signer) signOn(ctx context.Context, job *wire.SwapJob, o *order, m *market, r *reads) (*wire.TxBatch, error) {
	if err := checkTip(m.ch, o); err != nil {
		return nil, err
	}
	if r.on(m.ch) == nil {
		// A buy whose chain was just chosen (a sale's is read again, see
		// signReadOn).
		r = s.startReads(ctx, m.ch, o)
	}
	// The tax probe simulates a round trip on each pool quoted, and the
	// order trades on the one paying the most after its tax
	// (chooseAfterTax); its measured tax also lowers the legs' min-out, so
	// that a taxed token does not trip its own slippage bound.
	if job.MaxTaxBps != nil {
		t, err := s.chooseAfterTax(ctx, m, *job.MaxTaxBps)
		if t != nil {
			o.tax = t
		}
		if err != nil {
			return nil, err
		}
	}
	// The client's market filters come before the wallets: a market
	// outside them is refused whatever the wallets hold. They are of the
	// pool the order trades on.
	if err := s.checkBounds(ctx, m.best, job); err != nil {
		return nil, err
	}
	// Every leg is quoted and checked against its wallet before any nonce
	// is taken or key touched: an order is signed whole or not at all. A
	// swap that needs nothing of the wallets' reads is simulated from the
	// moment it is built, while they are still on their way.
	keys := s.readKeys(ctx, o)
	legs, err := s.planSwaps(ctx, m, o)
	if err != nil {
		return nil, err
	}
	for i, l := range legs {
		l.keyRead = keys[i]
	}
	s.simulateEarly(ctx, m.best, o, legs)
	if err := s.planWallets(ctx, m, o, r, legs); err != nil {
		return nil, err
	}
	// The token is known and every check passed; no nonce is taken yet.
	// A buy of it by another name (its pool, its pair) may still make this
	// one a no-op.
	if s.skips != nil {
		if err := s.skips.Hold(ctx, wire.FamilyEVM, job, m.best.ch.Name, m.best.token.Hex()); err != nil {
			return nil, err
		}
	}
	txs, err := s.signLegs(ctx, m.best, o, legs)
	if err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) {
			return nil, err
		}
		return nil, fmt.Errorf("sign order %s on %s: %w", job.OrderID, m.ch.Name, err)
	}
	s.log.Debug("signed order", "order_id", job.OrderID, "on", m.ch.Name, "side", string(job.Side), "txs", len(txs))
	var skipped []wire.WalletSkip
	for _, l := range legs {
		if l.skip != "" {
			skipped = append(skipped, wire.WalletSkip{Wallet: l.wallet.Hex(), Reason: l.skip})
		}
	}
	return &wire.TxBatch{
		SkippedWallets: skipped,
		OrderID:        job.OrderID,
		AccountID:      job.AccountID,
		Family:         wire.FamilyEVM,
		Chain:          m.ch.Name,
		Token:          job.Token,
		Side:           job.Side,
		Txs:            txs,
		SignedAt:       o.takesAt.UTC(),
		SendBy:         o.sendBy,
		Route:          m.route(),
		Venue:          m.best.venue(),
		Tax:            o.tax.wire(),
		// The token and its pool: what the address named, and its other
		// name, which the trade history records too.
		Mint: m.best.token.Hex(),
		Pool: m.best.addr.Hex(),
	}, nil
}

// candidates returns the chains a job may trade on: its own, or every
// configured chain that offers its quote asset when it names none. A named
// chain that takes no tip refuses a tip here, before any chain is read.
func (s *Signer) candidates(job *wire.SwapJob, o *order) ([]*chainState, error) {
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
		if err := checkTip(c, o); err != nil {
			return nil, err
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

// checkTip refuses a client's processor tip on a chain without a bundle
// market: there is no one to pay it to, and sending it to the block's
// producer in a public transaction would buy nothing. auto_tip picks no tip
// there instead. It also refuses anti_mev on a chain without a private
// relay.
func checkTip(c *chainState, o *order) error {
	if o.antiMEV && !c.PrivateRelay {
		return antiMEVRefused(c.Name)
	}
	if o.autoTip || o.processorTip.Sign() == 0 || c.takesTips() {
		return nil
	}
	return apierr.Invalid("processor_tip", "processor_tip must be 0 on %s: the chain has no bundle market to pay a tip into "+
		"(it is sequenced without public bundles, and no tip_address is configured for it)", c.Name)
}

// antiMEVRefused is the refusal of an anti_mev order on a chain without a
// private relay: there is nowhere to send it but the public mempool, which
// is what anti_mev asks to avoid.
func antiMEVRefused(chain string) error {
	return apierr.Invalid("anti_mev", "anti_mev is not available on %s: no private relay is configured for the chain "+
		"(evm.chains.%s.relay_url); send the order without anti_mev to use the public mempool", chain, chain)
}
