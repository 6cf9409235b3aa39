package solana

import (
	"context"
	"strings"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

func ataIx(payer, owner, mint, tokenProgram sol.PublicKey, idempotent bool) sol.Instruction {
	data := []byte{0}
	if idempotent {
		data = []byte{1}
	}
	return sol.NewInstruction(ataProgramID, sol.AccountMetaSlice{
		{PublicKey: payer, IsSigner: true, IsWritable: true},
		{PublicKey: associatedTokenAddress(owner, tokenProgram, mint), IsWritable: true},
		{PublicKey: owner}, {PublicKey: mint}, {PublicKey: systemProgramID}, {PublicKey: tokenProgram},
	}, data)
}

func TestAssociatedTokenAccount(t *testing.T) {
	c, cl := newTestChain(t)
	for _, prog := range []sol.PublicKey{tokenProgramID, token2022ProgramID} {
		t.Run(prog.String(), func(t *testing.T) {
			payer := newWallet(t, c, sol1)
			owner := newWallet(t, c, 0).PublicKey()
			mint, err := c.CreateMint(6, prog, payer.PublicKey())
			if err != nil {
				t.Fatal(err)
			}
			steps := []struct {
				name       string
				idempotent bool
				wantErr    string
			}{
				{"create", false, ""},
				{"create again", false, `{"InstructionError":[0,"IllegalOwner"]}`},
				{"create idempotent on an existing account", true, ""},
			}
			for _, s := range steps {
				c.AdvanceSlot() // a fresh blockhash, so equal instructions are new transactions
				_, err := send(cl, signTx(t, latest(t, cl), payer, []sol.Instruction{ataIx(payer.PublicKey(), owner, mint, prog, s.idempotent)}), false)
				if s.wantErr == "" {
					if err != nil {
						t.Fatalf("%s: %v", s.name, err)
					}
					continue
				}
				if err == nil {
					t.Fatalf("%s: succeeded, want %s", s.name, s.wantErr)
				}
				if _, txErr := rpcErr(t, err); txErr != s.wantErr {
					t.Errorf("%s: %s, want %s", s.name, txErr, s.wantErr)
				}
			}
			ata := associatedTokenAddress(owner, prog, mint)
			acc, ok := c.GetAccount(ata)
			wantLen := tokenAccountLen
			if prog == token2022ProgramID {
				wantLen = token2022AccountLen
			}
			if !ok || acc.Owner != prog || len(acc.Data) != wantLen || tokAccOwner(acc.Data) != owner || tokAccMint(acc.Data) != mint {
				t.Fatalf("ata %+v", acc)
			}
			if acc.Lamports != MinimumBalanceForRentExemption(wantLen) {
				t.Errorf("ata lamports %d, want rent exempt", acc.Lamports)
			}
			// A mint-to and a checked transfer through the real programs.
			mintTo := sol.NewInstruction(prog, sol.AccountMetaSlice{
				{PublicKey: mint, IsWritable: true}, {PublicKey: ata, IsWritable: true}, {PublicKey: payer.PublicKey(), IsSigner: true},
			}, append([]byte{7}, u64le(5_000_000)...))
			if _, err := send(cl, signTx(t, latest(t, cl), payer, []sol.Instruction{mintTo}), false); err != nil {
				t.Fatalf("mint to: %v", err)
			}
			bal, err := cl.GetTokenAccountBalance(context.Background(), ata, rpc.CommitmentConfirmed)
			if err != nil || bal.Value.Amount != "5000000" || bal.Value.UiAmountString != "5" {
				t.Errorf("token balance %+v %v", bal, err)
			}
		})
	}
}

// pumpScene is a created coin and funded traders.
type pumpScene struct {
	c       *Chain
	cl      *rpc.Client
	mint    sol.PublicKey
	creator sol.PrivateKey
}

// createCoin creates a coin through a real signed create_v2 transaction,
// together with the creator's first buy, as the SDK does.
func createCoin(t testing.TB, c *Chain, cl *rpc.Client, firstBuy uint64) pumpScene {
	t.Helper()
	creator := newWallet(t, c, 50*sol1)
	mintKey := newWallet(t, c, 0)
	mint := mintKey.PublicKey()
	accts := pumpfun.NewCreateV2Accounts(mint, creator.PublicKey())
	create := pumpfun.CreateV2Instruction(&accts, pumpfun.CreateV2Args{Name: "Local Coin", Symbol: "LOCL", URI: "https://example.invalid/locl.json", Creator: creator.PublicKey()})
	ixs := []sol.Instruction{create}
	if firstBuy > 0 {
		ixs = append(ixs, ataIx(creator.PublicKey(), creator.PublicKey(), mint, token2022ProgramID, true),
			buyIx(creator.PublicKey(), creator.PublicKey(), mint, firstBuy, 10*sol1))
	}
	if _, err := send(cl, signTx(t, latest(t, cl), creator, ixs, mintKey), false); err != nil {
		t.Fatalf("create_v2: %v", err)
	}
	return pumpScene{c: c, cl: cl, mint: mint, creator: creator}
}

func tradeParams(user, creator, mint sol.PublicKey) pumpfun.TradeParams {
	return pumpfun.TradeParams{
		Mint: mint, User: user, Creator: creator, TokenProgram: token2022ProgramID,
		FeeRecipient: pumpfun.StaticFeeRecipients[3], BuybackFeeRecipient: pumpfun.StaticBuybackFeeRecipients[5],
	}
}

func buyIx(user, creator, mint sol.PublicKey, tokens, maxCost uint64) *sol.GenericInstruction {
	a := pumpfun.NewBuyAccounts(tradeParams(user, creator, mint))
	return pumpfun.BuyInstruction(&a, pumpfun.BuyArgs{Amount: tokens, MaxSolCost: maxCost, TrackVolume: true})
}

// readState reads Global, FeeConfig and the curve over RPC and decodes them
// with package pumpfun, as a client would.
func readState(t testing.TB, cl *rpc.Client, mint sol.PublicKey) (pumpfun.Global, pumpfun.FeeConfig, pumpfun.BondingCurve) {
	t.Helper()
	ctx := context.Background()
	out, err := cl.GetMultipleAccounts(ctx, pumpfun.GlobalPDA, pumpfun.FeeConfigPDA, pumpfun.BondingCurvePDA(mint))
	if err != nil {
		t.Fatal(err)
	}
	var g pumpfun.Global
	var fc pumpfun.FeeConfig
	var bc pumpfun.BondingCurve
	for i, dec := range []interface{ Decode([]byte) error }{&g, &fc, &bc} {
		if out.Value[i] == nil {
			t.Fatalf("account %d missing", i)
		}
		if err := dec.Decode(out.Value[i].Data.GetBinary()); err != nil {
			t.Fatalf("decode %d: %v", i, err)
		}
	}
	return g, fc, bc
}

func TestPumpCreateBuySell(t *testing.T) {
	c, cl := newTestChain(t)
	ctx := context.Background()
	s := createCoin(t, c, cl, 1_000_000_000) // creator buys 1000 tokens
	g, fc, curve := readState(t, cl, s.mint)
	if g.FeeBasisPoints != genesisProtocolFeeBps || len(fc.FeeTiers) != len(GenesisFeeTiers) {
		t.Fatalf("genesis global/fee config not as seeded: %+v %+v", g.FeeBasisPoints, fc.FeeTiers)
	}
	if curve.Creator != s.creator.PublicKey() || curve.RealTokenReserves != genesisRealTokenReserves-1_000_000_000 {
		t.Fatalf("curve after create+buy: %+v", curve)
	}
	// The Token-2022 mint decodes like any mint: supply and decimals.
	mintAcc, err := cl.GetAccountInfo(ctx, s.mint)
	if err != nil {
		t.Fatal(err)
	}
	md := mintAcc.Value.Data.GetBinary()
	if mintAcc.Value.Owner != token2022ProgramID || mintSupply(md) != genesisTokenTotalSupply || mintDecimals(md) != 6 {
		t.Fatalf("mint: owner %s supply %d decimals %d", mintAcc.Value.Owner, mintSupply(md), mintDecimals(md))
	}
	if _, ok := mintAuthority(md); ok {
		t.Error("mint authority not revoked")
	}
	if off, n, ok := tlvFind(md, extTokenMetadata); !ok || !strings.Contains(string(md[off:off+n]), "LOCL") {
		t.Error("token metadata extension missing")
	}

	buyer := newWallet(t, c, 20*sol1)
	const tokens = 50_000_000_000 // 50,000 tokens
	rates := pumpfun.ComputeFees(&g, &fc, &curve, genesisTokenTotalSupply)
	q, err := curve.QuoteBuy(rates, tokens)
	if err != nil {
		t.Fatal(err)
	}
	before := c.Balance(buyer.PublicKey())
	vaultBefore := c.Balance(pumpfun.CreatorVaultPDA(s.creator.PublicKey()))
	buy := []sol.Instruction{
		ataIx(buyer.PublicKey(), buyer.PublicKey(), s.mint, token2022ProgramID, true),
		buyIx(buyer.PublicKey(), s.creator.PublicKey(), s.mint, tokens, q.Total),
	}
	sig, err := send(cl, signTx(t, latest(t, cl), buyer, buy), false)
	if err != nil {
		t.Fatalf("buy at the exact quote: %v", err)
	}
	if got, _ := c.TokenBalance(buyer.PublicKey(), s.mint); got != tokens {
		t.Errorf("tokens %d, want %d", got, tokens)
	}
	uvaRent := MinimumBalanceForRentExemption(pumpfun.UserVolumeAccumulatorSize)
	ataRent := MinimumBalanceForRentExemption(token2022AccountLen)
	if spent := before - c.Balance(buyer.PublicKey()); spent != q.Total+5000+uvaRent+ataRent {
		t.Errorf("buyer spent %d, want quote %d + fee + rents %d", spent, q.Total, 5000+uvaRent+ataRent)
	}
	if got := c.Balance(pumpfun.CreatorVaultPDA(s.creator.PublicKey())) - vaultBefore; got != q.CreatorFee {
		t.Errorf("creator vault got %d, want %d", got, q.CreatorFee)
	}
	_, _, after := readState(t, cl, s.mint)
	if after.VirtualQuoteReserves != curve.VirtualQuoteReserves+q.SolCost || after.RealTokenReserves != curve.RealTokenReserves-tokens {
		t.Errorf("curve did not move by the quote: %+v", after)
	}

	// The TradeEvent in the logs decodes with package pumpfun.
	txr, err := cl.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{Encoding: sol.EncodingBase64})
	if err != nil {
		t.Fatal(err)
	}
	var ev pumpfun.TradeEvent
	found := false
	for _, l := range txr.Meta.LogMessages {
		if data, ok := strings.CutPrefix(l, "Program data: "); ok {
			raw, _ := decodeB64(data)
			if err := ev.Decode(raw); err == nil {
				found = true
			}
		}
	}
	if !found || ev.TokenAmount != tokens || ev.SolAmount != q.SolCost || !ev.IsBuy || ev.IxName != "buy" {
		t.Errorf("trade event %+v (found %v)", ev, found)
	}

	// Sell half back with a minimum equal to the quote.
	_, _, curve = readState(t, cl, s.mint)
	sq, err := curve.QuoteSell(pumpfun.ComputeFees(&g, &fc, &curve, genesisTokenTotalSupply), tokens/2)
	if err != nil {
		t.Fatal(err)
	}
	sa := pumpfun.NewSellAccounts(tradeParams(buyer.PublicKey(), s.creator.PublicKey(), s.mint), false)
	before = c.Balance(buyer.PublicKey())
	if _, err := send(cl, signTx(t, latest(t, cl), buyer, []sol.Instruction{pumpfun.SellInstruction(&sa, pumpfun.SellArgs{Amount: tokens / 2, MinSolOutput: sq.Net})}), false); err != nil {
		t.Fatalf("sell: %v", err)
	}
	if got := c.Balance(buyer.PublicKey()) - before; got != sq.Net-5000 {
		t.Errorf("sell paid %d, want %d", got, sq.Net-5000)
	}
	if got, _ := c.TokenBalance(buyer.PublicKey(), s.mint); got != tokens-tokens/2 {
		t.Errorf("tokens after sell %d", got)
	}

	// buy_exact_sol_in spends at most the budget.
	_, _, curve = readState(t, cl, s.mint)
	eq, err := curve.QuoteBuyExactSolIn(pumpfun.ComputeFees(&g, &fc, &curve, genesisTokenTotalSupply), sol1/10)
	if err != nil {
		t.Fatal(err)
	}
	ba := pumpfun.NewBuyAccounts(tradeParams(buyer.PublicKey(), s.creator.PublicKey(), s.mint))
	tokBefore, _ := c.TokenBalance(buyer.PublicKey(), s.mint)
	if _, err := send(cl, signTx(t, latest(t, cl), buyer, []sol.Instruction{pumpfun.BuyExactSolInInstruction(&ba, pumpfun.BuyExactSolInArgs{SpendableSolIn: sol1 / 10, MinTokensOut: eq.TokensOut})}), false); err != nil {
		t.Fatalf("buy_exact_sol_in: %v", err)
	}
	if got, _ := c.TokenBalance(buyer.PublicKey(), s.mint); got-tokBefore != eq.TokensOut {
		t.Errorf("buy_exact_sol_in got %d tokens, want %d", got-tokBefore, eq.TokensOut)
	}
}

