package solana

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/metadata"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// sdkMeta is one account of an instruction as @pump-fun/pump-sdk 2.0.0
// lists it: address, writable, signer.
type sdkMeta struct {
	key      string
	writable bool
	signer   bool
}

// TestPumpLaunchBuyMatchesSDK holds a launch's buy to the bytes the
// official SDK builds. The expected values were printed by
// @pump-fun/pump-sdk 2.0.0 (with @solana/spl-token 0.4) for mint 32 bytes
// of 0x01, user 0x02, creator 0x03, fee recipient and buyback recipient the
// first of the SDK's static lists, and 1 SOL to spend for at least 34,000
// tokens: createAssociatedTokenAccountIdempotentInstruction(user, ata,
// user, mint, TOKEN_2022_PROGRAM_ID), then the SDK's own program built from
// its IDL, methods.buyExactSolIn(1e9, 34e9, {0: true}) with the accounts
// and remaining accounts of the SDK's buy (getBuyInstructionInternal).
// The SDK's buy lists exactly the same accounts; only its discriminator
// and arguments differ.
func TestPumpLaunchBuyMatchesSDK(t *testing.T) {
	mint := sol.PublicKeyFromBytes(bytes.Repeat([]byte{1}, 32))
	user := sol.PublicKeyFromBytes(bytes.Repeat([]byte{2}, 32))
	creator := sol.PublicKeyFromBytes(bytes.Repeat([]byte{3}, 32))
	ixs := pumpLaunchBuy(pumpfun.TradeParams{
		Mint: mint, User: user, Creator: creator, TokenProgram: pumpfun.Token2022ProgramID,
		FeeRecipient:        sol.MustPublicKeyFromBase58("62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV"),
		BuybackFeeRecipient: sol.MustPublicKeyFromBase58("5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD"),
	}, 1_000_000_000, 34_000_000_000, false)

	for _, tc := range []struct {
		name    string
		index   int
		program string
		data    string
		metas   []sdkMeta
	}{
		{"create the buyer's token account", 0, "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL", "01", []sdkMeta{
			{"8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR", true, true},
			{"AmuLUGXmvSnMSJQr7WA9FBdMqpmdGvmNekBH2azybabU", true, false},
			{"8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR", false, false},
			{"4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi", false, false},
			{"11111111111111111111111111111111", false, false},
			{"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb", false, false},
		}},
		// Discriminator, spendable_sol_in, min_tokens_out, track_volume 1.
		{"buy_exact_sol_in", 1, "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P",
			"38fc74089edfcd5f" + "00ca9a3b00000000" + "00d48eea07000000" + "01", []sdkMeta{
				{"4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf", false, false}, // global
				{"62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV", true, false},  // fee_recipient
				{"4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi", false, false},  // mint
				{"3KbZjpZ3okKkZjb46JDyix1GH1rKFqxb459cS67dpDhk", true, false},  // bonding_curve
				{"EnQoVQfTdwXEMQNXzBbxCMGxSVMuAYiBGoGYurpiBj71", true, false},  // associated_bonding_curve
				{"AmuLUGXmvSnMSJQr7WA9FBdMqpmdGvmNekBH2azybabU", true, false},  // associated_user
				{"8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR", true, true},    // user
				{"11111111111111111111111111111111", false, false},             // system_program
				{"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb", false, false},  // token_program
				{"AhZUy7SEkRSq5uqCHhjETbDpoo2r9ddVQBSqrTGxqkd6", true, false},  // creator_vault
				{"Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1", false, false}, // event_authority
				{"6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P", false, false},  // program
				{"Hq2wp8uJ9jCPsYgNHex8RtqdvMPfVGoYwjvF1ATiwn2Y", false, false}, // global_volume_accumulator
				{"3EDC9QyxQ1edwGPimrBSGKBK2PXR3ewRxCxPXC2hyVi5", true, false},  // user_volume_accumulator
				{"8Wf5TiAheLUqBrKXeYg2JtAFFMWtKdG2BSFgqUcPVwTt", false, false}, // fee_config
				{"pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ", false, false},  // fee_program
				{"SndBXYGbK3iCATNdnTnZLuFimJCttV8nqtzNLK7ZyCs", false, false},  // bonding_curve_v2
				{"5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD", true, false},  // buyback_fee_recipient
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(ixs) != 2 {
				t.Fatalf("%d instructions, want 2", len(ixs))
			}
			ix := ixs[tc.index]
			if got := ix.ProgramID().String(); got != tc.program {
				t.Errorf("program %s, want %s", got, tc.program)
			}
			data, err := ix.Data()
			if err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(data); got != tc.data {
				t.Errorf("data\n %s\nwant\n %s", got, tc.data)
			}
			metas := ix.Accounts()
			if len(metas) != len(tc.metas) {
				t.Fatalf("%d accounts, want %d", len(metas), len(tc.metas))
			}
			for j, want := range tc.metas {
				got := sdkMeta{metas[j].PublicKey.String(), metas[j].IsWritable, metas[j].IsSigner}
				if got != want {
					t.Errorf("account %d: %+v, want %+v", j, got, want)
				}
			}
		})
	}
}

