package ingress

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
)

// IdempotencyHeader names the request header that makes a swap or deploy
// safe to retry.
const IdempotencyHeader = "Idempotency-Key"

const maxIdempotencyKeyLen = 255

// idemRecord is what the idempotency bucket keeps per key: the request's
// fingerprint and, once answered, the answer.
type idemRecord struct {
	Fingerprint string          `json:"fingerprint"`
	Started     time.Time       `json:"started"`
	OrderID     string          `json:"order_id,omitempty"`
	Done        bool            `json:"done"`
	Status      int             `json:"status,omitempty"`
	Body        json.RawMessage `json:"body,omitempty"`
}

// idempotent makes a POST with an Idempotency-Key answer exactly once per
// account, family and key for 24 hours: a repeat gets the first answer
// without trading again, a repeat while the first is in flight waits for
// it, and the same key with another body is 409 IDEMPOTENCY_CONFLICT.
// Answers that did nothing and invite a retry (429, and 503 before an
// order existed) are not kept.
func (h *handler) idempotent(c *gin.Context) {
	key := c.GetHeader(IdempotencyHeader)
	kv := h.s.deps.Idempotency
	if key == "" || kv == nil {
		c.Next()
		return
	}
	if len(key) > maxIdempotencyKeyLen {
		envelope.Fail(c, apierr.Invalid(IdempotencyHeader, "Idempotency-Key must be at most %d characters", maxIdempotencyKeyLen))
		return
	}
	account := c.GetString(ctxAccount)
	sum := sha256.Sum256([]byte(account + "\x00" + string(h.l.Family) + "\x00" + c.FullPath() + "\x00" + key))
	kvKey := hex.EncodeToString(sum[:])
	fp := fingerprint(envelope.ReadBody(c))
	ctx := c.Request.Context()

	rec := idemRecord{Fingerprint: fp, Started: time.Now().UTC()}
	b, _ := json.Marshal(rec)
	for attempt := 0; ; attempt++ {
		_, err := kv.Create(ctx, kvKey, b)
		if err == nil {
			break
		}
		if !errors.Is(err, jetstream.ErrKeyExists) || attempt == 3 {
			h.s.log.Warn("idempotency store unavailable", "err", err)
			envelope.Fail(c, unavailable("the idempotency store"))
			return
		}
		if !h.replay(c, kv, kvKey, fp) {
			return
		}
		// The first answer was not kept (it invited a retry): this repeat
		// is that retry, and runs as a first request.
	}

	rw := &capture{ResponseWriter: c.Writer}
	c.Writer = rw
	c.Set(ctxIdemKey, kvKey)
	c.Next()

	status := rw.Status()
	wctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if status == http.StatusTooManyRequests || (status == http.StatusServiceUnavailable && c.GetString(ctxOrderID) == "") {
		if err := kv.Delete(wctx, kvKey); err != nil {
			h.s.log.Warn("forget idempotency key", "err", err)
		}
		return
	}
	rec.Done, rec.Status, rec.Body, rec.OrderID = true, status, rw.body.Bytes(), c.GetString(ctxOrderID)
	b, _ = json.Marshal(rec)
	if _, err := kv.Put(wctx, kvKey, b); err != nil {
		h.s.log.Error("store idempotent answer", "order_id", rec.OrderID, "err", err)
	}
}

const (
	ctxIdemKey = "tapi.idem"
	ctxOrderID = "tapi.order"
)

// noteOrder records the order id of an in-flight idempotent request, so a
// repeat that outlives it can name the order.
func (h *handler) noteOrder(c *gin.Context, orderID string) {
	c.Set(ctxOrderID, orderID)
	// Beyond the spec: every answer to an accepted order names it, so that a
	// deploy (whose answer carries no order_id) can be looked up too.
	c.Header("X-Order-Id", orderID)
	key := c.GetString(ctxIdemKey)
	if key == "" {
		return
	}
	ctx := c.Request.Context()
	e, err := h.s.deps.Idempotency.Get(ctx, key)
	if err != nil {
		return
	}
	var rec idemRecord
	if json.Unmarshal(e.Value(), &rec) != nil || rec.Done {
		return
	}
	rec.OrderID = orderID
	b, _ := json.Marshal(rec)
	_, _ = h.s.deps.Idempotency.Update(ctx, key, b, e.Revision())
}

// replay answers a repeat: the stored answer, a conflict, or, while the
// first request is in flight, its answer once it comes. It returns true
// when there is nothing to replay and the request should run.
func (h *handler) replay(c *gin.Context, kv jetstream.KeyValue, key, fp string) bool {
	ctx, cancel := context.WithTimeout(c.Request.Context(), h.s.cfg.RequestTimeout+2*time.Second)
	defer cancel()
	var w jetstream.KeyWatcher
	for {
		e, err := kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return true
		}
		if err != nil {
			envelope.Fail(c, unavailable("the idempotency store"))
			return false
		}
		var rec idemRecord
		if err := json.Unmarshal(e.Value(), &rec); err != nil {
			envelope.Fail(c, apierr.Wrap(err, "damaged idempotency record"))
			return false
		}
		if rec.Fingerprint != fp {
			envelope.Fail(c, apierr.Newf(apierr.IdempotencyConflict, IdempotencyHeader,
				"this Idempotency-Key was used with a different request body"))
			return false
		}
		if rec.Done {
			c.Header("Idempotent-Replayed", "true")
			c.Data(rec.Status, "application/json; charset=utf-8", rec.Body)
			c.Abort()
			return false
		}
		if w == nil {
			if w, err = kv.Watch(ctx, key, jetstream.UpdatesOnly()); err != nil {
				envelope.Fail(c, unavailable("the idempotency store"))
				return false
			}
			defer func() { _ = w.Stop() }()
			continue // read again: the answer may have come before the watch
		}
		select {
		case <-w.Updates():
		case <-ctx.Done():
			e := apierr.New(apierr.UpstreamTimeout, "the first request with this Idempotency-Key is still in flight")
			if rec.OrderID != "" {
				e = e.WithOrder(rec.OrderID)
			}
			envelope.Fail(c, e)
			return false
		}
	}
}

// fingerprint identifies a request body regardless of key order and
// spacing: the SHA-256 of its canonical JSON, or of its bytes when it is not
// JSON.
func fingerprint(body []byte) string {
	var v any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if d.Decode(&v) == nil {
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
