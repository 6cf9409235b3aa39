package solana

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/rpc"

	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// tokenAccount builds the data of a token account of program owned by
// owner; with ext, a Token-2022 account carrying those extensions (type,
// value) after its account-type byte.
func tokenAccount(program, owner sol.PublicKey, mut func(d []byte), ext ...[]byte) *rpc.Account {
	d := make([]byte, 165)
	copy(d[32:64], owner[:])
	d[108] = 1
	if len(ext) > 0 {
		d = append(d, 2)
		for _, e := range ext {
			d = append(d, e...)
		}
	}
	if mut != nil {
		mut(d)
	}
	return &rpc.Account{Owner: program, Data: rpc.DataBytesOrJSONFromBytes(d)}
}

// tlv is one Token-2022 extension.
func tlv(typ uint16, value []byte) []byte {
	out := binary.LittleEndian.AppendUint16(nil, typ)
	out = binary.LittleEndian.AppendUint16(out, uint16(len(value)))
	return append(out, value...)
}

func TestClosableTokenAccount(t *testing.T) {
	wallet, other := sol.NewWallet().PublicKey(), sol.NewWallet().PublicKey()
	spl, t22 := pumpfun.TokenProgramID, pumpfun.Token2022ProgramID
	closeAuthority := func(k sol.PublicKey) func([]byte) {
		return func(d []byte) { d[129] = 1; copy(d[133:165], k[:]) }
	}
	fee := func(withheld uint64) []byte { return tlv(2, binary.LittleEndian.AppendUint64(nil, withheld)) }
	for _, tc := range []struct {
		name string
		acc  *rpc.Account
		want bool
	}{
		{"spl token account", tokenAccount(spl, wallet, nil), true},
		{"token-2022 account with immutable owner", tokenAccount(t22, wallet, nil, tlv(7, nil)), true},
		{"token-2022 account with no fees withheld", tokenAccount(t22, wallet, nil, tlv(7, nil), fee(0)), true},
		{"token-2022 account with padding after its extensions", tokenAccount(t22, wallet, nil, tlv(7, nil), make([]byte, 8)), true},
		{"close authority is the wallet", tokenAccount(spl, wallet, closeAuthority(wallet)), true},
		{"missing", nil, false},
		{"another wallet's", tokenAccount(spl, other, nil), false},
		{"close authority is another key", tokenAccount(spl, wallet, closeAuthority(other)), false},
		{"frozen", tokenAccount(spl, wallet, func(d []byte) { d[108] = 2 }), false},
		{"wrapped SOL", tokenAccount(spl, wallet, func(d []byte) { d[109] = 1 }), false},
		{"transfer fees withheld", tokenAccount(t22, wallet, nil, tlv(7, nil), fee(1)), false},
		{"confidential transfer balances", tokenAccount(t22, wallet, nil, tlv(5, make([]byte, 295))), false},
		{"truncated extension", &rpc.Account{Owner: t22, Data: rpc.DataBytesOrJSONFromBytes(append(tokenAccount(t22, wallet, nil, tlv(7, nil)).Data.GetBinary(), tlv(2, make([]byte, 8))[:6]...))}, false},
		{"not a token program's", tokenAccount(pumpfun.SystemProgramID, wallet, nil), false},
		{"extra data under SPL Token", tokenAccount(spl, wallet, nil, tlv(7, nil)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := closableTokenAccount(tc.acc, wallet); got != tc.want {
				t.Fatalf("closable %v, want %v", got, tc.want)
			}
		})
	}
}

// closeMarket is a token on one venue and token program of the local
// chain, and how to quote sells on it.
type closeMarket struct {
	token   sol.PublicKey // the job's address: a mint, or a pool id
	mint    sol.PublicKey
	program sol.PublicKey
	// quote returns the net proceeds of selling each amount in order.
	quote func(t *testing.T, amounts []uint64) []uint64
	// feeAccountRent is rent a sell may pay on a pool: the protocol fee
	// recipient's wrapped-SOL account, created by the first trade through
	// it (the recipient is drawn per transaction).
	feeAccountRent uint64
}

