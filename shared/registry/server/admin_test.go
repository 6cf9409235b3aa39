package server

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	dto "github.com/prometheus/client_model/go"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/registry"
)

// adminCase is one request to the admin API and the answer it must get.
type adminCase struct {
	name        string
	method      string
	path        string
	body        any    // marshalled, or sent as is when a string
	auth        string // "" sends the admin token; "-" sends none
	contentType string // "" sends application/json
	status      int
	code        string // error code; "" for success
	details     string // error details
}

func runAdminCases(t *testing.T, tr *testRegistry, cases []adminCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			auth := "Bearer " + tr.secrets.AdminToken
			switch tc.auth {
			case "":
			case "-":
				auth = ""
			default:
				auth = tc.auth
			}
			ct := tc.contentType
			if ct == "" {
				ct = "application/json"
			}
			a := doRequest(t, tr.url, auth, tc.method, tc.path, tc.body, ct)
			if a.Status != tc.status || a.code() != tc.code || a.details() != tc.details {
				t.Fatalf("got %d %s %q, want %d %s %q: %s", a.Status, a.code(), a.details(),
					tc.status, tc.code, tc.details, a.Raw)
			}
			if tc.code == "" && !a.Success {
				t.Fatalf("success false: %s", a.Raw)
			}
			if tc.code != "" && (a.Success || a.Error.Message == "") {
				t.Fatalf("error envelope without message: %s", a.Raw)
			}
		})
	}
}

func TestAdminAuthAndRouting(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	// Counted under the listener "admin", as the public listeners' are.
	refused := metrics.HTTPRequests.WithLabelValues(metrics.ListenerAdmin, "/admin/v1/accounts", "401")
	unmatched := metrics.HTTPRequests.WithLabelValues(metrics.ListenerAdmin, "unmatched", "404")
	before, before404 := counted(refused), counted(unmatched)
	t.Cleanup(func() {
		if got := counted(refused) - before; got != 5 {
			t.Errorf("admin 401s on /admin/v1/accounts counted %v, want 5", got)
		}
		if got := counted(unmatched) - before404; got < 2 {
			t.Errorf("admin 404s counted %v, want the 2 unknown paths at least", got)
		}
	})
	runAdminCases(t, tr, []adminCase{
		{name: "no token", method: "GET", path: "/admin/v1/accounts", auth: "-", status: 401, code: "UNAUTHORIZED"},
		{name: "wrong token", method: "GET", path: "/admin/v1/accounts", auth: "Bearer nope", status: 401, code: "UNAUTHORIZED"},
		{name: "token with extra char", method: "GET", path: "/admin/v1/accounts", auth: "Bearer " + tr.secrets.AdminToken + "x", status: 401, code: "UNAUTHORIZED"},
		{name: "basic scheme", method: "GET", path: "/admin/v1/accounts", auth: "Basic " + tr.secrets.AdminToken, status: 401, code: "UNAUTHORIZED"},
		{name: "no token before body checks", method: "POST", path: "/admin/v1/accounts", body: "{", auth: "-", contentType: "text/plain", status: 401, code: "UNAUTHORIZED"},
		{name: "unknown path", method: "GET", path: "/admin/v1/nope", auth: "-", status: 404, code: "NOT_FOUND"},
		{name: "wrong method", method: "PUT", path: "/admin/v1/accounts", auth: "-", status: 405, code: "METHOD_NOT_ALLOWED"},
		{name: "devnet off", method: "GET", path: "/admin/v1/devnet", status: 404, code: "NOT_FOUND"},
		{name: "list", method: "GET", path: "/admin/v1/accounts", status: 200},
		{name: "a field twice", method: "POST", path: "/admin/v1/accounts", body: `{"name":"a","name":"b"}`, status: 400, code: "INVALID_REQUEST", details: "name"},
	})
}

