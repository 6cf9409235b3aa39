package solana

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"math"
	"math/bits"
	"slices"

	sol "github.com/gagliardetto/solana-go"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/programs/system"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// maxTxSize is the largest serialized transaction the network accepts.
const maxTxSize = 1232

// ataCreateIdempotent is the Associated Token Account program's
// CreateIdempotent instruction index.
const ataCreateIdempotent = 1

// signLeg compiles l's instructions into a transaction on blockhash and
// signs it with the wallet's key; an anti_mev order's transactions are
// marked private.
func (s *Signer) signLeg(ctx context.Context, ixs []sol.Instruction, o *order, l *leg, blockhash sol.Hash, lastValid uint64) (wire.SignedTx, error) {
	tx := &sol.Transaction{Message: compileMessage(ixs, l.wallet, blockhash)}
	msg, err := tx.Message.MarshalBinary()
	if err != nil {
		return wire.SignedTx{}, fmt.Errorf("encode message: %w", err)
	}
	key, err := s.keys.PrivateKey(ctx, wire.FamilySol, l.address)
	if err != nil {
		return wire.SignedTx{}, fmt.Errorf("get key: %w", err)
	}
	// A keypair is seed then public key; checking the half that names the
	// wallet is cheap and keeps a wrong key from signing. ed25519.Sign is
	// what solana-go's PrivateKey.Sign calls, without re-deriving the public
	// key on every signature.
	if len(key) != ed25519.PrivateKeySize || !bytes.Equal(key[32:], l.wallet[:]) {
		return wire.SignedTx{}, apierr.Wrap(fmt.Errorf("key source returned a key that is not wallet %s's", l.wallet), "internal error")
	}
	sig := sol.SignatureFromBytes(ed25519.Sign(ed25519.PrivateKey(key), msg))
	tx.Signatures = []sol.Signature{sig}
	raw, err := encodeSigned(tx, msg)
	if err != nil {
		return wire.SignedTx{}, fmt.Errorf("encode transaction: %w", err)
	}
	if len(raw) > maxTxSize {
		return wire.SignedTx{}, apierr.Wrap(fmt.Errorf("transaction is %d bytes, the limit is %d", len(raw), maxTxSize), "internal error")
	}
	stx := wire.SignedTx{
		Wallet:               l.address,
		Private:              o.private,
		Signature:            sig.String(),
		Raw:                  raw,
		LastValidBlockHeight: lastValid,
	}
	if l.closes {
		stx.Closes = l.ata.String()
	}
	return stx, nil
}

// encodeSigned returns the wire form of tx, whose message encodes to msg:
// what tx.MarshalBinary returns, without encoding the message a second
// time when the wallet's is the one signature (a compact-u16 count of 1 is
// the byte 1).
func encodeSigned(tx *sol.Transaction, msg []byte) ([]byte, error) {
	if tx.Message.Header.NumRequiredSignatures != 1 || len(tx.Signatures) != 1 {
		return tx.MarshalBinary()
	}
	raw := make([]byte, 0, 1+sol.SignatureLength+len(msg))
	raw = append(raw, 1)
	raw = append(raw, tx.Signatures[0][:]...)
	return append(raw, msg...), nil
}

// instructions returns l's instructions: the compute budget, on a buy the
// idempotent creation of the wallet's token account, the pump.fun
// instruction, on a sell of the whole holding the close of the wallet's
// token account (its rent back to the wallet), and the processor tip.
func (s *Signer) instructions(m *market, o *order, l *leg) []sol.Instruction {
	ixs := s.budget(o, 5)
	p := s.tradeParams(m, o, l)
	switch o.side {
	case wire.Buy:
		// Always sent: idempotent, and the account may be closed between our
		// read and the transaction landing.
		ixs = append(ixs, createATAIdempotent(l.wallet, l.ata, l.wallet, o.mint, m.tokenProgram))
		a := s.buyAccounts(m, p, l)
		// buy_exact_sol_in, not buy: a Buy leg's amount is the SOL to spend,
		// fees included, which is exactly spendable_sol_in. buy fixes the
		// tokens instead and may spend up to max_sol_cost, more than the
		// amount asked as soon as the slippage allowance is used. Here
		// slippage bounds the tokens received (min_tokens_out).
		ixs = append(ixs, pumpfun.BuyExactSolInInstruction(&a, l.buy))
	case wire.Sell:
		a := s.sellAccounts(m, p, l)
		ixs = append(ixs, pumpfun.SellInstruction(&a, l.sell))
		if l.closes {
			ixs = append(ixs, closeAccount(l.ata, l.wallet, m.tokenProgram))
		}
	}
	return s.tip(ixs, o, l)
}

