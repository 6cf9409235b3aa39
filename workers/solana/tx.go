package solana

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"time"

	sol "github.com/gagliardetto/solana-go"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// maxTxSize is the largest serialized transaction the network accepts.
const maxTxSize = 1232

// ataCreateIdempotent is the Associated Token Account program's
// CreateIdempotent instruction index.
const ataCreateIdempotent = 1

// signLegs signs one transaction for every leg of o that is not skipped,
// on build's instructions for it (first is set for the first of them), and
// returns them in leg order. The legs are built, compiled and signed in
// parallel, one goroutine per processor at most: an ed25519 signature is
// most of a leg's cost, and the legs share nothing but what was read and
// planned before, which build only reads. Then every signature is claimed
// for the order at once (see claimLegs); a leg another order holds is
// signed again. Any leg's error fails the whole order: the first in leg
// order is returned, and no transaction of the order leaves this function.
func (s *Signer) signLegs(ctx context.Context, orderID string, o *order, blockhash sol.Hash, lastValid uint64, build func(l *leg, first bool) []sol.Instruction) ([]wire.SignedTx, error) {
	legs := make([]*leg, 0, len(o.legs))
	for i := range o.legs {
		if l := &o.legs[i]; l.skip == "" {
			legs = append(legs, l)
		}
	}
	txs := make([]wire.SignedTx, len(legs))
	errs := make([]error, len(legs))
	todo := make([]int, len(legs))
	for i := range todo {
		todo[i] = i
	}
	for len(todo) > 0 {
		guard.Many(len(todo), runtime.GOMAXPROCS(0), func(k int) {
			i := todo[k]
			txs[i], errs[i] = s.signLeg(ctx, build(legs[i], i == 0), o, legs[i], blockhash, lastValid)
		})
		for i, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("sign order %s for wallet %s: %w", orderID, legs[i].wallet, err)
			}
		}
		todo = s.claimLegs(ctx, orderID, legs, txs, todo)
	}
	return txs, nil
}

// claimLegs claims the signatures of the legs todo names for orderID and
// returns those to sign again, each a compute unit lower. Two orders with
// the same legs on one blockhash sign the same bytes, which the chain takes
// once, so that both would claim one trade: a signature another order
// signed lately, in this process (signedSet) or in another worker's (the
// signatures bucket), has its leg signed again. The same order signed
// again signs the same bytes, taken once. The bucket's claims are sent
// together, so that a ten-wallet order waits for one round trip, not ten.
func (s *Signer) claimLegs(ctx context.Context, orderID string, legs []*leg, txs []wire.SignedTx, todo []int) []int {
	var again, shared []int
	for _, i := range todo {
		switch {
		case legs[i].bump >= maxBumps:
		case s.signed.claim(txs[i].Signature, orderID, s.now()):
			shared = append(shared, i)
		default:
			again = append(again, i)
		}
	}
	held := make([]bool, len(shared))
	claim := func(k int) {
		i := shared[k]
		holder, ok := s.claimShared(ctx, txs[i].Signature, orderID)
		if !ok {
			// Another worker's order holds it: so noted here too.
			s.signed.set(txs[i].Signature, holder, s.now())
			held[k] = true
		}
	}
	// Each claim waits on the bus, not on a processor: one goroutine each.
	guard.Many(len(shared), len(shared), claim)
	for k, i := range shared {
		if held[k] {
			again = append(again, i)
		}
	}
	for _, i := range again {
		legs[i].bump++
	}
	return again
}

