package ingress

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// IdempotencyHeader names the request header that makes a swap or deploy
// safe to retry.
const IdempotencyHeader = "Idempotency-Key"

// replayedHeader marks an answer replayed for a repeated key.
const replayedHeader = "Idempotent-Replayed"

const maxIdempotencyKeyLen = 255

// idemStaleGrace is how long past the request timeout a first request may
// stay in flight before a repeat takes it for dead: no live ingress holds a
// request that long.
const idemStaleGrace = 5 * time.Second

// idemRecord is what the idempotency bucket keeps per key: the request's
// fingerprint, the order it claimed the key for, and once answered, the
// answer.
type idemRecord struct {
	Fingerprint string          `json:"fingerprint"`
	Started     time.Time       `json:"started"`
	OrderID     string          `json:"order_id,omitempty"`
	Done        bool            `json:"done"`
	Status      int             `json:"status,omitempty"`
	Body        json.RawMessage `json:"body,omitempty"`
}

// idemState is one keyed request's view of its key. Once the request has
// claimed the key it holds the record it wrote and that record's revision,
// so that every later write is a compare-and-set: a request whose key was
// taken over meanwhile can no longer write it.
type idemState struct {
	kvKey, fp string
	// alt is the fingerprint an earlier version kept for the same body
	// (its numbers as spelled), which a record made before still holds;
	// made only when a record's fingerprint is not fp.
	alt     func() string
	claimed bool
	// inherited: the claim was taken over from a request that died, under
	// its order id, whose job may be in the stream already.
	inherited bool
	// look: resolveKey only looks, and leaves a stale key as it is (see
	// answeredByKey).
	look bool
	rec  idemRecord
	rev  uint64
}

const ctxIdem = "tapi.idem"

// idemOf returns the key state of a keyed request, nil without a key.
func idemOf(c *gin.Context) *idemState {
	if v, ok := c.Get(ctxIdem); ok {
		return v.(*idemState)
	}
	return nil
}

// idempotent makes a POST with an Idempotency-Key answer once per account,
// family and key for 24 hours: a repeat gets the first answer without
// trading again, a repeat while the first is in flight waits for it, and
// the same key with another body is 409 IDEMPOTENCY_CONFLICT.
//
// Only charged answers are kept. The key is claimed just before the charge
// (admit, claim) and not before, so a request refused for free (400, 403,
// 429, 503) writes nothing at all, and the store holds per account at most
// what its budget let through.
func (h *handler) idempotent(c *gin.Context) {
	// A key given twice with two values (a proxy adding its own, a client
	// library merging headers) is not guessed at: which one the first
	// request used decides whether a retry trades again.
	if vals := c.Request.Header.Values(IdempotencyHeader); len(vals) > 1 && slices.ContainsFunc(vals[1:], func(v string) bool { return v != vals[0] }) {
		envelope.Fail(c, apierr.Invalid(IdempotencyHeader, "Idempotency-Key is given %d times with different values; give it once", len(vals)))
		return
	}
	key := c.GetHeader(IdempotencyHeader)
	if key == "" && len(c.Request.Header.Values(IdempotencyHeader)) > 0 {
		// Sent, but empty (or blanks): a client's key generator that
		// failed. Taken for no key, its retries would trade again.
		envelope.Fail(c, apierr.Invalid(IdempotencyHeader, "Idempotency-Key is empty; give a key, or leave the header out"))
		return
	}
	if key == "" || h.s.deps.Idempotency == nil {
		c.Next()
		return
	}
	if len(key) > maxIdempotencyKeyLen {
		envelope.Fail(c, apierr.Invalid(IdempotencyHeader, "Idempotency-Key must be at most %d bytes", maxIdempotencyKeyLen))
		return
	}
	account, body := c.GetString(ctxAccount), envelope.ReadBody(c)
	route := c.FullPath()
	st := &idemState{kvKey: idemKVKey(account, h.l.Family, key), fp: fingerprint(route, body),
		alt: func() string { return spelledFingerprint(route, body) }}
	held, err := h.legacyKeyHeld(c, account, key)
	if err != nil {
		h.idemFailed(c, err)
		return
	}
	if held {
		st.kvKey, st.fp = legacyIdemKVKey(account, h.l.Family, c.FullPath(), key), legacyFingerprint(body)
	}
	// A repeat is answered from its key before its body is checked again:
	// the first answer stands even if the account changed since.
	if h.resolveKey(c, st) != keyRun {
		return
	}
	c.Set(ctxIdem, st)
	rw := &capture{ResponseWriter: c.Writer}
	c.Writer = rw
	c.Next()
	h.settle(c, st, rw.Status(), rw.body.Bytes())
}

