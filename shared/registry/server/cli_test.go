package server

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/registry/admincli"
)

// runCLI runs the admin CLI and decodes the data of its answer.
func runCLI(t *testing.T, args ...string) (int, map[string]any, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := admincli.CLI(context.Background(), args, &out, &errOut)
	var env struct {
		Success bool           `json:"success"`
		Data    map[string]any `json:"data"`
		Error   map[string]any `json:"error"`
	}
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &env); err != nil {
			t.Fatalf("%v: stdout is not JSON: %q", args, out.String())
		}
	}
	if env.Error != nil {
		env.Data = env.Error
	}
	return code, env.Data, errOut.String()
}

func TestCLI(t *testing.T) {
	b := startBus(t)
	dir := t.TempDir()
	tr := startRegistry(t, b, dir, &fakeDevnet{})
	t.Setenv("TRADEAPI_ADMIN_TOKEN", "")
	t.Setenv("TRADEAPI_ADMIN_ADDR", tr.reg.Addr())
	t.Setenv("TRADEAPI_DATA_DIR", "")
	g := []string{"--data-dir", dir}

	code, data, stderr := runCLI(t, append(g, "accounts", "create", "--name", "alice")...)
	if code != 0 || data["name"] != "alice" {
		t.Fatalf("accounts create: %d %v %s", code, data, stderr)
	}
	acc := data["id"].(string)

	// Flags after positional arguments, global flags anywhere.
	code, data, _ = runCLI(t, "keys", "create", acc, "--family", "sol", "--name", "bot1", "--data-dir", dir)
	if code != 0 || !strings.HasPrefix(data["key"].(string), "tapi_sol_live_") {
		t.Fatalf("keys create: %d %v", code, data)
	}
	keyID := data["id"].(string)

	code, data, _ = runCLI(t, append(g, "wallets", "create", acc, "--family", "sol", "--count", "2", "--spot-active=false")...)
	ws, _ := data["wallets"].([]any)
	if code != 0 || len(ws) != 2 || ws[1].(map[string]any)["label"] != "W2" || ws[0].(map[string]any)["spot_active"] != false {
		t.Fatalf("wallets create: %d %v", code, data)
	}
	addr := ws[0].(map[string]any)["address"].(string)

	_, solB58, _ := solKeyFormats(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte(solB58+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, data, _ = runCLI(t, append(g, "wallets", "import", acc, "--family", "sol", "--private-key-file", keyFile)...)
	if ws, _ := data["wallets"].([]any); code != 0 || len(ws) != 1 || ws[0].(map[string]any)["label"] != "W3" {
		t.Fatalf("wallets import: %d %v", code, data)
	}

	code, data, _ = runCLI(t, append(g, "wallets", "set", acc, addr, "--spot-active=true")...)
	if code != 0 || data["spot_active"] != true {
		t.Fatalf("wallets set: %d %v", code, data)
	}

	stratFile := filepath.Join(t.TempDir(), "strategy.json")
	os.WriteFile(stratFile, []byte(`[{"type":"take_profit","trigger_pct":100}]`), 0o600)
	code, data, _ = runCLI(t, append(g, "strategy", "set", acc, "--file", stratFile)...)
	if aos, _ := data["auto_orders"].([]any); code != 0 || len(aos) != 1 {
		t.Fatalf("strategy set: %d %v", code, data)
	}

	code, data, _ = runCLI(t, append(g, "limits", "set", acc, "--family", "evm", "--minute", "30")...)
	if code != 0 || data["minute"] != float64(30) || data["hour"] != float64(1200) {
		t.Fatalf("limits set: %d %v", code, data)
	}

	// Fee caps: numbers as typed (an exponent too), unset caps kept.
	code, data, _ = runCLI(t, append(g, "fee-caps", "set", acc, "--family", "sol", "--max-priority-fee", "0.02", "--max-jito-tip", "1e-3")...)
	if code != 0 || data["family"] != "sol" || data["max_priority_fee"] != 0.02 || data["max_processor_tip"] != 0.1 || data["max_jito_tip"] != 0.001 {
		t.Fatalf("fee-caps set sol: %d %v", code, data)
	}
	code, data, _ = runCLI(t, append(g, "fee-caps", "set", acc, "--max-processor-tip", "0.000000000000000001", "--family", "evm")...)
	if _, jito := data["max_jito_tip"]; code != 0 || data["family"] != "evm" || data["max_priority_fee"] != float64(500) || data["max_processor_tip"] != 1e-18 || jito {
		t.Fatalf("fee-caps set evm: %d %v", code, data)
	}
	for _, tc := range []struct {
		args    []string
		details string
	}{
		{[]string{"--family", "evm", "--max-jito-tip", "0.1"}, "max_jito_tip"},
		{[]string{"--family", "sol", "--max-priority-fee", "lots"}, "max_priority_fee"},
		{[]string{"--family", "sol", "--max-processor-tip", "1e400"}, "max_processor_tip"},
		{[]string{"--family", "sol", "--max-processor-tip", "-1"}, "max_processor_tip"},
		{[]string{"--family", "sol"}, "max_priority_fee"},
		{[]string{"--family", "btc", "--max-priority-fee", "1"}, "family"},
	} {
		code, data, stderr := runCLI(t, append(append(g, "fee-caps", "set", acc), tc.args...)...)
		if code != 1 || data["code"] != "INVALID_REQUEST" || data["details"] != tc.details || !strings.Contains(stderr, "("+tc.details+")") {
			t.Errorf("fee-caps set %v: %d %v %q, want INVALID_REQUEST naming %s", tc.args, code, data, stderr, tc.details)
		}
	}

	code, data, _ = runCLI(t, append(g, "accounts", "get", acc)...)
	if code != 0 || len(data["wallets"].([]any)) != 3 || len(data["keys"].([]any)) != 1 {
		t.Fatalf("accounts get: %d %v", code, data)
	}
	caps, _ := data["fee_caps"].(map[string]any)
	if sol, _ := caps["sol"].(map[string]any); sol == nil || sol["max_priority_fee"] != 0.02 || sol["max_jito_tip"] != 0.001 {
		t.Fatalf("accounts get fee_caps: %v", caps)
	}
	if evm, _ := caps["evm"].(map[string]any); evm == nil || evm["max_processor_tip"] != 1e-18 {
		t.Fatalf("accounts get fee_caps: %v", caps)
	}
	code, data, _ = runCLI(t, append(g, "accounts", "list")...)
	if code != 0 || len(data["accounts"].([]any)) != 1 {
		t.Fatalf("accounts list: %d %v", code, data)
	}

	code, data, _ = runCLI(t, append(g, "accounts", "usage", acc)...)
	if u, _ := data["usage"].(map[string]any); code != 0 || u["sol"] == nil || u["evm"] == nil {
		t.Fatalf("accounts usage: %d %v", code, data)
	}
	code, data, _ = runCLI(t, append(g, "accounts", "orders", acc, "--limit", "5")...)
	if os, ok := data["orders"].([]any); code != 0 || !ok || len(os) != 0 {
		t.Fatalf("accounts orders: %d %v", code, data)
	}

	code, data, _ = runCLI(t, append(g, "keys", "revoke", acc, keyID)...)
	if code != 0 || data["revoked"] != true {
		t.Fatalf("keys revoke: %d %v", code, data)
	}

	code, data, _ = runCLI(t, append(g, "devnet", "fund", "--chain", "solana", "--address", addr, "--amount", "2")...)
	if code != 0 || data["amount"] != "2" {
		t.Fatalf("devnet fund: %d %v", code, data)
	}
	code, data, _ = runCLI(t, append(g, "devnet", "balance", "--chain", "solana", "--address", addr)...)
	if code != 0 || data["amount"] != "1.5" {
		t.Fatalf("devnet balance: %d %v", code, data)
	}

	// An error answer prints the envelope and exits 1.
	code, data, stderr = runCLI(t, append(g, "keys", "create", acc, "--family", "btc", "--name", "x")...)
	if code != 1 || data["code"] != "INVALID_REQUEST" || data["details"] != "family" || !strings.Contains(stderr, "INVALID_REQUEST") {
		t.Fatalf("error answer: %d %v %q", code, data, stderr)
	}
	code, data, _ = runCLI(t, append(g, "accounts", "get", "acc_nope")...)
	if code != 1 || data["code"] != "NOT_FOUND" {
		t.Fatalf("unknown account: %d %v", code, data)
	}

	// The token comes from the environment before the file.
	t.Setenv("TRADEAPI_ADMIN_TOKEN", "wrong")
	if code, data, _ = runCLI(t, append(g, "accounts", "list")...); code != 1 || data["code"] != "UNAUTHORIZED" {
		t.Fatalf("wrong token: %d %v", code, data)
	}
	t.Setenv("TRADEAPI_ADMIN_TOKEN", "")

	for _, args := range [][]string{
		{},
		{"accounts"},
		{"accounts", "fly"},
		{"accounts", "get"},
		{"keys", "revoke", acc},
		{"wallets", "import", acc, "--family", "sol"},
		{"wallets", "set", acc, addr},
		{"accounts", "create", "--bogus"},
		{"accounts", "orders", acc, "--limit", "0"},
		{"accounts", "usage"},
		{"fee-caps", "set"},
		{"fee-caps", "set", acc, "--family", "sol", "--max-tip", "1"},
		{"fee-caps", "set", acc, "extra", "--family", "sol", "--max-priority-fee", "1"},
	} {
		if code, _, stderr := runCLI(t, append(g, args...)...); code != 2 || !strings.Contains(stderr, "usage") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	// The usage text lists every verb, fee caps included.
	var help bytes.Buffer
	if code := admincli.CLI(context.Background(), []string{"help"}, &help, &bytes.Buffer{}); code != 0 ||
		!strings.Contains(help.String(), "fee-caps set ACCOUNT --family sol|evm [--max-priority-fee N] [--max-processor-tip N] [--max-jito-tip N]") {
		t.Errorf("help: exit %d\n%s", code, help.String())
	}
	// No server: exit 1 with a message.
	if code, _, stderr := runCLI(t, append(g, "--addr", "127.0.0.1:1", "accounts", "list")...); code != 1 || stderr == "" {
		t.Errorf("no server: exit %d, %q", code, stderr)
	}
}
