package skipclaim

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

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
			if !c.Take(ctx, "acct", wire.FamilySol, "", token, holder, time.Now(), log) {
				t.Fatal("the first buy did not take the claim")
			}
			if err := store.Create(ctx, &wire.Order{OrderID: holder, AccountID: "acct", State: tt.state, Skipped: tt.skipped, Signatures: tt.sigs}); err != nil {
				t.Fatal(err)
			}
			if got := c.Take(ctx, "acct", wire.FamilySol, "", token, "eu-next-"+tt.name, time.Now(), log); got != tt.takes {
				t.Fatalf("the next buy took the claim: %v, want %v", got, tt.takes)
			}
		})
	}
}

// TestTakeWaitsForAnUndecidedHolder: a buy that finds the claim held by an
// order that has sent nothing yet waits for it: it takes the claim over
// when that order fails, skips when it sends, and skips when it does
// neither within the wait.
func TestTakeWaitsForAnUndecidedHolder(t *testing.T) {
	b := bustest.Start(t, "skipclaim")
	store := orders.NewStore(b.Buckets.Orders)
	c := New(b.Buckets.Idempotency, store, time.Second, 0, nil)
	c.wait = 500 * time.Millisecond
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		then  func(*wire.Order) // what the holder does; nil: nothing
		takes bool
	}{
		{"fails", func(o *wire.Order) { o.State = wire.StateFailed }, true},
		{"sends", func(o *wire.Order) {
			o.State, o.Signatures = wire.StateBroadcast, []wire.SigState{{Signature: "s", State: wire.StateBroadcast}}
		}, false},
		{"stays", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			token, holder := "token-"+tt.name, "eu-holder-"+tt.name
			if !c.Take(ctx, "acct", wire.FamilySol, "", token, holder, time.Now(), log) {
				t.Fatal("the first buy did not take the claim")
			}
			if err := store.Create(ctx, &wire.Order{OrderID: holder, AccountID: "acct", State: wire.StatePending}); err != nil {
				t.Fatal(err)
			}
			decided := make(chan struct{})
			if tt.then != nil {
				go func() {
					defer close(decided)
					time.Sleep(100 * time.Millisecond)
					if _, err := store.UpdateFrom(ctx, holder, nil, orders.Stored{}, tt.then); err != nil {
						t.Error(err)
					}
				}()
			} else {
				close(decided)
			}
			start := time.Now()
			got := c.Take(ctx, "acct", wire.FamilySol, "", token, "eu-next-"+tt.name, time.Now(), log)
			waited := time.Since(start)
			<-decided
			if got != tt.takes {
				t.Fatalf("the next buy took the claim: %v, want %v", got, tt.takes)
			}
			if waited < 100*time.Millisecond {
				t.Fatalf("the next buy decided after %v, before the holder did", waited)
			}
		})
	}
}

// stalledUpdates is a bucket whose updates hang until their context ends,
// as a store that stopped answering does.
type stalledUpdates struct{ jetstream.KeyValue }

func (s stalledUpdates) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	<-ctx.Done()
	return 0, ctx.Err()
}

// TestTakeOutOfTimeSkips: a buy whose takeover of the claim is still
// unanswered when its time runs out skips, the safe side, instead of
// buying beside a buy that may hold the claim meanwhile.
func TestTakeOutOfTimeSkips(t *testing.T) {
	b := bustest.Start(t, "skipclaim")
	store := orders.NewStore(b.Buckets.Orders)
	c := New(stalledUpdates{b.Buckets.Idempotency}, store, time.Second, 0, nil)
	c.timeout = 300 * time.Millisecond
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	if !c.Take(ctx, "acct", wire.FamilySol, "", "token", "eu-failed", time.Now(), log) {
		t.Fatal("the first buy did not take the claim")
	}
	if err := store.Create(ctx, &wire.Order{OrderID: "eu-failed", AccountID: "acct", State: wire.StateFailed}); err != nil {
		t.Fatal(err)
	}
	if c.Take(ctx, "acct", wire.FamilySol, "", "token", "eu-next", time.Now(), log) {
		t.Fatal("a buy whose takeover ran out of time went on")
	}
}