// idemKVKey is the bucket key of an Idempotency-Key: per account and
// family, whatever the route (a swap and a launch under one key are one
// key, and the second is a conflict), hashed so that any header value
// makes a valid key.
func idemKVKey(account string, f wire.Family, key string) string {
	sum := sha256.Sum256([]byte(account + "\x00" + string(f) + "\x00" + key))
	return hex.EncodeToString(sum[:])
}

// legacyIdemKVKey is the bucket key an earlier version gave a key: per
// route too. Its records live at most the bucket's 24 hours.
func legacyIdemKVKey(account string, f wire.Family, route, key string) string {
	sum := sha256.Sum256([]byte(account + "\x00" + string(f) + "\x00" + route + "\x00" + key))
	return hex.EncodeToString(sum[:])
}

// legacyKeyHeld reports whether an earlier version's record holds the key
// (see legacyIdemKVKey): a repeat of a request made before an upgrade is
// then answered from it, never run again. A read that fails is an error,
// answered as the store's trouble: taken for held or for free, it would
// put this request on one key while a repeat whose read succeeds claims
// the other, and both would trade. Once no version older than this one has
// run for 24 hours, no such record is left and this read finds nothing.
func (h *handler) legacyKeyHeld(c *gin.Context, account, key string) (bool, error) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), storeTimeout)
	defer cancel()
	_, err := h.s.deps.Idempotency.Get(ctx, legacyIdemKVKey(account, h.l.Family, c.FullPath(), key))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return false, nil
	}
	return false, err
}

// keyOutcome is what resolveKey made of a key.
type keyOutcome int

const (
	// keyRun: run the request; the key is free, or this request has taken
	// it over from a dead one.
	keyRun keyOutcome = iota
	// keyAnswered: the request was answered from the key.
	keyAnswered
	// keyAgain: the record moved on meanwhile; read it again.
	keyAgain
)

// resolveKey reads the key's record and answers what it holds: the stored
// answer, a conflict, or, while the first request is in flight, its answer
// once it comes. A first request in flight past the request timeout and
// idemStaleGrace is taken for dead (takeOver).
func (h *handler) resolveKey(c *gin.Context, st *idemState) keyOutcome {
	kv := h.s.deps.Idempotency
	ctx, cancel := context.WithTimeout(c.Request.Context(), h.s.cfg.RequestTimeout+idemStaleGrace+time.Second)
	defer cancel()
	var w jetstream.KeyWatcher
	defer func() {
		if w != nil {
			_ = w.Stop()
		}
	}()
	for {
		e, err := kv.Get(ctx, st.kvKey)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return keyRun
		}
		if err != nil {
			h.idemFailed(c, err)
			return keyAnswered
		}
		var rec idemRecord
		if err := json.Unmarshal(e.Value(), &rec); err != nil {
			envelope.Fail(c, apierr.Wrap(err, "damaged idempotency record"))
			return keyAnswered
		}
		switch staleAt := rec.Started.Add(h.s.cfg.RequestTimeout + idemStaleGrace); {
		case rec.Fingerprint != st.fp && rec.Fingerprint != st.alt():
			envelope.Fail(c, apierr.Newf(apierr.IdempotencyConflict, IdempotencyHeader,
				"this Idempotency-Key was used with a different request body"))
			return keyAnswered
		case rec.Done:
			// The rate headers as the budget is now: a repeat that waited
			// for the first request showed the budget before its charge.
			account := c.GetString(ctxAccount)
			h.s.deps.Budget.Peek(account, h.l.Family, h.limits(account)).Headers(c.Writer.Header())
			replay(c, &rec)
			return keyAnswered
		case !time.Now().Before(staleAt) && st.look:
			return keyRun
		case !time.Now().Before(staleAt):
			if out := h.takeOver(ctx, c, st, e.Revision(), &rec); out != keyAgain {
				return out
			}
		case w == nil:
			// Watch, then read again: the answer may have come before the
			// watch began.
			if w, err = kv.Watch(ctx, st.kvKey, jetstream.UpdatesOnly()); err != nil {
				h.idemFailed(c, err)
				return keyAnswered
			}
		default:
			if !waitKey(ctx, c, w, staleAt, &rec) {
				return keyAnswered
			}
		}
	}
}

// idemRecheck is how often a repeat waiting on a key reads it again: a
// withdrawn claim's delete, purged right after it (sweepMarker), may never
// reach the watch, and the repeat would wait for the stale time.
const idemRecheck = time.Second

