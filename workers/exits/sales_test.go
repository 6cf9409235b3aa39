package exits

import (
	"context"
	"log/slog"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// salesChain is one wallet's holding of one token: each buy's fill and
// each sale's moment by signature, and the balance now.
type salesChain struct {
	tokensChain
	read  atomic.Int32 // Sale calls
	mu    sync.Mutex
	now   int64
	fills map[string]*Fill
	sales map[string]Sale
}

func (c *salesChain) Fill(_ context.Context, sig, _, _ string, _ bool, _ func(string) bool) (*Fill, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.fills[sig]
	if !ok {
		return nil, ErrNoTrade
	}
	g := *f
	return &g, nil
}

func (c *salesChain) Balance(context.Context, string, string) (*big.Int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return big.NewInt(c.now), nil
}

func (c *salesChain) Sale(_ context.Context, sig, _, _ string) (Sale, error) {
	c.read.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.sales[sig]
	if !ok {
		return Sale{}, errNoChain
	}
	return s, nil
}

const salesWallet, salesToken = "Wallet111", "Mint1111"

// newSalesEngine is an engine over a salesChain whose wallet holds now.
func newSalesEngine(t *testing.T, now int64) (*Engine, *salesChain) {
	t.Helper()
	b := bustest.Start(t, "exits-test")
	ch := &salesChain{now: now, fills: map[string]*Fill{}, sales: map[string]Sale{}}
	e, err := New(Config{SellSlippageBps: 2000}, b.JS, b.Buckets, map[string]Chain{wire.ChainSolana: ch}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return e, ch
}

// buyWithExit stores a confirmed buy with a time exit, landed at in, and
// returns its confirmed event.
func (c *salesChain) buyWithExit(t *testing.T, e *Engine, id string, in uint64, received int64) *events.Event {
	t.Helper()
	sig := "sig-" + id
	c.mu.Lock()
	c.fills[sig] = &Fill{Token: salesToken, Venue: wire.VenuePumpFun, QuoteAsset: "SOL", Decimals: 6, QuoteDecimals: 9,
		Received: big.NewInt(received), Spent: big.NewInt(2 * received), In: in}
	c.mu.Unlock()
	after := int64(3600)
	sigs := []wire.SigState{{Signature: sig, Wallet: salesWallet, State: wire.StateConfirmed}}
	o := &wire.Order{OrderID: id, AccountID: "acc1", Family: wire.FamilySol, Kind: wire.KindSwap, State: wire.StateConfirmed,
		Chain: wire.ChainSolana, Side: wire.Buy, Token: salesToken, Signatures: sigs, CreatedAt: time.Now(),
		AutoOrders: []wire.AutoOrder{{Type: wire.ExitTime, AfterSeconds: &after, SellPct: 100}}}
	if err := e.orders.Create(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	return &events.Event{Type: events.Confirmed, OrderID: id, AccountID: "acc1", Kind: wire.KindSwap, Chain: wire.ChainSolana,
		Side: wire.Buy, Address: salesToken, State: wire.StateConfirmed, Signatures: sigs}
}

// sale is the confirmed event of a sale by hand that landed at in and left
// the wallet holding left.
func (c *salesChain) sale(id string, in uint64, left int64) *events.Event {
	sig := "sig-" + id
	c.mu.Lock()
	c.sales[sig] = Sale{In: in, Balance: big.NewInt(left)}
	c.mu.Unlock()
	return &events.Event{Type: events.Confirmed, OrderID: id, AccountID: "acc1", Kind: wire.KindSwap, Chain: wire.ChainSolana,
		Side: wire.Sell, Address: salesToken, State: wire.StateConfirmed,
		Signatures: []wire.SigState{{Signature: sig, Wallet: salesWallet, State: wire.StateConfirmed}}}
}

// TestLateEventsHoldThePositionToTheSale: a buy with an exit, then a sale
// by hand, then a buy without exits, all landed while the exits engine
// was not reading (its role stopped): however their events come, the
// position keeps what the wallet held right after the sale, not what it
// holds now, so that its exit never sells the later buy's tokens. A
// position bought after the sale is not held to it.
func TestLateEventsHoldThePositionToTheSale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		saleFirst  bool
		left, want int64
		// sameSlot: the sale landed in the buy's Solana slot, whose order
		// the node does not tell: the sale counts first, and bounds the
		// position only as the balance now does.
		sameSlot bool
	}{
		{"sold whole, the sale's event first", true, 0, 0, false},
		{"sold whole, the buy's event first", false, 0, 0, false},
		{"sold part, the sale's event first", true, 400_000, 400_000, false},
		{"sold part, the buy's event first", false, 400_000, 400_000, false},
		{"sold whole in the buy's slot, the sale's event first", true, 0, 1_000_000, true},
		{"sold whole in the buy's slot, the buy's event first", false, 0, 1_000_000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, ch := newSalesEngine(t, tc.left+1_700_000)
			ctx := context.Background()
			buy := ch.buyWithExit(t, e, "eu-Before", solanaPlace(10, false), 1_000_000)
			saleSlot := uint64(20)
			if tc.sameSlot {
				saleSlot = 10
			}
			sale := ch.sale("eu-Sold", solanaPlace(saleSlot, true), tc.left)
			// The wallet bought 1,700,000 more at 30, without exits.
			if tc.saleFirst {
				if err := e.sold(ctx, sale, false); err != nil {
					t.Fatal(err)
				}
			}
			if err := e.open(ctx, buy, false); err != nil {
				t.Fatal(err)
			}
			if !tc.saleFirst {
				if err := e.sold(ctx, sale, false); err != nil {
					t.Fatal(err)
				}
			}
			p, _, err := e.load(ctx, positionID("eu-Before", 0))
			if err != nil {
				t.Fatal(err)
			}
			if p.Remaining != big.NewInt(tc.want).String() || (tc.want == 0) != (p.State == wire.PositionClosed) {
				t.Fatalf("the position keeps %s (%s), want %d: the wallet held %d right after its sale, %d now",
					p.Remaining, p.State, tc.want, tc.left, ch.now)
			}
			if tc.want == 0 && p.Exits[0].State != wire.ExitCancelled {
				t.Fatalf("the closed position's exit is %s", p.Exits[0].State)
			}
			// A buy with exits landed after the sale, at 40, keeps its own.
			later := ch.buyWithExit(t, e, "eu-After", solanaPlace(40, false), 1_000_000)
			if err := e.open(ctx, later, false); err != nil {
				t.Fatal(err)
			}
			q, _, err := e.load(ctx, positionID("eu-After", 0))
			if err != nil || q.Remaining != "1000000" || q.State != wire.PositionOpen {
				t.Fatalf("a position bought after the sale: %+v, %v", q, err)
			}
		})
	}
}