// TestHoldReadsTheTradeHistoryUnderTheMint: a skip_if_bought buy that named
// one pool of a token with several finds, once its mint is resolved, a buy
// of the token through another pool or by the mint (by an order without
// skip_if_bought, or after the claims are gone): it is skipped. Its own
// record (a job delivered again) does not skip it; on EVM the history of
// the chain it trades on, and the chainless key of earlier versions, count.
func TestHoldReadsTheTradeHistoryUnderTheMint(t *testing.T) {
	b := bustest.Start(t, "skipclaim")
	c := New(b.Buckets.Idempotency, orders.NewStore(b.Buckets.Orders), time.Second, 0, nil).WithTrades(b.Buckets.Trades)
	ctx := context.Background()
	put := func(key, value string) {
		t.Helper()
		if _, err := b.Buckets.Trades.Put(ctx, key, []byte(value)); err != nil {
			t.Fatal(err)
		}
	}
	job := func(id, pool string) *wire.SwapJob {
		return &wire.SwapJob{OrderID: id, AccountID: "acct", Side: wire.Buy, SkipIfBought: true, Token: pool}
	}
	put(wire.TradeKey("acct", wire.FamilySol, "", "mint-landed"), "eu-other")
	put(wire.TradeKey("acct", wire.FamilySol, "", "mint-pending"), `{"pending":["eu-other"]}`)
	put(wire.TradeKey("acct", wire.FamilySol, "", "mint-own"), `{"pending":["eu-own"]}`)
	put(wire.TradeKey("acct", wire.FamilyEVM, "base", "0xmint"), "evm-other")
	put(wire.TradeKey("acct", wire.FamilyEVM, "", "0xold"), "evm-old")
	for _, tt := range []struct {
		name  string
		f     wire.Family
		job   *wire.SwapJob
		chain string
		mint  string
		skips bool
	}{
		{"landed through another pool", wire.FamilySol, job("eu-a", "pool-2"), wire.ChainSolana, "mint-landed", true},
		{"in flight through another pool", wire.FamilySol, job("eu-b", "pool-2"), wire.ChainSolana, "mint-pending", true},
		{"its own record", wire.FamilySol, job("eu-own", "pool-2"), wire.ChainSolana, "mint-own", false},
		{"never bought", wire.FamilySol, job("eu-c", "pool-2"), wire.ChainSolana, "mint-new", false},
		{"evm on its chain", wire.FamilyEVM, job("evm-a", "0xpair"), "base", "0xMINT", true},
		{"evm on another chain", wire.FamilyEVM, job("evm-b", "0xpair"), "bsc", "0xmint", false},
		{"evm under the chainless key", wire.FamilyEVM, job("evm-c", "0xpair"), "eth", "0xold", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Hold(ctx, tt.f, tt.job, tt.chain, tt.mint)
			if skipped := errors.Is(err, ErrHeld); skipped != tt.skips || err != nil && !skipped {
				t.Fatalf("Hold: %v, want skipped %v", err, tt.skips)
			}
		})
	}
}

// TestEVMClaimsAreTheirChains: on EVM a token is its chain's. A buy
// confirmed on one chain holds the claim of the address there only: a
// buy naming another chain takes its own, while one naming the same chain
// skips. A buy that named no chain claims, once its signer resolved the
// chain, the token there too, where it meets the buys naming that chain.
func TestEVMClaimsAreTheirChains(t *testing.T) {
	b := bustest.Start(t, "skipclaim")
	store := orders.NewStore(b.Buckets.Orders)
	c := New(b.Buckets.Idempotency, store, time.Second, 0, nil)
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	const token = "0xb0c661202761819c522aa0040a6ac8cf1cebe415"
	record := func(id, state string, sigs ...wire.SigState) {
		t.Helper()
		if err := store.Create(ctx, &wire.Order{OrderID: id, AccountID: "acct", State: state, Signatures: sigs}); err != nil {
			t.Fatal(err)
		}
	}
	if !c.Take(ctx, "acct", wire.FamilyEVM, "eth", token, "evm-eth", time.Now(), log) {
		t.Fatal("the first buy on eth did not take the claim")
	}
	record("evm-eth", wire.StateConfirmed, wire.SigState{Signature: "0x1", State: wire.StateConfirmed})
	if c.Take(ctx, "acct", wire.FamilyEVM, "eth", token, "evm-eth-again", time.Now(), log) {
		t.Fatal("a second buy on eth took the claim of a confirmed buy there")
	}
	if !c.Take(ctx, "acct", wire.FamilyEVM, "base", token, "evm-base", time.Now(), log) {
		t.Fatal("a buy on base was held by a buy on eth")
	}
	record("evm-base", wire.StatePending)

	// A buy naming no chain, resolved to base, where the buy naming base
	// holds the claim and has not sent yet: skipped, the safe side.
	if !c.Take(ctx, "acct", wire.FamilyEVM, "", token, "evm-any", time.Now(), log) {
		t.Fatal("a buy naming no chain found the claim of the address held")
	}
	job := &wire.SwapJob{OrderID: "evm-any", AccountID: "acct", Side: wire.Buy, SkipIfBought: true, Token: token}
	if err := c.Hold(ctx, wire.FamilyEVM, job, "base", token); !errors.Is(err, ErrHeld) {
		t.Fatalf("resolved to base, where another buy holds the token: %v", err)
	}
	// Resolved to bsc, where none does: it goes on, holding bsc's claim.
	job.OrderID = "evm-any-2"
	if err := c.Hold(ctx, wire.FamilyEVM, job, "bsc", token); err != nil {
		t.Fatalf("resolved to bsc: %v", err)
	}
	record("evm-any-2", wire.StateBroadcast, wire.SigState{Signature: "0x2", State: wire.StateBroadcast})
	if c.Take(ctx, "acct", wire.FamilyEVM, "bsc", token, "evm-bsc", time.Now(), log) {
		t.Fatal("a buy on bsc took the claim a buy naming no chain holds there")
	}
}
