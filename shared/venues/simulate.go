package venues

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// maxTxSize is the largest transaction the network takes.
const maxTxSize = 1232

// outcome is what a probe's simulation says of its venue.
type outcome struct {
	// conclusive is false when the simulation could not reach the venue's
	// checks (the payer, a blockhash, an instruction before the venue's).
	conclusive bool
	// ok is true when the venue took what it was given.
	ok bool
	// instruction names the venue's instruction that failed.
	instruction string
	// detail says why, from the error and the program's own log lines.
	detail string
}

// encodeProbe compiles p into a legacy transaction with empty signatures:
// simulateTransaction runs it without checking them, and with
// replaceRecentBlockhash no blockhash is read first.
func encodeProbe(p *probe) ([]byte, error) {
	tx, err := sol.NewTransaction(p.ixs, sol.Hash{}, sol.TransactionPayer(p.payer))
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", p.what, err)
	}
	tx.Signatures = make([]sol.Signature, tx.Message.Header.NumRequiredSignatures)
	raw, err := tx.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", p.what, err)
	}
	if len(raw) > maxTxSize {
		return nil, fmt.Errorf("%s is %d bytes, over the %d a transaction may have", p.what, len(raw), maxTxSize)
	}
	return raw, nil
}

// simulate runs p with simulateTransaction and reads the result.
func (s *Solana) simulate(ctx context.Context, p *probe) (outcome, error) {
	raw, err := encodeProbe(p)
	if err != nil {
		return outcome{}, err
	}
	res, err := s.rpc.SimulateRawTransactionWithOpts(ctx, raw, &rpc.SimulateTransactionOpts{
		SigVerify: false, ReplaceRecentBlockhash: true, Commitment: rpc.CommitmentProcessed})
	if err != nil {
		return outcome{}, fmt.Errorf("simulate %s: %w", p.what, err)
	}
	if res.Value == nil {
		return outcome{}, fmt.Errorf("simulate %s: no result", p.what)
	}
	return classify(p, res.Value.Err, res.Value.Logs), nil
}

// Instruction errors of the runtime that mean the transaction itself no
// longer fits the program: an account missing, of the wrong kind or
// privilege, or data the program no longer reads. Any other error (funds,
// compute, arithmetic) comes from running the trade, which the program
// accepted.
var shapeErrors = map[string]bool{
	"NotEnoughAccountKeys": true, "InvalidAccountData": true, "MissingAccount": true, "InvalidInstructionData": true,
	"IncorrectProgramId": true, "InvalidAccountOwner": true, "MissingRequiredSignature": true, "PrivilegeEscalation": true,
	"UnsupportedProgramId": true, "AccountDataTooSmall": true, "InvalidSeeds": true, "ReadonlyDataModified": true,
	"ReadonlyLamportChange": true, "ExternalAccountDataModified": true, "ExternalAccountLamportSpend": true,
	"InvalidArgument": true, "AccountNotExecutable": true, "ExecutableDataModified": true, "InvalidRealloc": true,
	"AccountBorrowFailed": true, "UninitializedAccount": true, "IncorrectAuthority": true, "Immutable": true,
}

// Anchor's framework errors (instruction, constraint and account errors)
// are the custom codes from 100 to 5999; a program's own start at 6000.
const (
	anchorFirst = 100
	anchorUser  = 6000
)

// venueShapeCodes are the venues' own errors about the accounts a trade
// passes (remaining accounts missing or not the ones the program wants),
// by program.
var venueShapeCodes = map[sol.PublicKey]map[uint32]bool{
	pumpfun.ProgramID: {
		pumpfun.ErrNotEnoughRemainingAccounts.Code: true, pumpfun.ErrBuybackFeeRecipientMissing.Code: true,
		pumpfun.ErrBuybackFeeRecipientNotAuthorized.Code: true, pumpfun.ErrMissingCashbackAccounts.Code: true,
		pumpfun.ErrInvalidBondingCurveV2.Code: true,
	},
	pumpswap.ProgramID: {
		pumpswap.ErrNotEnoughRemainingAccounts.Code: true, pumpswap.ErrBuybackFeeRecipientMissing.Code: true,
		pumpswap.ErrBuybackFeeRecipientNotAuthorized.Code: true, pumpswap.ErrMissingCashbackAccounts.Code: true,
		pumpswap.ErrInvalidPoolV2.Code: true,
	},
}

// Transaction errors that say the venue's program cannot run at all.
var missingProgram = map[string]bool{"ProgramAccountNotFound": true, "InvalidProgramForExecution": true}

// classify reads a simulation's error (the JSON of a TransactionError) and
// logs as a verdict on p's venue.
func classify(p *probe, txErr any, logs []string) outcome {
	if txErr == nil {
		return outcome{conclusive: true, ok: true}
	}
	if name, ok := txErr.(string); ok {
		if missingProgram[name] {
			return outcome{conclusive: true, instruction: p.what, detail: name}
		}
		return outcome{detail: "the transaction failed before any instruction ran: " + name}
	}
	idx, cause, isIx := anchor.InstructionFailure(txErr)
	if !isIx {
		b, _ := json.Marshal(txErr)
		return outcome{detail: "the transaction failed before any instruction ran: " + string(b)}
	}
	name, venues := p.names[idx]
	if !venues {
		b, _ := json.Marshal(cause)
		return outcome{detail: fmt.Sprintf("instruction %d, not the venue's, failed: %s", idx, b)}
	}
	what, shape := instructionError(p.program, cause)
	detail := what
	if lines := programLog(p.program, logs); lines != "" {
		detail += ": " + lines
	}
	return outcome{conclusive: true, ok: !shape, instruction: name, detail: detail}
}

// instructionError describes an InstructionError's second element and
// tells whether it is about the shape of what was sent.
func instructionError(program sol.PublicKey, v any) (string, bool) {
	switch e := v.(type) {
	case string:
		return e, shapeErrors[e]
	case map[string]any:
		if code, ok := anchor.CustomCode(e); ok {
			return fmt.Sprintf("custom program error %d", code), (code >= anchorFirst && code < anchorUser) || venueShapeCodes[program][code]
		}
		b, _ := json.Marshal(e)
		return string(b), false
	}
	return fmt.Sprint(v), false
}

// programLog returns what the program logged about its error: its last
// "Program log:" lines (at most two), which name the error and, for
// Anchor's account errors, the account.
func programLog(program sol.PublicKey, logs []string) string {
	var own []string
	prefix := "Program " + program.String() + " "
	in := false
	for _, l := range logs {
		switch {
		case strings.HasPrefix(l, prefix+"invoke"):
			in, own = true, own[:0]
		case strings.HasPrefix(l, prefix+"failed"):
			return strings.Join(lastN(own, 2), " ")
		case in && strings.HasPrefix(l, "Program log: "):
			own = append(own, strings.TrimPrefix(l, "Program log: "))
		}
	}
	return strings.Join(lastN(own, 2), " ")
}

func lastN(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
