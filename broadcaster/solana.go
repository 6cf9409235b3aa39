package broadcaster

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// Solana sends to a Solana JSON-RPC endpoint.
type Solana struct {
	rpc           *rpc.Client
	skipPreflight bool
}

// NewSolana returns the Solana chain over an RPC client. With preflight
// (the default) the node simulates first, so a transaction that would fail
// is refused at once with the program's error instead of landing as failed.
func NewSolana(client *rpc.Client, skipPreflight bool) *Solana {
	return &Solana{rpc: client, skipPreflight: skipPreflight}
}

// Send implements Chain.
func (s *Solana) Send(ctx context.Context, tx wire.SignedTx) error {
	_, err := s.rpc.SendRawTransactionWithOpts(ctx, tx.Raw, rpc.TransactionOpts{
		SkipPreflight:       s.skipPreflight,
		PreflightCommitment: rpc.CommitmentProcessed,
	})
	if err == nil {
		return nil
	}
	var rerr *jsonrpc.RPCError
	if errors.As(err, &rerr) {
		reason := rerr.Message
		if strings.Contains(reason, "AlreadyProcessed") || strings.Contains(reason, "already been processed") {
			return nil // the same signed bytes landed before: not a second trade
		}
		if logs := programLogs(rerr.Data); logs != "" {
			reason += " [" + logs + "]"
		}
		return &Refused{Reason: reason}
	}
	return fmt.Errorf("send transaction: %w", err)
}

// programLogs returns the last log lines of a failed simulation, which name
// the program error.
func programLogs(data any) string {
	m, ok := data.(map[string]any)
	if !ok {
		return ""
	}
	logs, _ := m["logs"].([]any)
	var out []string
	for i := max(0, len(logs)-2); i < len(logs); i++ {
		if s, ok := logs[i].(string); ok {
			out = append(out, s)
		}
	}
	return strings.Join(out, "; ")
}

// Statuses implements Chain.
func (s *Solana) Statuses(ctx context.Context, sigs []string) ([]Status, error) {
	keys := make([]solana.Signature, len(sigs))
	for i, sig := range sigs {
		k, err := solana.SignatureFromBase58(sig)
		if err != nil {
			return nil, fmt.Errorf("signature %q: %w", sig, err)
		}
		keys[i] = k
	}
	res, err := s.rpc.GetSignatureStatuses(ctx, true, keys...)
	if err != nil {
		return nil, fmt.Errorf("get signature statuses: %w", err)
	}
	out := make([]Status, len(sigs))
	for i, v := range res.Value {
		if i >= len(out) || v == nil {
			continue
		}
		switch {
		case v.Err != nil:
			out[i] = Status{State: wire.StateFailed, Err: fmt.Sprint(v.Err)}
		case v.ConfirmationStatus == rpc.ConfirmationStatusConfirmed || v.ConfirmationStatus == rpc.ConfirmationStatusFinalized:
			out[i] = Status{State: wire.StateConfirmed}
		}
	}
	return out, nil
}

// Height implements Chain.
func (s *Solana) Height(ctx context.Context) (uint64, error) {
	return s.rpc.GetBlockHeight(ctx, rpc.CommitmentConfirmed)
}