func TestPumpProgramErrors(t *testing.T) {
	c, cl := newTestChain(t)
	s := createCoin(t, c, cl, 10_000_000_000)
	g, fc, curve := readState(t, cl, s.mint)
	rates := pumpfun.ComputeFees(&g, &fc, &curve, genesisTokenTotalSupply)
	q, err := curve.QuoteBuy(rates, 1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	sq, err := curve.QuoteSell(rates, 1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		ixs     func(user sol.PublicKey) []sol.Instruction
		wantErr string
		wantLog string
	}{
		{"buy above max_sol_cost", func(u sol.PublicKey) []sol.Instruction {
			return []sol.Instruction{ataIx(u, u, s.mint, token2022ProgramID, true), buyIx(u, s.creator.PublicKey(), s.mint, 1_000_000_000, q.Total-1)}
		}, `{"InstructionError":[1,{"Custom":6002}]}`, "Error Code: TooMuchSolRequired. Error Number: 6002"},
		{"sell below min_sol_output", func(u sol.PublicKey) []sol.Instruction {
			a := pumpfun.NewSellAccounts(tradeParams(u, s.creator.PublicKey(), s.mint), false)
			return []sol.Instruction{pumpfun.SellInstruction(&a, pumpfun.SellArgs{Amount: 1_000_000_000, MinSolOutput: sq.Net + 1})}
		}, `{"InstructionError":[0,{"Custom":6003}]}`, "Error Code: TooLittleSolReceived. Error Number: 6003"},
		{"buy without bonding_curve_v2", func(u sol.PublicKey) []sol.Instruction {
			ix := buyIx(u, s.creator.PublicKey(), s.mint, 1_000_000_000, q.Total)
			ix.AccountValues = ix.AccountValues[:pumpfun.BuyFixedAccounts]
			return []sol.Instruction{ataIx(u, u, s.mint, token2022ProgramID, true), ix}
		}, `{"InstructionError":[1,{"Custom":6074}]}`, "InvalidBondingCurveV2"},
		{"buy without the user's token account", func(u sol.PublicKey) []sol.Instruction {
			return []sol.Instruction{buyIx(u, s.creator.PublicKey(), s.mint, 1_000_000_000, q.Total)}
		}, `{"InstructionError":[0,{"Custom":3012}]}`, "caused by account: associated_user"},
		{"buy with a wrong creator vault", func(u sol.PublicKey) []sol.Instruction {
			return []sol.Instruction{ataIx(u, u, s.mint, token2022ProgramID, true), buyIx(u, u, s.mint, 1_000_000_000, q.Total)}
		}, `{"InstructionError":[1,{"Custom":2006}]}`, "caused by account: creator_vault"},
		{"unknown instruction", func(u sol.PublicKey) []sol.Instruction {
			return []sol.Instruction{sol.NewInstruction(pumpProgramID, sol.AccountMetaSlice{{PublicKey: u, IsSigner: true, IsWritable: true}}, []byte{1, 2, 3, 4, 5, 6, 7, 8})}
		}, `{"InstructionError":[0,{"Custom":101}]}`, "InstructionFallbackNotFound"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			holder := newWallet(t, c, 10*sol1)
			if strings.HasPrefix(tc.name, "sell") {
				if _, err := c.MintTo(s.mint, holder.PublicKey(), 1_000_000_000); err != nil {
					t.Fatal(err)
				}
			}
			_, err := send(cl, signTx(t, latest(t, cl), holder, tc.ixs(holder.PublicKey())), false)
			if err == nil {
				t.Fatal("succeeded, want a program error")
			}
			re, txErr := rpcErr(t, err)
			if re.Code != -32002 || txErr != tc.wantErr {
				t.Errorf("got %d %s, want -32002 %s", re.Code, txErr, tc.wantErr)
			}
			logs, _ := re.Data.(map[string]any)["logs"].([]any)
			joined := ""
			for _, l := range logs {
				joined += l.(string) + "\n"
			}
			if !strings.Contains(joined, tc.wantLog) {
				t.Errorf("logs lack %q:\n%s", tc.wantLog, joined)
			}
		})
	}
}

