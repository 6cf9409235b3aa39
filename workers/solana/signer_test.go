package solana

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

type decodedIx struct {
	program  sol.PublicKey
	accounts []*sol.AccountMeta
	data     []byte
}

// decodeTx parses raw, checks its one signature against wallet and returns
// its instructions with their resolved accounts.
func decodeTx(t *testing.T, st wire.SignedTx) []decodedIx {
	t.Helper()
	tx, err := sol.TransactionFromBytes(st.Raw)
	if err != nil {
		t.Fatalf("decode transaction: %v", err)
	}
	if err := tx.VerifySignatures(); err != nil {
		t.Fatalf("signatures: %v", err)
	}
	if len(tx.Signatures) != 1 || tx.Signatures[0].String() != st.Signature {
		t.Fatalf("signatures %v, reported %s", tx.Signatures, st.Signature)
	}
	if payer := tx.Message.AccountKeys[0]; payer.String() != st.Wallet {
		t.Fatalf("fee payer %s, wallet %s", payer, st.Wallet)
	}
	if len(st.Raw) > maxTxSize {
		t.Fatalf("transaction is %d bytes", len(st.Raw))
	}
	out := make([]decodedIx, len(tx.Message.Instructions))
	for i, ci := range tx.Message.Instructions {
		metas, err := ci.ResolveInstructionAccounts(&tx.Message)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = decodedIx{program: tx.Message.AccountKeys[ci.ProgramIDIndex], accounts: metas, data: ci.Data}
	}
	return out
}

func signErr(t *testing.T, err error) *apierr.Error {
	t.Helper()
	var e *apierr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *apierr.Error", err)
	}
	return e
}

// wantMetas checks got against want key by key and flag by flag; keys in
// choose may be any of the listed candidates.
func wantMetas(t *testing.T, got, want sol.AccountMetaSlice, choose map[int][]sol.PublicKey) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d accounts, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.IsWritable != w.IsWritable || g.IsSigner != w.IsSigner {
			t.Errorf("account %d %s: writable %v signer %v, want %v %v", i, g.PublicKey, g.IsWritable, g.IsSigner, w.IsWritable, w.IsSigner)
		}
		if cands, ok := choose[i]; ok {
			if !slices.Contains(cands, g.PublicKey) {
				t.Errorf("account %d %s is not a candidate", i, g.PublicKey)
			}
			continue
		}
		if g.PublicKey != w.PublicKey {
			t.Errorf("account %d is %s, want %s", i, g.PublicKey, w.PublicKey)
		}
	}
}