// TestPumpLaunchTracksVolume lands a pump.fun launch with the creator's buy
// and two wallet buys on the local chain and reads every buyer's user
// volume accumulator: each counts exactly the SOL its buy put into the
// curve, which only a buy with track_volume true adds.
func TestPumpLaunchTracksVolume(t *testing.T) {
	sc := newLaunchScene(t)
	chain, signer := sc.chain, sc.signer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	wallet := func() sol.PublicKey { return sc.wallet(5_000_000_000) }

	creator, buyers := wallet(), []sol.PublicKey{wallet(), wallet()}
	spends := []uint64{500_000_000, 100_000_000, 200_000_000}
	job := &wire.DeployJob{OrderID: "eu-volume", AccountID: "acct", Wallet: creator.String(),
		Metadata: wire.TokenMetadata{Name: "Volume", Symbol: "VOL"}, Launches: []wire.Launch{{Dex: wire.DexPumpFun}},
		CreatorBuy: spends[0], BundleMode: wire.BundlePacked, JitoTip: 100_000, SlippageBps: 100}
	for i, b := range buyers {
		job.Buys = append(job.Buys, wire.DeployBuy{Wallet: b.String(), Lamports: spends[i+1]})
	}
	// The SOL each buy puts into a new curve, the buys landing in order.
	var g pumpfun.Global
	var fc pumpfun.FeeConfig
	for key, v := range map[sol.PublicKey]interface{ Decode([]byte) error }{pumpfun.GlobalPDA: &g, pumpfun.FeeConfigPDA: &fc} {
		a, ok := chain.GetAccount(key)
		if !ok || v.Decode(a.Data) != nil {
			t.Fatalf("account %s", key)
		}
	}
	curve := pumpfun.NewBondingCurve(&g, creator, false)
	var want []uint64
	for _, spend := range spends {
		q, err := curve.QuoteBuyExactSolIn(pumpfun.ComputeFees(&g, &fc, &curve, g.TokenTotalSupply), spend)
		if err != nil {
			t.Fatal(err)
		}
		curve.ApplyBuy(q)
		want = append(want, q.SolCost)
	}

	batch, err := signer.SignDeploy(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	sc.sendBundles(ctx, t, batch)
	client := rpc.New(sc.url)
	last := sol.MustSignatureFromBase58(batch.Txs[len(batch.Txs)-1].Signature)
	poll.Until(t, 10*time.Second, "the launch landed", func() bool {
		res, err := client.GetSignatureStatuses(ctx, false, last)
		return err == nil && res.Value[0] != nil && res.Value[0].Err == nil
	})
	for i, w := range append([]sol.PublicKey{creator}, buyers...) {
		a, ok := chain.GetAccount(pumpfun.UserVolumeAccumulatorPDA(w))
		var acc pumpfun.UserVolumeAccumulator
		if !ok || acc.Decode(a.Data) != nil {
			t.Fatalf("wallet %d has no volume accumulator", i)
		}
		if acc.CurrentSolVolume != want[i] {
			t.Errorf("wallet %d: volume %d, want %d", i, acc.CurrentSolVolume, want[i])
		}
	}
}

// batchBundles returns a deploy batch's bundles, each its transactions in
// base64.
func batchBundles(b *wire.TxBatch) [][]string {
	var out [][]string
	for _, tx := range b.Txs {
		if len(out) < tx.Bundle {
			out = append(out, nil)
		}
		out[tx.Bundle-1] = append(out[tx.Bundle-1], base64.StdEncoding.EncodeToString(tx.Raw))
	}
	return out
}

// TestLaunchTipUnderTheCap: a launch that sends no jito_tip pays the
// relay's minimum, which the service chooses, so it too stays under the
// account's max_jito_tip: a cap below it is 400 naming jito_tip, before
// anything is read or signed. A job without the cap (an older ingress's)
// is not held to one.
func TestLaunchTipUnderTheCap(t *testing.T) {
	signer := NewSigner(rpc.New("http://127.0.0.1:1"), &fakeKeys{keys: map[string]sol.PrivateKey{}}, Config{TipAccounts: devnet.JitoTipAccounts[:2]}, nil)
	creator := sol.NewWallet().PublicKey().String()
	floor := signer.cfg.MinBundleTip
	for _, tc := range []struct {
		name, cap string
		refused   bool
	}{
		{"cap below the minimum", strconv.FormatUint(floor-1, 10), true},
		{"cap of 0", "0", true},
		{"cap at the minimum", strconv.FormatUint(floor, 10), false},
		{"no cap on the job", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := &wire.DeployJob{OrderID: "eu-tipcap", AccountID: "acct", Wallet: creator,
				Metadata: wire.TokenMetadata{Name: "Tip", Symbol: "TIP"}, Launches: []wire.Launch{{Dex: wire.DexPumpFun}},
				BundleMode: wire.BundlePacked, SlippageBps: 100, MaxJitoTip: tc.cap}
			_, err := signer.SignDeploy(context.Background(), job)
			var ae *apierr.Error
			isTip := errors.As(err, &ae) && ae.Code == apierr.InvalidRequest && ae.Details == "jito_tip"
			if isTip != tc.refused {
				t.Fatalf("err %v, want a jito_tip refusal %v", err, tc.refused)
			}
		})
	}
}

