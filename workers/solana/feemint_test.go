package solana

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/token2022"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestTransferFeeMintNotTraded: a PumpSwap pool whose coin's mint charges
// a Token-2022 transfer fee is refused TOKEN_NOT_FOUND saying why, before
// anything is signed: PumpSwap's SDK does not quote the fee, and a buy's
// least out would be above what arrives. A fee that is zero in both
// schedules does not stop the pool.
func TestTransferFeeMintNotTraded(t *testing.T) {
	sc := newPoolScene(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w := sc.wallet(10_000_000_000)
	for _, tc := range []struct {
		name    string
		fee     token2022.TransferFeeConfig
		refused bool
	}{
		{"a fee in force", token2022.TransferFeeConfig{Older: token2022.TransferFee{BasisPoints: 500, MaximumFee: 1 << 62}}, true},
		{"a fee from a later epoch", token2022.TransferFeeConfig{Newer: token2022.TransferFee{Epoch: 90, BasisPoints: 100, MaximumFee: 1 << 62}}, true},
		{"no fee, until its authority sets one", token2022.TransferFeeConfig{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			coin, err := sc.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Fee", "FEE", sol.PublicKey{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			m, _ := sc.chain.GetAccount(coin.Mint)
			d := append([]byte(nil), m.Data...)
			if _, _, ok := token2022.FindExtension(d, token2022.ExtensionTransferFeeConfig); ok {
				t.Fatal("the coin's mint has a transfer fee already")
			}
			d = binary.LittleEndian.AppendUint16(d, token2022.ExtensionTransferFeeConfig)
			d = binary.LittleEndian.AppendUint16(d, token2022.TransferFeeConfigSize)
			m.Data = append(d, tc.fee.Encode()...)
			sc.chain.SetAccount(coin.Mint, m)
			_, err = sc.signer.Sign(ctx, sc.job("eu-fee-"+tc.name, coin.Mint, wire.Buy, "SOL", wire.Leg{Wallet: w.String(), Amount: "0.1"}))
			if !tc.refused {
				if err != nil {
					t.Fatalf("a mint whose fee is zero refused: %v", err)
				}
				// Its fee authority raises the fee: the pool, known to
				// the signer by now, is refused all the same.
				raised := token2022.TransferFeeConfig{Newer: token2022.TransferFee{Epoch: 1, BasisPoints: 500, MaximumFee: 1 << 62}}
				m.Data = append(d, raised.Encode()...)
				sc.chain.SetAccount(coin.Mint, m)
				_, err = sc.signer.Sign(ctx, sc.job("eu-fee-raised", coin.Mint, wire.Buy, "SOL", wire.Leg{Wallet: w.String(), Amount: "0.1"}))
				if e, ok := err.(*apierr.Error); !ok || e.Code != apierr.TokenNotFound || !strings.Contains(e.Message, "transfer fee") {
					t.Fatalf("a fee raised after the pool was traded: %v, want TOKEN_NOT_FOUND", err)
				}
				return
			}
			e, ok := err.(*apierr.Error)
			if !ok || e.Code != apierr.TokenNotFound || e.Details != coin.Mint.String() || !strings.Contains(e.Message, "transfer fee") {
				t.Fatalf("got %v, want TOKEN_NOT_FOUND naming the coin and its transfer fee", err)
			}
		})
	}
}

// TestTransferFeeDBCMintNotTraded: so is a Meteora DBC pool whose coin's
// mint charges one (the program makes its mints without; Meteora's SDK
// does not quote one).
func TestTransferFeeDBCMintNotTraded(t *testing.T) {
	sc := newLaunchpadScene(t, 10_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := sc.signer.Sign(ctx, sc.job("eu-dbc-before", sc.bags.Mint.String(), wire.Buy, "0.1")); err != nil {
		t.Fatalf("before the fee: %v", err)
	}
	m, _ := sc.chain.GetAccount(sc.bags.Mint)
	d := append([]byte(nil), m.Data...)
	if len(d) == token2022.MintSize {
		// An SPL layout made Token-2022's: padded to the account type.
		d = append(d, make([]byte, token2022.AccountTypeOffset-token2022.MintSize)...)
		d = append(d, token2022.AccountTypeMint)
		m.Owner = token2022.ProgramID
	}
	d = binary.LittleEndian.AppendUint16(d, token2022.ExtensionTransferFeeConfig)
	d = binary.LittleEndian.AppendUint16(d, token2022.TransferFeeConfigSize)
	fee := token2022.TransferFeeConfig{Older: token2022.TransferFee{BasisPoints: 300, MaximumFee: 1 << 62}}
	m.Data = append(d, fee.Encode()...)
	sc.chain.SetAccount(sc.bags.Mint, m)
	_, err := sc.signer.Sign(ctx, sc.job("eu-dbc-fee", sc.bags.Mint.String(), wire.Buy, "0.1"))
	e, ok := err.(*apierr.Error)
	if !ok || e.Code != apierr.TokenNotFound || !strings.Contains(e.Message, "transfer fee") {
		t.Fatalf("got %v, want TOKEN_NOT_FOUND naming the transfer fee", err)
	}
}

// TestLaunchLabSaleTheFeeSwallows: a sale of a LaunchLab coin whose
// transfer fee withholds every unit sold (one unit at any fee) is refused
// saying so, not as a curve too poor to buy the tokens back.
func TestLaunchLabSaleTheFeeSwallows(t *testing.T) {
	sc := newLaunchpadScene(t, 5_000_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fee := token2022.TransferFee{MaximumFee: 1 << 62, BasisPoints: 100}
	coin, err := sc.chain.CreateLetsBonkCoinWithTransferFee(sc.creator.PublicKey(), token2022.TransferFeeConfig{Older: fee, Newer: fee})
	if err != nil {
		t.Fatal(err)
	}
	buy := sc.job("eu-fee-buy", coin.Mint.String(), wire.Buy, "1")
	buy.Legs[0].Wallet = sc.wallets[1].String()
	land(ctx, t, sc.client, sc.signer, buy)
	if _, err := sc.chain.MintTo(coin.Mint, sc.wallets[0], 1); err != nil {
		t.Fatal(err)
	}
	_, err = sc.signer.Sign(ctx, sc.job("eu-fee-dust", coin.Mint.String(), wire.Sell, "100"))
	e, ok := err.(*apierr.Error)
	if !ok || e.Code != apierr.InvalidRequest || !strings.Contains(e.Message, "transfer fee withholds the whole 1 base units") {
		t.Fatalf("got %v, want INVALID_REQUEST saying the transfer fee takes it all", err)
	}
}
