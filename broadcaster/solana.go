package broadcaster

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// BundleRelay is the JSON-RPC of a Jito-style block engine (sendBundle,
// getBundleStatuses, getInflightBundleStatuses); jsonrpc.RPCClient and
// endpoint.JSONRPC implement it. A relay that also has a Name (as
// NewBundleRelay's has) is named by it in orders and metrics.
type BundleRelay interface {
	CallForInto(ctx context.Context, out any, method string, params []any) error
}

// namedRelay is a relay endpoint's client with the endpoint's name.
type namedRelay struct {
	*endpoint.JSONRPC
	name string
}

// Name is the relay's configured name.
func (r namedRelay) Name() string { return r.name }

// NewBundleRelay returns the client of a bundle relay endpoint, for
// example "solana relay" at
// https://mainnet.block-engine.jito.wtf/api/v1/bundles. Its errors name the
// endpoint, never its URL, and so do the orders and the metrics; timeout
// bounds each call.
func NewBundleRelay(relay endpoint.Endpoint, timeout time.Duration) BundleRelay {
	return namedRelay{JSONRPC: relay.JSONRPC(timeout), name: relay.String()}
}

// RelayName implements Bundler.
func (s *Solana) RelayName() string { return s.relayName }

// defaultRelayName names a relay that has no name of its own.
const defaultRelayName = "relay"

// Solana sends to a Solana JSON-RPC endpoint, and a transaction marked
// Private (anti_mev) only to the bundle relay: each as a bundle of its own,
// which its processor tip makes eligible, never to the public RPC.
//
// It keeps a record of every bundle it sent (an anti_mev transaction's, a
// launch's) with the relay's verdict, for the orders (Bundle) and for
// tradeapi_bundles_total, which counts each bundle's final verdict once.
// Records live in memory until they are old: a restarted broadcaster has
// lost them and follows those signatures on the public RPC instead.
type Solana struct {
	rpc           *rpc.Client
	relayName     string
	skipPreflight bool
	// log has the defects of the senders' goroutines (WithLog).
	log *slog.Logger

	// senders are the landing senders besides the RPC that take the same
	// signed transactions (sendTransaction); relays are every bundle
	// relay, the configured one first, then the other block-engine
	// regions (WithSenders).
	senders []rpcSender
	relays  []relaySender
	// takers maps a public transaction's signature to the senders that
	// accepted it, and whether it was seen landed (SenderLanded).
	takers ageing[*takers]

	// height is the chain's block height as last read, which tells when a
	// bundle's blockhash expired.
	height atomic.Uint64
	// heightSlot is the slot at which height was read (HeightSlot).
	heightSlot atomic.Uint64

	mu sync.Mutex
	// bySig maps every signature of a sent bundle to its record; byID maps
	// the relay's bundle ids to the same records.
	bySig ageing[*bundleRecord]
	byID  ageing[*bundleRecord]
	// askedAt is when each relay was last asked about its bundles (see
	// relayDue).
	askedAt map[string]time.Time
}

// relayStatusEvery is how often a relay is asked about the bundles it
// took, at most. Jito's block engine allows an address a few requests a
// second in all, its sends included, and answers 429 past that: asked at
// every tracker poll (300 ms) and every launch's step (100 ms), twice each
// (landed, then in flight), the statuses alone took it past its limit and
// the next anti_mev send was refused. The chain's own statuses, asked at
// every poll, still tell a bundle landed; the relay's word is what tells a
// bundle it dropped apart from one still pending.
const relayStatusEvery = time.Second

// relayDue reports whether relay may be asked about its bundles now, and
// if so counts it asked. Its caller holds s.mu.
func (s *Solana) relayDue(relay string, now time.Time) bool {
	if at, ok := s.askedAt[relay]; ok && now.Sub(at) < relayStatusEvery {
		return false
	}
	if s.askedAt == nil {
		s.askedAt = make(map[string]time.Time)
	}
	s.askedAt[relay] = now
	return true
}

// bundleRecord is one bundle and what the relay said of it.
type bundleRecord struct {
	wire.Bundle
	at        time.Time
	lastValid uint64
	// inflight is the relay's last in-flight status of a pending bundle
	// (Pending, Invalid, Landed, ...).
	inflight string
	// statuses: the bundle is an anti_mev transaction's, whose Statuses
	// follow the relay's verdict. A launch's bundles are followed by the
	// broadcaster's deploy steps; Statuses says of their transactions only
	// what the chain says.
	statuses bool
	// programs are the programs of the bundle's instructions, by index,
	// so that the relay's verdict of a failed instruction (which names no
	// transaction) names the program's own error as a landed failure
	// does; nil at an index where the transactions' programs differ.
	programs []*solana.PublicKey
	// accepted are the relays that took the bundle, the first first; each
	// is asked for its verdict. A relay's failure is its own: another may
	// land the same bundle (and the one whose copy came second fails it,
	// its transactions already processed). The bundle has failed only
	// once every relay has answered its send and every one that took it
	// says it failed (failedBy, by relay name).
	accepted []relayTook
	failedBy map[string]string
	// txFailed: a relay's failure named a transaction of the bundle
	// failing; without one the bundle was dropped (not forwarded, an
	// auction lost), and its bytes sent again may land until their
	// blockhash expires (Status.Dropped).
	txFailed bool
	// unanswered counts the relays whose answer to the send is still to
	// come: one may yet take the bundle. unknown counts the sends whose
	// answer never came (an error, a timeout): that relay may have taken
	// the bundle, and no verdict of the others fails it; the chain tells
	// once its blockhash expired.
	unanswered int
	unknown    int
}

// relayTook is a relay that took a bundle, with the id it gave it.
type relayTook struct {
	relaySender
	id string
}

// relayFailed records relay's verdict that the bundle failed, for reason,
// and fails the bundle once no relay may still land it. Its caller holds
// s.mu.
func (s *Solana) relayFailed(r *bundleRecord, relay, reason string, txFailed bool) {
	if r == nil || wire.FinalBundle(r.State) {
		return
	}
	r.txFailed = r.txFailed || txFailed
	if r.failedBy == nil {
		r.failedBy = make(map[string]string)
	}
	r.failedBy[relay] = reason
	s.failIfAllFailed(r)
}

