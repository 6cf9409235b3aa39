// Package wire holds the messages that cross process boundaries: the jobs
// that ingress publishes, the signed batches that workers hand to the
// broadcaster, the replies to a waiting ingress, and the order records kept
// for GET /api/v1/orders/{id}. Every type encodes as JSON.
package wire

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/tradeapi/tradeapi/shared/apierr"
)

// Family is a chain family: an API key and a wallet belong to one.
type Family string

// The chain families.
const (
	FamilySol Family = "sol"
	FamilyEVM Family = "evm"
)

// Valid reports whether f is a known family.
func (f Family) Valid() bool { return f == FamilySol || f == FamilyEVM }

// Side of a swap.
type Side string

// Swap sides, spelled as on the wire.
const (
	Buy  Side = "Buy"
	Sell Side = "Sell"
)

// Sell modes.
const (
	SellPercent = "percent"
	SellTokens  = "tokens"
)

// Chain names. Solana is the only chain of the sol family.
const (
	ChainSolana = "solana"
	ChainEth    = "eth"
	ChainBsc    = "bsc"
	ChainBase   = "base"
	ChainRbh    = "rbh"
	ChainArc    = "arc"
)

// The networks a chain is served on, as a job says it (bus.HeaderNetwork).
const (
	// NetworkLocal: the chain is run by the local chains, a test double.
	NetworkLocal = "local"
	// NetworkPublic: the chain is a configured network, a public one.
	NetworkPublic = "public"
	// NetworkMixedPrefix starts the network of the evm catch-all when some
	// of the EVM chains served are local and others not: the local ones
	// follow, comma-separated.
	NetworkMixedPrefix = "mixed:"
)

// ChainNetwork is the network chain is on where its chains are served on
// network (a job's bus.HeaderNetwork): network itself, but for a mixed one,
// which is local for the chains it lists and public for the others.
func ChainNetwork(network, chain string) string {
	local, mixed := strings.CutPrefix(network, NetworkMixedPrefix)
	switch {
	case !mixed:
		return network
	case slices.Contains(strings.Split(local, ","), chain):
		return NetworkLocal
	}
	return NetworkPublic
}

// ChainAnyEVM is the subject chain of EVM jobs that omit chain: its workers
// resolve the token across every configured EVM chain.
const ChainAnyEVM = "evm"

// EVMChains lists the chains of the evm family in a stable order.
var EVMChains = []string{ChainEth, ChainBsc, ChainBase, ChainRbh, ChainArc}

// Order kinds.
const (
	KindSwap   = "swap"
	KindDeploy = "deploy"
)

// Order and signature states. Confirmed, failed and expired are final.
const (
	StatePending   = "pending"
	StateBroadcast = "broadcast"
	StateConfirmed = "confirmed"
	StateFailed    = "failed"
	StateExpired   = "expired"
)

// FinalState reports whether s is final.
func FinalState(s string) bool {
	return s == StateConfirmed || s == StateFailed || s == StateExpired
}

// AutoOrder is one exit attached to a buy (DECISIONS.md, auto_orders[]).
type AutoOrder struct {
	Type         string   `json:"type"`
	TriggerPct   *float64 `json:"trigger_pct,omitempty"`
	AfterSeconds *int64   `json:"after_seconds,omitempty"`
	SellPct      float64  `json:"sell_pct"`
}

// Leg is one wallet's part of a swap.
//
// Amount is the exact decimal string as sent, already validated: for a Buy,
// whole units of the quote asset (workers scale it by the asset's decimals
// on the chain that trades it); for a Sell in percent mode, the percent (1 to
// 100); for a Sell in tokens mode, the token quantity, which the worker
// scales by the token's decimals.
//
// AmountField is the request's field the amount came from when the
// wallet's entry had an amount of its own ("wallets[2].amount"); empty
// when the leg took the top-level amount (or the request named no
// wallets). A worker that refuses the amount names it (Field).
type Leg struct {
	Wallet      string `json:"wallet"`
	Amount      string `json:"amount"`
	AmountField string `json:"amount_field,omitempty"`
}