// TestSaleBeforeThePositionOpensIsKeptUnread: a sale handled as it
// happens, while the buy before it has no position yet (its event tried
// again: a node behind), is kept from its event alone, no read of the
// chain (a bot that uses no exits sells all day); the position then opening
// reads it, and is held to what the wallet held right after it.
func TestSaleBeforeThePositionOpensIsKeptUnread(t *testing.T) {
	t.Parallel()
	e, ch := newSalesEngine(t, 1_700_000)
	ctx := context.Background()
	h := holdingOf(wire.ChainSolana, salesWallet, salesToken)
	buy := ch.buyWithExit(t, e, "eu-Pending", solanaPlace(10, false), 1_000_000)
	sale := ch.sale("eu-Now", solanaPlace(20, true), 0)
	sale.At, sale.Signatures[0].Slot = time.Now(), 20
	if err := e.sold(ctx, sale, false); err != nil {
		t.Fatal(err)
	}
	marks, err := e.sales(ctx, h)
	if err != nil || len(marks) != 1 || !marks[0].unread() || marks[0].In != solanaPlace(20, true) || ch.read.Load() != 0 {
		t.Fatalf("a sale without positions, as it happened: kept %+v (%v), %d reads of the chain", marks, err, ch.read.Load())
	}
	buy.At = time.Now()
	if err := e.open(ctx, buy, false); err != nil {
		t.Fatal(err)
	}
	p, _, err := e.load(ctx, positionID("eu-Pending", 0))
	if err != nil || p.State != wire.PositionClosed || ch.read.Load() != 1 {
		t.Fatalf("the position of the buy before the sale: %+v (%v), %d reads; want it closed on the sale, read once", p, err, ch.read.Load())
	}
	if marks, _ := e.sales(ctx, h); len(marks) != 1 || marks[0].unread() || marks[0].Balance != "0" {
		t.Fatalf("the sale read: %+v", marks)
	}
}