// waitKey waits until the key's record changes, goes stale, or is due to
// be read again (idemRecheck). When the request's own wait ends first, it
// answers and returns false.
func waitKey(ctx context.Context, c *gin.Context, w jetstream.KeyWatcher, staleAt time.Time, rec *idemRecord) bool {
	t := time.NewTimer(min(time.Until(staleAt), idemRecheck))
	defer t.Stop()
	select {
	case <-w.Updates():
		return true
	case <-t.C:
		return true
	case <-ctx.Done():
		if err := c.Request.Context().Err(); err != nil {
			// The repeat's own client left: no timeout of the service's.
			envelope.Fail(c, err)
			return false
		}
		e := apierr.New(apierr.UpstreamTimeout, "the first request with this Idempotency-Key is still in flight")
		if rec.OrderID != "" {
			e = e.WithOrder(rec.OrderID)
		}
		envelope.Fail(c, e)
		return false
	}
}

// takeOver deals with a key whose first request has been in flight past
// any answer it could still give: its ingress died or hung. The order that
// request made, if one exists, is the answer. Otherwise this request takes
// the key over (a compare-and-set, so one repeat wins) and runs in its
// place under the same order id: a job the first one did publish is then
// deduplicated by the stream and signed only once by the worker, so the
// order cannot happen twice.
func (h *handler) takeOver(ctx context.Context, c *gin.Context, st *idemState, rev uint64, rec *idemRecord) keyOutcome {
	if rec.OrderID != "" {
		o, err := h.s.orders.Get(ctx, rec.OrderID)
		switch {
		case err == nil:
			answerFromOrder(c, o)
			return keyAnswered
		case !errors.Is(err, orders.ErrNotFound):
			h.takeoverFailed(c, err, rec.OrderID, "the order store", "read the order of a stale idempotency key")
			return keyAnswered
		}
	}
	fresh := idemRecord{Fingerprint: st.fp, Started: time.Now().UTC(), OrderID: rec.OrderID}
	if fresh.OrderID == "" {
		fresh.OrderID = newOrderID(h.l.orderPrefix())
	}
	b, _ := json.Marshal(fresh)
	// As a claim (see claim), the takeover's write must be known.
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	newRev, err := h.s.deps.Idempotency.Update(uctx, st.kvKey, b, rev)
	cancel()
	switch {
	case err == nil:
		st.claimed, st.inherited, st.rec, st.rev = true, true, fresh, newRev
		h.s.log.Info("took over a stale idempotency key", "order_id", fresh.OrderID)
		return keyRun
	case bus.Conflict(err):
		return keyAgain
	}
	if rec.OrderID != "" {
		h.takeoverFailed(c, err, rec.OrderID, "the idempotency store", "stale idempotency key not taken over")
		return keyAnswered
	}
	h.idemFailed(c, err)
	return keyAnswered
}

// takeoverFailed answers a repeat whose look at, or takeover of, a dead
// request's key failed in the store named what, that request's order id
// known: its order may exist, or its job be in the stream not yet worked,
// so the answer names the order to look up and says to send again with
// the same key, never that nothing was traded nor to go on without the
// key, which could trade twice.
func (h *handler) takeoverFailed(c *gin.Context, err error, orderID, what, msg string) {
	if envelope.ClientGone(c, err) {
		envelope.Fail(c, err)
		return
	}
	h.s.log.Warn(msg, "order_id", orderID, "err", err)
	countStoreFailure(what)
	envelope.Fail(c, apierr.Newf(apierr.Overloaded, "",
		"%s did not answer for this key's first request, whose order %s may have traded or may still trade: look the order up, and send it again with the same key", what, orderID).
		WithOrder(orderID))
}

// maxClaimRaces bounds the claims a request loses to others with its key
// before it gives up.
const maxClaimRaces = 20