// TestAdminRequestHeaders: the admin listener treats a request's headers as
// the public ones do: two Authorization headers that differ are no token
// (the first was taken), every answer carries X-Request-Id (the client's
// when it is plain), and every GET answers HEAD.
func TestAdminRequestHeaders(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	send := func(method string, header http.Header) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, tr.url+"/admin/v1/accounts", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header = header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	token := "Bearer " + tr.secrets.AdminToken
	if r := send("GET", http.Header{"Authorization": {token, "Bearer someone-else"}}); r.StatusCode != 401 || r.Header.Get("X-Request-Id") == "" {
		t.Fatalf("two Authorization headers: %d, request id %q, want 401 with one", r.StatusCode, r.Header.Get("X-Request-Id"))
	}
	if r := send("GET", http.Header{"Authorization": {token, token}}); r.StatusCode != 200 || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("the token given twice: %d, Cache-Control %q, want 200 never cached", r.StatusCode, r.Header.Get("Cache-Control"))
	}
	if r := send("HEAD", http.Header{"Authorization": {token}, "X-Request-Id": {"ops-42"}}); r.StatusCode != 200 || r.Header.Get("X-Request-Id") != "ops-42" {
		t.Fatalf("HEAD: %d, request id %q, want 200 echoing ops-42", r.StatusCode, r.Header.Get("X-Request-Id"))
	}
	if r := send("GET", http.Header{"Authorization": {token}, "X-Request-Id": {"ops \xff\xfe"}}); !strings.HasPrefix(r.Header.Get("X-Request-Id"), "req-") {
		t.Fatalf("a request id with bytes that are not ASCII echoed as %q, want a fresh one", r.Header.Get("X-Request-Id"))
	}
	if r := send("GET", http.Header{"Authorization": {token}, "X-Request-Id": {"run 7 #3"}}); r.Header.Get("X-Request-Id") != "run 7 #3" {
		t.Fatalf("a plain request id with spaces echoed as %q", r.Header.Get("X-Request-Id"))
	}
	// An escaped slash is no separator: no route holds one.
	acc := tr.createAccount(t, "slash")
	if a := tr.do(t, "GET", "/admin/v1/accounts/"+acc+"%2Fusage", nil); a.Status != 404 || a.details() != "" {
		t.Fatalf("an escaped slash: %d %s, want 404 naming no field", a.Status, a.Raw)
	}
}

