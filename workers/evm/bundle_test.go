package evm

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/tradeapi/tradeapi/shared/evm/txbundle"
)

// TestBundleFormat: the bytes a bundled transaction carries are the
// broadcaster's format (the same prefix, then the RLP list of the
// transactions in order), and a single transaction of either encoding is
// never taken for a bundle.
func TestBundleFormat(t *testing.T) {
	key, _ := crypto.GenerateKey()
	signer := types.LatestSignerForChainID(big.NewInt(1))
	typed := types.MustSignNewTx(key, signer, &types.DynamicFeeTx{ChainID: big.NewInt(1), Nonce: 7, Gas: 21_000,
		GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(2), Value: big.NewInt(3)})
	legacy := types.MustSignNewTx(key, signer, &types.LegacyTx{Nonce: 8, Gas: 21_000, GasPrice: big.NewInt(2)})
	rawTyped, _ := typed.MarshalBinary()
	rawLegacy, _ := legacy.MarshalBinary()
	enc, err := txbundle.Encode([][]byte{rawTyped, rawLegacy})
	if err != nil {
		t.Fatal(err)
	}
	got, bundled, err := txbundle.Decode(enc)
	if err != nil || !bundled || len(got) != 2 || !bytes.Equal(got[0], rawTyped) || !bytes.Equal(got[1], rawLegacy) {
		t.Fatalf("decode: %d transactions, bundled %v, %v", len(got), bundled, err)
	}
	for name, raw := range map[string][]byte{"typed": rawTyped, "legacy": rawLegacy} {
		if _, bundled, err := txbundle.Decode(raw); bundled || err != nil {
			t.Errorf("a %s transaction read as a bundle (%v)", name, err)
		}
	}
}