// claim makes this request its key's owner, holding orderID in the record,
// just before the request is charged. It returns the order id to use (the
// first request's, after a takeover), or answers the request itself and
// returns false. A request without a key claims nothing.
func (h *handler) claim(c *gin.Context, orderID string) (string, bool) {
	st := idemOf(c)
	if st == nil {
		return orderID, true
	}
	for attempt := 0; !st.claimed; attempt++ {
		rec := idemRecord{Fingerprint: st.fp, Started: time.Now().UTC(), OrderID: orderID}
		b, _ := json.Marshal(rec)
		// The claim does not follow the client's context: a create whose
		// caller stopped listening may still be written, and a claim
		// written but not known would be left for a repeat to wait out,
		// and refuse a corrected body for a day. Known, it is withdrawn
		// when the request ends uncharged (settle).
		ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), storeTimeout)
		rev, err := h.s.deps.Idempotency.Create(ctx, st.kvKey, b)
		cancel()
		if err == nil {
			st.claimed, st.rec, st.rev = true, rec, rev
			break
		}
		// A key whose claim was withdrawn holds a delete marker: two
		// requests creating it over the marker race on its revision, and
		// the loser's create fails as a compare-and-set does.
		if !bus.Conflict(err) {
			h.idemFailed(c, err)
			return "", false
		}
		if attempt == maxClaimRaces {
			// Each race lost is another request's claim, which then ended
			// without an answer to keep (refused for free): the store is
			// fine, and the key is free to try again.
			envelope.Fail(c, apierr.New(apierr.Overloaded, "other requests with this Idempotency-Key kept taking it and ending without an answer; nothing was traded, try again"))
			return "", false
		}
		// A request with the same key got there first: its answer is this
		// one's, unless it ends without one.
		if h.resolveKey(c, st) == keyAnswered {
			return "", false
		}
	}
	return st.rec.OrderID, true
}

// idemFailed answers a request whose read or write of its key failed: the
// store's trouble, logged and counted, unless the client had gone already
// and the call ended for that (storeFailed).
func (h *handler) idemFailed(c *gin.Context, err error) {
	h.storeFailed(c, "the idempotency store", nothingTraded, err, "idempotency store unavailable")
}

// settle keeps the answer of a charged request for its key, and withdraws
// the claim of a request that ended before its charge, so that the same
// key with a corrected body runs as a first request. Both writes expect
// the claim's revision and leave a key taken over meanwhile to its new
// owner.
func (h *handler) settle(c *gin.Context, st *idemState, status int, body []byte) {
	if !st.claimed {
		return
	}
	kv := h.s.deps.Idempotency
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if c.GetString(ctxOrderID) == "" {
		if st.inherited {
			// A claim taken over keeps the dead request's order id, whose
			// job may be in the stream: withdrawn, the next repeat would
			// run under a new id and the two jobs trade twice. It stays,
			// and a repeat takes it over again once it is stale, under the
			// same id, so that the stream keeps one job.
			return
		}
		if err := kv.Delete(ctx, st.kvKey, jetstream.LastRevision(st.rev)); err != nil {
			h.s.log.Warn("withdraw idempotency claim", "err", err)
			return
		}
		h.sweepMarker(ctx, st.kvKey)
		return
	}
	rec := st.rec
	rec.Done, rec.Status, rec.Body = true, status, body
	b, _ := json.Marshal(rec)
	if _, err := kv.Update(ctx, st.kvKey, b, st.rev); err != nil {
		h.s.log.Error("store idempotent answer", "order_id", rec.OrderID, "err", err)
	}
}

// kvOperation is the header of a key-value record that says what it is:
// kvDeleted for the marker a delete leaves.
const (
	kvOperation = "KV-Operation"
	kvDeleted   = "DEL"
)

// sweepMarker removes the marker a withdrawn claim (an Idempotency-Key's,
// or a skip_if_bought buy's) leaves in the bucket's stream, right after
// the delete that tells a repeat waiting on the key (a watch not yet
// handed the delete misses it, and its repeat finds the key gone when it
// reads it again: idemRecheck). Kept for the bucket's 24 hours, the
// markers of requests never charged grew the store past what the
// account's budget bounds: a bot sending keyed orders the workers refuse,
// free, could fill it for every account. The purge takes the key's
// messages up to the marker only, so a claim taken since stays; a key
// whose last record is not a marker is left as it is. What fails is
// logged: the marker stays, as before.
func (h *handler) sweepMarker(ctx context.Context, key string) {
	st := h.s.deps.IdempotencyStream
	if st == nil {
		return
	}
	subject := "$KV." + bus.BucketIdempotency + "." + key
	m, err := st.GetLastMsgForSubject(ctx, subject)
	if err != nil {
		h.s.log.Warn("read a withdrawn idempotency claim's marker", "err", err)
		return
	}
	if m.Header.Get(kvOperation) != kvDeleted {
		return
	}
	if err := st.Purge(ctx, jetstream.WithPurgeSubject(subject), jetstream.WithPurgeSequence(m.Sequence+1)); err != nil {
		h.s.log.Warn("purge a withdrawn idempotency claim's marker", "err", err)
	}
}

// replay answers a repeat with the first request's answer.
func replay(c *gin.Context, rec *idemRecord) {
	c.Header(replayedHeader, "true")
	if rec.OrderID != "" {
		c.Header("X-Order-Id", rec.OrderID)
	}
	c.Data(rec.Status, "application/json; charset=utf-8", rec.Body)
	c.Abort()
}

