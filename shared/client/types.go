package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// Side of a swap.
type Side string

// Swap sides, spelled as the API wants them.
const (
	Buy  Side = "Buy"
	Sell Side = "Sell"
)

// State is an order's or a transaction's state.
type State string

// Order and transaction states. Confirmed, failed and expired are final.
const (
	StatePending   State = "pending"
	StateBroadcast State = "broadcast"
	StateConfirmed State = "confirmed"
	StateFailed    State = "failed"
	StateExpired   State = "expired"
	// StateFired is the state of an exit_fired event (EventExitFired): an
	// exit of the buy fired and published its sell. It is not an order's.
	StateFired State = "fired"
)

// Final reports whether s is a final state.
func (s State) Final() bool {
	return s == StateConfirmed || s == StateFailed || s == StateExpired
}

// Number is a JSON number written exactly as given ("0.0001", "10"), so a
// fee or a bound never goes through a float64 on its way. The empty Number
// is left out of a request.
type Number string

var numberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// Float returns the shortest Number that reads back as f.
func Float(f float64) Number { return Number(strconv.FormatFloat(f, 'f', -1, 64)) }

// Int returns the Number of a whole number.
func Int(n int64) Number { return Number(strconv.FormatInt(n, 10)) }

// MarshalJSON writes the number as is, after checking it is one.
func (n Number) MarshalJSON() ([]byte, error) {
	if !numberRE.MatchString(string(n)) {
		return nil, fmt.Errorf("tradeapi: %q is not a JSON number", string(n))
	}
	return []byte(n), nil
}

// UnmarshalJSON keeps the number's text.
func (n *Number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = ""
		return nil
	}
	if !numberRE.Match(b) {
		return fmt.Errorf("tradeapi: %s is not a JSON number", b)
	}
	*n = Number(b)
	return nil
}

// Float64 returns the number as a float64, for display.
func (n Number) Float64() (float64, error) { return strconv.ParseFloat(string(n), 64) }

// Pong is the answer of GET /ping.
type Pong struct {
	Pong bool `json:"pong"`
	Meta Meta `json:"-"`
}

// Wallet is one of the account's wallets.
type Wallet struct {
	Address    string `json:"address"`
	Label      string `json:"label"`
	SpotActive bool   `json:"spot_active"`
}

// WalletList is the answer of GET /api/v1/wallets, in natural label order.
type WalletList struct {
	Wallets []Wallet `json:"wallets"`
	Meta    Meta     `json:"-"`
}

// SwapWallet is one wallet of a swap; an empty Amount trades the request's.
type SwapWallet struct {
	Address string `json:"address"`
	Amount  string `json:"amount,omitempty"`
}

// AutoOrder is an exit attached to a buy: take_profit, stop_loss,
// trailing_stop (trigger_pct), time (after_seconds) or dev_sell.
type AutoOrder struct {
	Type         string `json:"type"`
	TriggerPct   Number `json:"trigger_pct,omitempty"`
	AfterSeconds int64  `json:"after_seconds,omitempty"`
	SellPct      Number `json:"sell_pct,omitempty"`
}