// budget starts a transaction's instructions: the compute-unit limit, and
// the price when there is one.
func (s *Signer) budget(o *order, capacity int) []sol.Instruction {
	ixs := make([]sol.Instruction, 0, capacity)
	ixs = append(ixs, computebudget.NewSetComputeUnitLimitInstruction(s.cfg.ComputeUnitLimit).Build())
	if o.cuPrice > 0 {
		ixs = append(ixs, computebudget.NewSetComputeUnitPriceInstruction(o.cuPrice).Build())
	}
	return ixs
}

// tip ends a transaction's instructions with the processor tip to a random
// tip account of the sender, when there is one.
func (s *Signer) tip(ixs []sol.Instruction, o *order, l *leg) []sol.Instruction {
	if o.tip > 0 {
		ixs = append(ixs, system.NewTransferInstruction(o.tip, l.wallet, pickKey(s.cfg.TipAccounts)).Build())
	}
	return ixs
}

func (s *Signer) tradeParams(m *market, o *order, l *leg) pumpfun.TradeParams {
	feeRecipients := m.global.FeeRecipientCandidates(m.curve.IsMayhemMode)
	if len(feeRecipients) == 0 {
		feeRecipients = pumpfun.StaticFeeRecipients
	}
	buyback := m.global.BuybackFeeRecipientCandidates()
	if len(buyback) == 0 {
		buyback = pumpfun.StaticBuybackFeeRecipients
	}
	return pumpfun.TradeParams{
		Mint:                o.mint,
		User:                l.wallet,
		Creator:             m.curve.Creator,
		TokenProgram:        m.tokenProgram,
		FeeRecipient:        pickKey(feeRecipients),
		BuybackFeeRecipient: pickKey(buyback),
	}
}

// buyAccounts is pumpfun.NewBuyAccounts with the derived addresses taken
// from the cache.
func (s *Signer) buyAccounts(m *market, p pumpfun.TradeParams, l *leg) pumpfun.BuyAccounts {
	return pumpfun.BuyAccounts{
		Global:                  pumpfun.GlobalPDA,
		FeeRecipient:            p.FeeRecipient,
		Mint:                    p.Mint,
		BondingCurve:            m.curveAddr,
		AssociatedBondingCurve:  s.pdas.ata(m.curveAddr, p.Mint, p.TokenProgram),
		AssociatedUser:          l.ata,
		User:                    p.User,
		SystemProgram:           pumpfun.SystemProgramID,
		TokenProgram:            p.TokenProgram,
		CreatorVault:            m.creatorVault,
		EventAuthority:          pumpfun.EventAuthorityPDA,
		Program:                 pumpfun.ProgramID,
		GlobalVolumeAccumulator: pumpfun.GlobalVolumeAccumulatorPDA,
		UserVolumeAccumulator:   l.uva,
		FeeConfig:               pumpfun.FeeConfigPDA,
		FeeProgram:              pumpfun.FeeProgramID,
		BondingCurveV2:          s.pdas.bondingCurveV2(p.Mint),
		BuybackFeeRecipient:     p.BuybackFeeRecipient,
	}
}

// sellAccounts is pumpfun.NewSellAccounts with the derived addresses taken
// from the cache.
func (s *Signer) sellAccounts(m *market, p pumpfun.TradeParams, l *leg) pumpfun.SellAccounts {
	a := pumpfun.SellAccounts{
		Global:                 pumpfun.GlobalPDA,
		FeeRecipient:           p.FeeRecipient,
		Mint:                   p.Mint,
		BondingCurve:           m.curveAddr,
		AssociatedBondingCurve: s.pdas.ata(m.curveAddr, p.Mint, p.TokenProgram),
		AssociatedUser:         l.ata,
		User:                   p.User,
		SystemProgram:          pumpfun.SystemProgramID,
		CreatorVault:           m.creatorVault,
		TokenProgram:           p.TokenProgram,
		EventAuthority:         pumpfun.EventAuthorityPDA,
		Program:                pumpfun.ProgramID,
		FeeConfig:              pumpfun.FeeConfigPDA,
		FeeProgram:             pumpfun.FeeProgramID,
		Cashback:               m.curve.IsCashbackCoin,
		BondingCurveV2:         s.pdas.bondingCurveV2(p.Mint),
		BuybackFeeRecipient:    p.BuybackFeeRecipient,
	}
	if a.Cashback {
		a.UserVolumeAccumulator = l.uva
	}
	return a
}

