package launchlab

import (
	"encoding/hex"
	"math/big"
	"strconv"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/anchor/anchortest"
	"github.com/tradeapi/tradeapi/shared/token2022"
)

// testdata/sdk/transfer_fee.json holds what @raydium-io/raydium-sdk-v2
// 0.2.73-alpha does on a pool whose base mint is a Token-2022 mint with a
// transfer fee (generate.mjs, beside it, says how each amount is made):
// the mint accounts as the SDK reads them, the fee its curve functions
// take, and the amounts and slippage bounds of buys and sales.
// TestSDKTransferFee reads the same mints with package token2022, takes
// the fee of each case's epoch, quotes each trade with this package and
// requires the SDK's amounts, case by case, slippage bounds included (the
// SDK rounds a bound, amount times one less the slippage, half up, and so
// does MinOut).

type sdkTransferFeeFile struct {
	SDK           string                `json:"sdk"`
	Version       string                `json:"version"`
	SlotsPerEpoch uint64                `json:"slotsPerEpoch"`
	Mints         map[string]sdkFeeMint `json:"mints"`
	Pools         map[string]sdkPool    `json:"pools"`
	Cases         []sdkFeeCase          `json:"cases"`
}

type sdkFeeMint struct {
	Data              string `json:"data"` // hex
	AccountLen        int    `json:"accountLen"`
	TransferFeeConfig *struct {
		ConfigAuthority, WithdrawWithheldAuthority, WithheldAmount string
		Older, Newer                                               sdkFeeSchedule
	} `json:"transferFeeConfig"`
}

type sdkFeeSchedule struct {
	Epoch, MaximumFee string
	BasisPoints       uint16
}

type sdkFeeCase struct {
	Name   string `json:"name"`
	Op     string `json:"op"` // fee, buy, sell
	Pool   string `json:"pool"`
	Mint   string `json:"mint"`
	Slot   uint64 `json:"slot"`
	Amount string `json:"amount"`
	// fee: the SDK's fee and spl-token's.
	Fee, SplFee string
	// buy and sell: the trade's amounts and its bound at each slippage
	// (basis points).
	AmountOut, AmountIn, TransferFee string
	MinAmountOut                     map[string]string `json:"minAmountOut"`
}