// signLeg compiles l's instructions into a transaction on blockhash and
// signs it with the wallet's key; an anti_mev order's transactions are
// marked private.
func (s *Signer) signLeg(ctx context.Context, ixs []sol.Instruction, o *order, l *leg, blockhash sol.Hash, lastValid uint64) (wire.SignedTx, error) {
	msg := compileMessage(ixs, l.wallet, blockhash)
	// The wallet is the one signer of a swap; a message asking for another
	// signature could never land with the wallet's alone.
	if msg.Header.NumRequiredSignatures != 1 {
		return wire.SignedTx{}, apierr.Wrap(fmt.Errorf("transaction needs %d signatures, the wallet's is the only one", msg.Header.NumRequiredSignatures), "internal error")
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
	data, err := msg.MarshalBinary()
	if err != nil {
		return wire.SignedTx{}, fmt.Errorf("encode message: %w", err)
	}
	sig := sol.SignatureFromBytes(ed25519.Sign(ed25519.PrivateKey(key), data))
	tx := sol.Transaction{Signatures: []sol.Signature{sig}, Message: msg}
	raw, err := tx.MarshalBinary()
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
		FeeLamports:          txFee(1, o.cuPrice, s.cuLimit(l)),
	}
	if l.closes {
		stx.Closes = l.ata.String()
	}
	return stx, nil
}

