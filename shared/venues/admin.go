package venues

import (
	"context"
	"log/slog"
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

// List returns every venue state recorded, by chain then venue.
func (a *Admin) List(ctx context.Context) ([]State, error) {
	sts, err := a.store.List(ctx)
	if err != nil {
		return nil, apierr.Wrap(err, "the venue states could not be read")
	}
	return sts, nil
}

// Resume runs venue's checks and records their verdict. It returns the
// venue's state when they pass (a paused venue is then active again);
// when they still fail, VENUE_STILL_FAILING with the reason, the venue
// staying paused. A venue no checker here watches is NOT_FOUND.
func (a *Admin) Resume(ctx context.Context, venue string) (State, error) {
	if !Known(venue) {
		return State{}, apierr.Newf(apierr.NotFound, "venue", "no venue is named %q", venue)
	}
	c := a.checkerOf(venue)
	if c == nil {
		return State{}, apierr.Newf(apierr.NotFound, "venue", "%s is not watched by this service", venue)
	}
	v, err := c.Check(ctx, venue)
	if err != nil {
		a.log.Warn("venue checks could not run", "venue", venue, "err", err)
		return State{}, &apierr.Error{Code: apierr.ChainUnavailable, Details: c.Chain(), Err: err,
			Message: "the checks of " + venue + " could not run, nothing changed: " + err.Error()}
	}
	st, err := Record(ctx, a.store, c.Chain(), venue, v, a.now(), a.log)
	if err != nil {
		return State{}, apierr.Wrap(err, "the venue state could not be written")
	}
	if !v.OK {
		return State{}, apierr.Newf(apierr.VenueStillFailing, venue, "%s still fails its checks: %s", venue, v.Reason)
	}
	return st, nil
}

func (a *Admin) checkerOf(venue string) Checker {
	for _, c := range a.checkers {
		for _, v := range c.Venues() {
			if v == venue {
				return c
			}
		}
	}
	return nil
}