func TestSDKTransferFee(t *testing.T) {
	var f sdkTransferFeeFile
	anchortest.QuotesFile(t, "transfer_fee.json", "@raydium-io/raydium-sdk-v2", "0.2.73-alpha", &f)
	configs := map[string]token2022.TransferFeeConfig{}
	for name, m := range f.Mints {
		t.Run("mint/"+name, func(t *testing.T) {
			data, err := hex.DecodeString(m.Data)
			if err != nil {
				t.Fatal(err)
			}
			c, found, err := token2022.MintTransferFeeConfig(data)
			if err != nil {
				t.Fatal(err)
			}
			size := token2022.AssociatedAccountSize
			if found {
				size = token2022.AssociatedAccountWithTransferFeeSize
			}
			if size != m.AccountLen {
				t.Errorf("associated account of %d bytes, spl-token %d", size, m.AccountLen)
			}
			if found != (m.TransferFeeConfig != nil) {
				t.Fatalf("TransferFeeConfig found %v, SDK %v", found, m.TransferFeeConfig != nil)
			}
			if !found {
				return
			}
			s := m.TransferFeeConfig
			schedule := func(x sdkFeeSchedule) token2022.TransferFee {
				return token2022.TransferFee{Epoch: num(t, x.Epoch), MaximumFee: num(t, x.MaximumFee), BasisPoints: x.BasisPoints}
			}
			want := token2022.TransferFeeConfig{
				ConfigAuthority: sdkOptionalKey(s.ConfigAuthority), WithdrawWithheldAuthority: sdkOptionalKey(s.WithdrawWithheldAuthority),
				WithheldAmount: num(t, s.WithheldAmount), Older: schedule(s.Older), Newer: schedule(s.Newer),
			}
			if c != want {
				t.Errorf("decoded %+v\n SDK %+v", c, want)
			}
			configs[name] = c
		})
	}
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			cfg, ok := configs[c.Mint]
			if !ok {
				t.Fatalf("no transfer fee config of mint %q", c.Mint)
			}
			fee := cfg.At(c.Slot / f.SlotsPerEpoch)
			amount := num(t, c.Amount)
			if c.Op == "fee" {
				if got := fee.Fee(amount); got != num(t, c.Fee) || got != num(t, c.SplFee) {
					t.Errorf("fee of %d is %d, SDK %s, spl-token %s", amount, got, c.Fee, c.SplFee)
				}
				return
			}
			sp, ok := f.Pools[c.Pool]
			if !ok {
				t.Fatalf("no pool %q", c.Pool)
			}
			p, r := sp.state(t)
			p.TokenProgramFlag = 1
			var bounded uint64
			switch c.Op {
			case "buy":
				q, err := QuoteBuyExactInWithTransferFee(&p, r, amount, fee)
				if err != nil {
					t.Fatal(err)
				}
				if q.AmountOut != num(t, c.AmountOut) || q.TransferFee != num(t, c.TransferFee) || q.AmountIn != num(t, c.AmountIn) {
					t.Errorf("buy of %d: %d out, %d withheld, %d paid; SDK %s, %s, %s", amount, q.AmountOut, q.TransferFee, q.AmountIn,
						c.AmountOut, c.TransferFee, c.AmountIn)
				}
				bounded = q.Received()
			case "sell":
				q, err := QuoteSellExactInWithTransferFee(&p, r, amount, fee)
				if err != nil {
					t.Fatal(err)
				}
				if q.AmountIn != amount || q.TransferFee != num(t, c.TransferFee) || q.NetOut != num(t, c.AmountOut) {
					t.Errorf("sale of %d: %d sold, %d withheld, %d out; SDK %s withheld, %s out", amount, q.AmountIn, q.TransferFee, q.NetOut,
						c.TransferFee, c.AmountOut)
				}
				bounded = q.NetOut
			default:
				t.Fatalf("op %q", c.Op)
			}
			if len(c.MinAmountOut) == 0 {
				t.Fatal("no bounds")
			}
			for s, sdkMin := range c.MinAmountOut {
				bps, err := strconv.ParseUint(s, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				got := MinOut(bounded, bps)
				if want := roundHalfUpBound(bounded, bps); num(t, sdkMin) != want || got != want {
					t.Errorf("bound at %d bps of %d: %d, SDK %s (%d rounded half up)", bps, bounded, got, sdkMin, want)
				}
			}
		})
	}
}

// sdkOptionalKey reads an optional authority as the SDK prints it: the
// default key, all ones in base58, is none.
func sdkOptionalKey(s string) solana.PublicKey {
	k := solana.MustPublicKeyFromBase58(s)
	if k == solana.SystemProgramID {
		return solana.PublicKey{}
	}
	return k
}

// roundHalfUpBound is amount*(10000-bps)/10000 rounded half up, exactly.
func roundHalfUpBound(amount, bps uint64) uint64 {
	q, r := boundParts(amount, bps)
	if 2*r >= 10_000 {
		q++
	}
	return q
}

func boundParts(amount, bps uint64) (q, r uint64) {
	p := new(big.Int).Mul(new(big.Int).SetUint64(amount), new(big.Int).SetUint64(10_000-bps))
	qb, rb := p.QuoRem(p, big.NewInt(10_000), new(big.Int))
	return qb.Uint64(), rb.Uint64()
}

// TestMinOutRoundsAsTheSDK: bounds Raydium's SDK built for a LetsBonk buy
// of 0.3 SOL at 10 % and a launch's creator buy at 5 % (its buyToken and
// createLaunchpad on the local chain), where rounding down gave one unit
// less.
func TestMinOutRoundsAsTheSDK(t *testing.T) {
	for _, c := range []struct{ out, bps, sdk uint64 }{
		{10_486_958_286_892, 1000, 9_438_262_458_203},
		{7_014_155_914_529, 500, 6_663_448_118_803},
		{10, 0, 10},
		{10, 10_000, 0},
		{5, 1000, 5},   // 4.5
		{15, 1000, 14}, // 13.5
	} {
		if got := MinOut(c.out, c.bps); got != c.sdk {
			t.Errorf("MinOut(%d, %d) = %d, SDK %d", c.out, c.bps, got, c.sdk)
		}
	}
}
