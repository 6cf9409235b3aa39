package server

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/registry/console"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Bounds of the admin API's inputs.
const (
	maxNameLen       = 64
	maxWalletsPerReq = 100
	maxLimit         = 1_000_000_000
)

func (r *Registry) routes() http.Handler {
	e := envelope.Engine(r.log)
	v1 := e.Group("/admin/v1", r.guardBrowser, r.requireAdmin)
	body := envelope.RequireJSON()
	v1.GET("/accounts", r.handleListAccounts)
	v1.POST("/accounts", body, r.handleCreateAccount)
	v1.GET("/accounts/:id", r.handleGetAccount)
	v1.POST("/accounts/:id/keys", body, r.handleCreateKey)
	v1.DELETE("/accounts/:id/keys/:key_id", r.handleRevokeKey)
	v1.POST("/accounts/:id/wallets", body, r.handleCreateWallets)
	v1.POST("/accounts/:id/wallets/import", body, r.handleImportWallet)
	v1.PATCH("/accounts/:id/wallets/:address", body, r.handlePatchWallet)
	v1.PUT("/accounts/:id/strategy", body, r.handlePutStrategy)
	v1.PUT("/accounts/:id/limits", body, r.handlePutLimits)
	v1.PUT("/accounts/:id/webhook", body, r.handlePutWebhook)
	v1.DELETE("/accounts/:id/webhook", r.handleDeleteWebhook)
	// Read-only views for the console (and any other client).
	act := newActivity(r.pub.js, r.store, r.cfg.Explorers, r.log)
	v1.GET("/accounts/:id/usage", act.handleUsage)
	v1.GET("/accounts/:id/orders", act.handleOrders)
	if r.devnet != nil {
		v1.GET("/devnet", r.handleDevnetChains)
		v1.POST("/devnet/fund", body, r.handleDevnetFund)
		v1.POST("/devnet/tokens", body, r.handleDevnetToken)
		v1.GET("/devnet/balance", r.handleDevnetBalance)
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
		e.ServeHTTP(w, req)
	})
}

// requireAdmin checks the admin token. Both sides are hashed first so the
// comparison takes the same time whatever the lengths.
func (r *Registry) requireAdmin(c *gin.Context) {
	h := c.GetHeader("Authorization")
	ok := len(h) > 7 && strings.EqualFold(h[:7], "Bearer ")
	tok := ""
	if ok {
		tok = h[7:]
	}
	want := sha256.Sum256([]byte(r.secrets.AdminToken))
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	if !ok || subtle.ConstantTimeCompare(want[:], got[:]) != 1 {
		envelope.Fail(c, apierr.New(apierr.Unauthorized, "missing or wrong admin token"))
		return
	}
	c.Next()
}

// object is a decoded JSON body, read field by field so that every error
// names its field and unknown fields are ignored.
type object map[string]json.RawMessage

func readObject(c *gin.Context) (object, error) {
	raw := bytes.TrimSpace(envelope.ReadBody(c))
	var o object
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &o) != nil {
		return nil, apierr.Invalid("body", "the body must be a JSON object")
	}
	return o, nil
}

// get returns a field's raw value; null counts as absent.
func (o object) get(name string) (json.RawMessage, bool) {
	v, ok := o[name]
	if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil, false
	}
	return v, true
}

func (o object) str(name string, required bool) (string, error) {
	v, ok := o.get(name)
	if !ok {
		if required {
			return "", apierr.Invalid(name, "%s is required", name)
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", apierr.Invalid(name, "%s must be a string", name)
	}
	return s, nil
}

func (o object) name(field string) (string, error) {
	s, err := o.str(field, true)
	if err != nil {
		return "", err
	}
	s = strings.TrimSpace(s)
	if s == "" || utf8.RuneCountInString(s) > maxNameLen {
		return "", apierr.Invalid(field, "%s must be 1 to %d characters", field, maxNameLen)
	}
	return s, nil
}

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
	n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
	if err != nil || n < 1 || n > max {
		return nil, apierr.Invalid(name, "%s must be a whole number from 1 to %d", name, max)
	}
	return &n, nil
}

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

