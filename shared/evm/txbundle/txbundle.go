// Package txbundle is the one encoding of an EVM bundle inside a signed
// transaction's bytes, shared by the EVM signer, which writes it, and the
// broadcaster, which sends the whole bundle whichever of its transactions
// it is given.
package txbundle

import (
	"fmt"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
)

// Prefix starts the bytes (wire.SignedTx.Raw) of a transaction that
// must reach the chain only inside its bundle: Prefix, then the RLP
// list of the bundle's signed transactions in their order. No transaction
// encoding starts with it (a typed transaction starts below 0x80, a legacy
// one at 0xc0 or above). Each transaction of a bundle carries the whole
// bundle, with its own hash as its signature, so that whichever of them the
// broadcaster sends or re-sends, the relay gets all of them or none: a tip
// must never land without its swap. The EVM signer writes it and the broadcaster reads it.
const Prefix byte = 0xbb

// Encode returns the bytes every transaction of a bundle carries.
func Encode(raws [][]byte) ([]byte, error) {
	body, err := rlp.EncodeToBytes(raws)
	if err != nil {
		return nil, fmt.Errorf("encode bundle: %w", err)
	}
	return append([]byte{Prefix}, body...), nil
}

// Decode returns the transactions of bundle bytes; false when raw is
// a single transaction.
func Decode(raw []byte) ([][]byte, bool, error) {
	if len(raw) == 0 || raw[0] != Prefix {
		return nil, false, nil
	}
	var raws [][]byte
	if err := rlp.DecodeBytes(raw[1:], &raws); err != nil {
		return nil, true, fmt.Errorf("decode bundle: %w", err)
	}
	return raws, true, nil
}

// Signed reads a signed transaction's bytes (wire.SignedTx.Raw) whose
// hash is hash: the transaction itself, and when the bytes are a bundle,
// the bundle's transactions in order with it among them (nil otherwise).
func Signed(raw []byte, hash string) ([]*types.Transaction, *types.Transaction, error) {
	raws, bundled, err := Decode(raw)
	if err != nil {
		return nil, nil, err
	}
	if !bundled {
		var tx types.Transaction
		if err := tx.UnmarshalBinary(raw); err != nil {
			return nil, nil, err
		}
		return nil, &tx, nil
	}
	bundle := make([]*types.Transaction, len(raws))
	var own *types.Transaction
	for i, r := range raws {
		bundle[i] = new(types.Transaction)
		if err := bundle[i].UnmarshalBinary(r); err != nil {
			return nil, nil, fmt.Errorf("bundle transaction %d: %w", i, err)
		}
		if bundle[i].Hash().Hex() == hash {
			own = bundle[i]
		}
	}
	if own == nil {
		return nil, nil, fmt.Errorf("bundle of %d transactions without %s", len(raws), hash)
	}
	return bundle, own, nil
}