// instructions returns l's instructions: the compute budget, on a buy the
// idempotent creation of the wallet's token account, the pump.fun
// instruction, on a sell of the whole holding the close of the wallet's
// token account (its rent back to the wallet), and the processor tip.
func (s *Signer) instructions(m *market, o *order, l *leg) []sol.Instruction {
	ixs := s.budget(o, l, 5)
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
func (s *Signer) budget(o *order, l *leg, capacity int) []sol.Instruction {
	ixs := make([]sol.Instruction, 0, capacity)
	ixs = append(ixs, computebudget.NewSetComputeUnitLimitInstruction(s.cuLimit(l)).Build())
	if o.cuPrice > 0 {
		ixs = append(ixs, computebudget.NewSetComputeUnitPriceInstruction(o.cuPrice).Build())
	}
	return ixs
}

// maxBumps is how many times a leg is signed again for a signature another
// order has.
const maxBumps = 16

// cuLimit is the compute-unit limit of l's transaction: the configured
// one, a unit lower for each time the leg was signed again because another
// order had signed the same bytes (see signLegs). A unit changes the fee by
// less than a lamport.
func (s *Signer) cuLimit(l *leg) uint32 {
	return s.cfg.ComputeUnitLimit - min(l.bump, s.cfg.ComputeUnitLimit/2)
}

// claimShared records in the signatures bucket that orderID signed sig,
// and reports whether no other order had; when one had, it returns that
// order. The worker processes of the chain share the bucket (signedSet is
// one process's). A bucket that does not answer lets the leg go, with a
// warning: two orders meet so only with the same legs on one blockhash in
// two processes at that very moment.
func (s *Signer) claimShared(ctx context.Context, sig, orderID string) (holder string, ok bool) {
	if s.claims == nil {
		return "", true
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err := s.claims.Create(ctx, sig, []byte(orderID))
	if err == nil {
		return "", true
	}
	if bus.Conflict(err) {
		e, gerr := s.claims.Get(ctx, sig)
		if gerr == nil {
			return string(e.Value()), string(e.Value()) == orderID
		}
		if errors.Is(gerr, jetstream.ErrKeyNotFound) {
			return "", true // expired meanwhile: the chain takes the transaction no more
		}
		err = gerr
	}
	s.log.Warn("claim a signature across workers", "order_id", orderID, "err", err)
	return "", true
}

// signedSet remembers which order signed each transaction lately: long
// enough for a blockhash to expire, bounded.
type signedSet struct {
	mu sync.Mutex
	m  map[string]signedBy
}

type signedBy struct {
	order string
	at    time.Time
}

const (
	signedKeep = 2 * time.Minute
	signedMax  = 200_000
)

// set records sig as order's, whatever held it.
func (ss *signedSet) set(sig, order string, now time.Time) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.m[sig] = signedBy{order: order, at: now}
}

// claim records sig as order's and reports whether no other order signed
// it lately.
func (ss *signedSet) claim(sig, order string, now time.Time) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.m == nil {
		ss.m = make(map[string]signedBy)
	}
	if b, ok := ss.m[sig]; ok && b.order != order && now.Sub(b.at) < signedKeep {
		return false
	}
	if len(ss.m) >= signedMax {
		for k, b := range ss.m {
			if now.Sub(b.at) >= signedKeep {
				delete(ss.m, k)
			}
		}
		if len(ss.m) >= signedMax {
			ss.m = make(map[string]signedBy)
		}
	}
	ss.m[sig] = signedBy{order: order, at: now}
	return true
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
// account, which costs more than signing; a transaction names a few dozen
// accounts at most, so this finds them by a linear scan over the first
// eight bytes of each key, and sorts by taking the four ranks in turn.
// TestCompileMessageMatchesSolanaGo and its random variant hold the two to
// the same bytes.
func compileMessage(instructions []sol.Instruction, payer sol.PublicKey, blockhash sol.Hash) sol.Message {
	nAccounts := 0
	for _, ix := range instructions {
		nAccounts += len(ix.Accounts())
	}
	metas := make([]sol.AccountMeta, 0, nAccounts+len(instructions))
	for _, ix := range instructions {
		for _, a := range ix.Accounts() {
			metas = append(metas, *a)
		}
	}
	programsAt := len(metas)
	for _, ix := range instructions {
		p := ix.ProgramID()
		if !slices.ContainsFunc(metas[programsAt:], func(a sol.AccountMeta) bool { return a.PublicKey == p }) {
			metas = append(metas, sol.AccountMeta{PublicKey: p})
		}
	}

	// The payer leads, whatever its uses; every other key follows at its
	// first use in the stable order of ranks (signer and writable, signer,
	// writable, neither), writable if any of its uses is.
	set := keySet{prefixes: make([]uint64, 0, len(metas)+1), keys: make([]sol.AccountMeta, 0, len(metas)+1)}
	set.add(sol.AccountMeta{PublicKey: payer, IsSigner: true, IsWritable: true})
	for rank := range 4 {
		signer, writable := rank < 2, rank%2 == 0
		for _, a := range metas {
			if a.IsSigner != signer || a.IsWritable != writable {
				continue
			}
			if i := set.find(a.PublicKey); i > 0 {
				set.keys[i].IsWritable = set.keys[i].IsWritable || a.IsWritable
			} else if i < 0 {
				set.add(a)
			}
		}
	}

	msg := sol.Message{RecentBlockhash: blockhash, AccountKeys: make(sol.PublicKeySlice, len(set.keys))}
	for i, a := range set.keys {
		msg.AccountKeys[i] = a.PublicKey
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
	indexes := make([]uint16, nAccounts)
	for i, ix := range instructions {
		accounts := ix.Accounts()
		idx := indexes[:len(accounts):len(accounts)]
		indexes = indexes[len(accounts):]
		for j, a := range accounts {
			idx[j] = uint16(set.find(a.PublicKey))
		}
		data, _ := ix.Data()
		msg.Instructions[i] = sol.CompiledInstruction{
			ProgramIDIndex: uint16(set.find(ix.ProgramID())),
			Accounts:       idx,
			Data:           data,
		}
	}
	return msg
}

// keySet is the accounts of a message being compiled, in order, with the
// first eight bytes of each key beside it: keys are hashes or curve points,
// so the prefixes alone almost always tell two apart.
type keySet struct {
	prefixes []uint64
	keys     []sol.AccountMeta
}

func keyPrefix(k sol.PublicKey) uint64 { return binary.LittleEndian.Uint64(k[:8]) }

// find returns the position of k, or -1.
func (s *keySet) find(k sol.PublicKey) int {
	p := keyPrefix(k)
	for i, q := range s.prefixes {
		if q == p && s.keys[i].PublicKey == k {
			return i
		}
	}
	return -1
}

func (s *keySet) add(a sol.AccountMeta) {
	s.prefixes = append(s.prefixes, keyPrefix(a.PublicKey))
	s.keys = append(s.keys, a)
}