// failIfAllFailed fails r when every relay answered its send and each
// that took it failed it. Its caller holds s.mu.
func (s *Solana) failIfAllFailed(r *bundleRecord) {
	if r.unanswered > 0 || r.unknown > 0 || len(r.failedBy) < len(r.accepted) {
		return
	}
	for _, a := range r.accepted {
		if _, ok := r.failedBy[a.name]; !ok {
			return
		}
	}
	// In the relays' configured order, whichever answered first.
	reasons := make([]string, 0, len(r.accepted))
	for _, relay := range s.relays {
		reason, ok := r.failedBy[relay.name]
		if !ok {
			continue
		}
		if len(r.accepted) > 1 {
			reason = relay.name + ": " + reason
		}
		reasons = append(reasons, reason)
	}
	s.settleLocked(r, wire.BundleFailed, 0, strings.Join(reasons, "; "))
}

// took adds relay, which took the bundle as id, to those that did, unless
// it is among them already (a bundle sent again); it reports whether it
// added it. A relay that takes the bundle again may land it: its failure
// before is forgotten. Its caller holds s.mu.
func (r *bundleRecord) took(relay relaySender, id string) bool {
	delete(r.failedBy, relay.name)
	for _, a := range r.accepted {
		if a.name == relay.name {
			return false
		}
	}
	r.accepted = append(r.accepted, relayTook{relay, id})
	return true
}

// toAsk returns the relays to ask for r's verdict: those that took it and
// have not said it failed. Its caller holds s.mu.
func (r *bundleRecord) toAsk() []relayTook {
	out := make([]relayTook, 0, len(r.accepted))
	for _, a := range r.accepted {
		if _, failed := r.failedBy[a.name]; !failed {
			out = append(out, a)
		}
	}
	return out
}

// bundleForget and takersForget are how long bundles, and the senders of
// public transactions, are remembered at least (at most twice as long):
// by then the tracker has settled them.
const (
	bundleForget = 10 * time.Minute
	takersForget = 3 * time.Minute
)

// ageing is a map whose entries are dropped between one and two periods
// after they were put: it keeps two generations and drops the older one
// each period, so nothing is ever scanned. Its user locks it.
type ageing[V any] struct {
	period   time.Duration
	cur, old map[string]V
	since    time.Time
}

func newAgeing[V any](period time.Duration) ageing[V] {
	return ageing[V]{period: period, cur: make(map[string]V), old: make(map[string]V), since: time.Now()}
}

func (a *ageing[V]) get(k string) (V, bool) {
	if v, ok := a.cur[k]; ok {
		return v, true
	}
	v, ok := a.old[k]
	return v, ok
}

func (a *ageing[V]) put(k string, v V, now time.Time) {
	if now.Sub(a.since) >= a.period {
		a.old, a.cur, a.since = a.cur, make(map[string]V), now
	}
	delete(a.old, k)
	a.cur[k] = v
}

func (a *ageing[V]) del(k string) {
	delete(a.cur, k)
	delete(a.old, k)
}

// maxBundleIDs is how many bundle ids one status request may name.
const maxBundleIDs = 5

// Relay in-flight statuses (getInflightBundleStatuses).
const (
	inflightFailed  = "Failed"
	inflightInvalid = "Invalid"
)

// NewSolana returns the Solana chain over an RPC client (for a configured
// endpoint, endpoint.Endpoint.SolanaRPC, whose errors name the endpoint and
// never its URL). With preflight (the default) the node simulates first, so
// a transaction that would fail is refused at once with the program's error
// instead of landing as failed.
func NewSolana(client *rpc.Client, skipPreflight bool) *Solana {
	return &Solana{rpc: client, skipPreflight: skipPreflight, takers: newAgeing[*takers](takersForget),
		bySig: newAgeing[*bundleRecord](bundleForget), byID: newAgeing[*bundleRecord](bundleForget), log: slog.Default()}
}

// WithLog makes s log to log and returns s.
func (s *Solana) WithLog(log *slog.Logger) *Solana {
	s.log = log
	return s
}

// defect logs, with its stack, and counts a panic (guard) of a sender's
// goroutine, and returns in its place an error whose text says only that:
// the panic's own text is not for an order's answer. Any other err is
// returned as it is; so is a defect's kind, neither a refusal nor surely
// unsent: the send may have left.
func (s *Solana) defect(sender string, err error) error {
	var p *guard.Panic
	if !errors.As(err, &p) {
		return err
	}
	metrics.Defect(s.log, bus.BroadcasterConsumer, "send to "+sender, p)
	return errors.New(sender + ": an internal error (logged)")
}

// WithBundleRelay makes s send Private transactions through relay and
// returns s. Without a relay they are refused.
func (s *Solana) WithBundleRelay(relay BundleRelay) *Solana {
	s.relayName = relayNameOf(relay, defaultRelayName)
	s.relays = append([]relaySender{{name: s.relayName, r: relay}}, s.relays...)
	touchRelay(s.relayName)
	return s
}

// relayNameOf is relay's name, or def when it has none.
func relayNameOf(relay BundleRelay, def string) string {
	if n, ok := relay.(interface{ Name() string }); ok && n.Name() != "" {
		return n.Name()
	}
	return def
}

// touchRelay gives every bundle outcome of a relay a series from the
// start, so that rates over them are defined before the first bundle.
func touchRelay(name string) {
	for _, o := range []string{wire.BundleLanded, wire.BundleFailed, wire.BundleDropped, wire.BundleInvalid, wire.BundlePendingTimeout} {
		metrics.Bundles.WithLabelValues(name, o)
	}
}

// rebroadcasts makes s a Rebroadcaster.
func (s *Solana) rebroadcasts() {}

// Send implements Chain. A public transaction goes to the RPC, then, unless
// the RPC refused it, to every other landing sender (WithSenders).
func (s *Solana) Send(ctx context.Context, tx wire.SignedTx) error {
	if tx.Private {
		return s.sendBundle(ctx, tx)
	}
	err := s.sendTransaction(ctx, rpcSender{name: metrics.SenderRPC, c: s.rpc}, tx, s.skipPreflight)
	var ref *Refused
	if errors.As(err, &ref) || len(s.senders) == 0 {
		return err
	}
	return s.fanOut(ctx, tx, err)
}

