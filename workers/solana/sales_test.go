package solana

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// salesFixture is a fixture whose signer records its sales in an
// embedded NATS server's buckets, and a wallet holding 1,000,000 tokens.
func salesFixture(t *testing.T) (*fixture, *orders.Store, sol.PublicKey) {
	t.Helper()
	f := newFixture(t)
	f.oneFeeRecipient()
	f.seedCurve(10_000_000_000)
	b := bustest.Start(t, "solana-sales")
	store := orders.NewStore(b.Buckets.Orders)
	f.signer.WithSaleRecords(b.Buckets.Nonces, store)
	return f, store, f.wallet(1e8, 1_000_000)
}

// sell signs a sale of w's tokens by percent for order id and returns its
// transaction and the tokens it sells.
func (f *fixture) sell(t *testing.T, id string, w sol.PublicKey, percent string) (wire.SignedTx, uint64, error) {
	t.Helper()
	job := f.job(wire.Sell, wire.Leg{Wallet: w.String(), Amount: percent})
	job.OrderID, job.ProcessorTip = id, "0"
	batch, err := f.signer.Sign(context.Background(), job)
	if err != nil {
		return wire.SignedTx{}, 0, err
	}
	if len(batch.Txs) != 1 {
		t.Fatalf("%d transactions, want 1", len(batch.Txs))
	}
	for _, ix := range decodeTx(t, batch.Txs[0]) {
		if ix.program == pumpfun.ProgramID {
			args, err := pumpfun.DecodeInstruction(ix.data)
			if err != nil {
				t.Fatal(err)
			}
			return batch.Txs[0], args.(*pumpfun.SellArgs).Amount, nil
		}
	}
	t.Fatal("no pump.fun sell in the transaction")
	return wire.SignedTx{}, 0, nil
}

// TestSalesInFlightCount: a wallet's sales signed and not landed take
// their tokens from its next sale's percent, until the chain holds them,
// they fail, their order ends or their time is up.
func TestSalesInFlightCount(t *testing.T) {
	f, store, w := salesFixture(t)
	f.chain.slot = 100
	ctx := context.Background()
	mustSell := func(id, percent string, want uint64, closes bool) wire.SignedTx {
		t.Helper()
		tx, got, err := f.sell(t, id, w, percent)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if got != want || (tx.Closes != "") != closes {
			t.Fatalf("%s sells %d (closes %q), want %d (closes %v)", id, got, tx.Closes, want, closes)
		}
		return tx
	}
	nothingLeft := func(id string) {
		t.Helper()
		_, _, err := f.sell(t, id, w, "100")
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Code != apierr.InsufficientBalance {
			t.Fatalf("%s: %v, want INSUFFICIENT_BALANCE", id, err)
		}
	}

	s1 := mustSell("eu-s1", "50", 500_000, false)
	s2 := mustSell("eu-s2", "50", 250_000, false)
	// All that is left, which the sales before will not leave: the token
	// account stays open (it is empty only once they land).
	s3 := mustSell("eu-s3", "100", 250_000, false)
	nothingLeft("eu-s4")
	// The same order signed again (a redelivered job) does not count
	// itself.
	mustSell("eu-s3", "100", 250_000, false)

	// The first landed: in the reads' slot or after it, it may or may not
	// be in the balance read, and the token account is read again; in an
	// earlier slot, the balance read counts it.
	f.setTokens(w, 500_000)
	f.chain.mu.Lock()
	f.chain.statuses = map[sol.Signature]*rpc.SignatureStatusesResult{
		sol.MustSignatureFromBase58(s1.Signature): {Slot: 100, ConfirmationStatus: rpc.ConfirmationStatusConfirmed},
	}
	f.chain.mu.Unlock()
	reads := func() int {
		f.chain.mu.Lock()
		defer f.chain.mu.Unlock()
		return len(f.chain.reads)
	}
	before := reads()
	nothingLeft("eu-s5a")
	readAgain := reads() - before
	if f.chain.minSlot != 100 {
		t.Fatalf("the token accounts read again at slot %d at least, want the sale's, 100", f.chain.minSlot)
	}
	f.chain.mu.Lock()
	f.chain.slot = 101
	f.chain.mu.Unlock()
	before = reads()
	nothingLeft("eu-s5")
	if again := reads() - before; again != readAgain-1 {
		t.Fatalf("%d reads for a sale landed in the reads' slot, %d for one landed before it: want one read more", readAgain, again)
	}

	// The second failed on chain: it moved nothing.
	f.chain.mu.Lock()
	f.chain.statuses[sol.MustSignatureFromBase58(s2.Signature)] = &rpc.SignatureStatusesResult{Slot: 78, Err: "custom program error"}
	f.chain.mu.Unlock()
	mustSell("eu-s6", "100", 250_000, false)

	// The third's send was refused: its order says so.
	if err := store.Create(ctx, &wire.Order{OrderID: "eu-s3", State: wire.StateFailed,
		Signatures: []wire.SigState{{Signature: s3.Signature, State: wire.StateFailed}}}); err != nil {
		t.Fatal(err)
	}
	// Still counted: the sale just signed for eu-s6.
	mustSell("eu-s7", "100", 250_000, false)
	// Its time up, a sale that never landed counts while its blockhash
	// may still land (a slow cluster: the chain's height not past it);
	// once the height is past it, no more.
	f.clock = f.clock.Add(saleLife)
	nothingLeft("eu-s8")
	f.chain.mu.Lock()
	f.chain.height += blockhashBlocks + 1
	f.chain.mu.Unlock()
	if _, err := f.signer.hashes.read(ctx); err != nil { // the refresh that follows
		t.Fatal(err)
	}
	mustSell("eu-s9", "100", 500_000, true)
}

