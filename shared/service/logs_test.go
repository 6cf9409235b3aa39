package service

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/logtest"
)

// repeatedKeys returns the top-level keys a JSON object line holds more
// than once.
func repeatedKeys(t *testing.T, line string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %s", line)
	}
	seen := map[string]bool{}
	var repeated []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%v in %s", err, line)
		}
		key := tok.(string)
		if seen[key] {
			repeated = append(repeated, key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatalf("%v in %s", err, line)
		}
	}
	return repeated
}

// TestJSONLogs: the JSON lines of a running process carry each key once,
// and a duration as text, as the text format writes it.
func TestJSONLogs(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.LogLevel = "debug"
	a := freeAddrs(t, 2)
	cfg.Devnet.Addr, cfg.Listen.Metrics = a[0], a[1]
	logs := &logtest.Buffer{}
	log := NewLogger(cfg, logs)
	u := New(cfg, Options{Roles: []string{RoleDevnet}}, log, io.Discard)
	runUp(t, u)
	log.Info("took a while", "took", 454813130*time.Nanosecond)
	sc := bufio.NewScanner(strings.NewReader(logs.String()))
	lines := 0
	for sc.Scan() {
		lines++
		if r := repeatedKeys(t, sc.Text()); len(r) > 0 {
			t.Errorf("keys %v repeated in %s", r, sc.Text())
		}
	}
	if lines < 3 {
		t.Fatalf("%d log lines, want the devnet's start and more:\n%s", lines, logs.String())
	}
	if !strings.Contains(logs.String(), `"took":"454.81313ms"`) {
		t.Errorf("duration not written as text:\n%s", logs.String())
	}
}

// TestWaitForLocalChainsNamesNoURL: a role waiting for local chains that
// never answer says which, by name; the address is no more said than a
// configured RPC's is.
func TestWaitForLocalChainsNamesNoURL(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	err = waitHTTP(context.Background(), endpoint.New("local base chain", "http://"+addr+"/evm/base"), 300*time.Millisecond)
	if err == nil {
		t.Fatal("a closed port answered")
	}
	_, port, _ := net.SplitHostPort(addr)
	if !strings.HasPrefix(err.Error(), "local base chain does not answer") || strings.Contains(err.Error(), port) || strings.Contains(err.Error(), "/evm") {
		t.Fatalf("err %q: want the chain named and its address not said", err)
	}
}