// Field is the request field a refusal of the leg's amount names.
func (l Leg) Field() string {
	if l.AmountField == "" {
		return "amount"
	}
	return l.AmountField
}

// SwapJob is a validated swap, published by ingress on the chain's orders
// subject and consumed by one worker of that chain.
type SwapJob struct {
	OrderID    string `json:"order_id"`
	AccountID  string `json:"account_id"`
	Family     Family `json:"family"`
	Chain      string `json:"chain"` // empty on the evm family: resolve across chains
	Token      string `json:"token"`
	Side       Side   `json:"side"`
	SellMode   string `json:"sell_mode,omitempty"`
	QuoteAsset string `json:"quote_asset"`
	Legs       []Leg  `json:"legs"`
	// SlippageBps is the slippage in basis points (slippage 10 = 1000 bps).
	SlippageBps uint32 `json:"slippage_bps"`
	// PriorityFee and ProcessorTip are integers in the chain's smallest
	// units: lamports on Solana; wei on EVM. PriorityFee "" is none named:
	// on EVM the worker picks one (see workers/evm feesOf), on Solana none
	// is paid.
	PriorityFee  string `json:"priority_fee"`
	ProcessorTip string `json:"processor_tip"`
	AutoTip      bool   `json:"auto_tip,omitempty"`
	// FeeCaps are the account's fee caps in the same units, set by
	// ingress, so that what auto_tip chooses in the worker stays under
	// them; nil (a job from an older ingress) means the default caps.
	FeeCaps *FeeCaps `json:"fee_caps,omitempty"`
	AntiMEV bool     `json:"anti_mev,omitempty"`
	// MaxTaxBps is the max-tax cap in basis points; nil means no probe.
	MaxTaxBps       *uint32     `json:"max_tax_bps,omitempty"`
	MinLiquidityUSD *float64    `json:"min_liquidity_usd,omitempty"`
	MaxLiquidityUSD *float64    `json:"max_liquidity_usd,omitempty"`
	MinMarketCapUSD *float64    `json:"min_market_cap_usd,omitempty"`
	MaxMarketCapUSD *float64    `json:"max_market_cap_usd,omitempty"`
	SkipIfBought    bool        `json:"skip_if_bought,omitempty"`
	AutoOrders      []AutoOrder `json:"auto_orders,omitempty"`
	CreatedAt       time.Time   `json:"created_at"`
}

// FeeCaps bound a swap's fees per transaction, as integers in the chain's
// smallest units like SwapJob.PriorityFee and SwapJob.ProcessorTip:
// lamports on Solana; on EVM the priority fee in wei per gas and the tip in
// wei.
type FeeCaps struct {
	MaxPriorityFee  string `json:"max_priority_fee"`
	MaxProcessorTip string `json:"max_processor_tip"`
}

