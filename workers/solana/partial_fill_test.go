package solana

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/dbc"
	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/metadata"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// landedOK waits until sig is on chain and fails the test when it failed
// there or never came.
func landedOK(ctx context.Context, t *testing.T, client *rpc.Client, what, sig string) {
	t.Helper()
	var st *rpc.SignatureStatusesResult
	poll.True(10*time.Second, func() bool {
		res, err := client.GetSignatureStatuses(ctx, false, sol.MustSignatureFromBase58(sig))
		if err == nil && res.Value[0] != nil {
			st = res.Value[0]
		}
		return st != nil
	})
	switch {
	case st == nil:
		t.Errorf("%s never landed", what)
	case st.Err != nil:
		t.Errorf("%s failed on chain: %v", what, st.Err)
	}
}

// launchScene is a local chain with its bundle relay, served over HTTP,
// and a launch signer on it: wallet makes a wallet of the signer's holding
// lamports.
type launchScene struct {
	chain  *devnet.Chain
	url    string
	signer *Signer
	wallet func(lamports uint64) sol.PublicKey
}

func newLaunchScene(t *testing.T) *launchScene {
	t.Helper()
	chain := devnet.New(devnet.Config{Seed: t.Name()})
	mux := http.NewServeMux()
	mux.Handle("/", chain.Handler())
	mux.Handle("/bundles", chain.BundleHandler())
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); _ = chain.Close() })
	keys := &fakeKeys{keys: make(map[string]sol.PrivateKey)}
	store, err := metadata.NewLocal(t.TempDir(), "http://127.0.0.1:8899/metadata", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return &launchScene{chain: chain, url: srv.URL,
		signer: NewSigner(rpc.New(srv.URL), keys, Config{TipAccounts: devnet.JitoTipAccounts[:2], BagsPoolConfig: dbc.LocalBagsPoolConfig}, nil).WithMetadata(store),
		wallet: func(lamports uint64) sol.PublicKey {
			w := sol.NewWallet()
			keys.keys[w.PublicKey().String()] = w.PrivateKey
			chain.Airdrop(w.PublicKey(), lamports)
			return w.PublicKey()
		}}
}

// sendBundles sends a launch's bundles to the scene's relay, in order.
func (sc *launchScene) sendBundles(ctx context.Context, t *testing.T, batch *wire.TxBatch) {
	t.Helper()
	relay := jsonrpc.NewClient(sc.url + "/bundles")
	for _, b := range batchBundles(batch) {
		var id string
		if err := relay.CallForInto(ctx, &id, "sendBundle", []any{b, map[string]string{"encoding": "base64"}}); err != nil {
			t.Fatalf("sendBundle: %v", err)
		}
	}
}

// pumpScene is a local chain with a new pump.fun coin, funded tip
// accounts, and a signer holding two wallets of lamports each.
type pumpScene struct {
	chain   *devnet.Chain
	client  *rpc.Client
	coin    devnet.PumpCoin
	wallets []sol.PublicKey
	signer  *Signer
}

func newPumpScene(t *testing.T, lamports uint64) *pumpScene {
	t.Helper()
	chain := devnet.New(devnet.Config{Seed: t.Name()})
	t.Cleanup(func() { _ = chain.Close() })
	url, err := chain.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	coin, err := chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Devnet Coin", "DEV")
	if err != nil {
		t.Fatal(err)
	}
	// Tip accounts exist on mainnet; here a tip below the rent-exempt
	// minimum would leave a new account short of rent.
	tips := JitoTipAccounts[:2]
	for _, k := range tips {
		chain.Airdrop(k, 1_000_000_000)
	}
	keys := &fakeKeys{keys: make(map[string]sol.PrivateKey)}
	wallets := make([]sol.PublicKey, 2)
	for i := range wallets {
		w := sol.NewWallet()
		keys.keys[w.PublicKey().String()] = w.PrivateKey
		wallets[i] = w.PublicKey()
		chain.Airdrop(wallets[i], lamports)
	}
	client := rpc.New(url)
	return &pumpScene{chain: chain, client: client, coin: coin, wallets: wallets, signer: NewSigner(client, keys, Config{TipAccounts: tips}, nil)}
}

