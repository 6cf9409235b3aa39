package server

// The admin API: the account manager's back end, on its own listener, with
// the admin token as its only credential. Handlers read a request field by
// field (object below) so that every refusal names its field in details,
// as the public API does, and hand the checked values to the Registry's
// methods, which commit to the store and then wait for the read model.

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/registry/console"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Bounds of the admin API's inputs.
const (
	// maxNameLen bounds account and key names: they are shown in the
	// console and in logs, and nothing needs a longer one.
	maxNameLen = 64
	// maxWalletsPerReq bounds one creation, so that a single request
	// cannot ask for thousands of keys to generate and seal at once.
	maxWalletsPerReq = 100
	// maxLimit bounds a rate-budget figure: far past any real budget, and
	// well inside the int64 counters the budget keeps.
	maxLimit = 1_000_000_000
)

// routes builds the admin listener's handler: the admin API under
// /admin/v1 and the console's static bundle under /console/.
func (r *Registry) routes() http.Handler {
	// The same engine as the public API, so that 404, 405, panics and body
	// limits are answered with the same envelopes.
	e := envelope.Engine(r.log)
	// Every request is counted and timed as the public listeners' are, its
	// listener "admin": a run of 401s (a wrong or guessed token) or 5xx
	// shows, and can be alerted on.
	requests := metrics.NewRoutes(metrics.ListenerAdmin)
	e.Use(func(c *gin.Context) {
		start := time.Now()
		envelope.TagRequest(c)
		if envelope.EscapedSlash(c) {
			envelope.Fail(c, apierr.New(apierr.NotFound, "no such path"))
		}
		c.Next()
		requests.Observe(c.FullPath(), c.Writer.Status(), false, time.Since(start))
	})
	// The browser guard runs first so that a cross-site request is refused
	// before its token is even compared; the token check then runs before
	// any body check, so that a caller without the token learns nothing
	// about what a route accepts.
	v1 := e.Group("/admin/v1", r.guardBrowser, r.requireAdmin)
	// Routes with a body need application/json and at most 64 KiB; the
	// middleware reads the body once, and handlers decode from it.
	body := envelope.RequireJSON()
	// Every GET answers HEAD too (RFC 9110, section 9.3.2), as the public
	// listeners' do.
	get := func(path string, h gin.HandlerFunc) {
		v1.GET(path, h)
		v1.HEAD(path, h)
	}
	get("/accounts", r.handleListAccounts)
	v1.POST("/accounts", body, r.handleCreateAccount)
	get("/accounts/:id", r.handleGetAccount)
	v1.POST("/accounts/:id/keys", body, r.handleCreateKey)
	v1.DELETE("/accounts/:id/keys/:key_id", r.handleRevokeKey)
	v1.POST("/accounts/:id/wallets", body, r.handleCreateWallets)
	v1.POST("/accounts/:id/wallets/import", body, r.handleImportWallet)
	v1.PATCH("/accounts/:id/wallets/:address", body, r.handlePatchWallet)
	v1.PUT("/accounts/:id/strategy", body, r.handlePutStrategy)
	v1.PUT("/accounts/:id/limits", body, r.handlePutLimits)
	v1.PUT("/accounts/:id/fee_caps", body, r.handlePutFeeCaps)
	v1.PUT("/accounts/:id/webhook", body, r.handlePutWebhook)
	v1.DELETE("/accounts/:id/webhook", r.handleDeleteWebhook)
	// Read-only views for the console (and any other client).
	// They read what other roles write (budget, events, orders), so they
	// live apart from the registry's own state, in activity.
	act := newActivity(r.pub.js, r.store, r.cfg.Explorers, r.log)
	get("/accounts/:id/usage", act.handleUsage)
	get("/accounts/:id/orders", act.handleOrders)
	// The venues' states as the watchers recorded them, and a resume by
	// hand after the venue's checks pass again.
	get("/venues", r.handleVenues)
	v1.POST("/venues/:venue/resume", r.handleResumeVenue)
	// Only with the local chains: in production these paths do not
	// exist, rather than exist and refuse, so nothing about them leaks.
	if r.devnet != nil {
		get("/devnet", r.handleDevnetChains)
		v1.POST("/devnet/fund", body, r.handleDevnetFund)
		v1.POST("/devnet/tokens", body, r.handleDevnetToken)
		get("/devnet/balance", r.handleDevnetBalance)
		v1.POST("/devnet/upgrade", body, r.handleDevnetUpgrade)
	}
	// The console's static bundle shares the listener; it holds no secret,
	// so it is served without the token, which its script asks for.
	ui := console.Handler()
	// Every answer of the admin API is JSON. Setting the type up front keeps
	// it on error answers too, whose status line is written before the body
	// is rendered.
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if console.Owns(req.URL.Path) {
			ui.ServeHTTP(w, req)
			return
		}
		console.SecurityHeaders(w.Header())
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		// Answers carry keys, webhook secrets and account data: no cache
		// between the operator and the listener keeps one.
		w.Header().Set("Cache-Control", "no-store")
		e.ServeHTTP(w, req)
	})
}

