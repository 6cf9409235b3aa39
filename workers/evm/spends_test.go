package evm

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestClaims: a wallet record's spends count until their last nonce is
// mined or they are past their deadline; a claim the others leave no room
// for is refused and records nothing; an order signed again replaces its
// claim.
func TestClaims(t *testing.T) {
	tok := common.HexToAddress("0x02")
	now := time.Now()
	until := now.Add(time.Minute)
	claim := func(order string, mined uint64, held, spend int64) *Claim {
		return &Claim{Order: order, Mined: mined, Until: until,
			Held: map[common.Address]*big.Int{tok: big.NewInt(held)}, Spend: map[common.Address]*big.Int{tok: big.NewInt(spend)}}
	}
	rec := &nonceRecord{}
	if err := rec.claim(claim("o1", 0, 150, 100), 5, 5, now); err != nil {
		t.Fatal(err)
	}
	if err := rec.claim(claim("o2", 0, 150, 50), 6, 6, now); err != nil {
		t.Fatal(err)
	}
	var spent *ErrSpent
	if err := rec.claim(claim("o3", 0, 150, 1), 7, 7, now); !errors.As(err, &spent) || spent.Taken.Int64() != 150 || len(rec.Spends) != 2 {
		t.Fatalf("a claim past the balance: %v, spends %v", err, rec.Spends)
	}
	if got := Outstanding(rec.Spends, tok, 6, now, ""); got.Int64() != 50 {
		t.Fatalf("outstanding %s with nonce 5 mined, want 50", got)
	}
	if got := Outstanding(rec.Spends, tok, 0, now, "o2"); got.Int64() != 100 {
		t.Fatalf("outstanding %s leaving o2 out, want 100", got)
	}
	if got := Outstanding(rec.Spends, common.Address{}, 0, now, ""); got.Sign() != 0 {
		t.Fatalf("outstanding native %s, want none", got)
	}
	// o1 mined (the balance read after shows it: 50 left); o2 signed
	// again for 40 keeps its first signing, which may be the one handed
	// on, and counts once, at its larger 50.
	if err := rec.claim(claim("o2", 6, 50, 40), 7, 7, now); err != nil || len(rec.Spends) != 2 || rec.Spends[1].Amount.Int64() != 40 {
		t.Fatalf("o2 signed again: %v, spends %v", err, rec.Spends)
	}
	if got := Outstanding(rec.Spends, tok, 6, now, ""); got.Int64() != 50 {
		t.Fatalf("outstanding %s of an order signed twice, want 50", got)
	}
	if got := Outstanding(rec.Spends, tok, 0, until.Add(time.Second), ""); got.Sign() != 0 {
		t.Fatalf("outstanding %s past the deadline, want none", got)
	}
}