// SwapRequest is the body of POST /api/v1/swap. Amounts are decimal
// strings; see the README for every field's rules.
type SwapRequest struct {
	Address string `json:"address"`
	Side    Side   `json:"side"`
	Amount  string `json:"amount,omitempty"`
	// Wallets names the wallets that trade. Nil is sent as null, which the
	// service reads as every spot-active wallet, so Client.Swap sends a nil
	// Wallets only with AllSpotActive set and refuses it otherwise
	// (ErrWalletsUnchosen): a filter that selected nothing must not trade
	// every wallet. An empty, non-nil slice is sent as [] and refused with
	// NO_WALLETS.
	Wallets []SwapWallet `json:"wallets"`
	// AllSpotActive chooses every wallet of the account whose spot_active
	// is set, each trading Amount; Wallets must then be nil. It is not sent
	// itself: the service reads wallets null so.
	AllSpotActive   bool   `json:"-"`
	Slippage        Number `json:"slippage,omitempty"`
	PriorityFee     Number `json:"priority_fee,omitempty"`
	ProcessorTip    Number `json:"processor_tip,omitempty"`
	AutoTip         bool   `json:"auto_tip,omitempty"`
	AntiMEV         bool   `json:"anti_mev,omitempty"`
	SkipIfBought    bool   `json:"skip_if_bought,omitempty"`
	QuoteAsset      string `json:"quote_asset,omitempty"`
	Chain           string `json:"chain,omitempty"`
	SellMode        string `json:"sell_mode,omitempty"`
	MaxTax          Number `json:"max_tax,omitempty"`
	MinLiquidityUSD Number `json:"min_liquidity_usd,omitempty"`
	MaxLiquidityUSD Number `json:"max_liquidity_usd,omitempty"`
	MinMarketCapUSD Number `json:"min_market_cap_usd,omitempty"`
	MaxMarketCapUSD Number `json:"max_market_cap_usd,omitempty"`
	// AutoOrders nil applies the account's saved strategy; an empty,
	// non-nil slice attaches none.
	AutoOrders []AutoOrder `json:"auto_orders"`
}

// checkWallets refuses a request that does not say which wallets trade.
func (r *SwapRequest) checkWallets() error {
	switch {
	case r == nil:
		return errors.New("tradeapi: swap: no request")
	case r.Wallets == nil && !r.AllSpotActive:
		return ErrWalletsUnchosen
	case r.Wallets != nil && r.AllSpotActive:
		return fmt.Errorf("%w (AllSpotActive is set and Wallets names %d)", ErrWalletsUnchosen, len(r.Wallets))
	}
	return nil
}

// SwapResult is the answer of a swap: the transactions the chain accepted.
// Look the order up (Client.Order, Client.WaitOrder) or take its webhook
// events to learn whether they landed.
type SwapResult struct {
	OrderID    string   `json:"order_id"`
	Signatures []string `json:"signatures"`
	Skipped    bool     `json:"skipped"`
	Meta       Meta     `json:"-"`
}

// DeployMetadata is a launched token's metadata.
type DeployMetadata struct {
	Name        string `json:"name"`
	Symbol      string `json:"symbol"`
	Description string `json:"description,omitempty"`
	ImageURL    string `json:"image_url,omitempty"`
	Twitter     string `json:"twitter,omitempty"`
	Website     string `json:"website,omitempty"`
}

// DeployConfig is one launch venue: pump_fun, bags or bonk.
type DeployConfig struct {
	Dex  string          `json:"dex"`
	Data json.RawMessage `json:"data,omitempty"`
}

// DeployBuy is a buy bundled with a launch; SOLAmount is in lamports.
type DeployBuy struct {
	WalletAddress  string `json:"wallet_address"`
	SOLAmount      uint64 `json:"sol_amount"`
	PriorityFeeSOL Number `json:"priority_fee_sol,omitempty"`
}

// DeployRequest is the body of POST /api/v1/deploy (Solana hosts).
// Integer amounts are lamports.
type DeployRequest struct {
	WalletAddress       string         `json:"wallet_address"`
	Metadata            DeployMetadata `json:"metadata"`
	Configs             []DeployConfig `json:"configs"`
	CreatorBuySOLAmount uint64         `json:"creator_buy_sol_amount,omitempty"`
	Buys                []DeployBuy    `json:"buys,omitempty"`
	BundleMode          string         `json:"bundle_mode,omitempty"`
	JitoTip             uint64         `json:"jito_tip,omitempty"`
	SlippageBps         *uint32        `json:"slippage_bps,omitempty"`
}

// LandedTx is a landed transaction of a launch; Kind is create, dev_buy or
// buy.
type LandedTx struct {
	Kind      string `json:"kind"`
	Dex       string `json:"dex"`
	Mint      string `json:"mint"`
	Signature string `json:"signature"`
}