// SignedTx is one wallet's signed transaction, ready to send.
type SignedTx struct {
	Wallet string `json:"wallet"`
	// Private sends through the chain's private relay (anti_mev) instead
	// of the public RPC.
	Private   bool   `json:"private,omitempty"`
	Signature string `json:"signature"` // base58 on Solana, 0x hash on EVM
	Raw       []byte `json:"raw"`       // the wire bytes
	// LastValidBlockHeight bounds a Solana transaction's life.
	LastValidBlockHeight uint64 `json:"last_valid_block_height,omitempty"`
	// Closes is the token account (base58) the transaction closes into
	// its wallet: a Solana sell of the wallet's whole holding returns the
	// account's rent. Empty when it closes none.
	Closes string `json:"closes,omitempty"`
	// FeeLamports is what a Solana transaction pays once it lands, failed
	// or not: the base fee of its signatures and its priority fee, as its
	// compute-budget instructions set them. 0 when the signer did not say.
	FeeLamports uint64 `json:"fee_lamports,omitempty"`

	// A deploy's transactions name the bundle they go in (1, 2, ...;
	// bundles are sent in that order, each once the one before landed),
	// what they do first (TxCreate, TxDevBuy, TxBuy), and on which venue
	// and mint.
	Bundle int    `json:"bundle,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Dex    string `json:"dex,omitempty"`
	Mint   string `json:"mint,omitempty"`
}

// TxBatch is what a worker hands to the broadcaster: every signed
// transaction of one order. A redelivered job republishes the same batch.
type TxBatch struct {
	OrderID   string     `json:"order_id"`
	AccountID string     `json:"account_id"`
	Family    Family     `json:"family"`
	Chain     string     `json:"chain"`
	Token     string     `json:"token"`
	Side      Side       `json:"side"`
	Txs       []SignedTx `json:"txs"`
	SignedAt  time.Time  `json:"signed_at"`
	// SendBy, when set, is the moment from which no transaction of the
	// batch is sent, first or again, by any delivery or the tracker: an
	// EVM swap's deadline, after which it would only revert, and from
	// shortly after which its wallet's nonces may go to another order's
	// transactions (a late send would then compete with those).
	SendBy time.Time `json:"send_by,omitzero"`
	// Route says where the order trades (venue, pool, and why it was
	// chosen when the chain was resolved), for the order lookup.
	Route string `json:"route,omitempty"`
	// Venue is the venue the order trades on (shared/venues' names:
	// pump_fun, pumpswap, launchlab, dbc, uniswap_v2, uniswap_v3), which
	// the settled orders' metrics are labelled by.
	Venue string `json:"venue,omitempty"`
	// SkippedWallets are the order's wallets the signer left out, each
	// with why: a buy whose curve the order's earlier wallets completed, a
	// sale of a wallet with nothing to sell.
	SkippedWallets []WalletSkip `json:"skipped_wallets,omitempty"`
	// Mint and Pool name the token the order traded and the pool it
	// traded on (empty on a bonding curve) when the signer knows them:
	// Token is the request's address, which may be either. The trade
	// history and the positions know a token by all of them.
	Mint string `json:"mint,omitempty"`
	Pool string `json:"pool,omitempty"`
	// Curve is a pump.fun coin's bonding curve, another name a request may
	// give the token, which the trade history records too.
	Curve string `json:"curve,omitempty"`
	// Tax is the probed token tax, when max_tax asked for a probe.
	Tax *TaxProbe `json:"tax,omitempty"`
	// Kind is KindDeploy for a launch, whose transactions go in bundles;
	// empty for a swap.
	Kind string `json:"kind,omitempty"`
	// Mints of a deploy, in the order of its launches, and the pool each
	// trades on (a LetsBonk or Bags coin's curve pool, the PumpSwap pool a
	// pump.fun coin graduates to), which the trade history records too.
	Mints []string `json:"mints,omitempty"`
	Pools []string `json:"pools,omitempty"`
	// Curves are the bonding curves of the pump.fun launches, "" for the
	// others, by launch: recorded as names of their coins too.
	Curves []string `json:"curves,omitempty"`
	// AutoOrders are the buy's exits, carried so that a broadcaster that
	// has to create the order record (ingress could not store it) keeps
	// them, and the exits engine opens the position.
	AutoOrders []AutoOrder `json:"auto_orders,omitempty"`
	// FirstLandsFirst: the other transactions go out once the first is seen
	// on chain (or after a bound), not beside it. A PumpSwap pool written
	// under an older layout is grown by the first transaction of a
	// many-wallet order, and every wallet's trade on it fails until then.
	FirstLandsFirst bool `json:"first_lands_first,omitempty"`
}

// Refusal is a signer's refusal of an order (Err, an *apierr.Error) with
// what the signer learned of the order before it refused: the chain and
// where on it the order would have traded (an EVM order may name no
// chain), and the token's probed tax. The failed order's record keeps
// them, as an accepted order's does.
type Refusal struct {
	Err   error
	Chain string
	Route string
	Tax   *TaxProbe
}

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

// TaxProbe is a token's buy and sell tax in percent, measured by
// simulating a round trip before an EVM trade.
type TaxProbe struct {
	BuyPct  float64 `json:"buy_pct"`
	SellPct float64 `json:"sell_pct"`
}

// Reply is the answer to a waiting ingress.
type Reply struct {
	OrderID    string       `json:"order_id"`
	Signatures []string     `json:"signatures"`
	Error      *apierr.Body `json:"error,omitempty"`
	// Skipped: the worker made the buy a no-op for skip_if_bought, since
	// another buy of the account holds its token's mint (skipclaim).
	Skipped bool `json:"skipped,omitempty"`
	// Deploy is a launch's result, set once its bundles landed.
	Deploy *DeployResult `json:"deploy,omitempty"`
}

// SigState is one transaction of an order as the order lookup shows it.
type SigState struct {
	Signature string `json:"signature"`
	Wallet    string `json:"wallet"`
	State     string `json:"state"`
	Error     string `json:"error,omitempty"`
	// RentReturnedLamports is what closing the wallet's token account in
	// this transaction (a Solana sell of the whole holding) returned to the
	// wallet, read from the landed transaction; 0 until it landed, and when
	// it closed none.
	RentReturnedLamports uint64 `json:"rent_returned_lamports,omitempty"`
	// Slot is the Solana slot, or the EVM block, the transaction landed
	// in; 0 until it landed, and when it never did.
	Slot uint64 `json:"slot,omitempty"`
	// FeeLamports (Solana) and FeeWei (EVM, a decimal string: wei overflow
	// a JSON number's exact range) are the fee the transaction paid, set
	// once it landed, confirmed or failed: a transaction that never landed
	// paid none. A Jito or processor tip is not a fee.
	FeeLamports uint64 `json:"fee_lamports,omitempty"`
	FeeWei      string `json:"fee_wei,omitempty"`
}

// WalletSkip is a wallet of an order that sent no transaction, and why.
type WalletSkip struct {
	Wallet string `json:"wallet"`
	Reason string `json:"reason"`
}

// Bundle states: the relay's verdict on a bundle as the order lookup shows
// it. Pending is not final; the others are, and are also the outcomes of
// the metric of bundles.
const (
	// BundlePending: the relay took the bundle and has given no verdict.
	BundlePending = "pending"
	// BundleLanded: the relay reports the bundle landed, in Slot.
	BundleLanded = "landed"
	// BundleFailed: the relay reports the bundle failed (a transaction of
	// it failed or could not be executed); nothing of it is on chain.
	BundleFailed = "failed"
	// BundleDropped: the relay refused the bundle when it was sent, with
	// Reason.
	BundleDropped = "dropped"
	// BundleInvalid: the relay no longer knows the bundle (it forgot it,
	// or never took it) and its blockhash expired without it landing.
	BundleInvalid = "invalid"
	// BundlePendingTimeout: the relay still called the bundle pending when
	// its blockhash expired; it can no longer land.
	BundlePendingTimeout = "pending_timeout"
)

// Bundle is one bundle an order sent through a block-engine relay (an
// anti_mev swap's transaction, a launch's bundles) and the relay's verdict.
type Bundle struct {
	// ID is the relay's bundle id; empty when the relay refused the bundle
	// before naming it.
	ID string `json:"id"`
	// Relay is the relay's configured name (never its URL).
	Relay string `json:"relay,omitempty"`
	// State is a Bundle* state.
	State string `json:"state"`
	// Slot is where a landed bundle landed.
	Slot uint64 `json:"slot,omitempty"`
	// Reason is the relay's reason for a bundle that did not land.
	Reason string `json:"reason,omitempty"`
	// Signatures are the bundle's transactions, in bundle order.
	Signatures []string `json:"signatures"`
}

// FinalBundle reports whether s is a final bundle state.
func FinalBundle(s string) bool { return s != BundlePending && s != "" }

// Order is the stored record of an order. Ingress renders the public view
// of it for GET /api/v1/orders/{id}.
type Order struct {
	OrderID    string       `json:"order_id"`
	AccountID  string       `json:"account_id"`
	Family     Family       `json:"family"`
	Kind       string       `json:"kind"`
	State      string       `json:"state"`
	Chain      string       `json:"chain,omitempty"`
	Side       Side         `json:"side,omitempty"`
	Token      string       `json:"address,omitempty"`
	Skipped    bool         `json:"skipped"`
	Signatures []SigState   `json:"signatures"`
	Error      *apierr.Body `json:"error,omitempty"`
	AutoOrders []AutoOrder  `json:"auto_orders"`
	Route      string       `json:"route,omitempty"`
	// Venue is TxBatch.Venue; not in the public view.
	Venue string `json:"venue,omitempty"`
	// SkippedWallets are the order's wallets that sent nothing, each with
	// why (TxBatch.SkippedWallets).
	SkippedWallets []WalletSkip `json:"skipped_wallets,omitempty"`
	// Mint is the token traded when the request's address named its pool
	// (TxBatch.Mint).
	Mint string    `json:"mint,omitempty"`
	Tax  *TaxProbe `json:"tax,omitempty"`
	// Deploy lists a launch's mints and the transactions that landed.
	Deploy *DeployResult `json:"deploy,omitempty"`
	// Bundles are the bundles the order sent through a relay, in the
	// order they were sent, each with the relay's verdict.
	Bundles []Bundle `json:"bundles,omitempty"`
	// BroadcastAt is when the chain first accepted a transaction of the
	// order; time exits count from it.
	BroadcastAt *time.Time `json:"broadcast_at,omitempty"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
	// EndedAt is when the order's state first became final: the record's
	// write that made it so (later writes, of its positions, move
	// UpdatedAt only). Not in the public view.
	EndedAt *time.Time `json:"ended_at,omitempty"`

	// Positions are a buy's positions and their exits (the exits engine).
	Positions []PositionView `json:"positions,omitempty"`

	// NotedAttempt is the delivery of the order's batch that wrote what it
	// sent before handing the batch back to try again (the broadcaster's
	// own bookkeeping; the order lookup does not show it). Nothing is sent
	// between that note and the hand-back, so the next delivery knows what
	// the one before it sent.
	NotedAttempt uint64 `json:"noted_attempt,omitempty"`
}

