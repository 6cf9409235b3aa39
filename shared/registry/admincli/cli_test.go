package admincli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tradeapi/tradeapi/shared/devnet"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/registry/admincli"
)

const testToken = "tapi_admin_test_token_0123456789"

// runCLI runs the admin CLI and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := admincli.CLI(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// cleanEnv sets every variable the CLI reads, empty unless given, so that
// the environment the tests run in cannot change what they see.
func cleanEnv(t *testing.T, env map[string]string) {
	t.Helper()
	for _, name := range []string{"TRADEAPI_ADMIN_ADDR", "TRADEAPI_ADMIN_TOKEN", "TRADEAPI_DATA_DIR",
		"TRADEAPI_TLS_CERT_FILE", "TRADEAPI_TLS_KEY_FILE"} {
		t.Setenv(name, env[name])
	}
}

// request is what a fake admin API received.
type request struct {
	method, path string
	body         []byte
}

// fakeAdmin is an admin API that checks the token, records each request
// and answers it with an empty success envelope.
type fakeAdmin struct {
	mu   sync.Mutex
	reqs []request
}

func (f *fakeAdmin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.reqs = append(f.reqs, request{r.Method, r.URL.Path, body})
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bearer "+testToken {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"success":false,"error":{"code":"UNAUTHORIZED","message":"bad admin token","details":null}}`)
		return
	}
	_, _ = io.WriteString(w, `{"success":true,"data":{"accounts":[]}}`)
}

// last returns the last request received.
func (f *fakeAdmin) last(t *testing.T) request {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.reqs) == 0 {
		t.Fatal("the admin API received no request")
	}
	return f.reqs[len(f.reqs)-1]
}