func TestTransactionShapes(t *testing.T) {
	c, cl := newTestChain(t)
	ctx := context.Background()
	s := createCoin(t, c, cl, 0)
	buyer := newWallet(t, c, 5*sol1)
	sig, err := send(cl, signTx(t, latest(t, cl), buyer, []sol.Instruction{
		ataIx(buyer.PublicKey(), buyer.PublicKey(), s.mint, token2022ProgramID, true),
		buyIx(buyer.PublicKey(), s.creator.PublicKey(), s.mint, 2_000_000_000, sol1),
	}), false)
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range []sol.EncodingType{"", sol.EncodingBase64} {
		t.Run("encoding="+string(enc), func(t *testing.T) {
			out, err := cl.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{Encoding: enc, Commitment: rpc.CommitmentConfirmed})
			if err != nil {
				t.Fatal(err)
			}
			if out.Meta == nil || out.Meta.Err != nil || out.Meta.Fee != 5000 {
				t.Fatalf("meta %+v", out.Meta)
			}
			tx, err := out.Transaction.GetTransaction()
			if err != nil || tx.Signatures[0] != sig {
				t.Fatalf("transaction %v %v", tx, err)
			}
			n := len(tx.Message.AccountKeys)
			if len(out.Meta.PreBalances) != n || len(out.Meta.PostBalances) != n {
				t.Errorf("balances %d/%d for %d keys", len(out.Meta.PreBalances), len(out.Meta.PostBalances), n)
			}
			if out.Meta.PreBalances[0]-out.Meta.PostBalances[0] < 5000 {
				t.Errorf("payer pre %d post %d", out.Meta.PreBalances[0], out.Meta.PostBalances[0])
			}
			if !strings.HasPrefix(out.Meta.LogMessages[0], "Program "+ataProgramID.String()+" invoke [1]") {
				t.Errorf("first log %q", out.Meta.LogMessages[0])
			}
			var got uint64
			for _, b := range out.Meta.PostTokenBalances {
				if b.Owner != nil && *b.Owner == buyer.PublicKey() {
					got = parseU64(b.UiTokenAmount.Amount)
				}
			}
			if got != 2_000_000_000 {
				t.Errorf("postTokenBalances show %d for the buyer", got)
			}
			if out.BlockTime == nil || out.Slot == 0 {
				t.Errorf("slot %d blockTime %v", out.Slot, out.BlockTime)
			}
		})
	}
	st, err := cl.GetSignatureStatuses(ctx, true, sig, sol.Signature{9})
	if err != nil {
		t.Fatal(err)
	}
	if st.Value[0] == nil || st.Value[0].Slot == 0 || st.Value[1] != nil {
		t.Errorf("statuses %+v", st.Value)
	}
	sigs, err := cl.GetSignaturesForAddress(ctx, buyer.PublicKey())
	if err != nil || len(sigs) != 1 || sigs[0].Signature != sig {
		t.Errorf("signatures for the buyer: %v %v", sigs, err)
	}
	missing, err := cl.GetTransaction(ctx, sol.Signature{7}, nil)
	if err == nil || missing != nil {
		t.Errorf("unknown signature: %v %v, want not found", missing, err)
	}
}