// requireAdmin checks the admin token. Both sides are hashed first so the
// comparison takes the same time whatever the lengths.
func (r *Registry) requireAdmin(c *gin.Context) {
	// Anything but one Bearer token, Basic included, or two Authorization
	// headers that differ, is no token at all.
	tok := envelope.Bearer(c)
	want := sha256.Sum256([]byte(r.secrets.AdminToken))
	got := sha256.Sum256([]byte(tok))
	// One message for a missing and a wrong token: the answer must not
	// tell a prober which of the two it got.
	if tok == "" || subtle.ConstantTimeCompare(want[:], got[:]) != 1 {
		envelope.Fail(c, apierr.New(apierr.Unauthorized, "missing or wrong admin token"))
		return
	}
	c.Next()
}

// object is a decoded JSON body, read field by field so that every error
// names its field and unknown fields are ignored.
type object map[string]json.RawMessage

// readObject decodes the body RequireJSON read. Only the top level is
// decoded here; each field is decoded by the reader of its type, which
// knows what to name in a refusal.
func readObject(c *gin.Context) (object, error) {
	// An array or a scalar is refused as a whole body, and so is a field
	// given twice (see wire.DecodeObject).
	o, twice, err := wire.DecodeObject(envelope.ReadBody(c))
	if ve := (*wire.ValueError)(nil); errors.As(err, &ve) {
		return nil, apierr.Invalid(ve.Field(), "%v", ve)
	}
	if errors.Is(err, wire.ErrMalformed) {
		return nil, apierr.Invalid("body", "the body is %v", err)
	}
	if err != nil {
		return nil, apierr.Invalid("body", "the body must be a JSON object")
	}
	if twice != "" {
		return nil, wire.Twice(twice)
	}
	return o, nil
}

// get returns a field's raw value; null counts as absent, as clients often
// send null for "not given".
func (o object) get(name string) (json.RawMessage, bool) {
	v, ok := o[name]
	if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil, false
	}
	return v, true
}

// str reads a string field; "" when it is absent and not required.
func (o object) str(name string, required bool) (string, error) {
	v, ok := o.get(name)
	if !ok {
		if required {
			return "", apierr.Invalid(name, "%s is required", name)
		}
		return "", nil
	}
	var s string
	// A number or an object where a string belongs is refused, never
	// turned into its text: the caller meant something else.
	if err := json.Unmarshal(v, &s); err != nil {
		return "", apierr.Invalid(name, "%s must be a string", name)
	}
	return s, nil
}