// certFile writes the certificate a TLS test server presents as PEM, as
// TRADEAPI_TLS_CERT_FILE holds it, and returns its path.
func certFile(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cert.pem")
	b := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// hostPort is a test server's address as the config writes it.
func hostPort(srv *httptest.Server) string { return srv.Listener.Addr().String() }

// TestTLS: an address without a scheme is spoken to over https exactly
// when the server would serve TLS with the same variables or file, with
// the configured (self-signed) certificate trusted; a mismatch in either
// direction, or an untrusted certificate, is explained.
func TestTLS(t *testing.T) {
	plain := httptest.NewServer(&fakeAdmin{})
	defer plain.Close()
	secure := httptest.NewTLSServer(&fakeAdmin{})
	defer secure.Close()
	cert := certFile(t, secure)
	// The key is the server's: the CLI decides by its variable, as the
	// server does, and never reads it, so a path with nothing there does.
	noKey := filepath.Join(t.TempDir(), "key.pem")

	// A config file holding the listener, the TLS files and the data
	// folder, with the admin token in it, as up writes them.
	dataDir := t.TempDir()
	if err := os.MkdirAll(filepath.Dir(registry.AdminTokenPath(dataDir)), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(registry.AdminTokenPath(dataDir), []byte(testToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	configFile := filepath.Join(t.TempDir(), "tradeapi.yaml")
	yml := "data_dir: " + dataDir + "\nlisten:\n  admin: " + hostPort(secure) +
		"\ntls:\n  cert_file: " + cert + "\n  key_file: " + noKey + "\n"
	if err := os.WriteFile(configFile, []byte(yml), 0o600); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name   string
		env    map[string]string
		args   []string
		code   int
		stderr []string
	}{
		{name: "plain listener, no TLS configured",
			env: map[string]string{"TRADEAPI_ADMIN_ADDR": hostPort(plain), "TRADEAPI_ADMIN_TOKEN": testToken}},
		{name: "TLS from the variables, self-signed certificate trusted",
			env: map[string]string{"TRADEAPI_ADMIN_ADDR": hostPort(secure), "TRADEAPI_ADMIN_TOKEN": testToken,
				"TRADEAPI_TLS_CERT_FILE": cert, "TRADEAPI_TLS_KEY_FILE": noKey}},
		{name: "TLS, listener and data folder from the config file",
			args: []string{"--config", configFile}},
		{name: "a variable over the file",
			env:  map[string]string{"TRADEAPI_ADMIN_ADDR": hostPort(plain), "TRADEAPI_TLS_CERT_FILE": cert},
			args: []string{"--config", configFile}, code: 1,
			stderr: []string{"serves plain HTTP: use --addr http://" + hostPort(plain)}},
		{name: "TLS listener spoken to in plain HTTP",
			env:  map[string]string{"TRADEAPI_ADMIN_ADDR": hostPort(secure), "TRADEAPI_ADMIN_TOKEN": testToken},
			code: 1,
			stderr: []string{`answered HTTP 400 with a non-JSON body "Client sent an HTTP request to an HTTPS server."`,
				"is it serving TLS? use --addr https://" + hostPort(secure) + ","}},
		{name: "plain listener spoken to in TLS",
			env: map[string]string{"TRADEAPI_ADMIN_ADDR": hostPort(plain), "TRADEAPI_ADMIN_TOKEN": testToken,
				"TRADEAPI_TLS_CERT_FILE": cert, "TRADEAPI_TLS_KEY_FILE": noKey},
			code:   1,
			stderr: []string{"server gave HTTP response to HTTPS client", "use --addr http://" + hostPort(plain) + ","}},
		{name: "https without the certificate",
			env:    map[string]string{"TRADEAPI_ADMIN_TOKEN": testToken},
			args:   []string{"--addr", "https://" + hostPort(secure)},
			code:   1,
			stderr: []string{"certificate signed by unknown authority", "set TRADEAPI_TLS_CERT_FILE to the server's certificate"}},
		{name: "an explicit scheme is kept",
			env: map[string]string{"TRADEAPI_ADMIN_TOKEN": testToken,
				"TRADEAPI_TLS_CERT_FILE": cert, "TRADEAPI_TLS_KEY_FILE": noKey},
			args: []string{"--addr", "http://" + hostPort(plain)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cleanEnv(t, tc.env)
			code, stdout, stderr := runCLI(t, append(tc.args, "accounts", "list")...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stdout %q, stderr %q", code, tc.code, stdout, stderr)
			}
			if tc.code == 0 && !strings.Contains(stdout, `"accounts": []`) {
				t.Errorf("stdout %q, want the answer", stdout)
			}
			for _, want := range tc.stderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q lacks %q", stderr, want)
				}
			}
			if strings.Contains(stderr, testToken) {
				t.Errorf("stderr shows the admin token: %q", stderr)
			}
		})
	}
}

// TestNotJSONHidesToken: an answer that is not JSON is described by its
// status and first line, never with the admin token, even when the body
// echoes the request.
func TestNotJSONHidesToken(t *testing.T) {
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, "bad gateway for "+r.Header.Get("Authorization")+"\nsecond line\n")
	}))
	defer echo.Close()
	cleanEnv(t, map[string]string{"TRADEAPI_ADMIN_ADDR": hostPort(echo), "TRADEAPI_ADMIN_TOKEN": testToken})
	code, _, stderr := runCLI(t, "accounts", "list")
	want := `the admin listener at http://` + hostPort(echo) + ` answered HTTP 502 with a non-JSON body "bad gateway for Bearer <admin token>"` + "\n"
	if code != 1 || !strings.HasSuffix(stderr, want) || strings.Contains(stderr, testToken) {
		t.Fatalf("exit %d, stderr %q; want exit 1 and %q", code, stderr, want)
	}
}