// TestSaleReadFailingIsTriedAgain: a sale whose transaction the node cannot
// read yet (one behind the node that confirmed it) has its event tried
// again rather than the positions held to the balance now, which may hold
// tokens the wallet bought since; on the event's last tries, they are.
func TestSaleReadFailingIsTriedAgain(t *testing.T) {
	t.Parallel()
	e, ch := newSalesEngine(t, 1_700_000)
	ctx := context.Background()
	if err := e.open(ctx, ch.buyWithExit(t, e, "eu-Held", solanaPlace(10, false), 1_000_000), false); err != nil {
		t.Fatal(err)
	}
	unread := ch.sale("eu-Unread", solanaPlace(20, true), 0)
	ch.mu.Lock()
	delete(ch.sales, "sig-eu-Unread")
	ch.mu.Unlock()
	ch.mu.Lock()
	ch.now = 600_000 // the balance now, lower than the position
	ch.mu.Unlock()
	if err := e.sold(ctx, unread, false); err == nil {
		t.Fatal("a sale whose holding after it could not be read was taken")
	}
	// Held to the balance now meanwhile, which only lowers it.
	if p, _, err := e.load(ctx, positionID("eu-Held", 0)); err != nil || p.Remaining != "600000" {
		t.Fatalf("while the sale is tried again: %+v %v", p, err)
	}
	ch.mu.Lock()
	ch.now = 1_700_000
	ch.mu.Unlock()
	if err := e.sold(ctx, unread, true); err != nil {
		t.Fatalf("on its last tries: %v", err)
	}
	if p, _, err := e.load(ctx, positionID("eu-Held", 0)); err != nil || p.Remaining != "600000" {
		t.Fatalf("held to the balance, never raised: %+v %v", p, err)
	}
}

