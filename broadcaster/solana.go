package broadcaster

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// BundleRelay is the JSON-RPC of a Jito-style block engine (sendBundle,
// getBundleStatuses, getInflightBundleStatuses); jsonrpc.RPCClient and
// endpoint.JSONRPC implement it.
type BundleRelay interface {
	CallForInto(ctx context.Context, out any, method string, params []any) error
}

// NewBundleRelay returns the client of a bundle relay endpoint, for
// example "solana relay" at
// https://mainnet.block-engine.jito.wtf/api/v1/bundles. Its errors name the
// endpoint, never its URL; timeout bounds each call.
func NewBundleRelay(relay endpoint.Endpoint, timeout time.Duration) BundleRelay {
	return relay.JSONRPC(timeout)
}

// Solana sends to a Solana JSON-RPC endpoint, and a transaction marked
// Private (anti_mev) only to the bundle relay: each as a bundle of its own,
// which its processor tip makes eligible, never to the public RPC.
type Solana struct {
	rpc           *rpc.Client
	relay         BundleRelay
	skipPreflight bool

	// bundles maps the signature of a transaction sent as a bundle to the
	// bundle's id, until its status is final. A restarted broadcaster has
	// lost it and follows those signatures on the public RPC instead.
	mu      sync.Mutex
	bundles map[string]sentBundle
}

type sentBundle struct {
	id string
	at time.Time
}

// maxBundles and bundleForget bound the bundles remembered: past maxBundles, those sent
// longer than bundleForget ago (the tracker has expired them) are dropped.
const (
	maxBundles   = 4096
	bundleForget = 10 * time.Minute
)

// maxBundleIDs is how many bundle ids one status request may name.
const maxBundleIDs = 5

// NewSolana returns the Solana chain over an RPC client (for a configured
// endpoint, endpoint.Endpoint.SolanaRPC, whose errors name the endpoint and
// never its URL). With preflight (the default) the node simulates first, so
// a transaction that would fail is refused at once with the program's error
// instead of landing as failed.
func NewSolana(client *rpc.Client, skipPreflight bool) *Solana {
	return &Solana{rpc: client, skipPreflight: skipPreflight, bundles: make(map[string]sentBundle)}
}

// WithBundleRelay makes s send Private transactions through relay and
// returns s. Without a relay they are refused.
func (s *Solana) WithBundleRelay(relay BundleRelay) *Solana {
	s.relay = relay
	return s
}

// Send implements Chain.
func (s *Solana) Send(ctx context.Context, tx wire.SignedTx) error {
	if tx.Private {
		return s.sendBundle(ctx, tx)
	}
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
		if alreadyProcessed(reason) {
			return nil // the same signed bytes landed before: not a second trade
		}
		if logs := programLogs(rerr.Data); logs != "" {
			reason += " [" + logs + "]"
		}
		return &Refused{Reason: reason}
	}
	return fmt.Errorf("send transaction: %w", err)
}

func alreadyProcessed(reason string) bool {
	return strings.Contains(reason, "AlreadyProcessed") || strings.Contains(reason, "already been processed") ||
		strings.Contains(reason, "already processed")
}

// sendBundle sends tx alone as a bundle, base64-encoded, and remembers the
// bundle's id for Statuses.
func (s *Solana) sendBundle(ctx context.Context, tx wire.SignedTx) error {
	if s.relay == nil {
		return &Refused{Reason: "anti_mev: no bundle relay is configured for solana"}
	}
	var id string
	err := s.relay.CallForInto(ctx, &id, "sendBundle", []any{
		[]string{base64.StdEncoding.EncodeToString(tx.Raw)},
		map[string]string{"encoding": "base64"},
	})
	if err != nil {
		var rerr *jsonrpc.RPCError
		if errors.As(err, &rerr) {
			if alreadyProcessed(rerr.Message) {
				return nil
			}
			return &Refused{Reason: "bundle relay: " + rerr.Message}
		}
		return fmt.Errorf("send bundle: %w", err)
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.bundles) >= maxBundles {
		for sig, b := range s.bundles {
			if now.Sub(b.at) > bundleForget {
				delete(s.bundles, sig)
			}
		}
	}
	s.bundles[tx.Signature] = sentBundle{id: id, at: now}
	return nil
}

