package evm

import (
	"fmt"

	"github.com/ethereum/go-ethereum/rlp"
)

// BundlePrefix starts the bytes (wire.SignedTx.Raw) of a transaction that
// must reach the chain only inside its bundle: BundlePrefix, then the RLP
// list of the bundle's signed transactions in their order. No transaction
// encoding starts with it (a typed transaction starts below 0x80, a legacy
// one at 0xc0 or above). Each transaction of a bundle carries the whole
// bundle, with its own hash as its signature, so that whichever of them the
// broadcaster sends or re-sends, the relay gets all of them or none: a tip
// must never land without its swap. broadcaster.EVM reads the same format.
const BundlePrefix byte = 0xbb

// encodeBundle returns the bytes every transaction of a bundle carries.
func encodeBundle(raws [][]byte) ([]byte, error) {
	body, err := rlp.EncodeToBytes(raws)
	if err != nil {
		return nil, fmt.Errorf("encode bundle: %w", err)
	}
	return append([]byte{BundlePrefix}, body...), nil
}

// decodeBundle returns the transactions of bundle bytes; false when raw is
// a single transaction.
func decodeBundle(raw []byte) ([][]byte, bool, error) {
	if len(raw) == 0 || raw[0] != BundlePrefix {
		return nil, false, nil
	}
	var raws [][]byte
	if err := rlp.DecodeBytes(raw[1:], &raws); err != nil {
		return nil, true, fmt.Errorf("decode bundle: %w", err)
	}
	return raws, true, nil
}
