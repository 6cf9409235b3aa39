package token2022

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/gagliardetto/solana-go"
)

// mintData returns a Token-2022 mint with the given extensions, in order,
// and room for padding after them.
func mintData(exts ...[]byte) []byte {
	d := make([]byte, AccountTypeOffset+1)
	d[45] = 1 // initialized
	d[AccountTypeOffset] = AccountTypeMint
	for _, e := range exts {
		d = append(d, e...)
	}
	return d
}

func ext(typ uint16, value []byte) []byte {
	b := binary.LittleEndian.AppendUint16(nil, typ)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(value)))
	return append(b, value...)
}

func TestTransferFee(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fee    TransferFee
		amount uint64
		want   uint64
	}{
		{"1% of 10000", TransferFee{BasisPoints: 100, MaximumFee: math.MaxUint64}, 10_000, 100},
		{"rounded up", TransferFee{BasisPoints: 100, MaximumFee: math.MaxUint64}, 10_001, 101},
		{"one unit pays one", TransferFee{BasisPoints: 1, MaximumFee: math.MaxUint64}, 1, 1},
		{"capped", TransferFee{BasisPoints: 500, MaximumFee: 1_000_000}, 1_000_000_000, 1_000_000},
		{"under the cap", TransferFee{BasisPoints: 500, MaximumFee: 1_000_000}, 19_999_999, 1_000_000},
		{"zero rate", TransferFee{MaximumFee: math.MaxUint64}, 1_000_000, 0},
		{"zero amount", TransferFee{BasisPoints: 100, MaximumFee: math.MaxUint64}, 0, 0},
		{"zero cap", TransferFee{BasisPoints: 100}, 1_000_000, 0},
		{"whole amount", TransferFee{BasisPoints: MaxFeeBasisPoints, MaximumFee: math.MaxUint64}, 12_345, 12_345},
		{"largest amount", TransferFee{BasisPoints: 9_999, MaximumFee: math.MaxUint64}, math.MaxUint64, 18_444_899_399_302_180_660},
		{"rate above the whole", TransferFee{BasisPoints: math.MaxUint16, MaximumFee: math.MaxUint64}, math.MaxUint64, math.MaxUint64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.fee.Fee(tc.amount); got != tc.want {
				t.Errorf("fee of %d at %+v is %d, want %d", tc.amount, tc.fee, got, tc.want)
			}
		})
	}
}

func TestTransferFeeConfigAt(t *testing.T) {
	c := TransferFeeConfig{Older: TransferFee{Epoch: 3, BasisPoints: 100}, Newer: TransferFee{Epoch: 10, BasisPoints: 250}}
	for epoch, want := range map[uint64]uint16{0: 100, 9: 100, 10: 250, 11: 250} {
		if got := c.At(epoch).BasisPoints; got != want {
			t.Errorf("epoch %d: %d basis points, want %d", epoch, got, want)
		}
	}
}

func TestMintTransferFeeConfig(t *testing.T) {
	cfg := TransferFeeConfig{
		ConfigAuthority: solana.SysVarClockPubkey, WithheldAmount: 77,
		Older: TransferFee{Epoch: 1, MaximumFee: 2, BasisPoints: 3},
		Newer: TransferFee{Epoch: 4, MaximumFee: 5, BasisPoints: 6},
	}
	value := cfg.Encode()
	if len(value) != TransferFeeConfigSize {
		t.Fatalf("encoded %d bytes", len(value))
	}
	pointer := ext(ExtensionMetadataPointer, make([]byte, 64))
	token := mintData(ext(ExtensionTransferFeeAmount, make([]byte, TransferFeeAmountSize)))
	token[AccountTypeOffset] = AccountTypeAccount
	for _, tc := range []struct {
		name    string
		data    []byte
		found   bool
		wantErr error
	}{
		{"SPL Token mint", make([]byte, MintSize), false, nil},
		{"fee after another extension", mintData(pointer, ext(ExtensionTransferFeeConfig, value)), true, nil},
		{"fee first, padding after", append(mintData(ext(ExtensionTransferFeeConfig, value)), make([]byte, 12)...), true, nil},
		{"other extensions only", mintData(pointer), false, nil},
		{"fee after the padding", mintData(make([]byte, 4), ext(ExtensionTransferFeeConfig, value)), false, nil},
		{"cut short", mintData(ext(ExtensionTransferFeeConfig, value))[:AccountTypeOffset+1+4+50], false, nil},
		{"a token account", token, false, ErrNotMint},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, found, err := MintTransferFeeConfig(tc.data)
			if !errors.Is(err, tc.wantErr) || found != tc.found {
				t.Fatalf("found %v, err %v; want %v, %v", found, err, tc.found, tc.wantErr)
			}
			if found && got != cfg {
				t.Errorf("decoded %+v, want %+v", got, cfg)
			}
		})
	}
	// A value of the wrong length is not a TransferFeeConfig.
	if _, _, err := MintTransferFeeConfig(mintData(ext(ExtensionTransferFeeConfig, value[:100]))); err == nil {
		t.Error("a 100-byte TransferFeeConfig decoded")
	}
}