// TestDevnetTokenFeeTier: --fee-tier reaches the API as fee_tier, a JSON
// number when it is one, for the API to judge; left out, it is not sent.
func TestDevnetTokenFeeTier(t *testing.T) {
	admin := &fakeAdmin{}
	srv := httptest.NewServer(admin)
	defer srv.Close()
	cleanEnv(t, map[string]string{"TRADEAPI_ADMIN_ADDR": hostPort(srv), "TRADEAPI_ADMIN_TOKEN": testToken})
	base := []string{"devnet", "token", "--chain", "base", "--venue", "v3", "--name", "Test", "--symbol", "TST"}
	for _, tc := range []struct {
		name string
		args []string
		want string // fee_tier as sent, "" for absent
	}{
		{"a tier", []string{"--fee-tier", "500"}, `500`},
		{"not a number", []string{"--fee-tier", "low"}, `"low"`},
		{"left out", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _, stderr := runCLI(t, append(base, tc.args...)...); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			req := admin.last(t)
			var body map[string]json.RawMessage
			if err := json.Unmarshal(req.body, &body); err != nil {
				t.Fatalf("body %q: %v", req.body, err)
			}
			if req.method != http.MethodPost || req.path != "/admin/v1/devnet/tokens" ||
				string(body["fee_tier"]) != tc.want || string(body["venue"]) != `"v3"` {
				t.Fatalf("%s %s %s, want fee_tier %s", req.method, req.path, req.body, tc.want)
			}
		})
	}
}

// commandHelp returns the lines of the usage that describe one command:
// its own and the indented ones under it.
func commandHelp(t *testing.T, help, command string) string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(help, "\n") {
		switch {
		case strings.HasPrefix(line, "  "+command+" "):
			out = append(out, line)
		case len(out) > 0 && strings.HasPrefix(line, "   "):
			out = append(out, line)
		case len(out) > 0:
			return strings.Join(out, "\n")
		}
	}
	if len(out) == 0 {
		t.Fatalf("the usage has no %q", command)
	}
	return strings.Join(out, "\n")
}

// TestHelp: the usage says what each command needs, as the server takes
// it; -h after a command is the usage too.
func TestHelp(t *testing.T) {
	code, help, _ := runCLI(t, "help")
	if code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	// The venues the local chains create tokens on, from the chains'
	// clients themselves, so the usage cannot fall behind them.
	var venues []string
	for chain, ep := range devnet.AllLocalDevnets("127.0.0.1:1").Chains() {
		if len(ep.Venues) == 0 {
			t.Fatalf("chain %s lists no venue", chain)
		}
		for _, v := range ep.Venues {
			if !slices.Contains(venues, v) {
				venues = append(venues, v)
			}
		}
	}
	for _, tc := range []struct {
		command string
		want    []string
		not     []string
	}{
		{"devnet token", append([]string{"[--fee-tier T]", "100, 500, 3000 (the default) or 10000"}, venues...), nil},
		{"devnet fund", []string{"--address ADDRESS --amount N [--token T --token-amount N]",
			"--amount may be left out only", "when --token is given"}, []string{"[--amount N]"}},
		{"wallets import", []string{"sol, the base58 of the 64-byte", "solana-keygen's JSON byte array",
			"evm, the hex", "of the 32-byte private key, with or without 0x"}, nil},
	} {
		t.Run(tc.command, func(t *testing.T) {
			h := commandHelp(t, help, tc.command)
			for _, w := range tc.want {
				if !strings.Contains(h, w) {
					t.Errorf("lacks %q:\n%s", w, h)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(h, n) {
					t.Errorf("has %q:\n%s", n, h)
				}
			}
		})
	}
	for _, args := range [][]string{{"devnet", "token", "-h"}, {"wallets", "import", "ACCOUNT", "--help"}, {"venues", "-h"}, {"fee-caps", "--help"}} {
		if code, stdout, stderr := runCLI(t, args...); code != 0 || stdout != help || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 0 and the usage", args, code, stderr)
		}
	}
}

// TestCommandNotKnown: a noun the CLI has, without its verb, is told the
// verb is missing; a word it does not know is an unknown command.
func TestCommandNotKnown(t *testing.T) {
	cleanEnv(t, nil)
	for _, tc := range []struct{ args, want string }{
		{"accounts", "accounts: no verb given"},
		{"bogus", `unknown command "bogus"`},
		{"acounts list", `unknown command "acounts list"`},
	} {
		code, out, errOut := runCLI(t, strings.Fields(tc.args)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 saying %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