func TestAdminAccountsKeysWalletsStrategyLimits(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	acc := tr.createAccount(t, "alice")
	other := tr.createAccount(t, "bob")
	otherWallet := tr.createWallets(t, other, "sol", 1, true)[0]
	base := "/admin/v1/accounts/" + acc

	_, solB58, _ := solKeyFormats(t)
	_, _, solJSON := solKeyFormats(t)
	_, _, solJSON2 := solKeyFormats(t)
	_, solB58dup, _ := solKeyFormats(t)
	evmKey, _ := crypto.GenerateKey()
	evmHex := "0x" + hex.EncodeToString(crypto.FromECDSA(evmKey))
	evmAddr := crypto.PubkeyToAddress(evmKey.PublicKey).Hex()
	// Import one wallet up front so that a second import is a duplicate.
	if a := tr.do(t, "POST", base+"/wallets/import", map[string]any{"family": "sol", "private_key": solB58dup}); a.Status != 201 {
		t.Fatalf("import: %s", a.Raw)
	}

	runAdminCases(t, tr, []adminCase{
		// accounts
		{name: "create account", method: "POST", path: "/admin/v1/accounts", body: map[string]any{"name": "carol"}, status: 201},
		{name: "create account without name", method: "POST", path: "/admin/v1/accounts", body: map[string]any{}, status: 400, code: "INVALID_REQUEST", details: "name"},
		{name: "create account blank name", method: "POST", path: "/admin/v1/accounts", body: map[string]any{"name": "  "}, status: 400, code: "INVALID_REQUEST", details: "name"},
		{name: "create account name not string", method: "POST", path: "/admin/v1/accounts", body: map[string]any{"name": 5}, status: 400, code: "INVALID_REQUEST", details: "name"},
		{name: "create account name too long", method: "POST", path: "/admin/v1/accounts", body: map[string]any{"name": strings.Repeat("n", 65)}, status: 400, code: "INVALID_REQUEST", details: "name"},
		{name: "create account name with a bidi override", method: "POST", path: "/admin/v1/accounts", body: `{"name":"acme\u202egnp.exe"}`, status: 400, code: "INVALID_REQUEST", details: "name"},
		{name: "create account name with a bidi isolate", method: "POST", path: "/admin/v1/accounts", body: `{"name":"acme\u2067x"}`, status: 400, code: "INVALID_REQUEST", details: "name"},
		{name: "create account name with a DEL", method: "POST", path: "/admin/v1/accounts", body: `{"name":"acme\u007f"}`, status: 400, code: "INVALID_REQUEST", details: "name"},
		{name: "create account name with a control character", method: "POST", path: "/admin/v1/accounts", body: `{"name":"\u0000evil\n"}`, status: 400, code: "INVALID_REQUEST", details: "name"},
		{name: "create account malformed json", method: "POST", path: "/admin/v1/accounts", body: `{"name":`, status: 400, code: "INVALID_REQUEST", details: "body"},
		{name: "create account array body", method: "POST", path: "/admin/v1/accounts", body: `[]`, status: 400, code: "INVALID_REQUEST", details: "body"},
		{name: "create account unknown fields ignored", method: "POST", path: "/admin/v1/accounts", body: map[string]any{"name": "dave", "extra": 1}, status: 201},
		{name: "create account wrong content type", method: "POST", path: "/admin/v1/accounts", body: `{"name":"x"}`, contentType: "text/plain", status: 415, code: "INVALID_REQUEST", details: "Content-Type"},
		{name: "create account body too large", method: "POST", path: "/admin/v1/accounts", body: `{"name":"` + strings.Repeat("x", 70<<10) + `"}`, status: 413, code: "INVALID_REQUEST", details: "body"},
		{name: "get account", method: "GET", path: base, status: 200},
		{name: "get unknown account", method: "GET", path: "/admin/v1/accounts/acc_nope", status: 404, code: "NOT_FOUND", details: "id"},

		// keys
		{name: "create key", method: "POST", path: base + "/keys", body: map[string]any{"family": "sol", "name": "bot1"}, status: 201},
		{name: "create key family upper case", method: "POST", path: base + "/keys", body: map[string]any{"family": "EVM", "name": "bot2"}, status: 201},
		{name: "create key without family", method: "POST", path: base + "/keys", body: map[string]any{"name": "x"}, status: 400, code: "INVALID_REQUEST", details: "family"},
		{name: "create key bad family", method: "POST", path: base + "/keys", body: map[string]any{"family": "btc", "name": "x"}, status: 400, code: "INVALID_REQUEST", details: "family"},
		{name: "create key without name", method: "POST", path: base + "/keys", body: map[string]any{"family": "sol"}, status: 400, code: "INVALID_REQUEST", details: "name"},
		{name: "create key unknown account", method: "POST", path: "/admin/v1/accounts/acc_nope/keys", body: map[string]any{"family": "sol", "name": "x"}, status: 404, code: "NOT_FOUND", details: "id"},
		{name: "revoke unknown key", method: "DELETE", path: base + "/keys/key_nope", status: 404, code: "NOT_FOUND", details: "key_id"},
		{name: "revoke key of unknown account", method: "DELETE", path: "/admin/v1/accounts/acc_nope/keys/key_nope", status: 404, code: "NOT_FOUND", details: "id"},

		// wallets
		{name: "create wallet defaults", method: "POST", path: base + "/wallets", body: map[string]any{"family": "sol"}, status: 201},
		{name: "create evm wallets", method: "POST", path: base + "/wallets", body: map[string]any{"family": "evm", "count": 2, "spot_active": false}, status: 201},
		{name: "create wallets count 0", method: "POST", path: base + "/wallets", body: map[string]any{"family": "sol", "count": 0}, status: 400, code: "INVALID_REQUEST", details: "count"},
		{name: "create wallets count 101", method: "POST", path: base + "/wallets", body: map[string]any{"family": "sol", "count": 101}, status: 400, code: "INVALID_REQUEST", details: "count"},
		{name: "create wallets count string", method: "POST", path: base + "/wallets", body: map[string]any{"family": "sol", "count": "2"}, status: 400, code: "INVALID_REQUEST", details: "count"},
		{name: "create wallets count fraction", method: "POST", path: base + "/wallets", body: map[string]any{"family": "sol", "count": 1.5}, status: 400, code: "INVALID_REQUEST", details: "count"},
		{name: "create wallets spot_active string", method: "POST", path: base + "/wallets", body: map[string]any{"family": "sol", "spot_active": "yes"}, status: 400, code: "INVALID_REQUEST", details: "spot_active"},
		{name: "create wallets without family", method: "POST", path: base + "/wallets", body: map[string]any{"count": 1}, status: 400, code: "INVALID_REQUEST", details: "family"},
		{name: "create wallets unknown account", method: "POST", path: "/admin/v1/accounts/acc_nope/wallets", body: map[string]any{"family": "sol"}, status: 404, code: "NOT_FOUND", details: "id"},

		// import
		{name: "import sol base58", method: "POST", path: base + "/wallets/import", body: map[string]any{"family": "sol", "private_key": solB58}, status: 201},
		{name: "import sol keygen json string", method: "POST", path: base + "/wallets/import", body: map[string]any{"family": "sol", "private_key": solJSON, "spot_active": false}, status: 201},
		{name: "import sol keygen json inline", method: "POST", path: base + "/wallets/import", body: `{"family":"sol","private_key":` + solJSON2 + `}`, status: 201},
		{name: "import evm hex", method: "POST", path: base + "/wallets/import", body: map[string]any{"family": "evm", "private_key": evmHex}, status: 201},
		{name: "import duplicate", method: "POST", path: base + "/wallets/import", body: map[string]any{"family": "sol", "private_key": solB58dup}, status: 400, code: "INVALID_REQUEST", details: "private_key"},
		{name: "import evm twice", method: "POST", path: "/admin/v1/accounts/" + other + "/wallets/import", body: map[string]any{"family": "evm", "private_key": evmHex}, status: 400, code: "INVALID_REQUEST", details: "private_key"},
		{name: "import bad key", method: "POST", path: base + "/wallets/import", body: map[string]any{"family": "sol", "private_key": "abc"}, status: 400, code: "INVALID_REQUEST", details: "private_key"},
		{name: "import sol key as evm", method: "POST", path: base + "/wallets/import", body: map[string]any{"family": "evm", "private_key": solB58}, status: 400, code: "INVALID_REQUEST", details: "private_key"},
		{name: "import without key", method: "POST", path: base + "/wallets/import", body: map[string]any{"family": "sol"}, status: 400, code: "INVALID_REQUEST", details: "private_key"},
		{name: "import key not string", method: "POST", path: base + "/wallets/import", body: map[string]any{"family": "sol", "private_key": 12}, status: 400, code: "INVALID_REQUEST", details: "private_key"},
		{name: "import without family", method: "POST", path: base + "/wallets/import", body: map[string]any{"private_key": solB58}, status: 400, code: "INVALID_REQUEST", details: "family"},
		{name: "import unknown account", method: "POST", path: "/admin/v1/accounts/acc_nope/wallets/import", body: map[string]any{"family": "sol", "private_key": solB58}, status: 404, code: "NOT_FOUND", details: "id"},

		// patch
		{name: "patch evm lower case", method: "PATCH", path: base + "/wallets/" + strings.ToLower(evmAddr), body: map[string]any{"spot_active": false}, status: 200},
		{name: "patch without spot_active", method: "PATCH", path: base + "/wallets/" + evmAddr, body: map[string]any{}, status: 400, code: "INVALID_REQUEST", details: "spot_active"},
		{name: "patch spot_active not bool", method: "PATCH", path: base + "/wallets/" + evmAddr, body: map[string]any{"spot_active": 1}, status: 400, code: "INVALID_REQUEST", details: "spot_active"},
		{name: "patch unknown wallet", method: "PATCH", path: base + "/wallets/11111111111111111111111111111111", body: map[string]any{"spot_active": true}, status: 404, code: "NOT_FOUND", details: "address"},
		{name: "patch another account's wallet", method: "PATCH", path: base + "/wallets/" + otherWallet.Address, body: map[string]any{"spot_active": true}, status: 404, code: "NOT_FOUND", details: "address"},
		{name: "patch unknown account", method: "PATCH", path: "/admin/v1/accounts/acc_nope/wallets/" + otherWallet.Address, body: map[string]any{"spot_active": true}, status: 404, code: "NOT_FOUND", details: "id"},

		// strategy
		{name: "strategy", method: "PUT", path: base + "/strategy", body: `{"auto_orders":[{"type":"take_profit","trigger_pct":50,"sell_pct":50},{"type":"stop_loss","trigger_pct":20},{"type":"time","after_seconds":600}]}`, status: 200},
		{name: "strategy missing", method: "PUT", path: base + "/strategy", body: `{}`, status: 400, code: "INVALID_REQUEST", details: "auto_orders"},
		{name: "strategy not array", method: "PUT", path: base + "/strategy", body: `{"auto_orders":{}}`, status: 400, code: "INVALID_REQUEST", details: "auto_orders"},
		{name: "strategy entry not object", method: "PUT", path: base + "/strategy", body: `{"auto_orders":[1]}`, status: 400, code: "INVALID_REQUEST", details: "auto_orders[0]"},
		{name: "strategy unknown type", method: "PUT", path: base + "/strategy", body: `{"auto_orders":[{"type":"moon"}]}`, status: 400, code: "INVALID_REQUEST", details: "auto_orders[0].type"},
		{name: "strategy take profit without trigger", method: "PUT", path: base + "/strategy", body: `{"auto_orders":[{"type":"take_profit"}]}`, status: 400, code: "INVALID_REQUEST", details: "auto_orders[0].trigger_pct"},
		{name: "strategy stop loss over 100", method: "PUT", path: base + "/strategy", body: `{"auto_orders":[{"type":"dev_sell"},{"type":"stop_loss","trigger_pct":120}]}`, status: 400, code: "INVALID_REQUEST", details: "auto_orders[1].trigger_pct"},
		{name: "strategy time zero", method: "PUT", path: base + "/strategy", body: `{"auto_orders":[{"type":"time","after_seconds":0}]}`, status: 400, code: "INVALID_REQUEST", details: "auto_orders[0].after_seconds"},
		{name: "strategy sell pct 0", method: "PUT", path: base + "/strategy", body: `{"auto_orders":[{"type":"dev_sell","sell_pct":0}]}`, status: 400, code: "INVALID_REQUEST", details: "auto_orders[0].sell_pct"},
		{name: "strategy unknown account", method: "PUT", path: "/admin/v1/accounts/acc_nope/strategy", body: `{"auto_orders":[]}`, status: 404, code: "NOT_FOUND", details: "id"},

		// limits
		{name: "limits", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol", "minute": 10, "hour": 100, "week": 1000}, status: 200},
		{name: "limits one figure", method: "PUT", path: base + "/limits", body: map[string]any{"family": "evm", "minute": 5}, status: 200},
		{name: "limits without family", method: "PUT", path: base + "/limits", body: map[string]any{"minute": 10}, status: 400, code: "INVALID_REQUEST", details: "family"},
		{name: "limits bad family", method: "PUT", path: base + "/limits", body: map[string]any{"family": "x", "minute": 10}, status: 400, code: "INVALID_REQUEST", details: "family"},
		{name: "limits minute 0", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol", "minute": 0}, status: 400, code: "INVALID_REQUEST", details: "minute"},
		{name: "limits hour negative", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol", "hour": -1}, status: 400, code: "INVALID_REQUEST", details: "hour"},
		{name: "limits week fraction", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol", "week": 1.5}, status: 400, code: "INVALID_REQUEST", details: "week"},
		{name: "limits minute string", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol", "minute": "60"}, status: 400, code: "INVALID_REQUEST", details: "minute"},
		// A shorter window may not allow more than a longer one (sol is
		// 10, 100, 1000 here); the field named is one the request gave.
		{name: "limits minute over hour", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol", "minute": 10, "hour": 1, "week": 1}, status: 400, code: "INVALID_REQUEST", details: "minute"},
		{name: "limits hour under kept minute", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol", "hour": 5}, status: 400, code: "INVALID_REQUEST", details: "hour"},
		{name: "limits week under kept hour", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol", "week": 50}, status: 400, code: "INVALID_REQUEST", details: "week"},
		{name: "limits hour over week", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol", "hour": 2000}, status: 400, code: "INVALID_REQUEST", details: "hour"},
		{name: "limits nothing given", method: "PUT", path: base + "/limits", body: map[string]any{"family": "sol"}, status: 400, code: "INVALID_REQUEST", details: "minute"},
		// A whole number however a client's encoder spells it.
		{name: "limits minute 1e1", method: "PUT", path: base + "/limits", body: `{"family":"evm","minute":1e1}`, status: 200},
		{name: "limits minute 100.0", method: "PUT", path: base + "/limits", body: `{"family":"evm","minute":100.0}`, status: 200},
		{name: "limits minute 1e400", method: "PUT", path: base + "/limits", body: `{"family":"evm","minute":1e400}`, status: 400, code: "INVALID_REQUEST", details: "minute"},
		{name: "limits minute 10.5e0", method: "PUT", path: base + "/limits", body: `{"family":"evm","minute":10.5e0}`, status: 400, code: "INVALID_REQUEST", details: "minute"},
		{name: "limits unknown account", method: "PUT", path: "/admin/v1/accounts/acc_nope/limits", body: map[string]any{"family": "sol", "minute": 1}, status: 404, code: "NOT_FOUND", details: "id"},
	})

	// The account now shows everything that succeeded above.
	a := tr.do(t, "GET", base, nil)
	got := decodeData[accountView](t, a)
	if got.ID != acc || got.Name != "alice" {
		t.Errorf("account %s %q", got.ID, got.Name)
	}
	var labels []string
	for _, w := range got.Wallets {
		labels = append(labels, string(w.Family)+":"+w.Label+":"+fmt.Sprint(w.SpotActive))
	}
	// sol: the duplicate import W1, created W2, imports W3 (active), W4
	// (inactive), W5; evm: W1 W2 created inactive, W3 imported then patched.
	want := "sol:W1:true sol:W2:true sol:W3:true sol:W4:false sol:W5:true evm:W1:false evm:W2:false evm:W3:false"
	if s := strings.Join(labels, " "); s != want {
		t.Errorf("wallets %s\nwant    %s", s, want)
	}
	if len(got.Keys) != 2 || got.Keys[0].Name != "bot1" || got.Keys[0].Family != "sol" || got.Keys[1].Family != "evm" {
		t.Errorf("keys %+v", got.Keys)
	}
	if got.Limits["sol"] != (registry.Limits{Minute: 10, Hour: 100, Week: 1000}) || got.Limits["evm"] != (registry.Limits{Minute: 100, Hour: 1200, Week: 10000}) {
		t.Errorf("limits %+v", got.Limits)
	}
	if len(got.Strategy.AutoOrders) != 3 || got.Strategy.AutoOrders[1].SellPct != 100 || *got.Strategy.AutoOrders[2].AfterSeconds != 600 {
		t.Errorf("strategy %+v", got.Strategy.AutoOrders)
	}
	// Never a secret in the account view.
	for _, bad := range []string{"tapi_", "hash", "sealed", solB58, evmHex[2:]} {
		if strings.Contains(a.Raw, bad) {
			t.Errorf("account view contains %q", bad)
		}
	}
}

func TestAdminAnswers(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)

	a := tr.do(t, "POST", "/admin/v1/accounts", map[string]any{"name": "alice"})
	var created map[string]any
	_ = json.Unmarshal(a.Data, &created)
	if a.Status != 201 || len(created) != 2 || created["name"] != "alice" || !strings.HasPrefix(created["id"].(string), "acc_") {
		t.Fatalf("create account answer %s", a.Raw)
	}
	acc := created["id"].(string)

	key := tr.createKey(t, acc, "evm")
	if !strings.HasPrefix(key.Key, "tapi_evm_live_") || key.Family != "evm" || key.Name != "k" || key.ID == "" {
		t.Errorf("create key answer %+v", key)
	}

	ws := tr.createWallets(t, acc, "sol", 2, false)
	if len(ws) != 2 || ws[0].Label != "W1" || ws[1].Label != "W2" || ws[0].SpotActive || ws[0].Family != "sol" {
		t.Errorf("create wallets answer %+v", ws)
	}

	a = tr.do(t, "PATCH", "/admin/v1/accounts/"+acc+"/wallets/"+ws[1].Address, map[string]any{"spot_active": true})
	if w := decodeData[registry.Wallet](t, a); w.Address != ws[1].Address || !w.SpotActive || w.Label != "W2" {
		t.Errorf("patch answer %s", a.Raw)
	}

	a = tr.do(t, "PUT", "/admin/v1/accounts/"+acc+"/strategy", `{"auto_orders":[]}`)
	if a.Status != 200 || string(a.Data) != `{"auto_orders":[]}` {
		t.Errorf("strategy answer %s", a.Raw)
	}
	// Entries past 20 are dropped, as on a swap.
	many := "[" + strings.TrimSuffix(strings.Repeat(`{"type":"dev_sell"},`, 25), ",") + "]"
	a = tr.do(t, "PUT", "/admin/v1/accounts/"+acc+"/strategy", `{"auto_orders":`+many+`}`)
	if s := decodeData[registry.StrategyDoc](t, a); len(s.AutoOrders) != 20 {
		t.Errorf("strategy kept %d entries, want 20", len(s.AutoOrders))
	}

	a = tr.do(t, "PUT", "/admin/v1/accounts/"+acc+"/limits", map[string]any{"family": "sol", "hour": 500})
	if string(a.Data) != `{"family":"sol","hour":500,"minute":60,"week":10000}` {
		t.Errorf("limits answer %s", a.Data)
	}

	a = tr.do(t, "DELETE", "/admin/v1/accounts/"+acc+"/keys/"+key.ID, nil)
	if a.Status != 200 {
		t.Errorf("revoke: %s", a.Raw)
	}
	// Revoking twice is fine, and the key no longer shows.
	if a = tr.do(t, "DELETE", "/admin/v1/accounts/"+acc+"/keys/"+key.ID, nil); a.Status != 200 {
		t.Errorf("second revoke: %s", a.Raw)
	}
	if v := decodeData[accountView](t, tr.do(t, "GET", "/admin/v1/accounts/"+acc, nil)); len(v.Keys) != 0 {
		t.Errorf("revoked key still listed: %+v", v.Keys)
	}

	a = tr.do(t, "GET", "/admin/v1/accounts", nil)
	list := decodeData[struct{ Accounts []accountSummary }](t, a)
	if len(list.Accounts) != 1 || list.Accounts[0].ID != acc || list.Accounts[0].Name != "alice" {
		t.Errorf("list %s", a.Raw)
	}
}

func TestAdminKeyLimit(t *testing.T) {
	b := startBus(t)
	tr := startRegistry(t, b, t.TempDir(), nil)
	acc := tr.createAccount(t, "alice")
	var keys []createdKey
	for range MaxLiveKeys {
		keys = append(keys, tr.createKey(t, acc, "sol"))
	}
	path := "/admin/v1/accounts/" + acc + "/keys"
	runAdminCases(t, tr, []adminCase{
		{name: "sixth sol key", method: "POST", path: path, body: map[string]any{"family": "sol", "name": "six"}, status: 409, code: "KEY_LIMIT", details: "family"},
		{name: "evm key still allowed", method: "POST", path: path, body: map[string]any{"family": "evm", "name": "e"}, status: 201},
		{name: "revoke one", method: "DELETE", path: path + "/" + keys[0].ID, status: 200},
		{name: "sol key after a revoke", method: "POST", path: path, body: map[string]any{"family": "sol", "name": "six"}, status: 201},
		{name: "sixth again", method: "POST", path: path, body: map[string]any{"family": "sol", "name": "seven"}, status: 409, code: "KEY_LIMIT", details: "family"},
	})
}

// counted reads a counter.
func counted(c interface{ Write(*dto.Metric) error }) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		return 0
	}
	return m.GetCounter().GetValue()
}

// TestShortAdminTokenSaidAtStart: an admin token given shorter than 32
// characters is taken, and the registry warns at its start; the one it
// makes draws no warning.
func TestShortAdminTokenSaidAtStart(t *testing.T) {
	b := startBus(t)
	for _, tc := range []struct {
		token string
		warns bool
	}{{"admin", true}, {"", false}} {
		dir := t.TempDir()
		sec, _, err := registry.LoadOrCreateSecrets(dir, tc.token, "")
		if err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		r, err := New(Config{DataDir: dir}, b.js, sec, nil, slog.New(slog.NewJSONHandler(&logs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		if got := strings.Contains(logs.String(), "the admin token is short"); got != tc.warns {
			t.Fatalf("token %q: warned %v, want %v:\n%s", tc.token, got, tc.warns, logs.String())
		}
	}
}