// TestApprovalClaims: an approval another order of the wallet makes, not
// yet mined and still able to land, refuses a claim of the same approval;
// mined, past its deadline, of another token or spender, or the same
// order's, it does not.
func TestApprovalClaims(t *testing.T) {
	tok, router, other := common.HexToAddress("0x02"), common.HexToAddress("0x03"), common.HexToAddress("0x04")
	now := time.Now()
	until := now.Add(time.Minute)
	claim := func(order string, mined uint64, a Approval) *Claim {
		return &Claim{Order: order, Mined: mined, Until: until, Approves: &a,
			Held: map[common.Address]*big.Int{tok: big.NewInt(10)}, Spend: map[common.Address]*big.Int{tok: big.NewInt(1)}}
	}
	rec := &nonceRecord{}
	if err := rec.claim(claim("o1", 0, Approval{Token: tok, Spender: router}), 1, 1, now); err != nil {
		t.Fatal(err)
	}
	if got := Outstanding(rec.Spends, tok, 0, now, ""); got.Int64() != 1 {
		t.Fatalf("outstanding %s beside an approval, want the sale's 1", got)
	}
	if err := rec.claim(claim("o2", 0, Approval{Token: tok, Spender: router}), 3, 3, now); !errors.Is(err, ErrApproving) {
		t.Fatalf("a second approval while the first is on its way: %v", err)
	}
	for name, c := range map[string]*Claim{
		"o1 signed again":             claim("o1", 0, Approval{Token: tok, Spender: router}),
		"another spender":             claim("o3", 0, Approval{Token: tok, Spender: other}),
		"another token":               claim("o4", 0, Approval{Token: other, Spender: router}),
		"o1 mined (nonce 1 is below)": claim("o5", 2, Approval{Token: tok, Spender: router}),
	} {
		r := &nonceRecord{Spends: append([]RecordSpend(nil), rec.Spends...)}
		if err := r.claim(c, 5, 5, now); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if err := rec.claim(claim("o6", 0, Approval{Token: tok, Spender: router}), 3, 3, until.Add(time.Second)); err != nil {
		t.Fatalf("an approval past the other's deadline: %v", err)
	}
}

// TestTurns: the orders of one wallet take its turn one at a time.
func TestTurns(t *testing.T) {
	sp := newSpends()
	w := common.HexToAddress("0x01")
	o := &order{side: wire.Sell, legs: []jobLeg{{wallet: w}, {wallet: w}}}
	eth, base := &chainState{ChainConfig: ChainConfig{Name: "eth"}}, &chainState{ChainConfig: ChainConfig{Name: "base"}}
	keys := turnKeys(o, []*chainState{eth})
	if len(keys) != 1 {
		t.Fatalf("turn keys %v, want one for the wallet twice", keys)
	}
	if both := turnKeys(o, []*chainState{eth, base}); len(both) != 2 {
		t.Fatalf("turn keys %v, want the wallet's on each chain", both)
	}
	release, err := sp.take(context.Background(), keys)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := sp.take(ctx, keys); err == nil {
		t.Fatal("a second order took the turn the first holds")
	}
	// The wallet's order on another chain does not wait for this one (whose
	// node may hang).
	octx, ocancel := context.WithTimeout(context.Background(), time.Second)
	defer ocancel()
	other, err := sp.take(octx, turnKeys(o, []*chainState{base}))
	if err != nil {
		t.Fatalf("the wallet's order on another chain waited: %v", err)
	}
	other()
	release()
	release2, err := sp.take(context.Background(), keys)
	if err != nil {
		t.Fatal(err)
	}
	release2()
	if len(sp.locks) != 0 {
		t.Fatalf("%d turns kept after every order gave its back", len(sp.locks))
	}
}

// signerSeeingEnded is a signer of e whose nonces ask failed (order id ->
// true) whether an order ended.
func (e *env) signerSeeingEnded(t *testing.T, failed *sync.Map) *Signer {
	t.Helper()
	nonces := NewNonces(e.nats.buckets(t).Nonces, 0, nil).WithEnded(func(_ context.Context, order string) (bool, error) {
		_, ok := failed.Load(order)
		return ok, nil
	})
	return e.newSigner(t, nonces, Config{})
}

// TestEndedOrderSpendsNothing: an order that ended without landing (the
// broadcaster failed it: every send refused) takes nothing of its wallet
// any more. Its bot's retry, and an exit's re-armed sale of the whole
// holding, are signed at once, not refused INSUFFICIENT_BALANCE for the
// two minutes its spends would otherwise count; an order still in flight
// keeps counting.
func TestEndedOrderSpendsNothing(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	ctx := context.Background()
	var failed sync.Map
	s := e.signerSeeingEnded(t, &failed)
	first := e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "100"))
	if _, err := s.Sign(ctx, first); err != nil {
		t.Fatal(err)
	}
	// In flight: the whole holding is on its way.
	var short *apierr.Error
	if _, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "100"))); !errors.As(err, &short) || short.Code != apierr.InsufficientBalance {
		t.Fatalf("a second sale of everything while the first is in flight: %v, want INSUFFICIENT_BALANCE", err)
	}
	failed.Store(first.OrderID, true)
	time.Sleep(liveFor) // deliberate: an order seen not ended a moment ago is taken for not ended that long
	if _, err := s.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "100"))); err != nil {
		t.Fatalf("the retry of a sale whose order failed: %v", err)
	}
}

