package solana

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestOnDevnet signs a buy and then a sell with the Signer and lands them
// on the local chain, which runs pump.fun as published.
func TestOnDevnet(t *testing.T) {
	sc := newPumpScene(t, 3_000_000_000)
	chain, client, coin, wallets, signer := sc.chain, sc.client, sc.coin, sc.wallets, sc.signer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	job := sc.buy("1", "0.25")
	// What the client's quote says each wallet gets, the legs landing in
	// order; the chain must pay exactly that.
	curve, rates := readCurve(t, chain, coin)
	var quoted []uint64
	for _, amount := range []uint64{1_000_000_000, 250_000_000} {
		q, err := curve.QuoteBuyExactSolIn(rates(&curve), amount)
		if err != nil {
			t.Fatal(err)
		}
		curve.ApplyBuy(q)
		quoted = append(quoted, q.TokensOut)
	}
	before := []uint64{chain.Balance(wallets[0]), chain.Balance(wallets[1])}
	land(ctx, t, client, signer, job)
	tokens := make([]uint64, len(wallets))
	for i, w := range wallets {
		var err error
		if tokens[i], err = chain.TokenBalance(w, coin.Mint); err != nil {
			t.Fatal(err)
		}
		spent := before[i] - chain.Balance(w)
		amount := []uint64{1_000_000_000, 250_000_000}[i]
		// At most the amount plus the fees, the tip and the new accounts'
		// rent; at least the amount less its rounding.
		if tokens[i] != quoted[i] {
			t.Fatalf("wallet %d received %d tokens, quoted %d", i, tokens[i], quoted[i])
		}
		if spent > amount+5000+20000+10000+890_880+2_074_080+rentExempt(pumpfun.UserVolumeAccumulatorSize) || spent < amount-10 {
			t.Fatalf("wallet %d: %d tokens for %d lamports", i, tokens[i], spent)
		}
	}

	// The sale names the coin's bonding curve, its pool on the spec's
	// terms, which trades as the mint.
	sell := &wire.SwapJob{
		OrderID: "eu-devnet-sell", AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana,
		Token: coin.BondingCurve.String(), Side: wire.Sell, SellMode: wire.SellPercent, QuoteAsset: "SOL", SlippageBps: 500,
		PriorityFee: "20000", ProcessorTip: "10000",
		Legs: []wire.Leg{
			{Wallet: wallets[0].String(), Amount: "100"},
			{Wallet: wallets[1].String(), Amount: "50"},
		},
	}
	curve, rates = readCurve(t, chain, coin)
	var proceeds []uint64
	for _, amount := range []uint64{tokens[0], tokens[1] / 2} {
		q, err := curve.QuoteSell(rates(&curve), amount)
		if err != nil {
			t.Fatal(err)
		}
		curve.ApplySell(q)
		proceeds = append(proceeds, q.Net)
	}
	before = []uint64{chain.Balance(wallets[0]), chain.Balance(wallets[1])}
	if b := land(ctx, t, client, signer, sell); b.Mint != coin.Mint.String() || b.Token != coin.BondingCurve.String() {
		t.Fatalf("a sale by the curve's address traded %s (named %s), want the mint %s", b.Mint, b.Token, coin.Mint)
	}
	for i, w := range wallets {
		left, err := chain.TokenBalance(w, coin.Mint)
		if err != nil {
			t.Fatal(err)
		}
		want := []uint64{0, tokens[1] - tokens[1]/2}[i]
		if left != want {
			t.Fatalf("wallet %d holds %d tokens after the sell, want %d", i, left, want)
		}
		// The quoted proceeds less the signature fee, the priority fee
		// (20000 lamports over the whole unit limit) and the tip; the first
		// wallet sold everything, which closed its Token-2022 account and
		// returned the account's rent.
		if got, want := chain.Balance(w)-before[i], proceeds[i]-5000-20000-10000+[]uint64{2_074_080, 0}[i]; got != want {
			t.Fatalf("wallet %d gained %d lamports selling, want %d", i, got, want)
		}
	}
}

// readCurve reads the coin's curve and returns it with the fee rates the
// program charges on a curve state.
func readCurve(t *testing.T, chain *devnet.Chain, coin devnet.PumpCoin) (pumpfun.BondingCurve, func(*pumpfun.BondingCurve) pumpfun.FeeRates) {
	t.Helper()
	var (
		curve pumpfun.BondingCurve
		g     pumpfun.Global
		fc    pumpfun.FeeConfig
	)
	for _, x := range []struct {
		key sol.PublicKey
		v   interface{ Decode([]byte) error }
	}{{coin.BondingCurve, &curve}, {pumpfun.GlobalPDA, &g}, {pumpfun.FeeConfigPDA, &fc}} {
		a, ok := chain.GetAccount(x.key)
		if !ok {
			t.Fatalf("no account %s", x.key)
		}
		if err := x.v.Decode(a.Data); err != nil {
			t.Fatal(err)
		}
	}
	mint, ok := chain.GetAccount(coin.Mint)
	if !ok {
		t.Fatal("no mint")
	}
	supply := binary.LittleEndian.Uint64(mint.Data[36:44])
	return curve, func(c *pumpfun.BondingCurve) pumpfun.FeeRates { return pumpfun.ComputeFees(&g, &fc, c, supply) }
}

// land signs job, sends every transaction through the RPC and waits until
// each is confirmed without error, at the latest until ctx's deadline.
func land(ctx context.Context, t *testing.T, client *rpc.Client, s *Signer, job *wire.SwapJob) *wire.TxBatch {
	t.Helper()
	batch, err := s.Sign(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	if len(batch.Txs)+len(batch.SkippedWallets) != len(job.Legs) {
		t.Fatalf("%d transactions and %d wallets skipped for %d wallets", len(batch.Txs), len(batch.SkippedWallets), len(job.Legs))
	}
	sigs := make([]sol.Signature, len(batch.Txs))
	for i, st := range batch.Txs {
		if sigs[i], err = client.SendRawTransactionWithOpts(ctx, st.Raw, rpc.TransactionOpts{}); err != nil {
			t.Fatalf("send %s's transaction: %v", st.Wallet, err)
		}
		if sigs[i].String() != st.Signature {
			t.Fatalf("chain answered signature %s, signer reported %s", sigs[i], st.Signature)
		}
	}
	deadline, _ := ctx.Deadline()
	poll.Until(t, time.Until(deadline), "transactions confirmed", func() bool {
		res, err := client.GetSignatureStatuses(ctx, false, sigs...)
		if err != nil {
			t.Fatal(err)
		}
		done := 0
		for i, st := range res.Value {
			if st == nil {
				continue
			}
			if st.Err != nil {
				t.Fatalf("transaction %s failed: %v", sigs[i], st.Err)
			}
			if st.ConfirmationStatus == rpc.ConfirmationStatusConfirmed || st.ConfirmationStatus == rpc.ConfirmationStatusFinalized {
				done++
			}
		}
		return done == len(sigs)
	})
	return batch
}