// TestSalesOfTwoSignersAtOnce: two worker processes signing sales of one
// wallet at once plan on the same record; the one whose write comes second
// plans again, so that the two sell 75 %, not everything.
func TestSalesOfTwoSignersAtOnce(t *testing.T) {
	f, store, w := salesFixture(t)
	other := NewSigner(f.chain, f.keys, f.signer.cfg, nil).WithSaleRecords(f.signer.sales.kv, store)
	other.now = f.signer.now
	// The other signer's sale is recorded between this one's read of the
	// record and its write.
	job := f.job(wire.Sell, wire.Leg{Wallet: w.String(), Amount: "50"})
	job.OrderID, job.ProcessorTip = "eu-first", "0"
	o, err := f.signer.parseJob(job)
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := f.signer.readSales(context.Background(), job, o)
	if err != nil {
		t.Fatal(err)
	}
	otherJob := f.job(wire.Sell, wire.Leg{Wallet: w.String(), Amount: "50"})
	otherJob.OrderID, otherJob.ProcessorTip = "eu-other", "0"
	if _, err := other.Sign(context.Background(), otherJob); err != nil {
		t.Fatal(err)
	}
	if _, err := f.signer.signAddress(ctx, job, o); !errors.Is(err, errSalesMoved) {
		t.Fatalf("a sale planned on a record that moved: %v, want errSalesMoved", err)
	}
	// Sign plans it again, on the record as it is now.
	if _, got, err := f.sell(t, "eu-first", w, "50"); err != nil || got != 250_000 {
		t.Fatalf("the second sale sells %d (%v), want 250000", got, err)
	}
}

// TestSaleLandingDuringTheReadAgain: a sale the chain did not hold when the
// statuses were asked, which lands before the token account is read again
// (read again for another sale that had landed), is in that balance, and
// is not taken off it a second time.
func TestSaleLandingDuringTheReadAgain(t *testing.T) {
	f, _, w := salesFixture(t)
	f.chain.slot = 100
	tx1, got, err := f.sell(t, "eu-s1", w, "50")
	if err != nil || got != 500_000 {
		t.Fatalf("eu-s1 sells %d, %v", got, err)
	}
	tx2, got, err := f.sell(t, "eu-s2", w, "50")
	if err != nil || got != 250_000 {
		t.Fatalf("eu-s2 sells %d, %v", got, err)
	}
	s1, s2 := sol.MustSignatureFromBase58(tx1.Signature), sol.MustSignatureFromBase58(tx2.Signature)
	// The first landed in the reads' slot; the second lands right after
	// the statuses were asked, before the account is read again.
	f.setTokens(w, 500_000)
	f.chain.mu.Lock()
	f.chain.statuses = map[sol.Signature]*rpc.SignatureStatusesResult{
		s1: {Slot: 100, ConfirmationStatus: rpc.ConfirmationStatusConfirmed},
	}
	f.chain.afterStatuses = func() {
		f.setTokens(w, 250_000)
		f.chain.mu.Lock()
		f.chain.statuses[s2] = &rpc.SignatureStatusesResult{Slot: 101, ConfirmationStatus: rpc.ConfirmationStatusConfirmed}
		f.chain.slot = 101
		f.chain.mu.Unlock()
	}
	f.chain.mu.Unlock()
	if _, got, err := f.sell(t, "eu-s3", w, "50"); err != nil || got != 125_000 {
		t.Fatalf("eu-s3 sells %d, %v; want half of the 250,000 left once both landed", got, err)
	}
}