// TestStartWaitsForTheEventsThatWaited: a starting engine fires no exit
// before the events that waited in the stream for it are handled (a sale
// among them bounds the positions bought before it), or the wait ends.
func TestStartWaitsForTheEventsThatWaited(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	ctx := context.Background()
	cons, err := e.js.CreateOrUpdateConsumer(ctx, bus.StreamEvents, jetstream.ConsumerConfig{Durable: "exits-start-test",
		FilterSubject: bus.EventsOfType(string(events.Confirmed)), AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	if !e.caughtUp(ctx, cons, time.Second) {
		t.Fatal("nothing waited, and the engine did not go on")
	}
	for i := range 3 {
		if _, err := e.js.Publish(ctx, bus.EventsSubject("acc1", string(events.Confirmed)), []byte(strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	// The consumer counts them a moment after the stream took them.
	poll.Until(t, 10*time.Second, "the consumer counts the three events", func() bool {
		ci, err := cons.Info(ctx)
		return err == nil && ci.NumPending == 3
	})
	if e.caughtUp(ctx, cons, 300*time.Millisecond) {
		t.Fatal("went on with three events waiting unhandled")
	}
	msgs, err := cons.Fetch(3, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for m := range msgs.Messages() {
		if e.caughtUp(ctx, cons, 300*time.Millisecond) {
			t.Fatal("went on with an event in hand")
		}
		_ = m.DoubleAck(ctx)
	}
	if !e.caughtUp(ctx, cons, 5*time.Second) {
		t.Fatal("the events handled, the engine did not go on")
	}
}

// TestSaleWithoutItsPlaceIsReadAtOnce: a sale whose event does not say
// where it landed is read from the chain as it is handled, even with no
// position open: kept unread, no position could tell whether it bounds it.
func TestSaleWithoutItsPlaceIsReadAtOnce(t *testing.T) {
	t.Parallel()
	e, ch := newSalesEngine(t, 1_700_000)
	ctx := context.Background()
	buy := ch.buyWithExit(t, e, "eu-Unplaced", solanaPlace(10, false), 1_000_000)
	sale := ch.sale("eu-NoSlot", solanaPlace(20, true), 0)
	sale.At = time.Now()
	if err := e.sold(ctx, sale, false); err != nil {
		t.Fatal(err)
	}
	if marks, _ := e.sales(ctx, holdingOf(wire.ChainSolana, salesWallet, salesToken)); len(marks) != 1 || marks[0].unread() || ch.read.Load() != 1 {
		t.Fatalf("kept %+v after %d reads, want it read at once", marks, ch.read.Load())
	}
	if err := e.open(ctx, buy, false); err != nil {
		t.Fatal(err)
	}
	if p, _, err := e.load(ctx, positionID("eu-Unplaced", 0)); err != nil || p.State != wire.PositionClosed {
		t.Fatalf("the position of the buy before the sale: %+v (%v)", p, err)
	}
}

// TestOlderBuyOpeningLateLeavesTheNewerWhole: buy A (slot 10) with an exit,
// its event tried again; a sale of all of it (slot 20); buy B (slot 30)
// with an exit, opened at once. A's position, opening last, closes on the
// sale; B, bought after it, keeps all it bought (the wallet holds exactly
// B's tokens): positions are ordered by where their buys landed, not by
// when they opened, and a position never asks more of a later moment than
// an earlier one left it. The sale read at once or kept unread alike.
func TestOlderBuyOpeningLateLeavesTheNewerWhole(t *testing.T) {
	t.Parallel()
	for _, unread := range []bool{false, true} {
		e, ch := newSalesEngine(t, 1_000_000)
		ctx := context.Background()
		buyA := ch.buyWithExit(t, e, "eu-A", solanaPlace(10, false), 1_000_000)
		sale := ch.sale("eu-S", solanaPlace(20, true), 0)
		if unread {
			sale.At, sale.Signatures[0].Slot = time.Now(), 20
		}
		if err := e.sold(ctx, sale, false); err != nil {
			t.Fatal(err)
		}
		if err := e.open(ctx, ch.buyWithExit(t, e, "eu-B", solanaPlace(30, false), 1_000_000), false); err != nil {
			t.Fatal(err)
		}
		if err := e.open(ctx, buyA, false); err != nil {
			t.Fatal(err)
		}
		pa, _, _ := e.load(ctx, positionID("eu-A", 0))
		pb, _, _ := e.load(ctx, positionID("eu-B", 0))
		if pa.State != wire.PositionClosed || pb.State != wire.PositionOpen || pb.Remaining != "1000000" {
			t.Errorf("sale kept unread %v: A %s %s, B %s %s; want A closed, B open with 1000000", unread, pa.State, pa.Remaining, pb.State, pb.Remaining)
		}
	}
}

// TestTwoSalesInOneSlotKeptApart: two sales of one wallet in one slot, both
// kept unread while the buy before them has no position: both are kept
// (a sale is its transaction), and the position, opening after a re-buy,
// is held to what the wallet held after the second.
func TestTwoSalesInOneSlotKeptApart(t *testing.T) {
	t.Parallel()
	e, ch := newSalesEngine(t, 1_000_000)
	ctx := context.Background()
	buy := ch.buyWithExit(t, e, "eu-Twice", solanaPlace(10, false), 1_000_000)
	for _, s := range []*events.Event{ch.sale("eu-S1", solanaPlace(20, true), 500_000), ch.sale("eu-S2", solanaPlace(20, true), 0)} {
		s.At, s.Signatures[0].Slot = time.Now(), 20
		if err := e.sold(ctx, s, false); err != nil {
			t.Fatal(err)
		}
	}
	if marks, _ := e.sales(ctx, holdingOf(wire.ChainSolana, salesWallet, salesToken)); len(marks) != 2 {
		t.Fatalf("two sales in one slot kept as %+v", marks)
	}
	if err := e.open(ctx, buy, false); err != nil {
		t.Fatal(err)
	}
	if p, _, _ := e.load(ctx, positionID("eu-Twice", 0)); p.State != wire.PositionClosed {
		t.Fatalf("the position keeps %s (%s) though the wallet held 0 after its second sale", p.Remaining, p.State)
	}
}

// TestDueExitsWaitForQueuedEvents: a running engine far behind its events
// (some wait undelivered) holds its due exits until those are delivered
// and none is in any engine's hands (the consumer is every engine's), at
// most its bound; one not behind goes on at once, and an event it handed
// back to be tried later holds nothing up.
func TestDueExitsWaitForQueuedEvents(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "exits-test")
	e := newTestEngine(t, b, nil)
	ctx := context.Background()
	if !e.awaitQueued(ctx, time.Second) {
		t.Fatal("no consumer yet, and the exits did not go on")
	}
	cons, err := e.js.CreateOrUpdateConsumer(ctx, bus.StreamEvents, jetstream.ConsumerConfig{Durable: "exits-queued-test",
		FilterSubject: bus.EventsOfType(string(events.Confirmed)), AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	e.queue.Store(&cons)
	if !e.awaitQueued(ctx, time.Second) {
		t.Fatal("nothing queued, and the exits did not go on")
	}
	publish := func(n int) {
		ci, err := cons.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if _, err := e.js.Publish(ctx, bus.EventsSubject("acc1", string(events.Confirmed)), []byte(strconv.Itoa(i))); err != nil {
				t.Fatal(err)
			}
		}
		poll.Until(t, 10*time.Second, "the consumer counts the events", func() bool {
			now, err := cons.Info(ctx)
			return err == nil && now.NumPending == ci.NumPending+uint64(n)
		})
	}
	fetch := func(n int) []jetstream.Msg {
		msgs, err := cons.Fetch(n, jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			t.Error(err)
			return nil
		}
		var in []jetstream.Msg
		for m := range msgs.Messages() {
			in = append(in, m)
		}
		return in
	}
	// One event tried again a minute later, as one whose chain does not
	// answer: handled once, it holds no exit.
	publish(1)
	for _, m := range fetch(1) {
		e.holdBack(m, time.Minute)
	}
	publish(3)
	if e.awaitQueued(ctx, 300*time.Millisecond) {
		t.Fatal("went on with three events queued undelivered")
	}
	// Delivered into another engine's hands once the exits wait, then
	// handled a moment later: the exits wait for them, and go on once they
	// are, the one handed back still waiting for its minute.
	var logs logtest.Buffer
	e.log = slog.New(slog.NewTextHandler(&logs, nil))
	var handled atomic.Bool
	go func() {
		for end := time.Now().Add(30 * time.Second); !strings.Contains(logs.String(), "due exits wait for the events queued ahead of them"); {
			if time.Now().After(end) {
				return
			}
			time.Sleep(time.Millisecond)
		}
		in := fetch(3)
		time.Sleep(300 * time.Millisecond) // deliberate: events in hand
		handled.Store(true)
		for _, m := range in {
			_ = m.DoubleAck(ctx)
		}
	}()
	if !e.awaitQueued(ctx, 30*time.Second) {
		t.Fatal("the events handled, the exits did not go on")
	}
	if !handled.Load() {
		t.Fatal("the exits went on while the events queued ahead of them were in hand")
	}
}

// TestHeldBackForgottenWhenDue: the events an engine held back are
// remembered about as long as they are held, whether or not any exit
// asks: many handed back, their delays passed, leave few entries.
func TestHeldBackForgottenWhenDue(t *testing.T) {
	t.Parallel()
	var h heldBack
	for seq := range uint64(100_000) {
		h.add(seq, time.Now().Add(-time.Millisecond))
	}
	if n := len(h.until); n > 64 {
		t.Fatalf("%d held back remembered long past their delays", n)
	}
	h.add(100_000, time.Now().Add(time.Minute))
	if n := h.count(time.Now()); n != 1 {
		t.Fatalf("%d held back counted, want the one still held", n)
	}
}
