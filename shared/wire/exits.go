package wire

import "time"

// Position states. Open positions are watched by the exits engine; a
// closed one has nothing left to sell, or (Remaining above zero, its exits
// cancelled with the reason) its token left the venue it was bought on for
// one the service does not trade.
const (
	PositionOpen   = "open"
	PositionClosed = "closed"
)

// Exit states. Armed waits for its trigger; firing is claimed by one
// engine, whose sell job is being published (a restarted engine resumes
// it); fired has published its sell (SellOrderID); cancelled will never
// fire because the position closed; failed gave up after its sells failed
// on chain as many times as the engine allows.
const (
	ExitArmed     = "armed"
	ExitFiring    = "firing"
	ExitFired     = "fired"
	ExitCancelled = "cancelled"
	ExitFailed    = "failed"
)

// Venues a position can be priced on.
const (
	VenuePumpFun  = "pump_fun"
	VenuePumpSwap = "pumpswap"
	// VenueLaunchLab is a coin on its LaunchLab (letsbonk) curve, VenueDBC
	// one on its Meteora Dynamic Bonding Curve (bags) pool.
	VenueLaunchLab = "launchlab"
	VenueDBC       = "dbc"
	// VenueV2 is a position bought in an official Uniswap V2 pair, VenueV3
	// one bought in a V3 pool (priced from its slot0).
	VenueV2 = "v2"
	VenueV3 = "v3"
)

// Exit is one auto-order of a position and where it stands.
type Exit struct {
	AutoOrder
	State string `json:"state"`
	// SellOrderID is the order of the sell the exit published.
	SellOrderID string `json:"sell_order_id,omitempty"`
	// Attempts counts the sells published; a sell that failed on chain
	// re-arms the exit until the engine's limit.
	Attempts int `json:"attempts,omitempty"`
	// Refusals counts the sells among Attempts refused before anything
	// was signed (a paused venue, a worker that could not take them):
	// they tried nothing on chain, and do not count towards the limit.
	Refusals int `json:"refusals,omitempty"`
	// FiredAt is when the price read (or the clock) that fired it was taken.
	FiredAt *time.Time `json:"fired_at,omitempty"`
	// FiredPrice is the price that fired it, in quote per whole token.
	FiredPrice string `json:"fired_price,omitempty"`
	// SellAmount is what its sell sells, in the token's base units.
	SellAmount string `json:"sell_amount,omitempty"`
	// Error says why the last sell of the exit did not land.
	Error string `json:"error,omitempty"`
	// RetryAt is when an exit re-armed after its sell failed may fire
	// again: a failure's cause (a wallet short of gas, a node's hiccup)
	// gets a while to clear before the next attempt.
	RetryAt *time.Time `json:"retry_at,omitempty"`
	// DeferredMs is how much later than its trigger (for a time exit, the
	// end of its wait) the exit's sell entered the pipeline, when something
	// held it back; DeferredReason says what: budget, resumed, handover,
	// venue_paused or stopped.
	// Both are empty for a sell on time.
	DeferredMs     int64  `json:"deferred_ms,omitempty"`
	DeferredReason string `json:"deferred_reason,omitempty"`
}