// answerFromOrder answers a repeat whose first request died after making
// its order, from that order as the order lookup shows it now: its error,
// the swap's signatures or the launch's result, or, while no worker has
// answered for it yet, 504 naming it.
func answerFromOrder(c *gin.Context, o *wire.Order) {
	c.Header(replayedHeader, "true")
	c.Header("X-Order-Id", o.OrderID)
	switch {
	case o.Kind == wire.KindDeploy && o.State == wire.StateConfirmed && o.Deploy != nil:
		// Its coin is on chain: what landed, also when a later bundle did
		// not (an earlier version recorded that launch with an error).
		envelope.OK(c, http.StatusOK, newDeployResult(o.Deploy))
	case o.Error != nil:
		e := apierr.FromBody(*o.Error)
		if e.Status() >= 500 && e.Details == "" {
			e = e.WithOrder(o.OrderID)
		}
		envelope.Fail(c, e)
	case o.Kind == wire.KindDeploy || o.State == wire.StatePending:
		envelope.Fail(c, apierr.New(apierr.UpstreamTimeout,
			"the first request with this Idempotency-Key did not finish and its order has no answer yet; look it up by order_id").WithOrder(o.OrderID))
	default:
		// The transactions that landed, or may still: not those that failed
		// without landing (refused when sent, or a bundle the relay failed),
		// which the first answer, when they were refused, left out too.
		sigs := make([]string, 0, len(o.Signatures))
		for _, s := range o.Signatures {
			if s.State != wire.StateFailed || s.Slot > 0 {
				sigs = append(sigs, s.Signature)
			}
		}
		envelope.OK(c, http.StatusOK, swapResult{OrderID: o.OrderID, Signatures: sigs, Skipped: o.Skipped})
	}
	c.Abort()
}

// fingerprint identifies a request body regardless of key order, spacing
// and how its numbers are spelled (10, 10.0 and 1e1 are one number; a
// client that rebuilds its request with another JSON library repeats it):
// the SHA-256 of its canonical JSON, or of its bytes when it is not JSON.
func fingerprint(route string, body []byte) string {
	sum := sha256.Sum256([]byte(route + "\x00" + canonicalFingerprint(body)))
	return hex.EncodeToString(sum[:])
}

// spelledFingerprint is fingerprint as an earlier version made it, each
// number as spelled.
func spelledFingerprint(route string, body []byte) string {
	sum := sha256.Sum256([]byte(route + "\x00" + legacyFingerprint(body)))
	return hex.EncodeToString(sum[:])
}

// canonicalFingerprint is the SHA-256 of body's canonical JSON with every
// number in its shortest exact decimal, or of its bytes when it is not
// JSON.
func canonicalFingerprint(body []byte) string { return bodyFingerprint(body, true) }

// canonicalNumbers rewrites every number of a decoded JSON value in its
// shortest exact decimal.
func canonicalNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = canonicalNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = canonicalNumbers(e)
		}
	case json.Number:
		return json.Number(canonicalNumber(string(x)))
	}
	return v
}

// canonicalNumber is a JSON number literal's shortest exact decimal
// ("1e-05" and "0.000010" are "0.00001", money.Decimal); a literal beyond
// money's bounds is kept as spelled. Its cost is the literal's bytes: a
// body is fingerprinted before it is checked, and a body of thousands of
// numbers must cost no more than its bytes do.
func canonicalNumber(lit string) string {
	out, err := money.Decimal(lit)
	if err != nil {
		return lit
	}
	return out
}

// legacyFingerprint is the fingerprint of a body alone, as an earlier
// version kept it (see legacyIdemKVKey): its numbers as spelled.
func legacyFingerprint(body []byte) string { return bodyFingerprint(body, false) }

// bodyFingerprint is the SHA-256 of body's canonical JSON (key order and
// spacing aside; numbers in their shortest exact decimal when canonical
// is set, as spelled otherwise), or of its bytes when it is not JSON.
func bodyFingerprint(body []byte, canonical bool) string {
	var v any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if d.Decode(&v) == nil {
		if canonical {
			v = canonicalNumbers(v)
		}
		if canon, err := json.Marshal(v); err == nil {
			body = canon
		}
	}
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// capture keeps a copy of what the handler writes.
type capture struct {
	gin.ResponseWriter
	body bytes.Buffer
}

func (w *capture) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *capture) WriteString(s string) (int, error) {
	w.body.WriteString(s)
	return w.ResponseWriter.WriteString(s)
}