func TestBuy(t *testing.T) {
	f := newFixture(t)
	w1 := f.wallet(5_000_000_000, 0)
	w2 := f.wallet(5_000_000_000, 0)
	job := f.job(wire.Buy, wire.Leg{Wallet: w1.String(), Amount: "1"}, wire.Leg{Wallet: w2.String(), Amount: "0.5"})
	batch, err := f.signer.Sign(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if batch.OrderID != job.OrderID || batch.AccountID != "acct" || batch.Side != wire.Buy || batch.Chain != wire.ChainSolana || batch.Token != f.mint.String() || len(batch.Txs) != 2 {
		t.Fatalf("batch %+v", batch)
	}

	// The legs land in any order: each one's least out is what it gets
	// landing after the other, less the slippage.
	rates := pumpfun.FeeRates{ProtocolFeeBps: 95, CreatorFeeBps: 30}
	last := func(first, then uint64) uint64 {
		curve := f.curve
		q, _ := curve.QuoteBuyExactSolIn(rates, first)
		curve.ApplyBuy(q)
		q, _ = curve.QuoteBuyExactSolIn(rates, then)
		return q.TokensOut
	}
	q1, q2 := last(500_000_000, 1_000_000_000), last(1_000_000_000, 500_000_000)
	wantArgs := []pumpfun.BuyExactSolInArgs{
		{SpendableSolIn: 1_000_000_000, MinTokensOut: q1 - q1/10, TrackVolume: true},
		{SpendableSolIn: 500_000_000, MinTokensOut: q2 - q2/10, TrackVolume: true},
	}
	// Alone on the curve as read, 1 SOL buys 34_199_203_120_618 tokens:
	// after the other's 0.5 SOL, fewer.
	if q1 >= 34_199_203_120_618 || q2 >= 34_199_203_120_618/2 {
		t.Fatalf("legs not quoted after each other: %d and %d tokens", q1, q2)
	}

	for i, w := range []sol.PublicKey{w1, w2} {
		st := batch.Txs[i]
		if st.Wallet != w.String() || st.LastValidBlockHeight != 1234 {
			t.Fatalf("tx %d: %+v", i, st)
		}
		ixs := decodeTx(t, st)
		if len(ixs) != 5 {
			t.Fatalf("tx %d: %d instructions", i, len(ixs))
		}
		// Compute budget: the limit, then 1_000_000 lamports over 200k CU.
		if ixs[0].program != sol.ComputeBudget || ixs[1].program != sol.ComputeBudget {
			t.Fatalf("compute budget programs %s %s", ixs[0].program, ixs[1].program)
		}
		if got := binary.LittleEndian.Uint32(ixs[0].data[1:]); ixs[0].data[0] != computebudget.Instruction_SetComputeUnitLimit || got != 200_000 {
			t.Fatalf("unit limit %x", ixs[0].data)
		}
		if got := binary.LittleEndian.Uint64(ixs[1].data[1:]); ixs[1].data[0] != computebudget.Instruction_SetComputeUnitPrice || got != 5_000_000 {
			t.Fatalf("unit price %x", ixs[1].data)
		}
		// The wallet's Token-2022 account, created idempotently.
		ata := pumpfun.AssociatedTokenAddress(w, f.mint, pumpfun.Token2022ProgramID)
		if ixs[2].program != pumpfun.AssociatedTokenProgramID || string(ixs[2].data) != "\x01" {
			t.Fatalf("ata instruction %s %x", ixs[2].program, ixs[2].data)
		}
		wantMetas(t, ixs[2].accounts, sol.AccountMetaSlice{
			// The owner is the fee payer, so the message marks it writable and signer.
			sol.Meta(w).WRITE().SIGNER(), sol.Meta(ata).WRITE(), sol.Meta(w).WRITE().SIGNER(), sol.Meta(f.mint),
			sol.Meta(pumpfun.SystemProgramID), sol.Meta(pumpfun.Token2022ProgramID),
		}, nil)
		// buy_exact_sol_in with every account in the program's order.
		if ixs[3].program != pumpfun.ProgramID {
			t.Fatalf("program %s", ixs[3].program)
		}
		args, err := pumpfun.DecodeInstruction(ixs[3].data)
		if err != nil {
			t.Fatal(err)
		}
		if got := *args.(*pumpfun.BuyExactSolInArgs); got != wantArgs[i] {
			t.Fatalf("tx %d: args %+v, want %+v", i, got, wantArgs[i])
		}
		want := pumpfun.NewBuyAccounts(pumpfun.TradeParams{Mint: f.mint, User: w, Creator: f.curve.Creator, TokenProgram: pumpfun.Token2022ProgramID})
		wantMetas(t, ixs[3].accounts, want.Metas(), map[int][]sol.PublicKey{
			1:  f.global.FeeRecipientCandidates(false),
			17: f.global.BuybackFeeRecipientCandidates(),
		})
		// The tip, to one of the configured accounts.
		if ixs[4].program != pumpfun.SystemProgramID || binary.LittleEndian.Uint32(ixs[4].data) != 2 || binary.LittleEndian.Uint64(ixs[4].data[4:]) != 100_000 {
			t.Fatalf("tip %s %x", ixs[4].program, ixs[4].data)
		}
		if ixs[4].accounts[0].PublicKey != w || !slices.Contains(JitoTipAccounts[:2], ixs[4].accounts[1].PublicKey) {
			t.Fatalf("tip accounts %v", ixs[4].accounts)
		}
	}
}

func TestBuyMayhemCoinPaysReservedRecipients(t *testing.T) {
	f := newFixture(t)
	f.curve.IsMayhemMode = true
	f.putCurve()
	w := f.wallet(5_000_000_000, 0)
	job := f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.1"})
	job.PriorityFee, job.ProcessorTip = "", "0"
	batch, err := f.signer.Sign(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	ixs := decodeTx(t, batch.Txs[0])
	// No price and no tip instruction without a priority fee and a tip.
	if len(ixs) != 3 || ixs[2].program != pumpfun.ProgramID {
		t.Fatalf("%d instructions", len(ixs))
	}
	if r := ixs[2].accounts[1].PublicKey; !slices.Contains(f.global.FeeRecipientCandidates(true), r) {
		t.Fatalf("fee recipient %s is not a reserved one", r)
	}
}

func TestSell(t *testing.T) {
	tests := []struct {
		name     string
		mode     string
		balances []uint64
		amounts  []string
		want     []uint64 // tokens sold per wallet with a tx, in order
		cashback bool
		legacy   bool
	}{
		{"percent rounds down", wire.SellPercent, []uint64{1_000_000_001}, []string{"33.3"}, []uint64{333_000_000}, false, false},
		{"hundred percent", wire.SellPercent, []uint64{987_654_321}, []string{"100"}, []uint64{987_654_321}, false, false},
		{"tokens scaled by decimals", wire.SellTokens, []uint64{5_000_000}, []string{"1.5"}, []uint64{1_500_000}, false, false},
		{"tokens above the balance sell all", wire.SellTokens, []uint64{5_000_000}, []string{"6"}, []uint64{5_000_000}, false, false},
		{"tokens far above any uint64", wire.SellTokens, []uint64{5_000_000}, []string{"99999999999999999999999"}, []uint64{5_000_000}, false, false},
		{"empty wallet skipped", wire.SellPercent, []uint64{0, 7_000_000}, []string{"100", "100"}, []uint64{7_000_000}, false, false},
		{"cashback coin", wire.SellPercent, []uint64{2_000_000}, []string{"50"}, []uint64{1_000_000}, true, false},
		{"legacy SPL Token coin", wire.SellTokens, []uint64{2_000_000}, []string{"2"}, []uint64{2_000_000}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.legacy {
				f.chain.remove(f.mint)
				f.tokenProgram = pumpfun.TokenProgramID
				f.chain.set(f.mint, f.tokenProgram, 1e7, mintData(1_000_000_000_000_000, 6))
			}
			// Sell into a curve that has sold tokens.
			f.seedCurve(10_000_000_000)
			f.curve.IsCashbackCoin = tt.cashback
			f.putCurve()

			var legs []wire.Leg
			var holders []sol.PublicKey
			var held []uint64
			for i, b := range tt.balances {
				w := f.wallet(10_000_000, b)
				legs = append(legs, wire.Leg{Wallet: w.String(), Amount: tt.amounts[i]})
				if b > 0 {
					holders, held = append(holders, w), append(held, b)
				}
			}
			job := f.job(wire.Sell, legs...)
			job.SellMode = tt.mode
			batch, err := f.signer.Sign(context.Background(), job)
			if err != nil {
				t.Fatal(err)
			}
			if len(batch.Txs) != len(tt.want) {
				t.Fatalf("%d txs, want %d", len(batch.Txs), len(tt.want))
			}
			curve := f.curve
			for i, st := range batch.Txs {
				w := holders[i]
				ixs := decodeTx(t, st)
				// Limit, price, sell, tip: no token account is created. A
				// sell of the whole holding closes the wallet's token
				// account before the tip, into the wallet.
				ata := pumpfun.AssociatedTokenAddress(w, f.mint, f.tokenProgram)
				nIx := 4
				if tt.want[i] == held[i] {
					nIx = 5
					if c := ixs[3]; c.program != f.tokenProgram || !bytes.Equal(c.data, []byte{9}) || len(c.accounts) != 3 ||
						c.accounts[0].PublicKey != ata || c.accounts[1].PublicKey != w || c.accounts[2].PublicKey != w || !c.accounts[2].IsSigner {
						t.Fatalf("instruction 3 is not the close of %s into %s: %+v", ata, w, c)
					}
					if st.Closes != ata.String() {
						t.Fatalf("batch says it closes %q, want %s", st.Closes, ata)
					}
				} else if st.Closes != "" {
					t.Fatalf("partial sell closes %s", st.Closes)
				}
				if len(ixs) != nIx || ixs[2].program != pumpfun.ProgramID {
					t.Fatalf("%d instructions, want %d", len(ixs), nIx)
				}
				args, err := pumpfun.DecodeInstruction(ixs[2].data)
				if err != nil {
					t.Fatal(err)
				}
				sq, err := curve.QuoteSell(pumpfun.FeeRates{ProtocolFeeBps: 95, CreatorFeeBps: 30}, tt.want[i])
				if err != nil {
					t.Fatal(err)
				}
				curve.ApplySell(sq)
				want := pumpfun.SellArgs{Amount: tt.want[i], MinSolOutput: sq.Net - sq.Net/10}
				if got := *args.(*pumpfun.SellArgs); got != want {
					t.Fatalf("args %+v, want %+v", got, want)
				}
				acc := pumpfun.NewSellAccounts(pumpfun.TradeParams{Mint: f.mint, User: w, Creator: f.curve.Creator, TokenProgram: f.tokenProgram}, tt.cashback)
				buyback := 15
				if tt.cashback {
					buyback = 16
				}
				wantMetas(t, ixs[2].accounts, acc.Metas(), map[int][]sol.PublicKey{
					1:       f.global.FeeRecipientCandidates(false),
					buyback: f.global.BuybackFeeRecipientCandidates(),
				})
			}
		})
	}
}

func field(name string) func(*fixture, *wire.SwapJob) string {
	return func(*fixture, *wire.SwapJob) string { return name }
}

func theMint(f *fixture, _ *wire.SwapJob) string { return f.mint.String() }

func legWallet(i int) func(*fixture, *wire.SwapJob) string {
	return func(_ *fixture, j *wire.SwapJob) string { return j.Legs[i].Wallet }
}

func TestSignErrors(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(f *fixture) *wire.SwapJob
		code    apierr.Code
		details func(f *fixture, j *wire.SwapJob) string
	}{
		{"address not base58", func(f *fixture) *wire.SwapJob {
			j := f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.000001"})
			j.Token = "0xdeadbeef"
			return j
		}, apierr.InvalidRequest, field("address")},
		{"no curve", func(f *fixture) *wire.SwapJob {
			f.chain.remove(pumpfun.BondingCurvePDA(f.mint))
			return f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.001"})
		}, apierr.TokenNotFound, theMint},
		{"no mint", func(f *fixture) *wire.SwapJob {
			f.chain.remove(f.mint)
			return f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.001"})
		}, apierr.TokenNotFound, theMint},
		{"curve owned by another program", func(f *fixture) *wire.SwapJob {
			f.chain.set(pumpfun.BondingCurvePDA(f.mint), pumpfun.SystemProgramID, 1e7, f.curve.Encode())
			return f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.001"})
		}, apierr.TokenNotFound, theMint},
		{"complete curve", func(f *fixture) *wire.SwapJob {
			f.curve.Complete = true
			f.putCurve()
			return f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.001"})
		}, apierr.TokenNotFound, theMint},
		{"USDC quote", func(f *fixture) *wire.SwapJob {
			j := f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.001"})
			j.QuoteAsset = "USDC"
			return j
		}, apierr.TokenNotFound, theMint},
		{"wallet not base58", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.000000001"}, wire.Leg{Wallet: "nope", Amount: "0.000000001"})
		}, apierr.InvalidRequest, field("wallets[1].address")},
		{"buy amount finer than a lamport", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.0000000005"})
		}, apierr.InvalidRequest, field("amount")},
		{"buy amount buys nothing", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.000000001"})
		}, apierr.InvalidRequest, field("amount")},
		// A refused amount names the request field it came from.
		{"a wallet's own amount buys nothing", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.001"},
				wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.000000001", AmountField: "wallets[1].amount"})
		}, apierr.InvalidRequest, field("wallets[1].amount")},
		{"a wallet's own amount finer than a lamport", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.0000000005", AmountField: "wallets[0].amount"})
		}, apierr.InvalidRequest, field("wallets[0].amount")},
		{"priority fee not an integer", func(f *fixture) *wire.SwapJob {
			j := f.job(wire.Buy, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "0.001"})
			j.PriorityFee = "-1"
			return j
		}, apierr.InvalidRequest, field("priority_fee")},
		{"second buyer short", func(f *fixture) *wire.SwapJob {
			f.wallet(0, 0)
			return f.job(wire.Buy,
				wire.Leg{Wallet: f.wallet(10e9, 0).String(), Amount: "1"},
				wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "1"})
		}, apierr.InsufficientBalance, legWallet(1)},
		{"sell with no tokens anywhere", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Sell, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "100"}, wire.Leg{Wallet: f.wallet(1e9, 0).String(), Amount: "100"})
		}, apierr.InsufficientBalance, legWallet(0)},
		{"seller cannot pay the fee", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Sell, wire.Leg{Wallet: f.wallet(0, 1000).String(), Amount: "100"})
		}, apierr.InsufficientBalance, legWallet(0)},
		// A wallet that holds the token, its share rounding to nothing:
		// the amount is refused (not charged), not the wallet's holding.
		{"a share that rounds to 0 base units", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Sell, wire.Leg{Wallet: f.wallet(1e9, 1).String(), Amount: "50"})
		}, apierr.InvalidRequest, field("amount")},
		{"percent above 100", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Sell, wire.Leg{Wallet: f.wallet(1e9, 1000).String(), Amount: "100.5"})
		}, apierr.InvalidRequest, field("amount")},
		{"curve cannot buy the tokens back", func(f *fixture) *wire.SwapJob {
			return f.job(wire.Sell, wire.Leg{Wallet: f.wallet(1e9, 1_000_000).String(), Amount: "100"})
		}, apierr.InvalidRequest, field("amount")},
		{"tokens with more decimals than the mint", func(f *fixture) *wire.SwapJob {
			j := f.job(wire.Sell, wire.Leg{Wallet: f.wallet(1e9, 1000).String(), Amount: "1.0000001"})
			j.SellMode = wire.SellTokens
			return j
		}, apierr.InvalidRequest, field("amount")},
		{"a wallet's own token quantity with more decimals than the mint", func(f *fixture) *wire.SwapJob {
			j := f.job(wire.Sell, wire.Leg{Wallet: f.wallet(1e9, 1000).String(), Amount: "1.0000001", AmountField: "wallets[0].amount"})
			j.SellMode = wire.SellTokens
			return j
		}, apierr.InvalidRequest, field("wallets[0].amount")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			job := tt.setup(f)
			_, err := f.signer.Sign(context.Background(), job)
			e := signErr(t, err)
			if e.Code != tt.code {
				t.Fatalf("code %s (%v), want %s", e.Code, err, tt.code)
			}
			want := tt.details(f, job)
			if e.Details != want {
				t.Fatalf("details %q, want %q", e.Details, want)
			}
			if n := f.keys.count(); n != 0 {
				t.Fatalf("%d keys fetched before the order failed", n)
			}
		})
	}
}

