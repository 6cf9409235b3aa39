package skipclaim

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestTakeFollowsTheHoldersRecord: a claim whose order may still buy
// (confirmed and not skipped) makes the next buy skip; one whose order
// ended without buying (failed, or skipped because the token's mint was
// held by another buy) is taken over.
func TestTakeFollowsTheHoldersRecord(t *testing.T) {
	b := bustest.Start(t, "skipclaim")
	store := orders.NewStore(b.Buckets.Orders)
	c := New(b.Buckets.Idempotency, store, time.Second, nil)
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		state   string
		skipped bool
		takes   bool
	}{
		{"confirmed", wire.StateConfirmed, false, false},
		{"failed", wire.StateFailed, false, true},
		{"skipped", wire.StateConfirmed, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			token, holder := "token-"+tt.name, "eu-holder-"+tt.name
			if !c.Take(ctx, "acct", wire.FamilySol, token, holder, time.Now(), log) {
				t.Fatal("the first buy did not take the claim")
			}
			if err := store.Create(ctx, &wire.Order{OrderID: holder, AccountID: "acct", State: tt.state, Skipped: tt.skipped}); err != nil {
				t.Fatal(err)
			}
			if got := c.Take(ctx, "acct", wire.FamilySol, token, "eu-next-"+tt.name, time.Now(), log); got != tt.takes {
				t.Fatalf("the next buy took the claim: %v, want %v", got, tt.takes)
			}
		})
	}
}
