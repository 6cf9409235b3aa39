//go:build browser

// The console's browser test drives Debian's chromium headless through
// chromedp. It needs chromium on the machine, so it runs only with the
// browser build tag: go test -tags browser ./shared/registry/console
// (.ci/run installs chromium and runs it).

package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gagliardetto/solana-go"
	"github.com/tradeapi/tradeapi/shared/poll"
)

// screenshotsEnv, set to 1, makes TestConsoleInBrowser save the main pages
// as PNG files under screenshots/ (the README shows them).
const screenshotsEnv = "TRADEAPI_CONSOLE_SCREENSHOTS"

// browser starts Debian's chromium, headless. The test fails, never skips,
// when it is missing: .ci/run installs it.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Fatal("no chromium on PATH: install Debian's chromium (apt-get install chromium); .ci/run does")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 900), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// page drives one tab with the test's failure reporting.
type page struct {
	t     *testing.T
	ctx   context.Context
	shots bool
}

// run runs a subtest with the page reporting to it; a failed step stops
// the whole test, since later steps build on earlier ones.
func (p *page) run(t *testing.T, name string, fn func(t *testing.T)) {
	parent := p.t
	ok := t.Run(name, func(t *testing.T) {
		p.t = t
		fn(t)
	})
	p.t = parent
	if !ok {
		t.FailNow()
	}
}

func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

func (p *page) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func (p *page) value(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Value(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("value of %s: %v", sel, err)
	}
	return s
}

// set gives a form control a value as a person choosing it would: the
// input and change events fire.
func (p *page) set(sel, value string) chromedp.Action[chromedp.Void] {
	q, _ := json.Marshal(sel)
	v, _ := json.Marshal(value)
	return chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		ok, err := chromedp.Evaluate[bool](`(() => { const e = document.querySelector(`+string(q)+`); if (!e) return false;
			e.value = `+string(v)+`; e.dispatchEvent(new Event('input', {bubbles: true}));
			e.dispatchEvent(new Event('change', {bubbles: true})); return e.value === `+string(v)+`; })()`)(ctx, tg)
		if err == nil && !ok {
			err = fmt.Errorf("could not set %s to %q", sel, value)
		}
		return chromedp.Void{}, err
	})
}

func evalJS[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// wait polls a JavaScript condition in the page.
func (p *page) wait(what, cond string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		p.t.Fatalf("waiting for %s (%s): %v", what, cond, err)
	}
}

