package lograte

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestWarnOncePerInterval: a key warns once per interval, its repeats in
// between go to debug; another key warns on its own.
func TestWarnOncePerInterval(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	at := time.Unix(0, 0)
	w := &Warner{Every: time.Minute, now: func() time.Time { return at }}
	for _, step := range []struct {
		after time.Duration
		key   string
	}{{0, "a"}, {time.Second, "a"}, {time.Second, "b"}, {time.Minute, "a"}} {
		at = at.Add(step.after)
		w.Warn(log, step.key, "read failed", "key", step.key)
	}
	if got := strings.Count(buf.String(), "level=WARN"); got != 3 {
		t.Fatalf("%d warnings, want 3:\n%s", got, buf.String())
	}
	if got := strings.Count(buf.String(), "level=DEBUG"); got != 1 {
		t.Fatalf("%d debug lines, want 1:\n%s", got, buf.String())
	}
}
