package service

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
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