// SendBundle implements Bundler: txs go to the relay as one bundle,
// base64-encoded.
func (s *Solana) SendBundle(ctx context.Context, txs []wire.SignedTx) (string, error) {
	if s.relay == nil {
		return "", &Refused{Reason: "no bundle relay is configured for solana"}
	}
	encoded := make([]string, len(txs))
	for i, t := range txs {
		encoded[i] = base64.StdEncoding.EncodeToString(t.Raw)
	}
	var id string
	err := s.relay.CallForInto(ctx, &id, "sendBundle", []any{encoded, map[string]string{"encoding": "base64"}})
	if err != nil {
		var rerr *jsonrpc.RPCError
		if errors.As(err, &rerr) {
			return "", &Refused{Reason: "bundle relay: " + rerr.Message}
		}
		return "", fmt.Errorf("send bundle: %w", err)
	}
	return id, nil
}

// BundleOutcome implements Bundler: getBundleStatuses answers for a bundle
// that landed; getInflightBundleStatuses tells one that failed (with the
// relay's reason when it gives one) from one still pending.
func (s *Solana) BundleOutcome(ctx context.Context, id string, _ []wire.SignedTx) (Status, error) {
	var landed struct {
		Value []*bundleStatus `json:"value"`
	}
	if err := s.relay.CallForInto(ctx, &landed, "getBundleStatuses", []any{[]string{id}}); err != nil {
		return Status{}, fmt.Errorf("get bundle statuses: %w", err)
	}
	if len(landed.Value) == 1 && landed.Value[0] != nil {
		st := landed.Value[0]
		switch {
		case st.Err != nil && !isOk(st.Err):
			return Status{State: wire.StateFailed, Err: fmt.Sprint(st.Err)}, nil
		case st.ConfirmationStatus == string(rpc.ConfirmationStatusConfirmed) || st.ConfirmationStatus == string(rpc.ConfirmationStatusFinalized):
			return Status{State: wire.StateConfirmed, Slot: st.Slot}, nil
		}
		return Status{}, nil // landed, not yet confirmed
	}
	var inflight struct {
		Value []struct {
			Status string `json:"status"`
			Err    any    `json:"err"`
		} `json:"value"`
	}
	if err := s.relay.CallForInto(ctx, &inflight, "getInflightBundleStatuses", []any{[]string{id}}); err != nil {
		return Status{}, fmt.Errorf("get inflight bundle statuses: %w", err)
	}
	if len(inflight.Value) == 1 && inflight.Value[0].Status == "Failed" {
		reason := "the bundle relay did not land the bundle"
		if e := inflight.Value[0].Err; e != nil {
			reason += ": " + fmt.Sprint(e)
		}
		return Status{State: wire.StateFailed, Err: reason}, nil
	}
	return Status{}, nil
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

// Statuses implements Chain. A signature sent as a bundle is followed
// through the relay: getBundleStatuses once it landed, the in-flight status
// to learn that it failed; the others, and any the relay cannot answer for,
// through getSignatureStatuses.
func (s *Solana) Statuses(ctx context.Context, sigs []string) ([]Status, error) {
	out := make([]Status, len(sigs))
	public := make([]int, 0, len(sigs))
	bundled := make(map[string][]int)
	s.mu.Lock()
	for i, sig := range sigs {
		if b, ok := s.bundles[sig]; ok && s.relay != nil {
			bundled[b.id] = append(bundled[b.id], i)
			continue
		}
		public = append(public, i)
	}
	s.mu.Unlock()
	if len(bundled) > 0 {
		unanswered, err := s.bundleStatuses(ctx, sigs, bundled, out)
		if err != nil {
			// The relay is down: the public RPC knows landed transactions.
			for _, idx := range bundled {
				public = append(public, idx...)
			}
		} else {
			public = append(public, unanswered...)
		}
	}
	if len(public) == 0 {
		return out, nil
	}
	keys := make([]solana.Signature, len(public))
	for j, i := range public {
		k, err := solana.SignatureFromBase58(sigs[i])
		if err != nil {
			return nil, fmt.Errorf("signature %q: %w", sigs[i], err)
		}
		keys[j] = k
	}
	res, err := s.rpc.GetSignatureStatuses(ctx, true, keys...)
	if err != nil {
		return nil, fmt.Errorf("get signature statuses: %w", err)
	}
	for j, v := range res.Value {
		if j >= len(public) || v == nil {
			continue
		}
		i := public[j]
		switch {
		case v.Err != nil:
			out[i] = Status{State: wire.StateFailed, Err: fmt.Sprint(v.Err)}
		case v.ConfirmationStatus == rpc.ConfirmationStatusConfirmed || v.ConfirmationStatus == rpc.ConfirmationStatusFinalized:
			out[i] = Status{State: wire.StateConfirmed}
		}
	}
	return out, nil
}

type bundleStatus struct {
	BundleID           string `json:"bundle_id"`
	Slot               uint64 `json:"slot"`
	ConfirmationStatus string `json:"confirmation_status"`
	Err                any    `json:"err"`
}

type inflightStatus struct {
	BundleID string `json:"bundle_id"`
	Status   string `json:"status"`
}

// bundleStatuses fills out for the signatures of bundled (bundle id →
// indexes into sigs) from the relay and forgets the bundles that are final.
// It returns the indexes the relay has nothing on (an unknown bundle, as
// after the relay forgot it): the public RPC may still know them.
func (s *Solana) bundleStatuses(ctx context.Context, sigs []string, bundled map[string][]int, out []Status) ([]int, error) {
	ids := make([]string, 0, len(bundled))
	for id := range bundled {
		ids = append(ids, id)
	}
	var unanswered []int
	var final []string
	for start := 0; start < len(ids); start += maxBundleIDs {
		chunk := ids[start:min(start+maxBundleIDs, len(ids))]
		pending, landed, err := s.landedBundles(ctx, chunk, bundled, out)
		if err != nil {
			return nil, err
		}
		final = append(final, landed...)
		// What has not landed may have failed: only the in-flight status
		// says so.
		lost, failed, err := s.inflightBundles(ctx, pending, bundled, out)
		if err != nil {
			return nil, err
		}
		unanswered, final = append(unanswered, lost...), append(final, failed...)
	}
	s.forgetBundles(sigs, bundled, final)
	return unanswered, nil
}

// landedBundles asks getBundleStatuses about ids and fills out for those
// that landed and are final. It returns the ids the relay has not seen land
// and those now final.
func (s *Solana) landedBundles(ctx context.Context, ids []string, bundled map[string][]int, out []Status) (pending, final []string, err error) {
	var landed struct {
		Value []*bundleStatus `json:"value"`
	}
	if err := s.relay.CallForInto(ctx, &landed, "getBundleStatuses", []any{ids}); err != nil {
		return nil, nil, fmt.Errorf("get bundle statuses: %w", err)
	}
	for j, id := range ids {
		var st *bundleStatus
		if j < len(landed.Value) {
			st = landed.Value[j]
		}
		if st == nil {
			pending = append(pending, id)
			continue
		}
		var state Status
		switch {
		case st.Err != nil && !isOk(st.Err):
			state = Status{State: wire.StateFailed, Err: fmt.Sprint(st.Err)}
		case st.ConfirmationStatus == string(rpc.ConfirmationStatusConfirmed) || st.ConfirmationStatus == string(rpc.ConfirmationStatusFinalized):
			state = Status{State: wire.StateConfirmed}
		default:
			continue // landed, not yet confirmed
		}
		for _, i := range bundled[id] {
			out[i] = state
		}
		final = append(final, id)
	}
	return pending, final, nil
}

// inflightBundles asks getInflightBundleStatuses about ids that have not
// landed: a Failed bundle is final; an Invalid or unknown one is left to
// the public RPC (its indexes are returned as unanswered).
func (s *Solana) inflightBundles(ctx context.Context, ids []string, bundled map[string][]int, out []Status) (unanswered []int, final []string, err error) {
	if len(ids) == 0 {
		return nil, nil, nil
	}
	var inflight struct {
		Value []inflightStatus `json:"value"`
	}
	if err := s.relay.CallForInto(ctx, &inflight, "getInflightBundleStatuses", []any{ids}); err != nil {
		return nil, nil, fmt.Errorf("get inflight bundle statuses: %w", err)
	}
	for j, id := range ids {
		status := ""
		if j < len(inflight.Value) {
			status = inflight.Value[j].Status
		}
		switch status {
		case "Failed":
			for _, i := range bundled[id] {
				out[i] = Status{State: wire.StateFailed, Err: "the bundle relay did not land the bundle"}
			}
			final = append(final, id)
		case "Invalid", "":
			unanswered = append(unanswered, bundled[id]...)
		}
	}
	return unanswered, final, nil
}

// forgetBundles drops the final bundles from what is remembered.
func (s *Solana) forgetBundles(sigs []string, bundled map[string][]int, final []string) {
	if len(final) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range final {
		for _, i := range bundled[id] {
			delete(s.bundles, sigs[i])
		}
	}
}

// isOk reports whether a bundle status's err is {"Ok": null}.
func isOk(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m["Ok"]
	return ok && len(m) == 1
}

// Height implements Chain.
func (s *Solana) Height(ctx context.Context) (uint64, error) {
	return s.rpc.GetBlockHeight(ctx, rpc.CommitmentConfirmed)
}