// Beat is a worker's heartbeat on its chain's presence subject. Ingress
// answers CHAIN_UNAVAILABLE at once for a chain with no recent beat.
type Beat struct {
	Chain   string `json:"chain"`
	Worker  string `json:"worker"`
	Leaving bool   `json:"leaving,omitempty"`
	// Local: the worker signs for the local chains, test doubles, not the
	// public network. An ingress routes a chain's orders only to workers
	// on the network it serves that chain on.
	Local bool `json:"local,omitempty"`
	// Network is the network the worker serves its chain on, as its jobs
	// must say it (bus.HeaderNetwork): for the evm catch-all it also tells
	// which EVM chains a mix leaves local, which Local cannot.
	Network string `json:"network,omitempty"`
}

// TradeHolders decodes a trade-history value (see TradeKey): the buys of
// the token in flight, none landed yet, for a value {"pending": [order
// ids]}; final (bought for good) for anything else, a plain order id: a
// buy that landed, a launch, or what earlier versions wrote.
func TradeHolders(v []byte) (pending []string, final bool) {
	if len(v) == 0 || v[0] != '{' {
		return nil, true
	}
	var p struct {
		Pending []string `json:"pending"`
	}
	if json.Unmarshal(v, &p) != nil || len(p.Pending) == 0 {
		return nil, true
	}
	return p.Pending, false
}

// TradeKey is the trade-history key of an account's buys of a token: the
// broadcaster writes it for every broadcast buy and ingress reads it for
// skip_if_bought. On EVM the chain is part of a token's name, since one
// address may be two different tokens on two chains; chain "" gives the
// key earlier versions wrote for a buy on any EVM chain, which ingress
// still reads (a buy it records must not be bought again). Solana has one
// chain, and its keys never name it.
func TradeKey(account string, family Family, chain, token string) string {
	if family == FamilyEVM {
		token = strings.ToLower(token)
		if chain != "" {
			token = strings.ToLower(chain) + "." + token
		}
	}
	return account + "." + string(family) + "." + token
}