// curveMarket is a new pump.fun coin on its curve; splToken turns its mint
// into an SPL Token mint, as the program's legacy create made them (the
// local chain runs create_v2 only, which makes Token-2022 coins).
func curveMarket(t *testing.T, sc *poolScene, splToken bool) closeMarket {
	t.Helper()
	coin, err := sc.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Closer", "CLS")
	if err != nil {
		t.Fatal(err)
	}
	program := pumpfun.Token2022ProgramID
	if splToken {
		program = pumpfun.TokenProgramID
		m, _ := sc.chain.GetAccount(coin.Mint)
		sc.chain.SetAccount(coin.Mint, devnet.Account{Lamports: devnet.MinimumBalanceForRentExemption(82), Owner: program, Data: m.Data[:82]})
		old := pumpfun.AssociatedTokenAddress(coin.BondingCurve, coin.Mint, pumpfun.Token2022ProgramID)
		a, _ := sc.chain.GetAccount(old)
		sc.chain.SetAccount(old, devnet.Account{})
		sc.chain.SetAccount(pumpfun.AssociatedTokenAddress(coin.BondingCurve, coin.Mint, program),
			devnet.Account{Lamports: devnet.MinimumBalanceForRentExemption(165), Owner: program, Data: a.Data[:165]})
	}
	return closeMarket{token: coin.Mint, mint: coin.Mint, program: program, quote: func(t *testing.T, amounts []uint64) []uint64 {
		curve, rates := readCurve(t, sc.chain, devnet.PumpCoin{Mint: coin.Mint, BondingCurve: coin.BondingCurve})
		var out []uint64
		for _, a := range amounts {
			q, err := curve.QuoteSell(rates(&curve), a)
			if err != nil {
				t.Fatal(err)
			}
			curve.ApplySell(q)
			out = append(out, q.Net)
		}
		return out
	}}
}

// poolMarketOf is a SOL-quoted PumpSwap pool: a graduated pump.fun coin
// (Token-2022), or with splToken an SPL Token mint's pool made by a
// create_pool transaction, traded by the pool's id.
func poolMarketOf(t *testing.T, sc *poolScene, splToken bool) closeMarket {
	t.Helper()
	m := closeMarket{feeAccountRent: devnet.MinimumBalanceForRentExemption(165)}
	if splToken {
		m.program = pumpfun.TokenProgramID
		m.mint, m.token = splPool(t, sc)
	} else {
		coin, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Pooled", "POOL", sol.PublicKey{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		m.program, m.mint, m.token = pumpfun.Token2022ProgramID, coin.Mint, coin.Pool
	}
	m.quote = func(t *testing.T, amounts []uint64) []uint64 {
		p, res, _ := poolNow(t, sc.chain, m.token)
		var out []uint64
		for _, a := range amounts {
			rates := pumpswap.ComputeFees(readGC(t, sc.chain), readFC(t, sc.chain), &p, res, mintSupplyOf(t, sc.chain, m.mint))
			q, err := pumpswap.QuoteSell(res, rates, a)
			if err != nil {
				t.Fatal(err)
			}
			res.ApplySell(q)
			out = append(out, q.Net)
		}
		return out
	}
	return m
}

// splPool creates an SPL Token mint and its pool against wrapped SOL with
// a create_pool transaction, and returns the mint and the pool.
func splPool(t *testing.T, sc *poolScene) (mint, pool sol.PublicKey) {
	t.Helper()
	creator := sc.wallet(100_000_000_000)
	mint, err := sc.chain.CreateMint(6, pumpfun.TokenProgramID, creator)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.chain.MintTo(mint, creator, 800_000_000_000_000); err != nil {
		t.Fatal(err)
	}
	const quote = 50_000_000_000
	wsol := pumpfun.AssociatedTokenAddress(creator, pumpswap.WrappedSOLMint, pumpfun.TokenProgramID)
	a := pumpswap.NewCreatePoolAccounts(0, creator, mint, pumpswap.WrappedSOLMint, pumpfun.TokenProgramID, pumpfun.TokenProgramID)
	sendSigned(t, sc, creator, []sol.Instruction{
		createATAIdempotent(creator, wsol, creator, pumpswap.WrappedSOLMint, pumpfun.TokenProgramID),
		system.NewTransferInstruction(quote, creator, wsol).Build(),
		syncNative(wsol, pumpfun.TokenProgramID),
		pumpswap.CreatePoolInstruction(&a, pumpswap.CreatePoolArgs{BaseAmountIn: 800_000_000_000_000, QuoteAmountIn: quote}),
	})
	return mint, a.Pool
}