// buy is a buy of the scene's coin by its wallets, amounts in SOL.
func (sc *pumpScene) buy(amounts ...string) *wire.SwapJob {
	job := &wire.SwapJob{
		OrderID: "eu-devnet-buy", AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana,
		Token: sc.coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500,
		PriorityFee: "20000", ProcessorTip: "10000",
	}
	for i, a := range amounts {
		job.Legs = append(job.Legs, wire.Leg{Wallet: sc.wallets[i].String(), Amount: a})
	}
	return job
}

// TestLaunchPastTheCurveEnd: a launch whose creator's and wallets' buys
// together spend more than a new curve sells lands whole: the buy that
// completes the curve carries partial_fill and takes what is left, where
// the program refuses it whole without the flag, and with it the bundle.
func TestLaunchPastTheCurveEnd(t *testing.T) {
	sc := newLaunchScene(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	creator, buyer := sc.wallet(200_000_000_000), sc.wallet(200_000_000_000)
	job := &wire.DeployJob{OrderID: "eu-full", AccountID: "acct", Wallet: creator.String(),
		Metadata: wire.TokenMetadata{Name: "Full", Symbol: "FULL"}, Launches: []wire.Launch{{Dex: wire.DexPumpFun}},
		CreatorBuy: 60_000_000_000, BundleMode: wire.BundlePacked, JitoTip: 100_000, SlippageBps: 100,
		Buys: []wire.DeployBuy{{Wallet: buyer.String(), Lamports: 40_000_000_000}}}
	batch, err := sc.signer.SignDeploy(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	sc.sendBundles(ctx, t, batch)
	client := rpc.New(sc.url)
	for _, tx := range batch.Txs {
		landedOK(ctx, t, client, "the launch's "+tx.Kind+" of bundle "+string(rune('0'+tx.Bundle)), tx.Signature)
	}
}

// TestLegsPastTheCurveEndLandInAnyOrder: two legs of one buy that together
// spend past the curve's end each carry partial_fill, since either may land
// last and be cut short: here the one planned second lands first, and the
// one planned first completes the curve.
func TestLegsPastTheCurveEndLandInAnyOrder(t *testing.T) {
	sc := newPumpScene(t, 100_000_000_000)
	client := sc.client
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	batch, err := sc.signer.Sign(ctx, sc.buy("50", "50"))
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{1, 0} {
		if _, err := client.SendRawTransactionWithOpts(ctx, batch.Txs[i].Raw, rpc.TransactionOpts{SkipPreflight: true}); err != nil {
			t.Fatalf("send leg %d: %v", i, err)
		}
		landedOK(ctx, t, client, "leg "+string(rune('0'+i)), batch.Txs[i].Signature)
	}
}

// TestLegsThatJustFillTheCurve: two legs that, as planned, reach the
// curve's end with neither quote cut short can still pass it landing the
// other way round (each pays the fee tier of the moment it lands): near
// the end every leg carries partial_fill, and both land either way.
func TestLegsThatJustFillTheCurve(t *testing.T) {
	sc := newPumpScene(t, 300_000_000_000)
	client := sc.client
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	batch, err := sc.signer.Sign(ctx, sc.buy("0.1", "85.967926046"))
	if err != nil {
		t.Fatal(err)
	}
	for i, tx := range batch.Txs {
		for _, ix := range decodeTx(t, tx) {
			if ix.program != pumpfun.ProgramID {
				continue
			}
			args, err := pumpfun.DecodeInstruction(ix.data)
			if err != nil {
				t.Fatal(err)
			}
			if buy, ok := args.(*pumpfun.BuyExactSolInArgs); !ok || !buy.PartialFill {
				t.Fatalf("leg %d: %+v, want a buy with partial_fill", i, args)
			}
		}
	}
	for _, i := range []int{1, 0} {
		if _, err := client.SendRawTransactionWithOpts(ctx, batch.Txs[i].Raw, rpc.TransactionOpts{SkipPreflight: true}); err != nil {
			t.Fatalf("send leg %d: %v", i, err)
		}
		landedOK(ctx, t, client, "leg "+string(rune('0'+i)), batch.Txs[i].Signature)
	}
}

// TestEndFill: buys come near the curve's end when what they take is
// within the slippage allowed of what is left.
func TestEndFill(t *testing.T) {
	for _, tt := range []struct {
		left, bought, bps uint64
		want              bool
	}{
		{1_000_000, 900_000, 1_000, true}, {1_000_000, 899_999, 1_000, false}, {1_000_000, 1_000_000, 0, true},
		{1_000_000, 999_999, 0, false}, {1_000_000, 0, 10_000, true}, {^uint64(0), ^uint64(0)/2 + 1, 5_000, true},
		{^uint64(0), ^uint64(0) / 2, 5_000, false}, {0, 0, 0, true},
	} {
		if got := endFill(tt.left, tt.bought, tt.bps); got != tt.want {
			t.Errorf("endFill(%d, %d, %d) = %v, want %v", tt.left, tt.bought, tt.bps, got, tt.want)
		}
	}
}

// TestBonkLaunchPastTheCurveEnd: a letsbonk launch whose buys together
// spend more than its new curve raises lands whole, and the buy that
// completes the curve sends what the rest costs, as Raydium's SDK builds
// it, not its whole amount.
func TestBonkLaunchPastTheCurveEnd(t *testing.T) {
	sc := newLaunchScene(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	creator, buyer := sc.wallet(200_000_000_000), sc.wallet(200_000_000_000)
	job := &wire.DeployJob{OrderID: "eu-bonk-full", AccountID: "acct", Wallet: creator.String(),
		Metadata: wire.TokenMetadata{Name: "Full", Symbol: "FULL"}, Launches: []wire.Launch{{Dex: wire.DexBonk}},
		CreatorBuy: 60_000_000_000, BundleMode: wire.BundlePacked, JitoTip: 100_000, SlippageBps: 100,
		Buys: []wire.DeployBuy{{Wallet: buyer.String(), Lamports: 40_000_000_000}}}
	// A buyer holding less than its 40 SOL, though more than the rest
	// of the curve costs, is refused as on every venue.
	poor := *job
	poor.Buys = []wire.DeployBuy{{Wallet: sc.wallet(35_000_000_000).String(), Lamports: 40_000_000_000}}
	_, err := sc.signer.SignDeploy(ctx, &poor)
	if e := signErr(t, err); e.Code != apierr.InsufficientBalance || e.Details != poor.Buys[0].Wallet {
		t.Fatalf("a buyer holding 35 SOL buys 40: %v, want INSUFFICIENT_BALANCE naming it", err)
	}
	batch, err := sc.signer.SignDeploy(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	var sent []uint64
	for _, stx := range batch.Txs {
		tx, err := sol.TransactionFromBytes(stx.Raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, ix := range tx.Message.Instructions {
			var args launchlab.BuyExactInArgs
			if tx.Message.AccountKeys[ix.ProgramIDIndex] == launchlab.ProgramID && args.Decode(ix.Data) == nil {
				sent = append(sent, args.AmountIn)
			}
		}
	}
	if len(sent) != 2 || sent[0] != 60_000_000_000 || sent[1] == 0 || sent[1] >= 40_000_000_000 {
		t.Fatalf("buy_exact_in amounts %v: want the creator's 60 SOL, then the rest's cost, under 40 SOL", sent)
	}
	sc.sendBundles(ctx, t, batch)
	client := rpc.New(sc.url)
	for _, tx := range batch.Txs {
		landedOK(ctx, t, client, "the launch's "+tx.Kind, tx.Signature)
	}
}

// TestLaunchBuysOfOneWalletAreTransactionsApart: one wallet's buys of one
// amount, each in a transaction of its own, at a slippage that leaves no
// least out, would be the very same bytes: a bundle holding one
// transaction twice lands none of it. Each is a transaction of its own,
// and they all land.
func TestLaunchBuysOfOneWalletAreTransactionsApart(t *testing.T) {
	for _, dex := range []string{wire.DexPumpFun, wire.DexBonk, wire.DexBags} {
		t.Run(dex, func(t *testing.T) {
			sc := newLaunchScene(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			creator, buyer := sc.wallet(5_000_000_000), sc.wallet(5_000_000_000)
			job := &wire.DeployJob{OrderID: "eu-same", AccountID: "acct", Wallet: creator.String(),
				Metadata: wire.TokenMetadata{Name: "Same", Symbol: "SAME"}, Launches: []wire.Launch{{Dex: dex}},
				BundleMode: wire.BundleSniper, JitoTip: 100_000, SlippageBps: 10_000}
			for range 3 {
				job.Buys = append(job.Buys, wire.DeployBuy{Wallet: buyer.String(), Lamports: 100_000_000})
			}
			batch, err := sc.signer.SignDeploy(ctx, job)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, tx := range batch.Txs {
				if seen[tx.Signature] {
					t.Fatalf("transaction %s signed twice in one launch", tx.Signature)
				}
				seen[tx.Signature] = true
			}
			sc.sendBundles(ctx, t, batch)
			client := rpc.New(sc.url)
			for _, tx := range batch.Txs {
				landedOK(ctx, t, client, "the launch's "+tx.Kind, tx.Signature)
			}
		})
	}
}

// TestBagsFirstBuyAsTheSDKBuildsIt: a bags launch's first buy, sharing
// initialize's transaction (the creator's), passes the instructions sysvar
// as Meteora's SDK builds a pool's first buy (createPoolWithFirstBuy), also
// under a config without a rate limiter or a first-swap fee; a later buy,
// in a transaction of its own, passes none. The launch lands.
func TestBagsFirstBuyAsTheSDKBuildsIt(t *testing.T) {
	sc := newLaunchScene(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	creator, buyer := sc.wallet(5_000_000_000), sc.wallet(5_000_000_000)
	job := &wire.DeployJob{OrderID: "eu-first", AccountID: "acct", Wallet: creator.String(),
		Metadata: wire.TokenMetadata{Name: "First", Symbol: "FRST"}, Launches: []wire.Launch{{Dex: wire.DexBags}},
		CreatorBuy: 100_000_000, Buys: []wire.DeployBuy{{Wallet: buyer.String(), Lamports: 100_000_000}},
		BundleMode: wire.BundleNonPacked, JitoTip: 100_000, SlippageBps: 500}
	batch, err := sc.signer.SignDeploy(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	var swaps [][]sol.PublicKey
	for _, stx := range batch.Txs {
		tx, err := sol.TransactionFromBytes(stx.Raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, ix := range tx.Message.Instructions {
			if tx.Message.AccountKeys[ix.ProgramIDIndex] != dbc.ProgramID || !bytes.HasPrefix(ix.Data, dbc.SwapDiscriminator[:]) {
				continue
			}
			accts := make([]sol.PublicKey, len(ix.Accounts))
			for i, a := range ix.Accounts {
				accts[i] = tx.Message.AccountKeys[a]
			}
			swaps = append(swaps, accts)
		}
	}
	if len(swaps) != 2 {
		t.Fatalf("%d swaps in the launch, want the creator's and the buyer's", len(swaps))
	}
	if n := len(swaps[0]); n != dbc.SwapAccountsCount+1 || swaps[0][n-1] != dbc.InstructionsSysvarID {
		t.Fatalf("the first buy's %d accounts end with %s, want the instructions sysvar after %d", n, swaps[0][n-1], dbc.SwapAccountsCount)
	}
	if n := len(swaps[1]); n != dbc.SwapAccountsCount {
		t.Fatalf("a later buy has %d accounts, want %d", n, dbc.SwapAccountsCount)
	}
	sc.sendBundles(ctx, t, batch)
	client := rpc.New(sc.url)
	for _, tx := range batch.Txs {
		landedOK(ctx, t, client, "the launch's "+tx.Kind, tx.Signature)
	}
}