// sendTransaction sends tx to one sender, times and counts it, and
// remembers the sender as one that took tx. A JSON-RPC error is a
// *Refused, but for "already processed" (the same signed bytes landed
// before, which is not a second trade) and an answer that judges nothing
// (answerUnsure), after which tx may land.
func (s *Solana) sendTransaction(ctx context.Context, to rpcSender, tx wire.SignedTx, skipPreflight bool) error {
	start := time.Now()
	_, err := to.c.SendRawTransactionWithOpts(ctx, tx.Raw, rpc.TransactionOpts{
		SkipPreflight:       skipPreflight,
		PreflightCommitment: rpc.CommitmentProcessed,
	})
	metrics.SenderSendDuration.WithLabelValues(wire.ChainSolana, to.name).Observe(time.Since(start).Seconds())
	var rerr *jsonrpc.RPCError
	switch {
	case err == nil || (errors.As(err, &rerr) && alreadyProcessed(rerr.Message)):
		metrics.SenderSends.WithLabelValues(wire.ChainSolana, to.name, metrics.SenderSendAccepted).Inc()
		s.took(tx.Signature, to.name)
		return nil
	case rerr != nil && nodeBehind(rerr):
		metrics.SenderSends.WithLabelValues(wire.ChainSolana, to.name, metrics.SenderSendError).Inc()
		return endpoint.Unsent(to.name, rerr.Message)
	case rerr != nil && !answerUnsure(rerr):
		metrics.SenderSends.WithLabelValues(wire.ChainSolana, to.name, metrics.SenderSendRefused).Inc()
		return &Refused{Reason: refusalReason(rerr), Stale: blockhashNotFound(rerr)}
	}
	metrics.SenderSends.WithLabelValues(wire.ChainSolana, to.name, metrics.SenderSendError).Inc()
	return fmt.Errorf("send transaction: %w", err)
}

// nodeBehind reports whether the node declined a transaction for its own
// health (Agave's -32005, "Node is behind by N slots", answered before its
// preflight, which then sends nothing on): no judgement of the
// transaction, which another try, there or at another node, may land.
func nodeBehind(rerr *jsonrpc.RPCError) bool {
	return rerr.Code == -32005
}

// blockhashNotFound reports whether the node refused a transaction for
// its blockhash, which it does not know: expired, or too new for a node
// behind.
func blockhashNotFound(rerr *jsonrpc.RPCError) bool {
	if m, ok := rerr.Data.(map[string]any); ok {
		if e, ok := m["err"].(string); ok {
			return e == "BlockhashNotFound"
		}
	}
	return strings.Contains(rerr.Message, "Blockhash not found") || strings.Contains(rerr.Message, "BlockhashNotFound")
}

func alreadyProcessed(reason string) bool {
	return strings.Contains(reason, "AlreadyProcessed") || strings.Contains(reason, "already been processed") ||
		strings.Contains(reason, "already processed")
}

// sendBundle sends tx alone as a bundle, base64-encoded, and records the
// bundle for Statuses and Bundle.
func (s *Solana) sendBundle(ctx context.Context, tx wire.SignedTx) error {
	if len(s.relays) == 0 {
		return &Refused{Reason: "anti_mev: no bundle relay is configured for solana"}
	}
	_, err := s.sendBundleOf(ctx, []wire.SignedTx{tx}, true)
	var ref *Refused
	if errors.As(err, &ref) && alreadyProcessed(ref.Reason) {
		return nil
	}
	return err
}

// SendBundle implements Bundler: txs go to the relay as one bundle,
// base64-encoded. The bundle is recorded pending, or dropped with the
// relay's reason when the relay refuses it.
func (s *Solana) SendBundle(ctx context.Context, txs []wire.SignedTx) (string, error) {
	return s.sendBundleOf(ctx, txs, false)
}

// sendBundleOf sends txs as one bundle to every relay at once and records
// it; statuses marks an anti_mev transaction's bundle, whose verdict
// Statuses answers with. It returns at the first relay that accepts the
// bundle (the others' answers are counted as they come); the bundle is
// dropped only when every relay refused it, and the error is unknown when
// none accepted it and one did not answer (it may have reached that one).
func (s *Solana) sendBundleOf(ctx context.Context, txs []wire.SignedTx, statuses bool) (string, error) {
	if len(s.relays) == 0 {
		return "", &Refused{Reason: "no bundle relay is configured for solana"}
	}
	encoded := make([]string, len(txs))
	sigs := make([]string, len(txs))
	for i, t := range txs {
		encoded[i] = base64.StdEncoding.EncodeToString(t.Raw)
		sigs[i] = t.Signature
	}
	programs := bundlePrograms(txs)
	derived := bundleIDOf(txs)
	// The sends outlive this call: the relays that answer after the first
	// acceptance still get the bundle.
	n := len(s.relays)
	answers := make(chan bundleAnswer, n)
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fanOutTimeout)
	for _, r := range s.relays {
		go func() {
			var a bundleAnswer
			if err := guard.Run(func() error { a = r.send(sendCtx, encoded, derived); return nil }); err != nil {
				// A defect: the bundle may have left, so not a refusal.
				a = bundleAnswer{relay: r, err: s.defect(r.name, err)}
			}
			answers <- a
		}()
	}
	var refusal *jsonrpc.RPCError
	var unknown error
	unknowns := 0
	for got := 1; got <= n; got++ {
		var a bundleAnswer
		select {
		case a = <-answers:
		case <-ctx.Done():
			// The bundle sent before, if it was, waits for these answers
			// too: a relay among them may take it.
			r := s.addSend(sigs[0], n-got+1, unknowns)
			go s.collectAccepted(r, answers, n-got+1, cancel)
			return "", fmt.Errorf("send bundle: %w", ctx.Err())
		}
		switch {
		case a.err == nil:
			fresh := &bundleRecord{Bundle: wire.Bundle{ID: a.id, Relay: a.relay.name, State: wire.BundlePending, Signatures: sigs},
				at: time.Now(), lastValid: txs[0].LastValidBlockHeight, statuses: statuses, programs: programs,
				accepted: []relayTook{{a.relay, a.id}}, unanswered: n - got, unknown: unknowns}
			r := s.rememberTaken(fresh, a.relay, a.id)
			go s.collectAccepted(r, answers, n-got, cancel)
			return a.id, nil
		case a.refused != nil:
			refusal = cmp.Or(refusal, a.refused)
		default:
			unknown = a.err
			unknowns++
		}
	}
	cancel()
	if unknown != nil {
		// It may have reached the relay: nothing is recorded until a send
		// has an answer, but a record of the same bundle sent before
		// counts it.
		s.addSend(sigs[0], 0, unknowns)
		return "", fmt.Errorf("send bundle: %w", unknown)
	}
	reason := "bundle relay: " + refusal.Message
	if !alreadyProcessed(reason) {
		r := s.remember(&bundleRecord{Bundle: wire.Bundle{Relay: s.relayName, State: wire.BundlePending, Signatures: sigs},
			at: time.Now(), statuses: statuses})
		// Kept, the record of a send a relay took stays as it is: that
		// send may land.
		if r.ID == "" {
			s.mu.Lock()
			s.settleLocked(r, wire.BundleDropped, 0, reason)
			s.mu.Unlock()
		}
	}
	return "", &Refused{Reason: reason}
}