// sendSigned lands instructions paid and signed by wallet.
func sendSigned(t *testing.T, sc *poolScene, wallet sol.PublicKey, ixs []sol.Instruction) {
	t.Helper()
	ctx := context.Background()
	bh, err := sc.client.GetLatestBlockhash(ctx, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := sol.NewTransaction(ixs, bh.Value.Blockhash, sol.TransactionPayer(wallet))
	if err != nil {
		t.Fatal(err)
	}
	key := sc.keys.keys[wallet.String()]
	if _, err := tx.Sign(func(sol.PublicKey) *sol.PrivateKey { return &key }); err != nil {
		t.Fatal(err)
	}
	sig, err := sc.client.SendTransaction(ctx, tx)
	if err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 10*time.Second, "transaction confirmed", func() bool {
		res, err := sc.client.GetSignatureStatuses(ctx, false, sig)
		return err == nil && res.Value[0] != nil && res.Value[0].Err == nil
	})
}

// TestSellAllClosesTheTokenAccount sells on each venue and token program:
// a sell of 100 percent and a tokens sell of more than the balance close
// the wallet's token account in the same transaction, so its rent comes
// back with the proceeds; a partial sell keeps the account.
func TestSellAllClosesTheTokenAccount(t *testing.T) {
	for _, tc := range []struct {
		name   string
		market func(*testing.T, *poolScene, bool) closeMarket
		spl    bool
	}{
		{"pump.fun curve, Token-2022", curveMarket, false},
		{"pump.fun curve, SPL Token", curveMarket, true},
		{"PumpSwap pool, Token-2022", poolMarketOf, false},
		{"PumpSwap pool, SPL Token", poolMarketOf, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newPoolScene(t, Config{})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			m := tc.market(t, sc, tc.spl)
			w := []sol.PublicKey{sc.wallet(2_000_000_000), sc.wallet(2_000_000_000), sc.wallet(2_000_000_000)}
			var legs []wire.Leg
			for _, x := range w {
				legs = append(legs, wire.Leg{Wallet: x.String(), Amount: "0.3"})
			}
			land(ctx, t, sc.client, sc.signer, sc.job("eu-close-buy", m.token, wire.Buy, "SOL", legs...))

			ata := make([]sol.PublicKey, len(w))
			rent := make([]uint64, len(w))
			held := make([]uint64, len(w))
			for i, x := range w {
				ata[i] = pumpfun.AssociatedTokenAddress(x, m.mint, m.program)
				a, ok := sc.chain.GetAccount(ata[i])
				if !ok || a.Owner != m.program {
					t.Fatalf("wallet %d has no %s account", i, m.program)
				}
				rent[i], held[i] = a.Lamports, binary.LittleEndian.Uint64(a.Data[64:72])
			}

			// 100 percent of the first wallet, half of the second; then
			// the third sells more tokens than it holds.
			proceeds := m.quote(t, []uint64{held[0], held[1] / 2, held[2]})
			before := []uint64{sc.chain.Balance(w[0]), sc.chain.Balance(w[1]), sc.chain.Balance(w[2])}
			percent := sc.job("eu-close-pct", m.token, wire.Sell, "SOL",
				wire.Leg{Wallet: w[0].String(), Amount: "100"}, wire.Leg{Wallet: w[1].String(), Amount: "50"})
			tokens := sc.job("eu-close-tok", m.token, wire.Sell, "SOL", wire.Leg{Wallet: w[2].String(), Amount: "1000000000"})
			tokens.SellMode = wire.SellTokens
			batches := []*wire.TxBatch{land(ctx, t, sc.client, sc.signer, percent), land(ctx, t, sc.client, sc.signer, tokens)}
			closes := []string{batches[0].Txs[0].Closes, batches[0].Txs[1].Closes, batches[1].Txs[0].Closes}

			for i, x := range w {
				closed := i != 1
				a, exists := sc.chain.GetAccount(ata[i])
				exists = exists && a.Lamports > 0
				if exists == closed {
					t.Errorf("wallet %d: token account exists %v after the sell, want %v", i, exists, !closed)
				}
				want := proceeds[i] - 5000 - 20000 - 10000
				if wantCloses := map[bool]string{true: ata[i].String()}[closed]; closes[i] != wantCloses {
					t.Errorf("wallet %d: transaction closes %q, want %q", i, closes[i], wantCloses)
				}
				if closed {
					want += rent[i]
				} else if left, _ := sc.chain.TokenBalance(x, m.mint); left != held[i]-held[i]/2 {
					t.Errorf("wallet %d holds %d tokens after selling half, want %d", i, left, held[i]-held[i]/2)
				}
				if got := sc.chain.Balance(x) - before[i]; got != want && (m.feeAccountRent == 0 || got != want-m.feeAccountRent) {
					t.Errorf("wallet %d gained %d lamports, want %d (proceeds %d, rent %d)", i, got, want, proceeds[i], rent[i])
				}
			}
		})
	}
}
