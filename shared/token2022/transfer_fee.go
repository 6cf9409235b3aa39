package token2022

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/gagliardetto/solana-go"
)

// Sizes of the transfer fee extensions' values.
const (
	// TransferFeeConfigSize is a mint's TransferFeeConfig: two optional
	// authorities, the withheld amount and two fee schedules.
	TransferFeeConfigSize = 108
	// TransferFeeAmountSize is a token account's TransferFeeAmount: the
	// fees withheld in the account, which every account of a mint with a
	// TransferFeeConfig carries.
	TransferFeeAmountSize = 8
)

// Sizes of a wallet's associated token account of a Token-2022 mint: the
// Associated Token Account program creates it with the ImmutableOwner
// extension, and Token-2022 adds TransferFeeAmount for a mint with a
// TransferFeeConfig.
const (
	AssociatedAccountSize                = AccountSize + 1 + ExtensionHeaderSize
	AssociatedAccountWithTransferFeeSize = AssociatedAccountSize + ExtensionHeaderSize + TransferFeeAmountSize
)

// MaxFeeBasisPoints is the highest rate a transfer fee may have: the whole
// amount.
const MaxFeeBasisPoints = 10_000

// ErrNotMint is returned for Token-2022 data whose account type is a
// token account's.
var ErrNotMint = errors.New("token2022: not a mint")

// TransferFee is one fee schedule of a TransferFeeConfig: from Epoch on, a
// transfer pays BasisPoints of its amount, at most MaximumFee.
type TransferFee struct {
	Epoch       uint64
	MaximumFee  uint64
	BasisPoints uint16
}

// Fee returns what a transfer of amount pays: amount*BasisPoints/10000
// rounded up, at most MaximumFee, as spl-token-2022's calculate_fee. The
// zero TransferFee charges nothing. A rate above MaxFeeBasisPoints, which
// Token-2022 refuses to set, is taken as MaxFeeBasisPoints.
func (f TransferFee) Fee(amount uint64) uint64 {
	if f.BasisPoints == 0 || amount == 0 {
		return 0
	}
	hi, lo := bits.Mul64(amount, uint64(min(f.BasisPoints, MaxFeeBasisPoints)))
	// The rate is at most the whole, so the quotient fits a u64 and hi is
	// below the divisor.
	q, r := bits.Div64(hi, lo, MaxFeeBasisPoints)
	if r != 0 {
		q++
	}
	return min(q, f.MaximumFee)
}

// TransferFeeConfig is a mint's TransferFeeConfig extension: the fee every
// transfer of the mint's tokens pays, withheld in the destination account.
type TransferFeeConfig struct {
	// ConfigAuthority may set a new fee; WithdrawWithheldAuthority may
	// collect the withheld fees. The zero key is none.
	ConfigAuthority, WithdrawWithheldAuthority solana.PublicKey
	// WithheldAmount is what was harvested from accounts into the mint and
	// not withdrawn yet.
	WithheldAmount uint64
	// Older is in force before Newer.Epoch, Newer from it on: a new fee
	// takes effect two epochs after it is set.
	Older, Newer TransferFee
}

// At returns the fee schedule in force in epoch, as spl-token-2022's
// get_epoch_fee: Newer from its epoch on, Older before.
func (c *TransferFeeConfig) At(epoch uint64) TransferFee {
	if epoch >= c.Newer.Epoch {
		return c.Newer
	}
	return c.Older
}

// Decode reads the extension's value.
func (c *TransferFeeConfig) Decode(b []byte) error {
	if len(b) != TransferFeeConfigSize {
		return fmt.Errorf("token2022: TransferFeeConfig of %d bytes, want %d", len(b), TransferFeeConfigSize)
	}
	c.ConfigAuthority = solana.PublicKeyFromBytes(b[0:32])
	c.WithdrawWithheldAuthority = solana.PublicKeyFromBytes(b[32:64])
	c.WithheldAmount = binary.LittleEndian.Uint64(b[64:])
	for i, f := range []*TransferFee{&c.Older, &c.Newer} {
		v := b[72+18*i:]
		f.Epoch, f.MaximumFee, f.BasisPoints = binary.LittleEndian.Uint64(v), binary.LittleEndian.Uint64(v[8:]), binary.LittleEndian.Uint16(v[16:])
	}
	return nil
}

// Encode returns the extension's value.
func (c *TransferFeeConfig) Encode() []byte {
	b := make([]byte, 0, TransferFeeConfigSize)
	b = append(b, c.ConfigAuthority[:]...)
	b = append(b, c.WithdrawWithheldAuthority[:]...)
	b = binary.LittleEndian.AppendUint64(b, c.WithheldAmount)
	for _, f := range []TransferFee{c.Older, c.Newer} {
		b = binary.LittleEndian.AppendUint64(b, f.Epoch)
		b = binary.LittleEndian.AppendUint64(b, f.MaximumFee)
		b = binary.LittleEndian.AppendUint16(b, f.BasisPoints)
	}
	return b
}

// MintTransferFeeConfig reads the TransferFeeConfig of a mint from its
// account data. It is false for a mint without one: an SPL Token mint, or
// a Token-2022 mint of the base size or without the extension.
func MintTransferFeeConfig(data []byte) (TransferFeeConfig, bool, error) {
	if len(data) <= AccountTypeOffset {
		return TransferFeeConfig{}, false, nil
	}
	if data[AccountTypeOffset] == AccountTypeAccount {
		return TransferFeeConfig{}, false, fmt.Errorf("%w: account type %d", ErrNotMint, data[AccountTypeOffset])
	}
	off, n, ok := FindExtension(data, ExtensionTransferFeeConfig)
	if !ok {
		return TransferFeeConfig{}, false, nil
	}
	var c TransferFeeConfig
	if err := c.Decode(data[off : off+n]); err != nil {
		return TransferFeeConfig{}, false, err
	}
	return c, true, nil
}

// Charges reports whether either of the config's schedules takes a fee:
// the one in force, or the other (the newer one from its epoch on, or the
// older one before it). A mint whose config says so may deliver less than
// a transfer sends; read without the epoch, a schedule past its time
// counts too.
func (c *TransferFeeConfig) Charges() bool {
	return c.Older.BasisPoints != 0 && c.Older.MaximumFee != 0 || c.Newer.BasisPoints != 0 && c.Newer.MaximumFee != 0
}