// rememberTaken records fresh, the bundle a relay took, or, for the same
// bundle sent again, adds this send to its record: the relay that took it,
// the answers still to come and the unknown ones so far. One lock for
// both, so that the earlier send's last answer cannot fail the record in
// between.
func (s *Solana) rememberTaken(fresh *bundleRecord, relay relaySender, id string) *bundleRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rememberLocked(fresh)
	if r != fresh {
		r.unanswered += fresh.unanswered
		r.unknown += fresh.unknown
		if r.took(relay, id) && r.State == wire.BundleLanded {
			metrics.SenderLanded.WithLabelValues(wire.ChainSolana, relay.name).Inc()
		}
	}
	return r
}

// addSend adds a send of the bundle carrying sig to its record, if there
// is one (the bundle sent before): pending answers still to come, unknown
// answers that may have been acceptances. It returns the record, or nil.
func (s *Solana) addSend(sig string, pending, unknown int) *bundleRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.bySig.get(sig)
	if !ok || r.ID == "" {
		return nil
	}
	r.unanswered += pending
	r.unknown += unknown
	return r
}

// collectAccepted adds to r (when there is one) the relays that accept
// its bundle after the first, from the n answers still to come, then
// releases the sends.
func (s *Solana) collectAccepted(r *bundleRecord, answers <-chan bundleAnswer, n int, done func()) {
	defer done()
	for range n {
		a := <-answers
		if r == nil {
			continue
		}
		s.mu.Lock()
		r.unanswered--
		if a.err != nil && a.refused == nil {
			// No answer is no refusal: the relay may have taken it.
			r.unknown++
		}
		if a.err == nil && r.took(a.relay, a.id) {
			if a.id != r.ID {
				s.byID.put(a.id, r, r.at)
			}
			if r.State == wire.BundleLanded {
				// It landed before this relay answered.
				metrics.SenderLanded.WithLabelValues(wire.ChainSolana, a.relay.name).Inc()
			}
		}
		// The last answer may leave only relays that failed the bundle.
		s.failIfAllFailed(r)
		s.mu.Unlock()
	}
}

// fanOutTimeout bounds a send to a landing sender that this call does not
// wait for.
const fanOutTimeout = 10 * time.Second

// Sender is a landing sender of a chain besides its RPC and its bundle
// relay: the same signed bytes go to it. RPC takes transactions
// (sendTransaction: another RPC provider, a block engine's transactions
// endpoint such as Jito's /api/v1/transactions); Relay takes bundles
// (sendBundle: another block-engine region). Name is its configured name,
// never its URL.
type Sender struct {
	Name  string
	RPC   *rpc.Client
	Relay BundleRelay
}

// rpcSender is a landing sender that takes transactions.
type rpcSender struct {
	name string
	c    *rpc.Client
}

// relaySender is a landing sender that takes bundles.
type relaySender struct {
	name string
	r    BundleRelay
}

// bundleAnswer is one relay's answer to a sendBundle.
type bundleAnswer struct {
	relay   relaySender
	id      string
	err     error
	refused *jsonrpc.RPCError // the relay's refusal, when err is one
}

// send sends the encoded bundle to the relay, times and counts it. An id
// the relay answers that is no plain token (bundleIDShape) is taken for
// derived, the id a block engine derives from the bundle's signatures
// (chains.BundleID): the id is shown in the order, and a relay's answer is
// not to put a URL, or anything else, there.
func (r relaySender) send(ctx context.Context, encoded []string, derived string) bundleAnswer {
	start := time.Now()
	a := bundleAnswer{relay: r}
	a.err = r.r.CallForInto(ctx, &a.id, "sendBundle", []any{encoded, map[string]string{"encoding": "base64"}})
	if a.err == nil && !bundleIDShape(a.id) {
		a.id = derived
	}
	metrics.SenderSendDuration.WithLabelValues(wire.ChainSolana, r.name).Observe(time.Since(start).Seconds())
	outcome := metrics.SenderSendAccepted
	switch {
	case errors.As(a.err, &a.refused) && !answerUnsure(a.refused):
		outcome = metrics.SenderSendRefused
	case a.err != nil:
		// Not the relay's judgement of the bundle: it may have reached
		// the block engine and land.
		a.refused = nil
		outcome = metrics.SenderSendError
	}
	metrics.SenderSends.WithLabelValues(wire.ChainSolana, r.name, outcome).Inc()
	return a
}

// bundleIDShape reports whether id looks like a relay's bundle id: up to
// 128 letters, digits, '-' and '_' (Jito's are 64 hex digits; others use
// UUIDs).
func bundleIDShape(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// answerUnsure tells a JSON-RPC error that is not the node's or relay's
// judgement of what was sent (an internal error, a timeout while it was
// passed on; a provider's proxy answers so for its upstream) from a
// refusal: a transaction or bundle so answered may land, and is sent again
// and followed until it lands or its blockhash expires, never failed on
// that answer.
func answerUnsure(e *jsonrpc.RPCError) bool {
	if e.Code == -32002 || e.Code == -32003 {
		// The node's preflight judged the transaction (a simulation that
		// failed, a signature that does not verify): never sent on.
		return false
	}
	msg := strings.ToLower(e.Message)
	return e.Code == -32603 || strings.Contains(msg, "internal") || strings.Contains(msg, "timed out") ||
		strings.Contains(msg, "timeout") || strings.Contains(msg, "unavailable")
}

// WithSenders adds landing senders to s and returns s: every public
// transaction the RPC takes also goes to each sender that takes
// transactions, and every bundle to each that takes bundles, at once.
func (s *Solana) WithSenders(senders ...Sender) *Solana {
	for _, x := range senders {
		if x.RPC != nil {
			s.senders = append(s.senders, rpcSender{name: x.Name, c: x.RPC})
		}
		if x.Relay != nil {
			s.relays = append(s.relays, relaySender{name: x.Name, r: x.Relay})
			touchRelay(x.Name)
		}
	}
	return s
}

// fanOut sends tx to every other landing sender at once, after the RPC
// took it or did not answer (primary is the RPC's error). A transaction
// the RPC refused in preflight goes nowhere else: one that landed after
// its order was answered refused would be a trade nobody expects. When the
// RPC took it, fanOut returns at once and the others are sent to in the
// background; when the RPC did not answer, tx counts as sent as soon as
// another sender takes it.
func (s *Solana) fanOut(ctx context.Context, tx wire.SignedTx, primary error) error {
	n := len(s.senders)
	errs := make(chan error, n)
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fanOutTimeout)
	for _, to := range s.senders {
		// The RPC simulated it already, or could not: a block engine's
		// endpoint does not simulate.
		go func() {
			errs <- s.defect(to.name, guard.Run(func() error { return s.sendTransaction(sendCtx, to, tx, true) }))
		}()
	}
	release := func(left int) {
		go func() {
			for range left {
				<-errs
			}
			cancel()
		}()
	}
	if primary == nil {
		release(n)
		return nil
	}
	// The RPC surely did not take it, but another sender may have: a send
	// that failed in the middle, or one still under way. Then tx is not
	// unsent (it would be answered not taken, and land).
	maybe := func(why error) error {
		if !endpoint.IsUnsent(primary) {
			return primary
		}
		return fmt.Errorf("%s; another sender may have taken it: %v", primary, why)
	}
	var mayHave error
	for got := 1; got <= n; got++ {
		select {
		case err := <-errs:
			if err == nil {
				release(n - got)
				return nil
			}
			var ref *Refused
			if mayHave == nil && !endpoint.IsUnsent(err) && !errors.As(err, &ref) {
				mayHave = err
			}
		case <-ctx.Done():
			release(n - got + 1)
			return maybe(errors.New("it was still sending"))
		}
	}
	cancel()
	if mayHave != nil {
		return maybe(mayHave)
	}
	return primary
}