// createATAIdempotent returns the Associated Token Account program's
// CreateIdempotent. solana-go's associated-token-account package builds
// only the non-idempotent Create and only for SPL Token, so this one
// instruction is written out.
func createATAIdempotent(payer, ata, owner, mint, tokenProgram sol.PublicKey) sol.Instruction {
	return sol.NewInstruction(pumpfun.AssociatedTokenProgramID, sol.AccountMetaSlice{
		sol.Meta(payer).WRITE().SIGNER(),
		sol.Meta(ata).WRITE(),
		sol.Meta(owner),
		sol.Meta(mint),
		sol.Meta(pumpfun.SystemProgramID),
		sol.Meta(tokenProgram),
	}, []byte{ataCreateIdempotent})
}

// priorityFee is what a compute-unit price costs over limit units:
// ceil(limit * price / 1e6) lamports, as the runtime charges it.
func priorityFee(price uint64, limit uint32) uint64 {
	hi, lo := bits.Mul64(price, uint64(limit))
	if hi >= 1_000_000 {
		return math.MaxUint64
	}
	q, r := bits.Div64(hi, lo, 1_000_000)
	if r != 0 {
		q++
	}
	return q
}

// microLamportsPerCU spreads a priority fee in lamports over limit compute
// units: floor(fee * 1e6 / limit), so the fee charged never exceeds it.
func microLamportsPerCU(fee uint64, limit uint32) uint64 {
	if fee == 0 || limit == 0 {
		return 0
	}
	hi, lo := bits.Mul64(fee, 1_000_000)
	if hi >= uint64(limit) {
		return math.MaxUint64
	}
	q, _ := bits.Div64(hi, lo, uint64(limit))
	return q
}

// compileMessage compiles instructions into a legacy message paid by payer,
// exactly as sol.NewTransaction does without address tables: accounts in
// instruction order then the program ids, stably sorted signers first and
// writable first, merged by key (writable if any use is), the payer moved to
// the front. sol.NewTransaction keys its maps by the base58 string of every
// account, which costs more than signing; this keys them by the 32 bytes.
// TestCompileMessageMatchesSolanaGo holds the two to the same bytes.
func compileMessage(instructions []sol.Instruction, payer sol.PublicKey, blockhash sol.Hash) sol.Message {
	n := 0
	for _, ix := range instructions {
		n += len(ix.Accounts()) + 1
	}
	metas := make([]sol.AccountMeta, 0, n)
	for _, ix := range instructions {
		for _, a := range ix.Accounts() {
			metas = append(metas, *a)
		}
	}
	seenProgram := make(map[sol.PublicKey]bool, len(instructions))
	for _, ix := range instructions {
		if p := ix.ProgramID(); !seenProgram[p] {
			seenProgram[p] = true
			metas = append(metas, sol.AccountMeta{PublicKey: p})
		}
	}
	rank := func(a sol.AccountMeta) int {
		r := 0
		if !a.IsSigner {
			r += 2
		}
		if !a.IsWritable {
			r++
		}
		return r
	}
	slices.SortStableFunc(metas, func(a, b sol.AccountMeta) int { return rank(a) - rank(b) })

	index := make(map[sol.PublicKey]int, len(metas))
	uniq := make([]sol.AccountMeta, 0, len(metas))
	for _, a := range metas {
		if i, ok := index[a.PublicKey]; ok {
			uniq[i].IsWritable = uniq[i].IsWritable || a.IsWritable
			continue
		}
		index[a.PublicKey] = len(uniq)
		uniq = append(uniq, a)
	}
	keys := make([]sol.AccountMeta, 0, len(uniq)+1)
	keys = append(keys, sol.AccountMeta{PublicKey: payer, IsSigner: true, IsWritable: true})
	for _, a := range uniq {
		if a.PublicKey != payer {
			keys = append(keys, a)
		}
	}

	msg := sol.Message{RecentBlockhash: blockhash, AccountKeys: make(sol.PublicKeySlice, len(keys))}
	clear(index)
	for i, a := range keys {
		msg.AccountKeys[i] = a.PublicKey
		index[a.PublicKey] = i
		switch {
		case a.IsSigner:
			msg.Header.NumRequiredSignatures++
			if !a.IsWritable {
				msg.Header.NumReadonlySignedAccounts++
			}
		case !a.IsWritable:
			msg.Header.NumReadonlyUnsignedAccounts++
		}
	}
	msg.Instructions = make([]sol.CompiledInstruction, len(instructions))
	for i, ix := range instructions {
		accounts := ix.Accounts()
		idx := make([]uint16, len(accounts))
		for j, a := range accounts {
			idx[j] = uint16(index[a.PublicKey])
		}
		data, _ := ix.Data()
		msg.Instructions[i] = sol.CompiledInstruction{
			ProgramIDIndex: uint16(index[ix.ProgramID()]),
			Accounts:       idx,
			Data:           data,
		}
	}
	return msg
}