// screenshot saves the whole page, or with viewport only what the window
// shows.
func (p *page) screenshot(name string, viewport bool) {
	p.t.Helper()
	if !p.shots {
		return
	}
	shot := chromedp.FullScreenshot(100)
	if viewport {
		shot = chromedp.CaptureScreenshot()
	}
	png, err := chromedp.Run(p.ctx, shot)
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll("screenshots", 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("screenshots", name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// TestConsoleInBrowser drives the console in a real headless Chromium
// against the whole service: sign in, create an account and a wallet,
// toggle spot_active and see the public listing change, create a key and
// use it on the public API, revoke it and see 401, save an invalid then a
// valid strategy, see a bad fee cap refused with its field marked and then
// save good ones, fund a wallet and create a token on the local chains, and
// follow an order's signature to the local chain's transaction view.
func TestConsoleInBrowser(t *testing.T) {
	s := startService(t)
	p := &page{t: t, ctx: browser(t), shots: os.Getenv(screenshotsEnv) == "1"}
	adminTok := s.up.Secrets.AdminToken

	// One demo order, so that the orders page has signatures to link.
	demoOrder := demoBuy(t, s)

	p.do("open the console", chromedp.Navigate(s.admin()+"/console/"),
		chromedp.WaitVisible(chromedp.CSS("#signin-token")))
	// The style sheet applied under the CSP: the bar is dark.
	if bg := evalJS[string](p, `getComputedStyle(document.querySelector('.bar')).backgroundColor`); bg != "rgb(13, 17, 23)" {
		t.Fatalf("style sheet not applied: bar background %q", bg)
	}
	p.screenshot("signin", false)

	p.run(t, "sign in", func(t *testing.T) {
		p.do("wrong token", chromedp.SendKeys(chromedp.CSS("#signin-token"), "not-the-token"),
			chromedp.Click(chromedp.CSS("#signin-form button[type=submit]")))
		p.wait("refusal shown", `!document.querySelector('#signin-error').hidden`)
		if got := evalJS[string](p, `sessionStorage.getItem('tradeapi.admin_token') || ''`); got != "" {
			t.Fatalf("a refused token was kept: %q", got)
		}
		p.do("right token", p.set("#signin-token", ""),
			chromedp.SendKeys(chromedp.CSS("#signin-token"), adminTok),
			chromedp.Click(chromedp.CSS("#signin-form button[type=submit]")),
			chromedp.WaitVisible(chromedp.CSS("#accounts-title")))
		if got := evalJS[string](p, `sessionStorage.getItem('tradeapi.admin_token')`); got != adminTok {
			t.Fatal("the token is not in sessionStorage")
		}
		if got := evalJS[string](p, `localStorage.length + '|' + document.cookie + '|' + location.href`); strings.Contains(got, adminTok) || !strings.HasPrefix(got, "0||") {
			t.Fatalf("the token leaked into localStorage, a cookie or the URL: %q", got)
		}
	})

	var accountID string
	p.run(t, "create an account", func(t *testing.T) {
		p.do("create", chromedp.SendKeys(chromedp.CSS("#account-name"), "Console desk"),
			chromedp.Click(chromedp.CSS("#create-account-form button[type=submit]")),
			chromedp.WaitVisible(chromedp.CSS("#account-id")))
		p.wait("account page", `document.querySelector('#account-title').textContent === 'Console desk'`)
		accountID = p.text("#account-id")
		r := call(t, "GET", s.admin()+"/admin/v1/accounts/"+accountID, bearer(adminTok), nil)
		if r.status != http.StatusOK {
			t.Fatalf("the account the console created: %d %s", r.status, r.code)
		}
	})

	var addr, importedKey string
	p.run(t, "create a wallet", func(t *testing.T) {
		p.do("create two", p.set("#cw-count", "2"),
			chromedp.Click(chromedp.CSS("#create-wallet-form button[type=submit]")))
		p.wait("two Solana wallets listed", `document.querySelectorAll('table[data-family=sol] tbody tr').length === 2`)
		labels := evalJS[[]string](p, `[...document.querySelectorAll('table[data-family=sol] tbody tr')].map(r => r.dataset.label)`)
		if strings.Join(labels, ",") != "W1,W2" {
			t.Fatalf("labels %v, want W1,W2", labels)
		}
		addr = evalJS[string](p, `document.querySelector('table[data-family=sol] tr[data-label=W1] input[role=switch]').dataset.address`)

		// Import: the private key goes out once and is never put back.
		k, err := solana.NewRandomPrivateKey()
		if err != nil {
			t.Fatal(err)
		}
		p.do("import", chromedp.SendKeys(chromedp.CSS("#iw-key"), k.String()),
			chromedp.Click(chromedp.CSS("#import-wallet-form button[type=submit]")))
		p.wait("imported wallet listed", `!!document.querySelector('table[data-family=sol] tr[data-label=W3]')`)
		if got := evalJS[string](p, `document.querySelector('table[data-family=sol] tr[data-label=W3] input').dataset.address`); got != k.PublicKey().String() {
			t.Fatalf("imported W3 has address %q, want %s", got, k.PublicKey())
		}
		if html := evalJS[string](p, `document.documentElement.outerHTML + document.querySelector('#iw-key').value`); strings.Contains(html, k.String()) {
			t.Fatal("the imported private key is still in the page")
		}
		importedKey = k.String()
	})

	var key string
	p.run(t, "create a key and use it", func(t *testing.T) {
		p.do("create", chromedp.SendKeys(chromedp.CSS("#ck-name"), "desk bot"),
			chromedp.Click(chromedp.CSS("#create-key-form button[type=submit]")),
			chromedp.WaitVisible(chromedp.CSS("#new-key")))
		key = p.value("#new-key-value")
		if !strings.HasPrefix(key, "tapi_sol_live_") {
			t.Fatalf("key %q", key)
		}
		if warn := p.text("#new-key"); !strings.Contains(warn, "will not be shown again") {
			t.Fatalf("no warning with the key: %q", warn)
		}
		p.screenshot("account", false)
		// Ingress knows keys through its view of the registry, which
		// follows the console's answer within a second.
		var status int
		var ws []wallet
		poll.Until(t, 2*time.Second, "ingress knows the new key", func() bool {
			status, ws = publicWallets(t, s, key)
			return status == http.StatusOK
		})
		if status != http.StatusOK || len(ws) != 3 || ws[0].Address != addr || !ws[0].SpotActive {
			t.Fatalf("public listing with the new key: %d %+v", status, ws)
		}
		p.do("dismiss", chromedp.Click(chromedp.CSS("#dismiss-key")))
		if v := p.value("#new-key-value"); v != "" {
			t.Fatal("the key stays in the page after Done")
		}
	})

	p.run(t, "toggle spot_active", func(t *testing.T) {
		sel := `table[data-family=sol] tr[data-label=W1] input[role=switch]`
		p.do("switch off", chromedp.Click(chromedp.CSS(sel)))
		p.wait("switch settled", `!document.querySelector('`+sel+`').disabled && !document.querySelector('`+sel+`').checked`)
		poll.Until(t, 2*time.Second, "public listing shows W1 off", func() bool {
			_, ws := publicWallets(t, s, key)
			return len(ws) == 3 && ws[0].Address == addr && !ws[0].SpotActive && ws[1].SpotActive
		})
		// Keyboard: focus the switch and press space to turn it back on.
		p.do("switch on by keyboard", chromedp.Focus(chromedp.CSS(sel)), chromedp.KeyEvent(" "))
		p.wait("switch on", `!document.querySelector('`+sel+`').disabled && document.querySelector('`+sel+`').checked`)
		poll.Until(t, 2*time.Second, "public listing shows W1 on", func() bool {
			_, ws := publicWallets(t, s, key)
			return len(ws) == 3 && ws[0].SpotActive
		})
	})

	p.run(t, "strategy", func(t *testing.T) {
		p.do("invalid entry", chromedp.Click(chromedp.CSS("#add-entry")),
			chromedp.SendKeys(chromedp.CSS("#strategy-table tbody tr:nth-child(1) [name=trigger_pct]"), "-5"),
			chromedp.Click(chromedp.CSS("#strategy-form button[type=submit]")))
		p.wait("error shown", `!document.querySelector('#strategy-error').hidden`)
		if msg := p.text("#strategy-error"); !strings.Contains(msg, "auto_orders[0].trigger_pct") {
			t.Fatalf("error %q does not name the field", msg)
		}
		if inv := evalJS[string](p, `document.querySelector('#strategy-table tbody tr:nth-child(1) [name=trigger_pct]').getAttribute('aria-invalid')`); inv != "true" {
			t.Fatalf("the field is not marked invalid: %q", inv)
		}
		p.screenshot("strategy-error", false)
		if got := strategyOf(t, s, accountID); got != "[]" {
			t.Fatalf("an invalid strategy was saved: %s", got)
		}
		p.do("valid entries", p.set("#strategy-table tbody tr:nth-child(1) [name=trigger_pct]", "50"),
			chromedp.SendKeys(chromedp.CSS("#strategy-table tbody tr:nth-child(1) [name=sell_pct]"), "40"),
			chromedp.Click(chromedp.CSS("#add-entry")),
			p.set("#strategy-table tbody tr:nth-child(2) [name=type]", "stop_loss"),
			chromedp.SendKeys(chromedp.CSS("#strategy-table tbody tr:nth-child(2) [name=trigger_pct]"), "20"),
			chromedp.Click(chromedp.CSS("#strategy-form button[type=submit]")))
		p.wait("saved", `!document.querySelector('#strategy-ok').hidden`)
		want := `[{"type":"take_profit","trigger_pct":50,"sell_pct":40},{"type":"stop_loss","trigger_pct":20,"sell_pct":100}]`
		if got := strategyOf(t, s, accountID); got != want {
			t.Fatalf("saved strategy %s, want %s", got, want)
		}
	})

	p.run(t, "fee caps", func(t *testing.T) {
		// The editors show the effective caps, defaults included, as plain
		// decimals.
		for sel, want := range map[string]string{"#fc-sol-max_priority_fee": "0.1", "#fc-sol-max_jito_tip": "0.1",
			"#fc-evm-max_priority_fee": "500", "#fc-evm-max_processor_tip": "0.05"} {
			if got := p.value(sel); got != want {
				t.Fatalf("%s shows %q, want %q", sel, got, want)
			}
		}
		// A priority fee finer than one wei is refused, the field named
		// and marked, and nothing is saved.
		bad := "#fc-evm-max_priority_fee"
		p.do("invalid cap", p.set(bad, "0.0000000001"), chromedp.Click(chromedp.CSS("#fee-caps-evm button[type=submit]")))
		p.wait("error shown", `!document.querySelector('#fee-caps-evm-error').hidden`)
		if msg := p.text("#fee-caps-evm-error"); !strings.Contains(msg, "(max_priority_fee)") {
			t.Fatalf("error %q does not name the field", msg)
		}
		if inv := evalJS[string](p, `document.querySelector('`+bad+`').getAttribute('aria-invalid') + ' ' + document.activeElement.id`); inv != "true fc-evm-max_priority_fee" {
			t.Fatalf("the field is not marked invalid and focused: %q", inv)
		}
		if inv := evalJS[int](p, `document.querySelectorAll('#fee-caps-sol [aria-invalid], #fee-caps-evm [name=max_processor_tip][aria-invalid]').length`); inv != 0 {
			t.Fatalf("%d other fields marked invalid", inv)
		}
		p.screenshot("fee-caps-error", false)
		if got := feeCapsOf(t, s, accountID); got != `{"evm":{"max_priority_fee":500,"max_processor_tip":0.05},"sol":{"max_priority_fee":0.1,"max_processor_tip":0.1,"max_jito_tip":0.1}}` {
			t.Fatalf("a refused cap was saved: %s", got)
		}

		// Valid caps: only the changed fields go out, exactly as typed,
		// and come back exactly: the largest Solana cap has more digits
		// than a JavaScript number holds.
		p.do("valid caps", p.set(bad, "250"), p.set("#fc-sol-max_jito_tip", "0.000000001"),
			p.set("#fc-sol-max_processor_tip", "18446744073.709551615"),
			chromedp.Click(chromedp.CSS("#fee-caps-evm button[type=submit]")),
			chromedp.Click(chromedp.CSS("#fee-caps-sol button[type=submit]")))
		p.wait("both saved", `!document.querySelector('#fee-caps-evm .ok').hidden && !document.querySelector('#fee-caps-sol .ok').hidden`)
		if inv := evalJS[string](p, `document.querySelector('`+bad+`').getAttribute('aria-invalid') || ''`); inv != "" {
			t.Fatalf("the corrected field is still marked %q", inv)
		}
		want := `{"evm":{"max_priority_fee":250,"max_processor_tip":0.05},"sol":{"max_priority_fee":0.1,"max_processor_tip":18446744073.709551615,"max_jito_tip":0.000000001}}`
		if got := feeCapsOf(t, s, accountID); got != want {
			t.Fatalf("saved caps %s, want %s", got, want)
		}
		for sel, want := range map[string]string{"#fc-sol-max_jito_tip": "0.000000001", "#fc-sol-max_processor_tip": "18446744073.709551615"} {
			if got := p.value(sel); got != want {
				t.Fatalf("%s shows %q after saving, want %q", sel, got, want)
			}
		}
		// A new page load shows them the same, read from the account.
		p.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#fee-caps-sol")))
		p.wait("caps loaded", `document.querySelector('#fc-evm-max_priority_fee').value === '250'`)
		if got := p.value("#fc-sol-max_processor_tip"); got != "18446744073.709551615" {
			t.Fatalf("after a reload the processor tip shows %q", got)
		}
	})

	p.run(t, "local chains", func(t *testing.T) {
		p.do("fund W1", chromedp.WaitVisible(chromedp.CSS("#devnet")),
			p.set("#fund-wallet", addr),
			p.set("#fund-amount", "3.5"),
			chromedp.Click(chromedp.CSS("#fund-form button[type=submit]")))
		p.wait("funded", `!document.querySelector('#fund-form .ok').hidden || !document.querySelector('#fund-form .error').hidden`)
		if msg := p.text("#fund-form .ok"); !strings.Contains(msg, "Balance on solana: 3.5") {
			t.Fatalf("fund: %q / %q", msg, evalJS[string](p, `document.querySelector('#fund-form .error').textContent`))
		}
		p.do("create a token", chromedp.SendKeys(chromedp.CSS("#token-name"), "Console Coin"),
			chromedp.SendKeys(chromedp.CSS("#token-symbol"), "CONS"),
			chromedp.Click(chromedp.CSS("#token-form button[type=submit]")))
		p.wait("token created", `!document.querySelector('#token-form .ok').hidden || !document.querySelector('#token-form .error').hidden`)
		if msg := p.text("#token-form .ok"); !strings.Contains(msg, "created") {
			t.Fatalf("token: %q / %q", msg, evalJS[string](p, `document.querySelector('#token-form .error').textContent`))
		}
	})

	p.run(t, "revoke the key", func(t *testing.T) {
		p.do("revoke", chromedp.Click(chromedp.CSS(`#keys-table button.danger`)),
			chromedp.WaitVisible(chromedp.CSS("#confirm")))
		p.screenshot("revoke-confirm", true)
		// Cancel first: nothing happens.
		p.do("cancel", chromedp.Click(chromedp.CSS("#confirm-cancel")))
		if status, _ := publicWallets(t, s, key); status != http.StatusOK {
			t.Fatalf("the key stopped working after a cancelled revoke: %d", status)
		}
		p.do("revoke again", chromedp.Click(chromedp.CSS(`#keys-table button.danger`)),
			chromedp.WaitVisible(chromedp.CSS("#confirm")), chromedp.Click(chromedp.CSS("#confirm-ok")))
		p.wait("key gone", `document.querySelectorAll('#keys-table tbody tr').length === 0`)
		poll.Until(t, time.Second, "the revoked key gets 401", func() bool {
			status, _ := publicWallets(t, s, key)
			return status == http.StatusUnauthorized
		})
	})

	p.run(t, "rate limits", func(t *testing.T) {
		cell := func(fam, window string) string {
			return `((document.querySelector('#limits-table tr[data-family=` + fam + `] td[data-window=` + window + `]') || {}).textContent || '')`
		}
		p.do("refresh", chromedp.Click(chromedp.CSS("#refresh-usage")))
		p.wait("usage shown", cell("sol", "minute")+`.includes('0 / 60 used')`)
		// The demo account bought once: its week window shows it, as
		// ingress counted it.
		p.do("demo account", chromedp.Navigate(s.admin()+"/console/#/accounts/"+s.up.Demo.AccountID))
		p.wait("demo usage shown", cell("sol", "week")+`.includes('1 / 10000 used') && `+cell("evm", "week")+`.includes('0 / 10000 used')`)
	})

	p.run(t, "orders", func(t *testing.T) {
		p.do("demo account orders", chromedp.Navigate(s.admin()+"/console/#/accounts/"+s.up.Demo.AccountID+"/orders"))
		sel := `#orders-table tr[data-order-id="` + demoOrder.OrderID + `"]`
		p.wait("demo order listed", `!!document.querySelector('`+sel+`')`)
		p.wait("order final", `document.querySelector('`+sel+` td:nth-child(5) .state').textContent === 'confirmed'`)
		href := evalJS[string](p, `document.querySelector('`+sel+` ul.sigs a').href`)
		want := fmt.Sprintf("http://%s/solana/tx/%s", s.cfg.Devnet.Addr, demoOrder.Signatures[0])
		if href != want {
			t.Fatalf("signature links to %q, want %q", href, want)
		}
		p.screenshot("orders", false)
		p.do("open the transaction view", chromedp.Navigate(href), chromedp.WaitVisible(chromedp.CSS("h1")))
		if body := p.text("body"); !strings.Contains(body, demoOrder.Signatures[0]) || !strings.Contains(body, "success") {
			t.Fatalf("transaction view: %q", body)
		}
		p.screenshot("devnet-tx", true)
	})

	p.run(t, "paused venue", func(t *testing.T) {
		upgrade := func(body map[string]any) {
			t.Helper()
			if r := call(t, "POST", s.admin()+"/admin/v1/devnet/upgrade", bearer(adminTok), body); r.status != http.StatusOK {
				t.Fatalf("upgrade %v: %d %s", body, r.status, r.code)
			}
		}
		upgrade(map[string]any{"chain": "solana", "program": "launchlab", "breaking": true})
		poll.Until(t, 10*time.Second, "launchlab paused", func() bool {
			r := call(t, "GET", s.admin()+"/admin/v1/venues", bearer(adminTok), nil)
			return strings.Contains(string(r.data), `"venue":"launchlab","chain":"solana","state":"paused"`)
		})
		item := `#venues li[data-venue="launchlab"]`
		p.do("any page", chromedp.Navigate(s.admin()+"/console/#/accounts"), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(item)))
		if got := p.text(item + " .reason"); !strings.Contains(got, "AccountNotEnoughKeys") || !strings.Contains(got, "trade_config") {
			t.Fatalf("banner reason %q", got)
		}
		p.screenshot("venue-paused", true)
		p.do("resume while still broken", chromedp.Click(chromedp.CSS(item+" button")))
		p.wait("refusal shown", `document.querySelector('`+item+` .error').textContent.includes('still fails its checks')`)
		upgrade(map[string]any{"chain": "solana", "program": "launchlab", "revert": true})
		p.do("resume after the revert", chromedp.Click(chromedp.CSS(item+" button")))
		p.wait("banner gone", `document.querySelector('#venues').hidden && document.querySelector('#status').textContent.includes('launchlab passed its checks')`)
	})

	p.run(t, "sign out", func(t *testing.T) {
		p.do("back", chromedp.Navigate(s.admin()+"/console/#/accounts"), chromedp.WaitVisible(chromedp.CSS("#accounts-title")))
		p.screenshot("accounts", false)
		p.do("sign out", chromedp.Click(chromedp.CSS("#signout")), chromedp.WaitVisible(chromedp.CSS("#signin-token")))
		if got := evalJS[string](p, `sessionStorage.getItem('tradeapi.admin_token') || ''`); got != "" {
			t.Fatal("the token outlived sign-out")
		}
	})

	p.run(t, "no secret in the logs", func(t *testing.T) {
		logs := s.log.String()
		if !strings.Contains(logs, "strategy saved") {
			t.Fatal("the service logged nothing of the session: the check would prove nothing")
		}
		for name, secret := range map[string]string{"admin token": adminTok, "api key": key, "imported private key": importedKey} {
			if strings.Contains(logs, secret) {
				t.Errorf("the %s is in the logs", name)
			}
		}
	})
}

type order struct {
	OrderID    string   `json:"order_id"`
	Signatures []string `json:"signatures"`
}

// demoBuy buys the demo pump.fun token with the demo Solana key.
func demoBuy(t *testing.T, s *running) order {
	t.Helper()
	mint := ""
	for _, tok := range s.up.Demo.Tokens {
		if tok.Chain == "solana" && tok.Venue == "pump_fun" {
			mint = tok.Address
		}
	}
	r := call(t, "POST", s.solEU()+"/api/v1/swap", bearer(s.up.Demo.SolKey),
		map[string]any{"address": mint, "side": "Buy", "amount": "0.05", "slippage": 10, "wallets": []map[string]string{{"address": s.up.Demo.Wallets[0].Address}}})
	var o order
	if r.status != http.StatusOK || json.Unmarshal(r.data, &o) != nil || len(o.Signatures) != 1 {
		t.Fatalf("demo buy: %d %s %s", r.status, r.code, r.data)
	}
	return o
}

// feeCapsOf returns the fee_caps of an account's admin answer, compact.
func feeCapsOf(t *testing.T, s *running, id string) string {
	t.Helper()
	r := call(t, "GET", s.admin()+"/admin/v1/accounts/"+id, bearer(s.up.Secrets.AdminToken), nil)
	var acct struct {
		FeeCaps json.RawMessage `json:"fee_caps"`
	}
	if err := json.Unmarshal(r.data, &acct); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, acct.FeeCaps); err != nil {
		t.Fatalf("fee_caps %s: %v", acct.FeeCaps, err)
	}
	return compact.String()
}

func strategyOf(t *testing.T, s *running, id string) string {
	t.Helper()
	r := call(t, "GET", s.admin()+"/admin/v1/accounts/"+id, bearer(s.up.Secrets.AdminToken), nil)
	var acct struct {
		Strategy struct {
			AutoOrders json.RawMessage `json:"auto_orders"`
		} `json:"strategy"`
	}
	if err := json.Unmarshal(r.data, &acct); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, acct.Strategy.AutoOrders)
	return compact.String()
}