// took remembers that sender took the transaction sig, when there are
// several senders to compare.
func (s *Solana) took(sig, sender string) {
	if len(s.senders) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	tk, _ := s.takers.get(sig)
	if tk == nil {
		tk = &takers{}
	}
	// A sender that took it before (the tracker sends it again while the
	// chain has not seen it) is counted once.
	if slices.Contains(tk.names, sender) {
		return
	}
	tk.names = append(tk.names, sender)
	if tk.landed {
		// It landed before this sender answered.
		metrics.SenderLanded.WithLabelValues(wire.ChainSolana, sender).Inc()
	}
	s.takers.put(sig, tk, time.Now())
}

// takers are the senders that took a public transaction, and whether it
// was seen landed, when each of them was counted.
type takers struct {
	names  []string
	landed bool
}

// landed counts sig as landed for every sender that took it, once. With
// the RPC the only sender, took remembers nothing (to spare the send its
// bookkeeping) and the tracker counts the RPC's landings (see loneRPC).
func (s *Solana) landed(sig string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tk, ok := s.takers.get(sig)
	if !ok || tk.landed {
		return
	}
	// Kept, so that a sender answering later counts at once.
	tk.landed = true
	s.takers.put(sig, tk, time.Now())
	for _, name := range tk.names {
		metrics.SenderLanded.WithLabelValues(wire.ChainSolana, name).Inc()
	}
}

// remember records a bundle under each of its signatures and its id (old
// records age out, see ageing). The same bundle sent again
// (a redelivered order's same signed bytes) keeps its first record, so its
// verdict is counted once.
func (s *Solana) remember(r *bundleRecord) *bundleRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rememberLocked(r)
}

// rememberLocked is remember; its caller holds s.mu.
func (s *Solana) rememberLocked(r *bundleRecord) *bundleRecord {
	// A refusal (no id) never replaces the record of a send a relay took:
	// that send may land, whatever the re-send's refusal says.
	if old, ok := s.bySig.get(r.Signatures[0]); ok && (old.ID == r.ID || r.ID == "" && old.ID != "") {
		return old
	}
	for _, sig := range r.Signatures {
		s.bySig.put(sig, r, r.at)
	}
	if r.ID != "" {
		s.byID.put(r.ID, r, r.at)
	}
	return r
}

// settle gives the bundle carrying sig its final verdict, unless it has
// one, and counts it.
func (s *Solana) settle(sig, state string, slot uint64, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, _ := s.bySig.get(sig)
	s.settleLocked(r, state, slot, reason)
}

func (s *Solana) settleLocked(r *bundleRecord, state string, slot uint64, reason string) {
	if r == nil || wire.FinalBundle(r.State) {
		return
	}
	r.State, r.Slot, r.Reason = state, slot, reason
	metrics.Bundles.WithLabelValues(r.Relay, state).Inc()
	if state == wire.BundleLanded {
		for _, a := range r.accepted {
			metrics.SenderLanded.WithLabelValues(wire.ChainSolana, a.name).Inc()
		}
	}
}

// Bundle returns the record of the bundle that carried signature: the
// relay's verdict, or pending while it has given none. ok is false for a
// signature this process sent in no bundle (or has forgotten).
func (s *Solana) Bundle(signature string) (wire.Bundle, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.bySig.get(signature)
	if !ok {
		return wire.Bundle{}, false
	}
	b := r.Bundle
	b.Signatures = append([]string(nil), r.Signatures...)
	return b, true
}

// ExpireBundle implements Bundler: the bundle carrying signature can no
// longer land (its blockhash expired) and gets its final verdict, invalid
// when the relay last said it does not know it, pending_timeout
// otherwise. It returns the record.
func (s *Solana) ExpireBundle(signature string) (wire.Bundle, bool) {
	s.mu.Lock()
	r, _ := s.bySig.get(signature)
	s.expireLocked(r)
	s.mu.Unlock()
	return s.Bundle(signature)
}

func (s *Solana) expireLocked(r *bundleRecord) {
	if r == nil {
		return
	}
	if r.inflight == inflightInvalid {
		s.settleLocked(r, wire.BundleInvalid, 0, "the relay does not know the bundle and its blockhash expired")
		return
	}
	s.settleLocked(r, wire.BundlePendingTimeout, 0, "the relay still had the bundle pending when its blockhash expired")
}