// DeployResult is the answer of a launch.
type DeployResult struct {
	MintAddresses []string   `json:"mint_addresses"`
	LandedTxs     []LandedTx `json:"landed_txs"`
	Meta          Meta       `json:"-"`
}

// WalletSkip is a wallet of an order that sent no transaction, and why.
type WalletSkip struct {
	Wallet string `json:"wallet"`
	Reason string `json:"reason"`
}

// OrderSignature is one transaction of an order.
type OrderSignature struct {
	Signature string `json:"signature"`
	Wallet    string `json:"wallet"`
	State     State  `json:"state"`
	Error     string `json:"error,omitempty"`
	// RentReturnedLamports is what closing the wallet's token account in
	// this transaction (a Solana sell of the whole holding) returned to the
	// wallet; 0 until it landed, and when it closed none.
	RentReturnedLamports uint64 `json:"rent_returned_lamports,omitempty"`
	// Slot is the Solana slot, or the EVM block, the transaction landed
	// in; 0 until it landed.
	Slot uint64 `json:"slot,omitempty"`
	// FeeLamports (Solana) and FeeWei (EVM, a decimal string) are the fee
	// the transaction paid once it landed, confirmed or failed; a tip is
	// not a fee.
	FeeLamports uint64 `json:"fee_lamports,omitempty"`
	FeeWei      string `json:"fee_wei,omitempty"`
}

// BundleState is the relay's verdict on a bundle.
type BundleState string

// Bundle states. Pending is the only one that is not final.
const (
	// BundlePending: the relay took the bundle and has given no verdict.
	BundlePending BundleState = "pending"
	// BundleLanded: the bundle landed, in Bundle.Slot.
	BundleLanded BundleState = "landed"
	// BundleFailed: the relay failed it; nothing of it is on chain.
	BundleFailed BundleState = "failed"
	// BundleDropped: the relay refused it when it was sent (Bundle.Reason).
	BundleDropped BundleState = "dropped"
	// BundleInvalid: the relay no longer knew it when its blockhash
	// expired.
	BundleInvalid BundleState = "invalid"
	// BundlePendingTimeout: still pending when its blockhash expired; it
	// can no longer land.
	BundlePendingTimeout BundleState = "pending_timeout"
)

// Final reports whether s is a final bundle state.
func (s BundleState) Final() bool { return s != BundlePending && s != "" }

// Bundle is one bundle an order sent through a block-engine relay (an
// anti_mev transaction's, a launch's) and the relay's verdict.
type Bundle struct {
	// ID is the relay's bundle id; empty when the relay refused the bundle
	// before naming it.
	ID string `json:"id"`
	// Relay is the relay's configured name.
	Relay string      `json:"relay,omitempty"`
	State BundleState `json:"state"`
	// Slot is where a landed bundle landed.
	Slot uint64 `json:"slot,omitempty"`
	// Reason is the relay's reason for a bundle that did not land.
	Reason string `json:"reason,omitempty"`
	// Signatures are the bundle's transactions, in bundle order.
	Signatures []string `json:"signatures"`
}

// PositionState is a position's state.
type PositionState string

// Position states.
const (
	// PositionOpen: the exits engine watches the position.
	PositionOpen PositionState = "open"
	// PositionClosed: nothing is left to sell, or (Remaining above zero,
	// the exits cancelled with the reason) the token left the venue it was
	// bought on for one the service does not trade.
	PositionClosed PositionState = "closed"
)

// ExitState is an auto-order exit's state.
type ExitState string

// Exit states.
const (
	// ExitArmed waits for its trigger.
	ExitArmed ExitState = "armed"
	// ExitFiring is claimed and its sell is being published.
	ExitFiring ExitState = "firing"
	// ExitFired published its sell (Exit.SellOrderID).
	ExitFired ExitState = "fired"
	// ExitCancelled will never fire: its position closed.
	ExitCancelled ExitState = "cancelled"
	// ExitFailed gave up after its sells failed as many times as allowed.
	ExitFailed ExitState = "failed"
)