func parseFamily(s string) (wire.Family, bool) {
	f := wire.Family(strings.ToLower(strings.TrimSpace(s)))
	return f, f.Valid()
}

// walletJSON is a wallet in admin answers.
func walletsJSON(ws []walletRecord) []registry.Wallet {
	out := make([]registry.Wallet, len(ws))
	for i := range ws {
		out[i] = ws[i].public()
	}
	return out
}

type accountSummary struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

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

type keyView struct {
	ID      string      `json:"id"`
	Name    string      `json:"name"`
	Family  wire.Family `json:"family"`
	Created time.Time   `json:"created"`
}

type accountView struct {
	ID       string                          `json:"id"`
	Name     string                          `json:"name"`
	Created  time.Time                       `json:"created"`
	Wallets  []registry.Wallet               `json:"wallets"`
	Keys     []keyView                       `json:"keys"`
	Limits   map[wire.Family]registry.Limits `json:"limits"`
	Strategy registry.StrategyDoc            `json:"strategy"`
	Webhook  *registry.WebhookDoc            `json:"webhook"`
}

func (r *Registry) handleGetAccount(c *gin.Context) {
	st, err := r.store.account(c.Param("id"))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	doc := newAccountDoc(st)
	v := accountView{ID: doc.ID, Name: doc.Name, Created: doc.Created, Wallets: doc.Wallets,
		Keys: []keyView{}, Limits: doc.Limits, Strategy: doc.Strategy, Webhook: doc.Webhook}
	for _, k := range st.keys {
		if k.Revoked == nil {
			v.Keys = append(v.Keys, keyView{ID: k.ID, Name: k.Name, Family: k.Family, Created: k.Created})
		}
	}
	envelope.OK(c, http.StatusOK, v)
}

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
	envelope.OK(c, http.StatusCreated, gin.H{"id": rec.ID, "name": rec.Name, "family": rec.Family, "key": token})
}

func (r *Registry) handleRevokeKey(c *gin.Context) {
	rec, err := r.revokeKey(c.Request.Context(), c.Param("id"), c.Param("key_id"))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusOK, gin.H{"id": rec.ID, "revoked": true})
}

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
	count := int64(1)
	n, err := o.posInt("count", maxWalletsPerReq)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	if n != nil {
		count = *n
	}
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
	if len(v) > 0 && v[0] == '[' {
		return string(v), nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", apierr.Invalid("private_key", "private_key must be a string")
	}
	return s, nil
}

func (r *Registry) handlePatchWallet(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
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

func (r *Registry) handlePutStrategy(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	raw, ok := o["auto_orders"]
	if !ok {
		envelope.Fail(c, apierr.Invalid("auto_orders", "auto_orders is required; send [] to clear the strategy"))
		return
	}
	aos, aerr := wire.DecodeAutoOrders(raw, "auto_orders")
	if aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	if err := r.setStrategy(c.Request.Context(), c.Param("id"), aos); err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusOK, registry.NewStrategyDoc(aos))
}

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
	for _, fld := range []struct {
		name string
		dst  **int64
	}{{"minute", &p.Minute}, {"hour", &p.Hour}, {"week", &p.Week}} {
		if *fld.dst, err = o.posInt(fld.name, maxLimit); err != nil {
			envelope.Fail(c, err)
			return
		}
	}
	if p.Minute == nil && p.Hour == nil && p.Week == nil {
		envelope.Fail(c, apierr.Invalid("minute", "give at least one of minute, hour and week"))
		return
	}
	l, err := r.setLimits(c.Request.Context(), c.Param("id"), f, p)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusOK, gin.H{"family": f, "minute": l.Minute, "hour": l.Hour, "week": l.Week})
}
