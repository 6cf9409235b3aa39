// Package venues keeps the state of every venue the service trades on
// (pump_fun, pumpswap, launchlab and dbc on Solana; uniswap_v2 and
// uniswap_v3 on the EVM chains) and checks, while the service runs, that
// each still accepts what the service builds.
//
// What a venue relies on is checked per chain by a Checker: for a Solana
// program its deploy slot (the program-data account), the layouts of the
// accounts the service decodes, and a simulation of a tiny canonical trade
// built with the same codecs as the signer's. A Watcher polls the cheap part
// (the deploy slots) every second or so and runs the whole check when it
// changes, and now and then anyway. When a venue no longer accepts what the
// service builds it is paused: its state, kept in the venues bucket, says so
// with the reason, every process sees it through a View, ingress and the
// signers refuse its orders with 503 VENUE_PAUSED before anything is
// charged or signed, and the other venues trade on. The pause lifts when the
// checks pass again, or by hand through Admin.Resume (the admin API), which
// runs them first.
//
// On an EVM chain the checker is EVM: the venues' contracts (the Uniswap
// routers, factories and quoter) must hold the official runtime code, built
// over the configured factories and wrapped native token; their code
// hashes are the fingerprints.
package venues

import (
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// The venues, by the names the service gives them.
const (
	PumpFun   = "pump_fun"
	PumpSwap  = "pumpswap"
	LaunchLab = "launchlab"
	DBC       = "dbc"
	UniswapV2 = "uniswap_v2"
	UniswapV3 = "uniswap_v3"
)

// SolanaVenues are the venues of the Solana programs, in a fixed order.
var SolanaVenues = []string{PumpFun, PumpSwap, LaunchLab, DBC}

// EVMVenues are the venues of the EVM chains.
var EVMVenues = []string{UniswapV2, UniswapV3}

// Known reports whether venue is one of the service's venues.
func Known(venue string) bool {
	for _, v := range append(SolanaVenues, EVMVenues...) {
		if v == venue {
			return true
		}
	}
	return false
}

// OfDex returns the venue a launch's configs[].dex runs on: pump_fun on
// pump.fun, bonk on Raydium LaunchLab, bags on Meteora's DBC.
func OfDex(dex string) (string, bool) {
	switch dex {
	case wire.DexPumpFun:
		return PumpFun, true
	case wire.DexBonk:
		return LaunchLab, true
	case wire.DexBags:
		return DBC, true
	}
	return "", false
}

// States of a venue.
const (
	// Active venues take orders.
	Active = "active"
	// Paused venues refuse orders with VENUE_PAUSED.
	Paused = "paused"
)

// State is a venue's state on one chain as the venues bucket keeps it.
type State struct {
	Venue string `json:"venue"`
	Chain string `json:"chain"`
	// State is Active or Paused.
	State string `json:"state"`
	// Reason says, for a paused venue, what changed; empty when active.
	Reason string `json:"reason"`
	// CheckedAt is when the checks last ran.
	CheckedAt time.Time `json:"checked_at"`
	// Since is when the venue entered its state.
	Since time.Time `json:"since"`
	// Fingerprint is what the last check saw of the venue (its deploy
	// slot, its code hash), so that an operator can tell what moved.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Height is the chain's slot or block the last check read; a check
	// that read an older one never overwrites a newer one's verdict, so
	// two watchers of one chain cannot undo each other's news.
	Height uint64 `json:"height,omitempty"`
}

// IsPaused reports whether the state refuses orders.
func (s State) IsPaused() bool { return s.State == Paused }