// countingStore is a metadata store that counts its uploads.
type countingStore struct{ puts int }

func (s *countingStore) Put(context.Context, metadata.Document) (string, error) {
	s.puts++
	return "https://metadata.example/doc.json", nil
}

// TestRefusedLaunchUploadsNothing: a launch refused while it is planned (a
// buy too small to buy any token) is refused before its metadata is
// uploaded; the same launch with a working buy uploads it once.
func TestRefusedLaunchUploadsNothing(t *testing.T) {
	chain := devnet.New(devnet.Config{Seed: t.Name()})
	srv := httptest.NewServer(chain.Handler())
	t.Cleanup(func() {
		srv.Close()
		_ = chain.Close()
	})
	keys := &fakeKeys{keys: make(map[string]sol.PrivateKey)}
	wallet := func() sol.PublicKey {
		w := sol.NewWallet()
		keys.keys[w.PublicKey().String()] = w.PrivateKey
		chain.Airdrop(w.PublicKey(), 5_000_000_000)
		return w.PublicKey()
	}
	store := &countingStore{}
	signer := NewSigner(rpc.New(srv.URL), keys, Config{TipAccounts: devnet.JitoTipAccounts[:2]}, nil).WithMetadata(store)
	creator, buyer := wallet(), wallet()
	for _, tc := range []struct {
		name     string
		lamports uint64
		puts     int
	}{
		{"buys no tokens", 1, 0},
		{"buys tokens", 100_000_000, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store.puts = 0
			job := &wire.DeployJob{OrderID: "eu-refused", AccountID: "acct", Wallet: creator.String(),
				Metadata: wire.TokenMetadata{Name: "Refused", Symbol: "REF"}, Launches: []wire.Launch{{Dex: wire.DexPumpFun}},
				Buys: []wire.DeployBuy{{Wallet: buyer.String(), Lamports: tc.lamports}}, BundleMode: wire.BundlePacked,
				JitoTip: 100_000, SlippageBps: 100}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := signer.SignDeploy(ctx, job)
			if tc.puts == 0 {
				var e *apierr.Error
				if !errors.As(err, &e) || e.Code != apierr.InvalidRequest || e.Details != "buys[0].sol_amount" {
					t.Fatalf("SignDeploy: %v, want INVALID_REQUEST naming buys[0].sol_amount", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if store.puts != tc.puts {
				t.Fatalf("%d uploads, want %d", store.puts, tc.puts)
			}
		})
	}
}