// Position is what one wallet received from one confirmed buy with
// auto-orders, with the exits that will sell it. The exits engine keeps it
// in the positions bucket, keyed by ID, and mirrors its View into the buy's
// order record.
type Position struct {
	// ID is <buy order id>-<index of the wallet's signature in the order>.
	ID        string `json:"id"`
	OrderID   string `json:"order_id"`
	AccountID string `json:"account_id"`
	Family    Family `json:"family"`
	Chain     string `json:"chain"`
	// Address is what the buy named (a mint, a pool or an ERC-20); sells
	// name it again. Token is the token itself.
	Address string `json:"address"`
	Token   string `json:"token"`
	Wallet  string `json:"wallet"`
	// Venue and Pool are where the buy traded and the price is read.
	Venue      string `json:"venue"`
	Pool       string `json:"pool,omitempty"`
	QuoteAsset string `json:"quote_asset"`
	Decimals   uint8  `json:"decimals"`
	// QuoteDecimals are the quote token's decimals.
	QuoteDecimals uint8 `json:"quote_decimals"`
	// Received, Remaining and Spent are integers in base units: tokens
	// received by the buy, tokens still held by the position, and quote
	// paid for them.
	Received  string `json:"received"`
	Remaining string `json:"remaining"`
	Spent     string `json:"spent"`
	// EntryPrice (Spent over Received) and HighPrice (the highest seen
	// since entry) are in quote per whole token.
	EntryPrice string `json:"entry_price"`
	HighPrice  string `json:"high_price"`
	// EntryExact and HighExact are the same prices exactly, as fractions
	// (big.Rat's "num/den"), which the exits compare against: the
	// decimals above are rounded, and a high stored rounded up would put a
	// small trailing stop's line above the price that set it, firing it
	// with no fall. Empty in records of earlier versions.
	EntryExact string `json:"entry_exact,omitempty"`
	HighExact  string `json:"high_exact,omitempty"`
	// Dev is the token's creator and DevBalance the most it was seen to
	// hold since entry: dev_sell fires when it holds less.
	Dev        string `json:"dev,omitempty"`
	DevBalance string `json:"dev_balance,omitempty"`
	State      string `json:"state"`
	// PendingSell is the order id of an exit sell not yet final; no other
	// exit of the position fires meanwhile.
	PendingSell string `json:"pending_sell,omitempty"`
	// SellClaimedAt and SellHeldUntil belong to the exit firing, if any:
	// when the engine that now publishes its sell took it (the claim, or a
	// resume by another engine), and the exit budget slot that engine holds
	// the sell until, nil when it publishes at once. Another engine resumes
	// the exit only once a while has passed beyond both. The order lookup
	// shows neither.
	SellClaimedAt *time.Time `json:"sell_claimed_at,omitempty"`
	SellHeldUntil *time.Time `json:"sell_held_until,omitempty"`
	Exits         []Exit     `json:"exits"`
	// BoughtAt is when the buy was broadcast; time exits count from it.
	BoughtAt time.Time `json:"bought_at"`
	// BoughtIn is where the buy landed on its chain (a Solana slot, an EVM
	// block), for the wallet's sales after it (0: not known, taken for
	// before every sale).
	BoughtIn uint64     `json:"bought_in,omitempty"`
	OpenedAt time.Time  `json:"opened_at"`
	ClosedAt *time.Time `json:"closed_at,omitempty"`
	// Version grows with every write, so that a stale copy never replaces
	// a newer one.
	Version uint64 `json:"version"`
}

// PositionView is a position as the buy's order lookup shows it.
type PositionView struct {
	ID         string     `json:"id"`
	Wallet     string     `json:"wallet"`
	Token      string     `json:"token"`
	Venue      string     `json:"venue"`
	State      string     `json:"state"`
	Received   string     `json:"received"`
	Remaining  string     `json:"remaining"`
	EntryPrice string     `json:"entry_price"`
	HighPrice  string     `json:"high_price"`
	Exits      []Exit     `json:"exits"`
	OpenedAt   time.Time  `json:"opened_at"`
	ClosedAt   *time.Time `json:"closed_at,omitempty"`
	Version    uint64     `json:"version"`
}

// View returns the public view of p.
func (p *Position) View() PositionView {
	exits := make([]Exit, len(p.Exits))
	copy(exits, p.Exits)
	return PositionView{ID: p.ID, Wallet: p.Wallet, Token: p.Token, Venue: p.Venue, State: p.State,
		Received: p.Received, Remaining: p.Remaining, EntryPrice: p.EntryPrice, HighPrice: p.HighPrice, Exits: exits, OpenedAt: p.OpenedAt, ClosedAt: p.ClosedAt, Version: p.Version}
}