// TestRefusedApprovalNotAwaited: a sale of 10 % signed while the wallet's
// first sale, which approves the router, is in flight awaits that
// approval; once the chain refused the approval (the broadcaster failed
// it, the first sale's order living on), the next sale approves for
// itself instead of going out to revert for want of an allowance. That
// holds for the signer that signed the approval (which remembers it) and
// for another worker's (which reads it in the wallet's record).
func TestRefusedApprovalNotAwaited(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	ctx := context.Background()
	var refused sync.Map
	nonces := NewNonces(e.nats.buckets(t).Nonces, 0, nil).WithApprovalsRefused(
		func(_ context.Context, _, order string, _, _, _ common.Address) (bool, error) {
			_, ok := refused.Load(order)
			return ok, nil
		})
	s, other := e.newSigner(t, nonces, Config{}), e.newSigner(t, nonces, Config{})
	first := e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10"))
	b, err := s.Sign(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if got := approvals(decode(t, b)); len(got) != 1 {
		t.Fatalf("the first sale approves %v, want one approval", got)
	}
	signers := []struct {
		name string
		s    *Signer
	}{{"the same signer", s}, {"another worker", other}}
	for _, sg := range signers {
		b, err := sg.s.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10")))
		if err != nil {
			t.Fatal(err)
		}
		if got := approvals(decode(t, b)); len(got) != 0 {
			t.Fatalf("%s: a sale behind the first's approval on its way approves %v, want none", sg.name, got)
		}
	}
	refused.Store(first.OrderID, true)
	time.Sleep(liveFor) // deliberate: an approval seen not refused a moment ago is taken for not refused that long
	for _, sg := range signers {
		job := e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10"))
		b, err := sg.s.Sign(ctx, job)
		if err != nil {
			t.Fatalf("%s: %v", sg.name, err)
		}
		if got := approvals(decode(t, b)); len(got) != 1 {
			t.Fatalf("%s: a sale after the wallet's approval on its way was refused approves %v, want its own approval", sg.name, got)
		}
		// Refused too: the next sale has no approval on its way either.
		refused.Store(job.OrderID, true)
	}
}

// batchLog is a chain client that records the methods of each JSON-RPC
// batch it sends, in order.
type batchLog struct {
	ChainClient
	mu      sync.Mutex
	batches [][]string
}

func (b *batchLog) BatchCallContext(ctx context.Context, elems []rpc.BatchElem) error {
	methods := make([]string, len(elems))
	for i, e := range elems {
		methods[i] = e.Method
	}
	b.mu.Lock()
	b.batches = append(b.batches, methods)
	b.mu.Unlock()
	return b.ChainClient.BatchCallContext(ctx, elems)
}

// TestTokenBalanceReadAfterTheMinedCount: a sale reads each wallet's
// balance of the token in the batch that reads its mined transaction
// count, after it, as the native balance is: read apart, a sale mined
// between the two reads would be in neither the balance nor the spends
// still outstanding, and the next sale would sell tokens already sold.
func TestTokenBalanceReadAfterTheMinedCount(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	c := e.signer.chains[wire.ChainBase]
	log := &batchLog{ChainClient: c.client}
	c.client = log
	t.Cleanup(func() { c.client = log.ChainClient })
	if _, err := e.signer.Sign(context.Background(), e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "50"))); err != nil {
		t.Fatal(err)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	for _, b := range log.batches {
		if i := slices.Index(b, "eth_getTransactionCount"); i >= 0 {
			if j := slices.Index(b, "eth_call"); j > i {
				return
			}
			t.Fatalf("the wallets' batch %v reads no token balance after the mined count", b)
		}
	}
	t.Fatalf("no batch read the wallet's mined count: %v", log.batches)
}

// soldOf is what each order's sale of token takes of w, by order, as the
// wallet's record on chain holds it.
func (e *env) soldOf(t *testing.T, chain string, w, token common.Address) map[string]*big.Int {
	t.Helper()
	spends, err := e.nonces.Pending(context.Background(), chain, w)
	if err != nil {
		t.Fatal(err)
	}
	sold := map[string]*big.Int{}
	for _, sp := range spends {
		if sp.Amount != nil && sp.Approves == "" && sp.Token == tokenName(token) {
			sold[sp.Order] = sp.Amount
		}
	}
	return sold
}