// name reads a required display name: trimmed, and 1 to maxNameLen
// characters (runes, not bytes, so a name in any script gets the same
// length).
func (o object) name(field string) (string, error) {
	s, err := o.str(field, true)
	if err != nil {
		return "", err
	}
	s = strings.TrimSpace(s)
	if s == "" || utf8.RuneCountInString(s) > maxNameLen {
		return "", apierr.Invalid(field, "%s must be 1 to %d characters", field, maxNameLen)
	}
	// A name is shown in the console, the CLI and logs.
	if p := wire.DisplayProblem(s); p != "" {
		return "", apierr.Invalid(field, "%s %s", field, p)
	}
	return s, nil
}

// boolean reads a true or false field, def when it is absent. "true" as a
// string is refused: a flag that money depends on (spot_active) must not
// be guessed from text.
func (o object) boolean(name string, def bool) (bool, error) {
	v, ok := o.get(name)
	if !ok {
		return def, nil
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		return false, apierr.Invalid(name, "%s must be true or false", name)
	}
	return b, nil
}

// posInt reads a positive whole number; nil when absent.
func (o object) posInt(name string, max int64) (*int64, error) {
	v, ok := o.get(name)
	if !ok {
		return nil, nil
	}
	// A whole number however written (100, 100.0, 1e2), read exactly:
	// 1.5 and "60" in quotes are not, and 1e400 is refused as cheaply.
	n, ok := money.WholeNumber(string(bytes.TrimSpace(v)))
	if !ok || n < 1 || n > max {
		return nil, apierr.Invalid(name, "%s must be a whole number from 1 to %d", name, max)
	}
	return &n, nil
}

// family reads the required family field.
func (o object) family() (wire.Family, error) {
	s, err := o.str("family", true)
	if err != nil {
		return "", err
	}
	f, ok := parseFamily(s)
	if !ok {
		return "", apierr.Invalid("family", "family must be sol or evm")
	}
	return f, nil
}

// parseFamily accepts a family in any letter case and with spaces around,
// as people type it; what is stored is always the lower-case form.
func parseFamily(s string) (wire.Family, bool) {
	f := wire.Family(strings.ToLower(strings.TrimSpace(s)))
	return f, f.Valid()
}

// walletsJSON turns stored wallets into their public form for an answer:
// the sealed private key never leaves the store.
func walletsJSON(ws []walletRecord) []registry.Wallet {
	out := make([]registry.Wallet, len(ws))
	for i := range ws {
		out[i] = ws[i].public()
	}
	return out
}

// accountSummary is an account in the listing and the creation answer:
// the two fields a caller needs to find it again.
type accountSummary struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// handleListAccounts answers GET /admin/v1/accounts, oldest first, so
// that a new account appears at the end of a list the operator has seen.
func (r *Registry) handleListAccounts(c *gin.Context) {
	recs, err := r.store.listAccounts()
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	out := make([]accountSummary, len(recs))
	for i, rec := range recs {
		out[i] = accountSummary{ID: rec.ID, Name: rec.Name}
	}
	envelope.OK(c, http.StatusOK, gin.H{"accounts": out})
}

// handleCreateAccount answers POST /admin/v1/accounts with 201 {id, name}.
// Names need not be unique: the id is what every other route takes.
func (r *Registry) handleCreateAccount(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	name, err := o.name("name")
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	rec, err := r.createAccount(c.Request.Context(), name)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusCreated, accountSummary{ID: rec.ID, Name: rec.Name})
}

// keyView is an API key in the account answer: enough to recognise and
// revoke it, never the key or its hash.
type keyView struct {
	ID      string      `json:"id"`
	Name    string      `json:"name"`
	Family  wire.Family `json:"family"`
	Created time.Time   `json:"created"`
}

// accountView is the answer of GET /admin/v1/accounts/{id}: the read
// model's document plus the live keys and the effective fee caps, which
// the read model leaves out (keys are published by hash only; fee caps
// only where they differ from the defaults).
type accountView struct {
	ID       string                           `json:"id"`
	Name     string                           `json:"name"`
	Created  time.Time                        `json:"created"`
	Wallets  []registry.Wallet                `json:"wallets"`
	Keys     []keyView                        `json:"keys"`
	Limits   map[wire.Family]registry.Limits  `json:"limits"`
	FeeCaps  map[wire.Family]registry.FeeCaps `json:"fee_caps"`
	Strategy registry.StrategyDoc             `json:"strategy"`
	Webhook  *registry.WebhookDoc             `json:"webhook"`
}

