package solana

import (
	"context"
	"errors"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestLaunchBalanceCheckLeavesRentExempt: the chain leaves a wallet no
// lamports or at least its rent-exempt minimum, nothing between. A creator
// holding what its launch spends and less than that minimum besides is
// refused 422 before anything is signed; signed, its create failed on
// chain for rent (InsufficientFundsForRent) after the charge, 502, or with
// a second config 200 with one coin of two.
func TestLaunchBalanceCheckLeavesRentExempt(t *testing.T) {
	for _, dex := range []string{wire.DexBonk, wire.DexBags, wire.DexPumpFun} {
		t.Run(dex, func(t *testing.T) {
			sc := newLaunchScene(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			client := rpc.New(sc.url)
			job := func(creator sol.PublicKey, id string) *wire.DeployJob {
				return &wire.DeployJob{OrderID: id, AccountID: "acct", Wallet: creator.String(),
					Metadata: wire.TokenMetadata{Name: "Rent", Symbol: "RENT"}, Launches: []wire.Launch{{Dex: dex}},
					BundleMode: wire.BundlePacked, JitoTip: 100_000, SlippageBps: 100}
			}
			// What the launch spends, measured on a rich creator.
			const rich = 5_000_000_000
			probe := sc.wallet(rich)
			batch, err := sc.signer.SignDeploy(ctx, job(probe, "eu-rent-probe"))
			if err != nil {
				t.Fatal(err)
			}
			sc.sendBundles(ctx, t, batch)
			for _, tx := range batch.Txs {
				landedOK(ctx, t, client, "the probe launch's "+tx.Kind, tx.Signature)
			}
			spent := rich - sc.chain.Balance(probe)

			// A creator holding that plus one lamport less than the
			// rent-exempt minimum of a wallet: refused before signing, or
			// landing. Never signed and then failed on chain.
			holds := spent + rentExempt(0) - 1
			creator := sc.wallet(holds)
			batch, err = sc.signer.SignDeploy(ctx, job(creator, "eu-rent"))
			var ae *apierr.Error
			if errors.As(err, &ae) && ae.Code == apierr.InsufficientBalance {
				return // refused before anything is signed: what the README says
			}
			if err != nil {
				t.Fatal(err)
			}
			relay := jsonrpc.NewClient(sc.url + "/bundles")
			for _, b := range batchBundles(batch) {
				var id string
				_ = relay.CallForInto(ctx, &id, "sendBundle", []any{b, map[string]string{"encoding": "base64"}})
			}
			deadline := time.Now().Add(5 * time.Second)
			sig := sol.MustSignatureFromBase58(batch.Txs[0].Signature)
			for time.Now().Before(deadline) {
				res, err := client.GetSignatureStatuses(ctx, false, sig)
				if err == nil && res.Value[0] != nil && res.Value[0].Err == nil {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
			t.Fatalf("creator holding %d lamports (the launch spends %d) passed the balance check, but its create never landed "+
				"(InsufficientFundsForRent: the check does not keep the rent-exempt minimum)", holds, spent)
		})
	}
}