// Exit is one auto-order of a position and where it stands.
type Exit struct {
	AutoOrder
	State ExitState `json:"state"`
	// SellOrderID is the order of the sell the exit published.
	SellOrderID string `json:"sell_order_id,omitempty"`
	// Attempts counts the sells published.
	Attempts int `json:"attempts,omitempty"`
	// Refusals counts those refused before anything was signed (a paused
	// venue, a worker that could not take them): they do not count
	// towards the engine's limit of attempts.
	Refusals int `json:"refusals,omitempty"`
	// FiredAt is when the price read (or the clock) that fired it was
	// taken, and FiredPrice that price, in quote per whole token.
	FiredAt    *time.Time `json:"fired_at,omitempty"`
	FiredPrice string     `json:"fired_price,omitempty"`
	// SellAmount is what its sell sells, in the token's base units.
	SellAmount string `json:"sell_amount,omitempty"`
	// Error says why the exit's last sell did not land, or why it was
	// cancelled.
	Error string `json:"error,omitempty"`
	// RetryAt is when an exit re-armed after its sell failed may fire
	// again.
	RetryAt *time.Time `json:"retry_at,omitempty"`
	// DeferredMs and DeferredReason say how late and why the sell entered
	// the pipeline, as in ExitEvent; zero for a sell on time.
	DeferredMs     int64  `json:"deferred_ms,omitempty"`
	DeferredReason string `json:"deferred_reason,omitempty"`
}

// Position is what one wallet received from a confirmed buy with
// auto-orders, and the exits that sell it. Received and Remaining are
// integers in the token's base units; EntryPrice and HighPrice (the
// highest seen since entry, kept when a trailing_stop or dev_sell needs
// it) are in quote per whole token.
type Position struct {
	ID         string        `json:"id"`
	Wallet     string        `json:"wallet"`
	Token      string        `json:"token"`
	Venue      string        `json:"venue"`
	State      PositionState `json:"state"`
	Received   string        `json:"received"`
	Remaining  string        `json:"remaining"`
	EntryPrice string        `json:"entry_price"`
	HighPrice  string        `json:"high_price"`
	Exits      []Exit        `json:"exits"`
	OpenedAt   time.Time     `json:"opened_at"`
	ClosedAt   *time.Time    `json:"closed_at,omitempty"`
	// Version grows with every change of the position.
	Version uint64 `json:"version"`
}

// Tax is a token's probed buy and sell tax, in percent.
type Tax struct {
	BuyPct  float64 `json:"buy_pct"`
	SellPct float64 `json:"sell_pct"`
}

// Order is the answer of GET /api/v1/orders/{order_id}.
type Order struct {
	OrderID string `json:"order_id"`
	Kind    string `json:"kind"`
	State   State  `json:"state"`
	Chain   string `json:"chain,omitempty"`
	Side    Side   `json:"side,omitempty"`
	Address string `json:"address,omitempty"`
	// Mint is the token traded when Address named its pool.
	Mint       string           `json:"mint,omitempty"`
	Skipped    bool             `json:"skipped"`
	Signatures []OrderSignature `json:"signatures"`
	Error      *ErrorBody       `json:"error,omitempty"`
	AutoOrders []AutoOrder      `json:"auto_orders"`
	Route      string           `json:"route,omitempty"`
	// SkippedWallets are the order's wallets that sent no transaction,
	// each with why (a curve the earlier wallets completed, nothing to
	// sell).
	SkippedWallets []WalletSkip `json:"skipped_wallets,omitempty"`
	Tax            *Tax         `json:"tax,omitempty"`
	// Deploy is a launch's mints and landed transactions.
	Deploy *DeployResult `json:"deploy,omitempty"`
	// Bundles are the bundles the order sent through a block-engine
	// relay, in the order sent, each with the relay's verdict.
	Bundles []Bundle `json:"bundles,omitempty"`
	// Positions are a buy's positions, one per wallet, and their exits.
	Positions []Position `json:"positions,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
	Meta      Meta       `json:"-"`
}