// tenthsLeft is what k sales of 10 % each, one after the other, leave of
// held: each sells a tenth of what the ones before left, rounded down.
func tenthsLeft(held *big.Int, k int) *big.Int {
	left := new(big.Int).Set(held)
	for range k {
		left.Sub(left, new(big.Int).Div(left, big.NewInt(10)))
	}
	return left
}

// TestSaleOutrunAgainAndAgain: a sale that another worker's sales of its
// wallet outrun three times running (more than it was once worked out
// again) is worked out again each time, and signed once it comes first,
// selling its share of what the others left; one outrun every time it is
// worked out is answered 503 CHAIN_UNAVAILABLE naming the chain (not
// charged, to be sent again), not 422 INSUFFICIENT_BALANCE, charged, for
// tokens the wallet holds, and takes nothing from the wallet's record.
func TestSaleOutrunAgainAndAgain(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	held := e.balance(t, wire.ChainBase, w, tok.Address.Hex())
	ctx := context.Background()
	other := e.newSigner(t, e.nonces, Config{})
	outruns, limit := 0, 3
	e.signer.beforeTakes = func() {
		if outruns == limit {
			return
		}
		outruns++
		if _, err := other.Sign(ctx, e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10"))); err != nil {
			t.Error(err)
		}
	}
	sale := e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "50"))
	if _, err := e.signer.Sign(ctx, sale); err != nil {
		t.Fatalf("a sale outrun %d times: %v", outruns, err)
	}
	if outruns != limit {
		t.Fatalf("outrun %d times, want %d", outruns, limit)
	}
	left := tenthsLeft(held, limit)
	if got, want := e.soldOf(t, wire.ChainBase, w, tok.Address)[sale.OrderID], new(big.Int).Div(left, big.NewInt(2)); got == nil || got.Cmp(want) != 0 {
		t.Fatalf("the sale outrun %d times sells %v, want half of the %s the others left, %s", limit, got, left, want)
	}

	outruns, limit = 0, -1
	outrun := e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "50"))
	_, err := e.signer.Sign(ctx, outrun)
	wantCode(t, err, apierr.ChainUnavailable, wire.ChainBase)
	if outruns != soldAgain+1 {
		t.Fatalf("outrun %d times, want once a try, %d", outruns, soldAgain+1)
	}
	if got := e.soldOf(t, wire.ChainBase, w, tok.Address)[outrun.OrderID]; got != nil {
		t.Fatalf("the sale answered outrun took %s from the wallet's record", got)
	}
}

// TestConcurrentSalesOnTwoWorkers: many sales of 10 % of one wallet sent
// at once to two workers of the chain (two signers sharing the nonces'
// records) each sell a tenth of what the ones taken before leave, as one
// after the other would; none is refused 422 for tokens the wallet holds
// (one outrun every time it is worked out is a free 503, to be sent again).
func TestConcurrentSalesOnTwoWorkers(t *testing.T) {
	e := newEnv(t)
	tok, w := e.holder(t, wire.ChainBase)
	held := e.balance(t, wire.ChainBase, w, tok.Address.Hex())
	ctx := context.Background()
	signers := []*Signer{e.signer, e.newSigner(t, e.nonces, Config{})}
	const sales = 16
	jobs, errs := make([]*wire.SwapJob, sales), make([]error, sales)
	var wg sync.WaitGroup
	for i := range sales {
		jobs[i] = e.job(wire.ChainBase, wire.Sell, tok.Address, "", legOf(w, "10"))
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = signers[i%2].Sign(ctx, jobs[i])
		}()
	}
	wg.Wait()
	sold := e.soldOf(t, wire.ChainBase, w, tok.Address)
	total, signed := new(big.Int), 0
	for i, err := range errs {
		if err != nil {
			wantCode(t, err, apierr.ChainUnavailable, wire.ChainBase)
			continue
		}
		amount := sold[jobs[i].OrderID]
		if amount == nil {
			t.Fatalf("sale %d signed and not in the wallet's record", i)
		}
		total.Add(total, amount)
		signed++
	}
	t.Logf("%d of %d sales signed", signed, sales)
	if want := new(big.Int).Sub(held, tenthsLeft(held, signed)); total.Cmp(want) != 0 {
		t.Fatalf("%d sales of 10 %% sold %s of %s, want %s, as one after the other", signed, total, held, want)
	}
}
