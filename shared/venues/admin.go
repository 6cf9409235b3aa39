package venues

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/tradeapi/tradeapi/shared/apierr"
)

// Admin answers the admin API's venue routes: the venues' states, and a
// resume by hand, which runs the venue's checks first and lifts its pause
// only when they pass.
type Admin struct {
	store    *Store
	checkers []Checker
	log      *slog.Logger
	now      func() time.Time
}

// NewAdmin returns the admin side of the venues bucket, checking through
// checkers (one per chain whose venues it can check).
func NewAdmin(store *Store, log *slog.Logger, checkers ...Checker) *Admin {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Admin{store: store, checkers: checkers, log: log.With("component", "venues"), now: time.Now}
}

// List returns the state of every venue watched on the chains served (those
// of its checkers), by chain then venue: a chain the configuration no longer
// serves keeps its last states in the bucket, which say nothing of it now,
// and a venue whose checks have not yet run (its RPC down since the start)
// is listed active, as the gates treat it, with no CheckedAt.
func (a *Admin) List(ctx context.Context) ([]State, error) {
	sts, err := a.store.List(ctx)
	if err != nil {
		return nil, apierr.Wrap(err, "the venue states could not be read")
	}
	type key struct{ chain, venue string }
	watched := make(map[key]bool)
	for _, c := range a.checkers {
		for _, v := range c.Venues() {
			watched[key{c.Chain(), v}] = true
		}
	}
	sts = slices.DeleteFunc(sts, func(st State) bool {
		k := key{st.Chain, st.Venue}
		if !watched[k] {
			return true
		}
		delete(watched, k)
		return false
	})
	for k := range watched {
		sts = append(sts, State{Venue: k.venue, Chain: k.chain, State: Active})
	}
	sortStates(sts)
	return sts, nil
}

// Resume runs venue's checks and records their verdict: on chain, or when
// chain is empty on every chain the venue is checked on (a Solana venue on
// solana; uniswap_v2 and uniswap_v3 on every EVM chain served). It returns
// the venue's state when they pass (a paused venue is then active again;
// of several chains, the first that was paused, else the first); when they
// still fail anywhere, VENUE_STILL_FAILING with the reasons, the venue
// staying paused there. A venue no checker here watches, on chain when it
// is named, is NOT_FOUND.
func (a *Admin) Resume(ctx context.Context, chain, venue string) (State, error) {
	if !Known(venue) {
		return State{}, apierr.Newf(apierr.NotFound, "venue", "no venue is named %q", venue)
	}
	cs, err := a.checkersOf(strings.ToLower(strings.TrimSpace(chain)), venue)
	if err != nil {
		return State{}, err
	}
	before, _ := a.store.List(ctx)
	var out State
	var failing []string
	for i, c := range cs {
		v, err := c.Check(ctx, venue)
		if err != nil {
			a.log.Warn("venue checks could not run", "venue", venue, "chain", c.Chain(), "err", err)
			return State{}, &apierr.Error{Code: apierr.ChainUnavailable, Details: c.Chain(), Err: err,
				Message: "the checks of " + venue + " on " + c.Chain() + " could not run, nothing changed there: " + err.Error()}
		}
		st, err := Record(ctx, a.store, c.Chain(), venue, v, a.now(), true, a.log)
		if err != nil {
			return State{}, apierr.Wrap(err, "the venue state could not be written")
		}
		if !v.OK {
			failing = append(failing, v.Reason)
		}
		if i == 0 || (wasPaused(before, c.Chain(), venue) && !wasPaused(before, out.Chain, venue)) {
			out = st
		}
	}
	if len(failing) > 0 {
		return State{}, apierr.Newf(apierr.VenueStillFailing, venue, "%s still fails its checks: %s", venue, strings.Join(failing, "; "))
	}
	return out, nil
}

// wasPaused reports whether sts show venue paused on chain.
func wasPaused(sts []State, chain, venue string) bool {
	return slices.ContainsFunc(sts, func(s State) bool { return s.Chain == chain && s.Venue == venue && s.State == Paused })
}

// checkersOf returns the checker of venue on chain, or when chain is empty
// the checkers of every chain venue is checked on.
func (a *Admin) checkersOf(chain, venue string) ([]Checker, error) {
	var on []Checker
	var chains []string
	for _, c := range a.checkers {
		if slices.Contains(c.Venues(), venue) {
			on = append(on, c)
			chains = append(chains, c.Chain())
		}
	}
	switch {
	case len(on) == 0:
		return nil, apierr.Newf(apierr.NotFound, "venue", "%s is not watched by this service", venue)
	case chain != "":
		if i := slices.Index(chains, chain); i >= 0 {
			return on[i : i+1], nil
		}
		return nil, apierr.Newf(apierr.NotFound, "chain", "%s is not watched on %q by this service, only on %s",
			venue, chain, strings.Join(chains, ", "))
	}
	return on, nil
}
