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

// OrderSignature is one transaction of an order.
type OrderSignature struct {
	Signature string `json:"signature"`
	Wallet    string `json:"wallet"`
	State     State  `json:"state"`
	Error     string `json:"error,omitempty"`
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
	Tax        *Tax             `json:"tax,omitempty"`
	// Deploy is a launch's mints and landed transactions.
	Deploy    *DeployResult `json:"deploy,omitempty"`
	CreatedAt time.Time     `json:"created_at"`
	UpdatedAt time.Time     `json:"updated_at"`
	Meta      Meta          `json:"-"`
}