// TestSaleConfirmedWhereTheNodeDoesNotKnowIt: a sale the statuses show
// processed after the read (not in its balance), which its order then
// records confirmed while the node asked next does not know it, is not
// taken for landed in a balance read before its slot: the wallet is read
// again from a node that reached it, and here none has, so the sale waits
// (its job is tried again) rather than sell what that sale takes.
func TestSaleConfirmedWhereTheNodeDoesNotKnowIt(t *testing.T) {
	f, store, w := salesFixture(t)
	f.chain.slot = 100
	tx1, _, err := f.sell(t, "eu-s1", w, "50")
	if err != nil {
		t.Fatal(err)
	}
	tx2, _, err := f.sell(t, "eu-s2", w, "50")
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := sol.MustSignatureFromBase58(tx1.Signature), sol.MustSignatureFromBase58(tx2.Signature)
	f.setTokens(w, 500_000)
	f.chain.mu.Lock()
	f.chain.statuses = map[sol.Signature]*rpc.SignatureStatusesResult{
		s1: {Slot: 100, ConfirmationStatus: rpc.ConfirmationStatusConfirmed},
		s2: {Slot: 101, ConfirmationStatus: rpc.ConfirmationStatusProcessed},
	}
	f.chain.afterStatuses = func() {
		if err := store.Create(context.Background(), &wire.Order{OrderID: "eu-s2", State: wire.StateConfirmed,
			Signatures: []wire.SigState{{Signature: tx2.Signature, State: wire.StateConfirmed, Slot: 101}}}); err != nil {
			t.Error(err)
		}
		f.chain.mu.Lock()
		delete(f.chain.statuses, s2)
		f.chain.mu.Unlock()
	}
	f.chain.mu.Unlock()
	_, got, err := f.sell(t, "eu-s3", w, "50")
	var ae *apierr.Error
	if err == nil || errors.As(err, &ae) || !strings.Contains(err.Error(), "context slot") {
		t.Fatalf("eu-s3 sells %d, %v; want it tried again once a node has reached the sale's slot", got, err)
	}
}

// TestStatusesOfManySalesInFlight: the statuses of more sales in flight
// than a node answers in one call (256) are asked in parts: asked at once,
// every sale of the mint failed until the records expired.
func TestStatusesOfManySalesInFlight(t *testing.T) {
	f, _, w := salesFixture(t)
	open := make([]owedSale, 300)
	slots := make([]uint64, len(open))
	for i := range open {
		open[i] = owedSale{wallet: w, sale: pendingSale{Order: fmt.Sprintf("eu-%d", i), Signature: sol.Signature{byte(i), byte(i >> 8), 1}.String()}}
	}
	s300 := sol.MustSignatureFromBase58(open[299].sale.Signature)
	f.chain.mu.Lock()
	f.chain.statuses = map[sol.Signature]*rpc.SignatureStatusesResult{s300: {Slot: 7, ConfirmationStatus: rpc.ConfirmationStatusConfirmed}}
	f.chain.mu.Unlock()
	gone, recent, err := f.signer.settledSales(context.Background(), open, slots)
	if err != nil {
		t.Fatal(err)
	}
	if recent[s300.String()] != 7 || len(recent) != 1 || len(gone) != 299 {
		t.Fatalf("recent %v, %d gone or counted; want the 300th recent, landed in slot 7", recent, len(gone))
	}
}