// BundleOutcome implements Bundler: the bundle's state is confirmed once
// the relay reports it landed and confirmed, with its slot; failed with
// the relay's reason when the relay failed or dropped it; "" while it has
// no verdict.
func (s *Solana) BundleOutcome(ctx context.Context, id string, _ []wire.SignedTx) (Status, error) {
	s.mu.Lock()
	r, ok := s.byID.get(id)
	var ask []relayTook
	if ok {
		now := time.Now()
		for _, relay := range r.toAsk() {
			if s.relayDue(relay.name, now) {
				ask = append(ask, relay)
			}
		}
	}
	s.mu.Unlock()
	if !ok {
		return Status{}, nil
	}
	var askErr error
	for _, relay := range ask {
		if err := s.askRelay(ctx, relay.relaySender, []string{relay.id}); err != nil {
			askErr = cmp.Or(askErr, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := r.status(); st.State != "" || askErr == nil {
		return st, nil
	}
	return Status{}, askErr
}

// status is what the record says of its transactions' state: confirmed or
// failed on the relay's verdict, "" otherwise (an expired bundle's
// transactions are judged on chain).
func (r *bundleRecord) status() Status {
	switch r.State {
	case wire.BundleLanded:
		return Status{State: wire.StateConfirmed, Slot: r.Slot}
	case wire.BundleFailed:
		return Status{State: wire.StateFailed, Err: r.Reason, Dropped: !r.txFailed}
	case wire.BundleDropped:
		return Status{State: wire.StateFailed, Err: r.Reason, Dropped: true}
	}
	return Status{}
}

// bundleStatus is getBundleStatuses' answer for a bundle that landed.
type bundleStatus struct {
	BundleID           string `json:"bundle_id"`
	Slot               uint64 `json:"slot"`
	ConfirmationStatus string `json:"confirmation_status"`
	Err                any    `json:"err"`
}

// inflightStatus is getInflightBundleStatuses' answer for one bundle.
type inflightStatus struct {
	BundleID string `json:"bundle_id"`
	Status   string `json:"status"`
	Err      any    `json:"err"`
}

// askRelay asks the relay about bundles (at most maxBundleIDs) and writes
// what it says into their records: getBundleStatuses for those that
// landed (final once confirmed), then getInflightBundleStatuses for the
// others, which tells a failed bundle from a pending or unknown one.
func (s *Solana) askRelay(ctx context.Context, relay relaySender, ids []string) error {
	var landed struct {
		Value []*bundleStatus `json:"value"`
	}
	if err := relay.r.CallForInto(ctx, &landed, "getBundleStatuses", []any{ids}); err != nil {
		return fmt.Errorf("get bundle statuses: %w", err)
	}
	// Jito's relay leaves a bundle it does not know out of the answer, in
	// place of a null: each answer is the bundle it names.
	byID := make(map[string]*bundleStatus, len(landed.Value))
	for j, st := range landed.Value {
		if st == nil {
			continue
		}
		id := st.BundleID
		if id == "" && len(landed.Value) == len(ids) {
			id = ids[j] // a relay that names none answers in place
		}
		byID[id] = st
	}
	var pending []string
	s.mu.Lock()
	for _, id := range ids {
		st := byID[id]
		r, _ := s.byID.get(id)
		switch {
		case st == nil:
			pending = append(pending, id)
		case st.Err != nil && !isOk(st.Err):
			// Listed, so landed, with an error the relay met looking it
			// up ("if retryable, please query again"): no verdict on its
			// transactions, which the chain tells.
		case st.ConfirmationStatus == string(rpc.ConfirmationStatusConfirmed) || st.ConfirmationStatus == string(rpc.ConfirmationStatusFinalized):
			s.settleLocked(r, wire.BundleLanded, st.Slot, "")
		}
		// Landed but only processed: asked again next time.
	}
	s.mu.Unlock()
	if len(pending) == 0 {
		return nil
	}
	var inflight struct {
		Value []inflightStatus `json:"value"`
	}
	if err := relay.r.CallForInto(ctx, &inflight, "getInflightBundleStatuses", []any{pending}); err != nil {
		return fmt.Errorf("get inflight bundle statuses: %w", err)
	}
	flying := make(map[string]inflightStatus, len(inflight.Value))
	for j, st := range inflight.Value {
		id := st.BundleID
		if id == "" && len(inflight.Value) == len(pending) {
			id = pending[j]
		}
		flying[id] = st
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range pending {
		r, ok := s.byID.get(id)
		st, told := flying[id]
		if !ok || !told {
			continue
		}
		r.inflight = st.Status
		if st.Status == inflightFailed {
			reason := "the bundle relay did not land the bundle"
			if st.Err != nil {
				reason += ": " + anchor.TxErrorTextNamed(st.Err, r.programError)
			}
			s.relayFailed(r, relay.name, reason, st.Err != nil)
		}
	}
	return nil
}

// programError names the error code of the bundle's failed instruction
// when its program is known (every transaction of the bundle has the same
// program at that index) and its errors are.
func (r *bundleRecord) programError(instruction int, code uint32) (*anchor.ProgramError, bool) {
	if r == nil || instruction < 0 || instruction >= len(r.programs) || r.programs[instruction] == nil {
		return nil, false
	}
	return venues.SolanaProgramError(*r.programs[instruction], code)
}

// bundlePrograms returns the program of each instruction index of a
// bundle's transactions: the one they all have there (those that have that
// many instructions), or nil where they differ; none when one does not
// decode.
func bundlePrograms(txs []wire.SignedTx) []*solana.PublicKey {
	var out []*solana.PublicKey
	for _, t := range txs {
		ps := instructionPrograms(t.Raw)
		if ps == nil {
			return nil
		}
		for j := range ps {
			switch {
			case j >= len(out):
				out = append(out, &ps[j])
			case out[j] != nil && !out[j].Equals(ps[j]):
				out[j] = nil
			}
		}
	}
	return out
}

// instructionPrograms returns the program of each instruction of a signed
// transaction, nil when it does not decode.
func instructionPrograms(raw []byte) []solana.PublicKey {
	tx, err := solana.TransactionFromBytes(raw)
	if err != nil {
		return nil
	}
	out := make([]solana.PublicKey, len(tx.Message.Instructions))
	for i, ci := range tx.Message.Instructions {
		p, err := tx.Message.Program(ci.ProgramIDIndex)
		if err != nil {
			return nil
		}
		out[i] = p
	}
	return out
}

// programLogs returns the last log lines of a failed simulation, which name
// the program error.
func programLogs(data any) []string {
	m, ok := data.(map[string]any)
	if !ok {
		return nil
	}
	logs, _ := m["logs"].([]any)
	out := make([]string, 0, len(logs))
	for _, l := range logs {
		if s, ok := l.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// refusalReason is a node's refusal of a transaction as the order shows
// it: its message, a venue program's own error named as its IDL names it
// (the message gives its code alone), and the last two lines of the
// simulation's logs.
func refusalReason(rerr *jsonrpc.RPCError) string {
	reason := rerr.Message
	logs := programLogs(rerr.Data)
	if p, code, ok := anchor.FailedProgram(logs); ok {
		if e, ok := venueError(p, code); ok {
			reason += " (" + e.Error() + ")"
		}
	}
	if len(logs) > 0 {
		reason += " [" + strings.Join(logs[max(0, len(logs)-2):], "; ") + "]"
	}
	return reason
}

// venueError names a venue program's own error, the program in base58.
func venueError(program string, code uint32) (*anchor.ProgramError, bool) {
	pk, err := solana.PublicKeyFromBase58(program)
	if err != nil {
		return nil, false
	}
	return venues.SolanaProgramError(pk, code)
}

// failureText renders the error of a transaction that landed failed, a
// program's own error named: the program that failed it is read from the
// transaction's logs, once (failures are rare), the innermost of a call
// chain, and named when its errors are known (a venue's, the token
// programs', the System program's); a read that fails leaves the code
// alone.
func (s *Solana) failureText(ctx context.Context, sig solana.Signature, txErr any) string {
	return anchor.TxErrorTextNamed(txErr, func(_ int, code uint32) (*anchor.ProgramError, bool) {
		version := uint64(0)
		res, err := s.rpc.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{
			Encoding: solana.EncodingBase64, Commitment: rpc.CommitmentConfirmed, MaxSupportedTransactionVersion: &version,
		})
		if err != nil || res == nil || res.Meta == nil {
			return nil, false
		}
		p, logged, ok := anchor.FailedProgram(res.Meta.LogMessages)
		if !ok || logged != code {
			return nil, false
		}
		return venueError(p, code)
	})
}

// Statuses implements Chain. A signature sent in a bundle is followed
// through the relay: the bundle's verdict once it landed or failed; while
// the relay has none, or does not know the bundle, through
// getSignatureStatuses like every other signature. A bundle still without
// a verdict when its blockhash expired gets its final one here.
func (s *Solana) Statuses(ctx context.Context, sigs []string) ([]Status, error) {
	out := make([]Status, len(sigs))
	public := make([]int, 0, len(sigs))
	s.answerFromRecords(ctx, sigs, out)
	// The chain is asked about every signature without a verdict, those
	// of bundles the relay still calls pending too: a transaction the
	// chain holds landed, whatever the relay says (a relay that lost a
	// bundle's verdict held such orders broadcast until their blockhash
	// expired, or for good). So is every one a relay calls failed, before
	// that is final: a bundle sent again after it landed is failed by the
	// relay that took the second copy (its transactions already
	// processed), and that relay's record may be the one kept.
	for i := range sigs {
		if out[i].State == "" || out[i].State == wire.StateFailed {
			public = append(public, i)
		}
	}
	if err := s.askChain(ctx, sigs, public, out); err != nil {
		return nil, err
	}
	s.expireBundles(sigs, out)
	return out, nil
}

// ChainStatuses is Statuses from the chain alone, whatever the relays
// recorded of the transactions' bundles.
func (s *Solana) ChainStatuses(ctx context.Context, sigs []string) ([]Status, error) {
	out := make([]Status, len(sigs))
	all := make([]int, len(sigs))
	for i := range all {
		all[i] = i
	}
	if err := s.askChain(ctx, sigs, all, out); err != nil {
		return nil, err
	}
	return out, nil
}

// askChain fills out[i] for each i of public from the chain's statuses of
// sigs[i], and settles the bundle records of what it finds landed.
func (s *Solana) askChain(ctx context.Context, sigs []string, public []int, out []Status) error {
	if len(public) == 0 {
		return nil
	}
	keys := make([]solana.Signature, len(public))
	for j, i := range public {
		k, err := solana.SignatureFromBase58(sigs[i])
		if err != nil {
			return fmt.Errorf("signature %q: %w", sigs[i], err)
		}
		keys[j] = k
	}
	res, err := s.rpc.GetSignatureStatuses(ctx, true, keys...)
	if err != nil {
		return fmt.Errorf("get signature statuses: %w", err)
	}
	// A node behind the one that read the height may not know yet a
	// transaction that landed before its blockhash expired.
	for _, i := range public {
		out[i].AsOf = res.Context.Slot
	}
	for j, v := range res.Value {
		if j >= len(public) || v == nil {
			continue
		}
		i := public[j]
		switch {
		case v.ConfirmationStatus == rpc.ConfirmationStatusProcessed:
			// In a block not yet confirmed, which a fork may drop and the
			// transaction then land elsewhere: not final yet, but seen, so
			// neither expired nor sent again meanwhile; a relay's failure
			// of another copy of it is no verdict.
			out[i] = Status{Slot: v.Slot, AsOf: res.Context.Slot}
		case v.Err != nil:
			out[i] = Status{State: wire.StateFailed, Err: s.failureText(ctx, keys[j], v.Err), Slot: v.Slot}
			s.settle(sigs[i], wire.BundleFailed, 0, out[i].Err)
		case v.ConfirmationStatus == rpc.ConfirmationStatusConfirmed || v.ConfirmationStatus == rpc.ConfirmationStatusFinalized:
			out[i] = Status{State: wire.StateConfirmed, Slot: v.Slot}
			s.settle(sigs[i], wire.BundleLanded, v.Slot, "")
			s.landed(sigs[i])
		}
	}
	return nil
}

// answerFromRecords fills out for the signatures whose bundle has a
// verdict, asking the relay about the bundles that have none yet. If the
// relay does not answer, every bundled signature is left to the public
// RPC, which knows landed transactions.
func (s *Solana) answerFromRecords(ctx context.Context, sigs []string, out []Status) {
	if len(s.relays) == 0 {
		return
	}
	// The bundles without a verdict, by the relay to ask: every relay
	// that took one and has not failed it.
	ids := make(map[string][]string)
	var order []relaySender
	seen := make(map[string]bool)
	s.mu.Lock()
	for _, sig := range sigs {
		if r, ok := s.bySig.get(sig); ok && r.statuses && r.ID != "" && !wire.FinalBundle(r.State) && !seen[r.ID] {
			seen[r.ID] = true
			for _, relay := range r.toAsk() {
				if ids[relay.name] == nil {
					order = append(order, relay.relaySender)
				}
				ids[relay.name] = append(ids[relay.name], relay.id)
			}
		}
	}
	now := time.Now()
	order = slices.DeleteFunc(order, func(relay relaySender) bool { return !s.relayDue(relay.name, now) })
	s.mu.Unlock()
	for _, relay := range order {
		batch := ids[relay.name]
		for start := 0; start < len(batch); start += maxBundleIDs {
			if err := s.askRelay(ctx, relay, batch[start:min(start+maxBundleIDs, len(batch))]); err != nil {
				// This relay is silent; the others, and the chain, tell.
				break
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, sig := range sigs {
		r, ok := s.bySig.get(sig)
		if !ok || !r.statuses {
			continue
		}
		st := r.status()
		if st.Dropped {
			// A bundle refused when it was sent, or taken and then
			// dropped with no transaction of it failing, is no verdict on
			// the transaction: what a tracked transaction's refused send
			// follows is an earlier send, which may have landed (in a
			// process that died since), and a dropped bundle's bytes may
			// still land, sent again by a delivery of the batch running
			// beside this one. The chain tells, and the blockhash's
			// expiry ends the wait.
			continue
		}
		out[i] = st
	}
}

// expireBundles gives the bundles of sigs that are still without a verdict
// and whose blockhash expired (the chain's height, as last read, is past
// their last valid height) their final verdict: they can no longer land.
func (s *Solana) expireBundles(sigs []string, out []Status) {
	height := s.height.Load()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, sig := range sigs {
		if r, ok := s.bySig.get(sig); ok && r.statuses && out[i].State == "" && r.lastValid > 0 && height > r.lastValid {
			s.expireLocked(r)
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
	// The epoch's answer carries the height with its slot, against which
	// the statuses' nodes are measured.
	info, err := s.rpc.GetEpochInfo(ctx, rpc.CommitmentConfirmed)
	if err == nil && info == nil {
		err = errors.New("getEpochInfo: empty answer")
	}
	if err != nil {
		return 0, err
	}
	s.height.Store(info.BlockHeight)
	// Never back: concurrent reads (the tracker's, a launch's wait) may be
	// answered by nodes apart, and a slot lower than one already seen
	// would take a lagging node's silence for a verdict.
	for {
		old := s.heightSlot.Load()
		if info.AbsoluteSlot <= old || s.heightSlot.CompareAndSwap(old, info.AbsoluteSlot) {
			break
		}
	}
	return info.BlockHeight, nil
}

// HeightSlot implements HeightSlotter: the slot at which Height last read
// the height.
func (s *Solana) HeightSlot() uint64 { return s.heightSlot.Load() }

// Slot implements Bundler: the slot the chain is processing, so that a
// bundle sent once it is past a landed bundle's slot lands in a later one.
func (s *Solana) Slot(ctx context.Context) (uint64, error) {
	return s.rpc.GetSlot(ctx, rpc.CommitmentProcessed)
}

// RentReturned reads from the landed transaction signature what closing
// account returned: the account's lamports before the transaction less
// after it (none left once closed). A transaction that failed closed
// nothing and returned 0.
func (s *Solana) RentReturned(ctx context.Context, signature, account string) (uint64, error) {
	sig, err := solana.SignatureFromBase58(signature)
	if err != nil {
		return 0, fmt.Errorf("signature %q: %w", signature, err)
	}
	acc, err := solana.PublicKeyFromBase58(account)
	if err != nil {
		return 0, fmt.Errorf("account %q: %w", account, err)
	}
	version := uint64(0)
	res, err := s.rpc.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{
		Encoding: solana.EncodingBase64, Commitment: rpc.CommitmentConfirmed, MaxSupportedTransactionVersion: &version,
	})
	if err != nil {
		return 0, fmt.Errorf("get transaction %s: %w", signature, err)
	}
	if res == nil || res.Meta == nil || res.Transaction == nil {
		return 0, fmt.Errorf("get transaction %s: no transaction with its meta", signature)
	}
	if res.Meta.Err != nil {
		return 0, nil
	}
	tx, err := res.Transaction.GetTransaction()
	if err != nil {
		return 0, fmt.Errorf("decode transaction %s: %w", signature, err)
	}
	keys := append(append(append(solana.PublicKeySlice{}, tx.Message.AccountKeys...),
		res.Meta.LoadedAddresses.Writable...), res.Meta.LoadedAddresses.ReadOnly...)
	for i, k := range keys {
		if k != acc {
			continue
		}
		if i >= len(res.Meta.PreBalances) || i >= len(res.Meta.PostBalances) {
			return 0, fmt.Errorf("transaction %s: no balances of account %d", signature, i)
		}
		if pre, post := res.Meta.PreBalances[i], res.Meta.PostBalances[i]; pre > post {
			return pre - post, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("transaction %s does not name account %s", signature, account)
}

// loneRPC reports whether the RPC is the chain's only sender of public
// transactions: the tracker then counts their landings as the RPC's.
func (s *Solana) loneRPC() bool { return len(s.senders) == 0 }

// RentReader is a chain that reads from a landed transaction what closing
// an account returned to its wallet (Solana): a sell of a wallet's whole
// holding closes its token account, and the order shows the rent.
type RentReader interface {
	RentReturned(ctx context.Context, signature, account string) (uint64, error)
}

// BundleBook is a chain that sends transactions in bundles and keeps, for
// a while, each bundle's record with the relay's verdict (Solana).
type BundleBook interface {
	Bundle(signature string) (wire.Bundle, bool)
}

// bundlesOf returns the records chain keeps of the bundles that carried
// sigs, one per bundle, in the order of sigs; none when chain keeps none.
func bundlesOf(chain Chain, sigs []string) []wire.Bundle {
	book, ok := chain.(BundleBook)
	if !ok {
		return nil
	}
	var out []wire.Bundle
	for _, sig := range sigs {
		if b, ok := book.Bundle(sig); ok {
			out = mergeBundles(out, b)
		}
	}
	return out
}

// settleBundles gives every bundle of o that is still pending, and whose
// transactions are all final in o, the verdict its transactions had: a
// relay that never answered, or a broadcaster that restarted and lost its
// records, leaves no bundle pending for ever. Confirmed transactions make
// it landed (in a slot not known), a failed one failed with its error,
// expired ones pending_timeout.
func settleBundles(o *wire.Order) {
	states := make(map[string]wire.SigState, len(o.Signatures))
	for _, s := range o.Signatures {
		states[s.Signature] = s
	}
	for i := range o.Bundles {
		b := &o.Bundles[i]
		if b.State != wire.BundlePending || len(b.Signatures) == 0 {
			continue
		}
		state, reason := wire.BundleLanded, ""
		for _, sig := range b.Signatures {
			s, ok := states[sig]
			if !ok || !wire.FinalState(s.State) {
				state = ""
				break
			}
			switch {
			case s.State == wire.StateFailed:
				state, reason = wire.BundleFailed, s.Error
			case s.State == wire.StateExpired && state == wire.BundleLanded:
				state, reason = wire.BundlePendingTimeout, "no verdict from the relay before the blockhash expired"
			}
		}
		if state != "" {
			b.State, b.Reason = state, cmp.Or(reason, b.Reason)
		}
	}
}

// signaturesOf lists the signatures of txs.
func signaturesOf(txs []wire.SignedTx) []string {
	out := make([]string, len(txs))
	for i, t := range txs {
		out[i] = t.Signature
	}
	return out
}

// applyLandingNotes writes into o what the chain told of its transactions
// beyond their states: the bundles they went in (merged into o's) and, by
// signature, the rent closing an account returned; then it settles the
// bundles the relay left pending whose transactions are final.
func applyLandingNotes(o *wire.Order, bundles []wire.Bundle, rents map[string]uint64) {
	o.Bundles = mergeBundles(o.Bundles, bundles...)
	for i := range o.Signatures {
		if r, ok := rents[o.Signatures[i].Signature]; ok {
			o.Signatures[i].RentReturnedLamports = r
		}
	}
	settleBundles(o)
}