func TestBuyBalanceBoundary(t *testing.T) {
	const amount = 100_000_000
	// amount + signature fee + priority fee + tip + the wallet's own rent
	// floor + the creator vault's rent + the Token-2022 account's rent + the
	// user volume accumulator's rent.
	need := uint64(amount + 5000 + 1_000_000 + 100_000 + 890_880 + 890_880 + 2_074_080 + 1_628_640)
	tests := []struct {
		name      string
		lamports  uint64
		ata, uva  bool
		vault     uint64
		wantError bool
	}{
		{"exactly enough", need, false, false, 0, false},
		{"one lamport short", need - 1, false, false, 0, true},
		{"token account exists", need - 2_074_080, true, false, 0, false},
		{"accumulator exists", need - 1_628_640, false, true, 0, false},
		{"vault half funded", need - 445_440, false, false, 445_440, false},
		{"vault half funded, one short", need - 445_441, false, false, 445_440, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			w := f.wallet(tt.lamports, 0)
			if tt.ata {
				f.setTokens(w, 0)
			}
			if tt.uva {
				u := pumpfun.UserVolumeAccumulator{User: w}
				f.chain.set(pumpfun.UserVolumeAccumulatorPDA(w), pumpfun.ProgramID, rentExempt(pumpfun.UserVolumeAccumulatorSize), u.Encode())
			}
			if tt.vault > 0 {
				f.chain.set(pumpfun.CreatorVaultPDA(f.curve.Creator), pumpfun.SystemProgramID, tt.vault, nil)
			}
			_, err := f.signer.Sign(context.Background(), f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.1"}))
			if !tt.wantError {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if e := signErr(t, err); e.Code != apierr.InsufficientBalance || e.Details != w.String() {
				t.Fatalf("error %v", err)
			}
		})
	}
}

func TestReadsAndStateCache(t *testing.T) {
	f := newFixture(t)
	w := f.wallet(5e9, 0)
	job := f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.001"})
	sign := func() {
		t.Helper()
		if _, err := f.signer.Sign(context.Background(), job); err != nil {
			t.Fatal(err)
		}
	}
	hasGlobal := func(keys []sol.PublicKey) bool { return slices.Contains(keys, pumpfun.GlobalPDA) }

	sign()
	reads := f.chain.readLog()
	// One read of the market (with Global and FeeConfig), one of the wallets.
	if len(reads) != 2 || !hasGlobal(reads[0]) || !slices.Contains(reads[0], pumpfun.FeeConfigPDA) || len(reads[1]) != 4 {
		t.Fatalf("reads %v", reads)
	}
	if f.chain.hashReads != 1 {
		t.Fatalf("%d blockhash reads", f.chain.hashReads)
	}

	// Within the TTL Global and FeeConfig come from the cache, and with the
	// mint's facts known the wallets are read in the same call.
	f.clock = f.clock.Add(5 * time.Second)
	sign()
	if reads := f.chain.readLog(); len(reads) != 3 || hasGlobal(reads[2]) || len(reads[2]) != 6 {
		t.Fatalf("reads within the TTL %v", reads[2:])
	}
	// Past it they are read again.
	f.clock = f.clock.Add(10 * time.Second)
	sign()
	if reads := f.chain.readLog(); len(reads) != 4 || !hasGlobal(reads[3]) || len(reads[3]) != 8 {
		t.Fatalf("reads past the TTL %v", reads[3:])
	}
}

// TestCreatorChangeReadsAgain checks the cached creator is only a guess: a
// curve whose creator changed makes the signer read the wallets again with
// the right creator vault.
func TestCreatorChangeReadsAgain(t *testing.T) {
	f := newFixture(t)
	f.seedCurve(1e9)
	w := f.wallet(5e9, 0)
	job := f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.001"})
	if _, err := f.signer.Sign(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	f.curve.Creator = sol.NewWallet().PublicKey()
	f.putCurve()
	batch, err := f.signer.Sign(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	reads := f.chain.readLog()
	if len(reads) != 4 || !slices.Contains(reads[3], pumpfun.CreatorVaultPDA(f.curve.Creator)) {
		t.Fatalf("reads %v", reads)
	}
	tx, err := sol.TransactionFromBytes(batch.Txs[0].Raw)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tx.Message.AccountKeys, pumpfun.CreatorVaultPDA(f.curve.Creator)) {
		t.Fatal("the transaction does not name the new creator's vault")
	}
}

func TestManyWalletsAreReadInChunks(t *testing.T) {
	f := newFixture(t)
	var legs []wire.Leg
	for range 40 {
		legs = append(legs, wire.Leg{Wallet: f.wallet(5e9, 0).String(), Amount: "0.01"})
	}
	batch, err := f.signer.Sign(context.Background(), f.job(wire.Buy, legs...))
	if err != nil {
		t.Fatal(err)
	}
	if len(batch.Txs) != 40 {
		t.Fatalf("%d txs", len(batch.Txs))
	}
	reads := f.chain.readLog()
	var sizes []int
	for _, r := range reads[1:] {
		sizes = append(sizes, len(r))
	}
	slices.Sort(sizes)
	// 1 creator vault + 3 per wallet = 121 keys: 100 + 21.
	if !slices.Equal(sizes, []int{21, 100}) {
		t.Fatalf("wallet reads of %v keys", sizes)
	}
}

// TestManyWalletsSignedInLegOrder signs a ten-wallet buy, whose legs are
// signed in parallel: every transaction is its own wallet's, in the order
// of the legs, and quoted on the curve the earlier legs leave.
func TestManyWalletsSignedInLegOrder(t *testing.T) {
	f := newFixture(t)
	var legs []wire.Leg
	for i := range 10 {
		legs = append(legs, wire.Leg{Wallet: f.wallet(5e9, 0).String(), Amount: fmt.Sprintf("0.%03d", 10*(i+1))})
	}
	batch, err := f.signer.Sign(context.Background(), f.job(wire.Buy, legs...))
	if err != nil {
		t.Fatal(err)
	}
	if len(batch.Txs) != len(legs) {
		t.Fatalf("%d txs for %d wallets", len(batch.Txs), len(legs))
	}
	rates := pumpfun.FeeRates{ProtocolFeeBps: 95, CreatorFeeBps: 30}
	for i, st := range batch.Txs {
		if st.Wallet != legs[i].Wallet {
			t.Fatalf("tx %d is wallet %s's, want %s's", i, st.Wallet, legs[i].Wallet)
		}
		// Each leg's least out is what it gets landing after the nine
		// others, less the slack for the order they land in.
		curve := f.curve
		for j := range legs {
			if j != i {
				q, err := curve.QuoteBuyExactSolIn(rates, uint64(j+1)*10_000_000)
				if err != nil {
					t.Fatal(err)
				}
				curve.ApplyBuy(q)
			}
		}
		spend := uint64(i+1) * 10_000_000
		q, err := curve.QuoteBuyExactSolIn(rates, spend)
		if err != nil {
			t.Fatal(err)
		}
		args, err := pumpfun.DecodeInstruction(decodeTx(t, st)[3].data)
		if err != nil {
			t.Fatal(err)
		}
		// Less the slack for the order of the others' landing.
		want := pumpfun.BuyExactSolInArgs{SpendableSolIn: spend, MinTokensOut: pumpfun.MinOut(q.TokensOut-orderSlack(q.TokensOut, 9), 1000), TrackVolume: true}
		if got := *args.(*pumpfun.BuyExactSolInArgs); got != want {
			t.Fatalf("tx %d: args %+v, want %+v", i, got, want)
		}
	}
}

// TestOneLegFailingFailsTheOrder: when one wallet of a multi-wallet order
// cannot be signed for, the order fails naming that wallet, and no
// transaction of it is returned.
func TestOneLegFailingFailsTheOrder(t *testing.T) {
	for _, bad := range []int{0, 4, 9} {
		t.Run(fmt.Sprintf("leg=%d", bad), func(t *testing.T) {
			f := newFixture(t)
			var legs []wire.Leg
			for range 10 {
				legs = append(legs, wire.Leg{Wallet: f.wallet(5e9, 0).String(), Amount: "0.01"})
			}
			f.keys.mu.Lock()
			delete(f.keys.keys, legs[bad].Wallet)
			f.keys.mu.Unlock()
			batch, err := f.signer.Sign(context.Background(), f.job(wire.Buy, legs...))
			if err == nil || batch != nil {
				t.Fatalf("batch %v, error %v", batch, err)
			}
			if !strings.Contains(err.Error(), "for wallet "+legs[bad].Wallet+":") {
				t.Fatalf("error %q does not name wallet %s", err, legs[bad].Wallet)
			}
		})
	}
}

func TestRPCErrorsAreNotAPIErrors(t *testing.T) {
	tests := []struct {
		name string
		set  func(c *fakeChain)
	}{
		{"accounts", func(c *fakeChain) { c.accountErr = errors.New("connection refused") }},
		{"blockhash", func(c *fakeChain) { c.hashErr = context.DeadlineExceeded }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			w := f.wallet(5e9, 0)
			tt.set(f.chain)
			_, err := f.signer.Sign(context.Background(), f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.001"}))
			var e *apierr.Error
			if err == nil || errors.As(err, &e) {
				t.Fatalf("error %v", err)
			}
		})
	}
}

func TestWrongKeyIsRefused(t *testing.T) {
	f := newFixture(t)
	w := f.wallet(5e9, 0)
	f.keys.keys[w.String()] = sol.NewWallet().PrivateKey
	_, err := f.signer.Sign(context.Background(), f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.001"}))
	if e := signErr(t, err); e.Code != apierr.Internal {
		t.Fatalf("error %v", err)
	}
}

func TestAutoTip(t *testing.T) {
	f := newFixture(t)
	w := f.wallet(5e9, 0)
	job := f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.001"})
	job.AutoTip, job.PriorityFee, job.ProcessorTip = true, "junk", "junk"
	batch, err := f.signer.Sign(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	ixs := decodeTx(t, batch.Txs[0])
	if got := binary.LittleEndian.Uint64(ixs[1].data[1:]); got != 500_000 { // 100_000 lamports over 200k CU
		t.Fatalf("unit price %d", got)
	}
	if got := binary.LittleEndian.Uint64(ixs[4].data[4:]); got != 100_000 {
		t.Fatalf("tip %d", got)
	}
}

func TestMicroLamportsPerCU(t *testing.T) {
	tests := []struct {
		fee   uint64
		limit uint32
		want  uint64
	}{
		{0, 200_000, 0},
		{1_000_000, 200_000, 5_000_000},
		{1, 200_000, 5},
		{1, 3, 333_333},
		{^uint64(0), 1, ^uint64(0)},
	}
	for _, tt := range tests {
		if got := microLamportsPerCU(tt.fee, tt.limit); got != tt.want {
			t.Errorf("microLamportsPerCU(%d, %d) = %d, want %d", tt.fee, tt.limit, got, tt.want)
		}
	}
}

func TestPercentOf(t *testing.T) {
	tests := []struct {
		balance uint64
		percent string
		want    uint64
		invalid bool
	}{
		{1000, "100", 1000, false},
		{1000, "1", 10, false},
		{999, "33.33", 332, false}, // 332.9667
		{^uint64(0), "100", ^uint64(0), false},
		{^uint64(0), "50", ^uint64(0) / 2, false},
		{7, "0.000001", 0, false},
		{1000, "0", 0, true},
		{1000, "100.0001", 0, true},
		{1000, "1e2", 0, true},
		{1000, "1/2", 0, true},
		{1000, "-5", 0, true},
		{1000, ".5", 0, true},
	}
	for _, tt := range tests {
		got, err := percentOf("amount", tt.balance, tt.percent)
		if tt.invalid {
			if err == nil {
				t.Errorf("percentOf(%d, %q) = %d, want an error", tt.balance, tt.percent, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("percentOf(%d, %q) = %d, %v; want %d", tt.balance, tt.percent, got, err, tt.want)
		}
	}
}

func TestScaleTokens(t *testing.T) {
	tests := []struct {
		amount   string
		decimals uint8
		want     uint64
		fits     bool
		invalid  bool
	}{
		{"1", 6, 1_000_000, true, false},
		{"1.5", 6, 1_500_000, true, false},
		{"0.000001", 6, 1, true, false},
		{"1.1000000", 6, 0, false, true}, // trailing zeros are digits too
		{"1.100000", 6, 1_100_000, true, false},
		{"1.0000001", 6, 0, false, true},
		{"0", 6, 0, false, true},
		{"18446744073709.551615", 6, ^uint64(0), true, false},
		{"18446744073709.551616", 6, 0, false, false},
		{"abc", 6, 0, false, true},
		{"5", 0, 5, true, false},
	}
	for _, tt := range tests {
		got, fits, err := scaleTokens("amount", tt.amount, tt.decimals)
		if tt.invalid {
			if e := new(apierr.Error); !errors.As(err, &e) || e.Details != "amount" {
				t.Errorf("scaleTokens(%q) error %v, want INVALID_REQUEST on amount", tt.amount, err)
			}
			continue
		}
		if err != nil || got != tt.want || fits != tt.fits {
			t.Errorf("scaleTokens(%q, %d) = %d, %v, %v; want %d, %v", tt.amount, tt.decimals, got, fits, err, tt.want, tt.fits)
		}
	}
}

func TestCompileMessageMatchesSolanaGo(t *testing.T) {
	f := newFixture(t)
	f.seedCurve(1e9)
	buyer := f.wallet(5e9, 0)
	seller := f.wallet(5e9, 1_000_000_000_000)
	f.curve.IsCashbackCoin = true
	f.putCurve()
	for _, job := range []*wire.SwapJob{
		f.job(wire.Buy, wire.Leg{Wallet: buyer.String(), Amount: "0.001"}),
		f.job(wire.Sell, wire.Leg{Wallet: seller.String(), Amount: "10"}),
	} {
		t.Run(string(job.Side), func(t *testing.T) {
			o, err := f.signer.parseJob(job)
			if err != nil {
				t.Fatal(err)
			}
			m, _, err := f.signer.readMarket(context.Background(), o, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.signer.readWallets(context.Background(), m, o); err != nil {
				t.Fatal(err)
			}
			if err := f.signer.plan(m, o); err != nil {
				t.Fatal(err)
			}
			// The same instructions for both: fee and tip recipients are
			// drawn at random per build.
			ixs := f.signer.instructions(m, o, &o.legs[0])
			msg := compileMessage(ixs, o.legs[0].wallet, m.blockhash)
			got, err := msg.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			want, err := sol.NewTransaction(ixs, m.blockhash, sol.TransactionPayer(o.legs[0].wallet))
			if err != nil {
				t.Fatal(err)
			}
			wantBytes, err := want.Message.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, wantBytes) {
				t.Fatalf("message\n%x\nsolana-go\n%x", got, wantBytes)
			}
		})
	}
}

// TestCompileMessageMatchesSolanaGoOnRandomInstructions holds compileMessage
// to sol.NewTransaction, both encoded by Message.MarshalBinary, on
// instructions drawn at random from a few keys, so that keys recur across
// instructions and roles: as signer or not, writable or not, as a program,
// and as the payer.
func TestCompileMessageMatchesSolanaGoOnRandomInstructions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pool := make([]sol.PublicKey, 12)
	for i := range pool {
		pool[i] = sol.NewWallet().PublicKey()
	}
	// Two keys that share their first eight bytes, which keySet must still
	// tell apart.
	pool[1] = pool[0]
	pool[1][31] ^= 1
	for round := range 2000 {
		payer := pool[rng.IntN(len(pool))]
		ixs := make([]sol.Instruction, 1+rng.IntN(6))
		for i := range ixs {
			metas := make(sol.AccountMetaSlice, rng.IntN(8))
			for j := range metas {
				metas[j] = &sol.AccountMeta{PublicKey: pool[rng.IntN(len(pool))], IsSigner: rng.IntN(3) == 0, IsWritable: rng.IntN(2) == 0}
			}
			data := make([]byte, rng.IntN(200))
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			ixs[i] = sol.NewInstruction(pool[rng.IntN(len(pool))], metas, data)
		}
		var blockhash sol.Hash
		blockhash[round%32] = byte(round)
		msg := compileMessage(ixs, payer, blockhash)
		got, err := msg.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		want, err := sol.NewTransaction(ixs, blockhash, sol.TransactionPayer(payer))
		if err != nil {
			t.Fatal(err)
		}
		wantBytes, err := want.Message.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, wantBytes) {
			t.Fatalf("round %d: message\n%x\nsolana-go\n%x", round, got, wantBytes)
		}
	}
}

// TestSignedWireFormMatchesSolanaGo decodes a signed transaction with
// solana-go, holds its bytes to what Transaction.MarshalBinary writes of it,
// and checks the signature.
func TestSignedWireFormMatchesSolanaGo(t *testing.T) {
	f := newFixture(t)
	f.seedCurve(1e9)
	buyer := f.wallet(5e9, 0)
	seller := f.wallet(5e9, 1_000_000_000_000)
	for _, job := range []*wire.SwapJob{
		f.job(wire.Buy, wire.Leg{Wallet: buyer.String(), Amount: "0.001"}),
		f.job(wire.Sell, wire.Leg{Wallet: seller.String(), Amount: "10"}),
	} {
		t.Run(string(job.Side), func(t *testing.T) {
			batch, err := f.signer.Sign(context.Background(), job)
			if err != nil {
				t.Fatal(err)
			}
			raw := batch.Txs[0].Raw
			tx, err := sol.TransactionFromBytes(raw)
			if err != nil {
				t.Fatal(err)
			}
			want, err := tx.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(raw, want) {
				t.Fatalf("signed\n%x\nsolana-go\n%x", raw, want)
			}
			if err := tx.VerifySignatures(); err != nil {
				t.Fatal(err)
			}
			if tx.Signatures[0].String() != batch.Txs[0].Signature {
				t.Fatalf("signature %s, batch says %s", tx.Signatures[0], batch.Txs[0].Signature)
			}
		})
	}
}

func TestConcurrentSign(t *testing.T) {
	f := newFixture(t)
	f.seedCurve(1e9)
	buyer := f.wallet(5e9, 0)
	seller := f.wallet(5e9, 1_000_000_000_000)
	jobs := []*wire.SwapJob{
		f.job(wire.Buy, wire.Leg{Wallet: buyer.String(), Amount: "0.001"}),
		f.job(wire.Sell, wire.Leg{Wallet: seller.String(), Amount: "10"}),
	}
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			_, err := f.signer.Sign(context.Background(), jobs[i%2])
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestDustSale: a sale that returns no SOL after fees is refused naming the
// amount, unless it sells the whole holding: that closes the token account,
// whose rent comes back.
func TestDustSale(t *testing.T) {
	f := newFixture(t)
	f.seedCurve(10_000_000_000)
	f.putCurve()
	w := f.wallet(10_000_000, 3)
	_, err := f.signer.Sign(context.Background(), f.job(wire.Sell, wire.Leg{Wallet: w.String(), Amount: "50"}))
	if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.InvalidRequest || e.Details != "amount" || !strings.Contains(e.Message, "for no SOL") {
		t.Fatalf("half of 3 base units: %v, want 400 naming the amount", err)
	}
	batch, err := f.signer.Sign(context.Background(), f.job(wire.Sell, wire.Leg{Wallet: w.String(), Amount: "100"}))
	if err != nil {
		t.Fatalf("all of 3 base units, which closes the account: %v", err)
	}
	if len(batch.Txs) != 1 || batch.Txs[0].Closes == "" {
		t.Fatalf("the sale of everything does not close the account: %+v", batch.Txs)
	}
}

// TestSameLegsTwoWorkers: two worker processes (two signers sharing the
// signatures bucket) signing orders with the same legs on one blockhash
// sign two transactions, not one that both orders would claim; the same
// order signed by either signs the same bytes.
func TestSameLegsTwoWorkers(t *testing.T) {
	f := newFixture(t)
	f.oneFeeRecipient()
	kv := bustest.Start(t, "solana-signatures").Buckets.Signatures
	f.signer.WithSignatureClaims(kv)
	other := NewSigner(f.chain, f.keys, f.signer.cfg, nil).WithSignatureClaims(kv)
	other.now = f.signer.now
	w := f.wallet(5e9, 0)
	job := func(id string) *wire.SwapJob {
		j := f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.1"})
		j.OrderID, j.ProcessorTip = id, "0" // no tip, whose account is drawn at random
		return j
	}
	ctx := context.Background()
	first, err := f.signer.Sign(ctx, job("eu-a"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := other.Sign(ctx, job("us-b"))
	if err != nil {
		t.Fatal(err)
	}
	if first.Txs[0].Signature == second.Txs[0].Signature {
		t.Fatal("two orders on two workers signed one transaction")
	}
	again, err := other.Sign(ctx, job("eu-a"))
	if err != nil {
		t.Fatal(err)
	}
	if again.Txs[0].Signature != first.Txs[0].Signature {
		t.Fatal("an order signed again on the other worker signed other bytes")
	}
	if e, err := kv.Get(ctx, second.Txs[0].Signature); err != nil || string(e.Value()) != "us-b" {
		t.Fatalf("the second order's claim: %v", err)
	}
}

// TestSameLegsTwoWorkersManyWallets: the claims of a many-wallet order go
// out together; a leg another worker's order holds is signed again, the
// others kept, and every leg's claim is its own order's.
func TestSameLegsTwoWorkersManyWallets(t *testing.T) {
	f := newFixture(t)
	f.oneFeeRecipient()
	kv := bustest.Start(t, "solana-signatures-many").Buckets.Signatures
	f.signer.WithSignatureClaims(kv)
	other := NewSigner(f.chain, f.keys, f.signer.cfg, nil).WithSignatureClaims(kv)
	other.now = f.signer.now
	var legs []wire.Leg
	for range 4 {
		legs = append(legs, wire.Leg{Wallet: f.wallet(5e9, 0).String(), Amount: "0.1"})
	}
	job := func(id string, legs []wire.Leg) *wire.SwapJob {
		j := f.job(wire.Buy, legs...)
		j.OrderID, j.ProcessorTip = id, "0"
		return j
	}
	ctx := context.Background()
	// The first order trades the first three wallets, the second all four:
	// three of its legs are the first's bytes at first.
	first, err := f.signer.Sign(ctx, job("eu-a", legs[:3]))
	if err != nil {
		t.Fatal(err)
	}
	second, err := other.Sign(ctx, job("us-b", legs))
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Txs) != 3 || len(second.Txs) != 4 {
		t.Fatalf("%d and %d transactions, want 3 and 4", len(first.Txs), len(second.Txs))
	}
	seen := map[string]string{}
	for _, b := range []*wire.TxBatch{first, second} {
		for _, tx := range b.Txs {
			if o, ok := seen[tx.Signature]; ok {
				t.Fatalf("orders %s and %s signed one transaction", o, b.OrderID)
			}
			seen[tx.Signature] = b.OrderID
			if e, err := kv.Get(ctx, tx.Signature); err != nil || string(e.Value()) != b.OrderID {
				t.Fatalf("the claim of %s of order %s: %v", tx.Signature, b.OrderID, err)
			}
		}
	}
	again, err := other.Sign(ctx, job("eu-a", legs[:3]))
	if err != nil {
		t.Fatal(err)
	}
	for i, tx := range again.Txs {
		if tx.Signature != first.Txs[i].Signature {
			t.Fatalf("leg %d of an order signed again on the other worker: other bytes", i)
		}
	}
}

// oneFeeRecipient leaves the pump.fun Global one fee recipient of each
// kind: a buy's are drawn at random, which would make two signings of one
// order differ without any claim.
func (f *fixture) oneFeeRecipient() {
	for i := range f.global.FeeRecipients {
		f.global.FeeRecipients[i] = f.global.FeeRecipient
	}
	for i := range f.global.BuybackFeeRecipients {
		f.global.BuybackFeeRecipients[i] = f.global.BuybackFeeRecipients[0]
	}
	f.chain.set(pumpfun.GlobalPDA, pumpfun.ProgramID, 1e9, f.global.Encode())
}

// TestSellIntoCurveWhateverQuote: a sale into a pump.fun curve receives
// SOL whatever quote_asset says, as a sale into a pool receives the pool's
// quote; only a buy is refused another quote asset there.
func TestSellIntoCurveWhateverQuote(t *testing.T) {
	for _, quote := range []string{"USDC", "USD1"} {
		f := newFixture(t)
		f.seedCurve(10_000_000_000)
		f.putCurve()
		job := f.job(wire.Sell, wire.Leg{Wallet: f.wallet(10_000_000, 2_000_000).String(), Amount: "50"})
		job.QuoteAsset = quote
		batch, err := f.signer.Sign(context.Background(), job)
		if err != nil {
			t.Fatalf("sale with quote_asset %s: %v", quote, err)
		}
		if len(batch.Txs) != 1 {
			t.Fatalf("sale with quote_asset %s: %d transactions, want 1", quote, len(batch.Txs))
		}
	}
}

// TestNeedPastTheLargestAmount: a buy of the largest amount a lamport count
// holds needs more, its fees on top, and says so: the sum stopped at that
// amount and the message gave it as the need, the fees left out.
func TestNeedPastTheLargestAmount(t *testing.T) {
	f := newFixture(t)
	w := f.wallet(1e9, 0)
	_, err := f.signer.Sign(context.Background(), f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "18446744073.709551615"}))
	if e := signErr(t, err); e.Code != apierr.InsufficientBalance || !strings.Contains(e.Message, "needs more than 18446744073.709551615 SOL to buy with 18446744073.709551615 SOL") {
		t.Fatalf("error %v", err)
	}
}