// handleGetAccount answers GET /admin/v1/accounts/{id} from the store, not
// from the read model, so that it shows a change as soon as it is
// committed even while NATS is away.
func (r *Registry) handleGetAccount(c *gin.Context) {
	st, err := r.store.account(c.Param("id"))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// Built the same way as the read model's document, so the answer and
	// what ingress sees cannot drift apart.
	doc := newAccountDoc(st)
	v := accountView{ID: doc.ID, Name: doc.Name, Created: doc.Created, Wallets: doc.Wallets,
		Keys: []keyView{}, Limits: doc.Limits, FeeCaps: feeCapsView(&st.rec), Strategy: doc.Strategy, Webhook: doc.Webhook}
	// Revoked keys stay in the store for the record, but an operator
	// managing keys wants the live ones: at most five per family.
	for _, k := range st.keys {
		if k.Revoked == nil {
			v.Keys = append(v.Keys, keyView{ID: k.ID, Name: k.Name, Family: k.Family, Created: k.Created})
		}
	}
	envelope.OK(c, http.StatusOK, v)
}

// handleCreateKey answers POST /admin/v1/accounts/{id}/keys with 201 and
// the key itself: the only time it is ever shown, since only its hash is
// stored.
func (r *Registry) handleCreateKey(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	f, err := o.family()
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	name, err := o.name("name")
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	rec, token, err := r.createKey(c.Request.Context(), c.Param("id"), f, name)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// The id comes with the key, so the caller can revoke it later
	// without the key itself.
	envelope.OK(c, http.StatusCreated, gin.H{"id": rec.ID, "name": rec.Name, "family": rec.Family, "key": token})
}

// handleRevokeKey answers DELETE /admin/v1/accounts/{id}/keys/{key_id}.
// It answers once every ingress is about to refuse the key (see
// Registry.published); revoking a revoked key answers the same 200.
func (r *Registry) handleRevokeKey(c *gin.Context) {
	rec, published, err := r.revokeKey(c.Request.Context(), c.Param("id"), c.Param("key_id"))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// published false: the registry has it, the ingresses not yet (NATS
	// is away); the operator should know the key still opens reads there.
	envelope.OK(c, http.StatusOK, gin.H{"id": rec.ID, "revoked": true, "published": published})
}

// handleCreateWallets answers POST /admin/v1/accounts/{id}/wallets: count
// new wallets of a family (1 by default), spot_active unless told not, their
// labels continuing the family's W<n>.
func (r *Registry) handleCreateWallets(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	f, err := o.family()
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// One wallet unless told otherwise: the common case needs no field.
	count := int64(1)
	n, err := o.posInt("count", maxWalletsPerReq)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	if n != nil {
		count = *n
	}
	// New wallets trade by default, as the public API's swaps without a
	// wallet list expect; false keeps them out until switched on.
	active, err := o.boolean("spot_active", true)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	ws, err := r.createWallets(c.Request.Context(), c.Param("id"), f, int(count), active)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusCreated, gin.H{"wallets": walletsJSON(ws)})
}

// handleImportWallet answers POST /admin/v1/accounts/{id}/wallets/import
// with the one imported wallet. The key is checked before the account is
// looked up, and no refusal ever echoes it.
func (r *Registry) handleImportWallet(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	f, err := o.family()
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	pk, err := o.privateKey()
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// A typed *apierr.Error, kept apart from err: a nil pointer stored in
	// an error interface would not compare equal to nil.
	km, aerr := parsePrivateKey(f, pk)
	if aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	active, err := o.boolean("spot_active", true)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// imported is recorded, so the account's history says which keys the
	// service made and which came from outside.
	ws, err := r.addWallets(c.Request.Context(), c.Param("id"), f, []keyMaterial{km}, active, true)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusCreated, gin.H{"wallets": walletsJSON(ws)})
}

