package broadcaster

import (
	"context"
	"testing"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestRentReturned sells a wallet's whole holding of a pump.fun coin and
// half of another wallet's, lands both through the public RPC and reads
// from the first landed transaction what closing its token account
// returned: the account's rent, as it held it before.
func TestRentReturned(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	ctx := context.Background()
	coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Rent", "RENT")
	if err != nil {
		t.Fatal(err)
	}
	chain := NewSolana(s.client, false)
	wallets := []string{s.wallet(1_000_000_000), s.wallet(1_000_000_000)}
	job := &wire.SwapJob{OrderID: "eu-rent-buy", AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana,
		Token: coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500,
		Legs: []wire.Leg{{Wallet: wallets[0], Amount: "0.2"}, {Wallet: wallets[1], Amount: "0.2"}}}
	sendAll(t, chain, s, job)
	ata := pumpfun.AssociatedTokenAddress(sol.MustPublicKeyFromBase58(wallets[0]), coin.Mint, pumpfun.Token2022ProgramID)
	acc, ok := s.chain.GetAccount(ata)
	if !ok || acc.Lamports == 0 {
		t.Fatal("the buy made no token account")
	}
	job.OrderID, job.Side, job.SellMode = "eu-rent-sell", wire.Sell, wire.SellPercent
	job.Legs[0].Amount, job.Legs[1].Amount = "100", "50"
	batch := sendAll(t, chain, s, job)
	if batch.Txs[0].Closes != ata.String() || batch.Txs[1].Closes != "" {
		t.Fatalf("closes %q and %q, want %s and none", batch.Txs[0].Closes, batch.Txs[1].Closes, ata)
	}
	for _, tc := range []struct {
		name    string
		sig     string
		account string
		want    uint64
		err     bool
	}{
		{"the closed account", batch.Txs[0].Signature, ata.String(), acc.Lamports, false},
		{"an account the sale paid", batch.Txs[0].Signature, wallets[0], 0, false},
		{"an account the transaction does not name", batch.Txs[0].Signature, wallets[1], 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := chain.RentReturned(ctx, tc.sig, tc.account)
			if (err != nil) != tc.err || got != tc.want {
				t.Fatalf("rent returned %d (%v), want %d (error %v)", got, err, tc.want, tc.err)
			}
		})
	}
}

// sendAll signs job, sends its transactions and waits until each is
// confirmed.
func sendAll(t *testing.T, chain *Solana, s *relayScene, job *wire.SwapJob) *wire.TxBatch {
	t.Helper()
	batch, err := s.signer.Sign(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	var sigs []string
	for _, tx := range batch.Txs {
		if err := chain.Send(context.Background(), tx); err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, tx.Signature)
	}
	for i, st := range waitFinal(t, chain, sigs) {
		if st.State != wire.StateConfirmed {
			t.Fatalf("transaction %d of %s: %+v", i, job.OrderID, st)
		}
	}
	return batch
}
