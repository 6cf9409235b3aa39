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
	c := New(b.Buckets.Idempotency, store, time.Second, 0, nil)
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		state   string
		skipped bool
		sigs    []wire.SigState
		takes   bool
	}{
		{"confirmed", wire.StateConfirmed, false, nil, false},
		{"failed", wire.StateFailed, false, nil, true},
		{"skipped", wire.StateConfirmed, true, nil, true},
		// A record both skipped and signed is one an earlier delivery ran:
		// it may have bought.
		{"skipped-and-signed", wire.StateBroadcast, true, []wire.SigState{{Signature: "s", State: wire.StateBroadcast}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			token, holder := "token-"+tt.name, "eu-holder-"+tt.name
			if !c.Take(ctx, "acct", wire.FamilySol, token, holder, time.Now(), log) {
				t.Fatal("the first buy did not take the claim")
			}
			if err := store.Create(ctx, &wire.Order{OrderID: holder, AccountID: "acct", State: tt.state, Skipped: tt.skipped, Signatures: tt.sigs}); err != nil {
				t.Fatal(err)
			}
			if got := c.Take(ctx, "acct", wire.FamilySol, token, "eu-next-"+tt.name, time.Now(), log); got != tt.takes {
				t.Fatalf("the next buy took the claim: %v, want %v", got, tt.takes)
			}
		})
	}
}