// privateKey reads private_key as a string, or as the JSON byte array of
// solana-keygen given inline.
func (o object) privateKey() (string, error) {
	v, ok := o.get("private_key")
	if !ok {
		return "", apierr.Invalid("private_key", "private_key is required")
	}
	v = bytes.TrimSpace(v)
	// solana-keygen writes its key file as a bare JSON array; accepting it
	// inline lets an operator paste the file's content as the field.
	if len(v) > 0 && v[0] == '[' {
		return string(v), nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", apierr.Invalid("private_key", "private_key must be a string, or for sol the JSON byte array of a solana-keygen key file")
	}
	return s, nil
}

// handlePatchWallet answers PATCH /admin/v1/accounts/{id}/wallets/{address}
// with the wallet as it now is; an EVM address matches in any letter case.
func (r *Registry) handlePatchWallet(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// spot_active is the only thing a PATCH changes, so it is required:
	// an empty PATCH answered 200 would hide a misspelt field.
	if _, ok := o.get("spot_active"); !ok {
		envelope.Fail(c, apierr.Invalid("spot_active", "spot_active is required"))
		return
	}
	active, err := o.boolean("spot_active", false)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	w, err := r.setSpotActive(c.Request.Context(), c.Param("id"), c.Param("address"), active)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusOK, w.public())
}

// handlePutStrategy answers PUT /admin/v1/accounts/{id}/strategy with the
// strategy as saved.
func (r *Registry) handlePutStrategy(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// Read without get: auto_orders null is a request to clear, like [],
	// while a missing field is refused, since a PUT replaces the whole
	// strategy and an absent field most likely means a wrong body.
	raw, ok := o["auto_orders"]
	if !ok {
		envelope.Fail(c, apierr.Invalid("auto_orders", "auto_orders is required; send [] to clear the strategy"))
		return
	}
	// The same decoder as a swap's auto_orders: the saved strategy is
	// applied to swaps, so it must pass exactly the same checks, and the
	// answer shows it after the same normalisation (past 20 dropped,
	// sell_pct defaulted).
	aos, aerr := wire.DecodeAutoOrders(raw, "auto_orders")
	if aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	if err := r.setStrategy(c.Request.Context(), c.Param("id"), aos); err != nil {
		envelope.Fail(c, err)
		return
	}
	// NewStrategyDoc answers [] for an empty strategy, never null, like
	// the account answer.
	envelope.OK(c, http.StatusOK, registry.NewStrategyDoc(aos))
}

// handlePutLimits answers PUT /admin/v1/accounts/{id}/limits with the
// family's figures as they now are; figures left out keep their value.
func (r *Registry) handlePutLimits(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	f, err := o.family()
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	var p limitsPatch
	// One loop over the three windows, in a fixed order, so the first bad
	// figure of a request is always the one named.
	for _, fld := range []struct {
		name string
		dst  **int64
	}{{"minute", &p.Minute}, {"hour", &p.Hour}, {"week", &p.Week}} {
		if *fld.dst, err = o.posInt(fld.name, maxLimit); err != nil {
			envelope.Fail(c, err)
			return
		}
	}
	// Unknown fields are ignored, so a body with none of the figures is
	// most likely misspelt: refuse it rather than answer 200 for nothing.
	if p.Minute == nil && p.Hour == nil && p.Week == nil {
		envelope.Fail(c, apierr.Invalid("minute", "give at least one of minute, hour and week"))
		return
	}
	l, err := r.setLimits(c.Request.Context(), c.Param("id"), f, p)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// All three figures, the new and the kept, so the answer alone says
	// what the budget now is.
	envelope.OK(c, http.StatusOK, gin.H{"family": f, "minute": l.Minute, "hour": l.Hour, "week": l.Week})
}
