package apierr

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestREADMEListsEveryCode keeps the README's error table and the code table
// in step: every code with its status, and nothing else.
func TestREADMEListsEveryCode(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([A-Z_]+)` \\| ([0-9, ]+) \\|")
	seen := map[Code]bool{}
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		c := Code(m[1])
		if _, ok := table[c]; !ok {
			t.Errorf("README lists %s, which the code table does not have", c)
			continue
		}
		first, _ := strconv.Atoi(regexp.MustCompile(`[0-9]+`).FindString(m[2]))
		if first != c.Status() {
			t.Errorf("README gives %s status %d, the code table %d", c, first, c.Status())
		}
		seen[c] = true
	}
	for _, c := range Codes() {
		if !seen[c] {
			t.Errorf("README does not list %s", c)
		}
	}
}

func TestStatusAndKind(t *testing.T) {
	for _, c := range Codes() {
		if s := c.Status(); s < 400 || s > 599 {
			t.Errorf("%s status %d", c, s)
		}
	}
	e := New(UpstreamTimeout, "").WithOrder("eu-1")
	if e.Details != `{"order_id":"eu-1"}` || e.Status() != 504 {
		t.Fatalf("%+v", e)
	}
	if From(os.ErrNotExist).Code != Internal {
		t.Fatal("plain error is not INTERNAL")
	}
}

// TestVenueCodes pins the venue codes: a paused venue is a free 503 that
// may pass later, a resume whose checks still fail a 409.
func TestVenueCodes(t *testing.T) {
	for _, tt := range []struct {
		code   Code
		status int
		kind   Kind
	}{
		{VenuePaused, 503, KindTransient},
		{VenueStillFailing, 409, KindRejected},
	} {
		if tt.code.Status() != tt.status || tt.code.Kind() != tt.kind {
			t.Errorf("%s: status %d kind %d, want %d %d", tt.code, tt.code.Status(), tt.code.Kind(), tt.status, tt.kind)
		}
	}
	e := Newf(VenuePaused, "pump_fun", "pump_fun is paused")
	if b := e.Body(); b.Details == nil || *b.Details != "pump_fun" || e.Status() != 503 {
		t.Fatalf("%+v", b)
	}
}

// TestBodyBounded: an answer repeats at most MaxMessage bytes of a message
// and MaxDetails of its details, cut at a character's boundary.
func TestBodyBounded(t *testing.T) {
	long := strings.Repeat("é", 40_000)
	b := Invalid(long, "no venue is named %q", long).Body()
	if len(b.Message) > MaxMessage || !utf8.ValidString(b.Message) || !strings.HasSuffix(b.Message, "…") ||
		!strings.HasPrefix(b.Message, `no venue is named "éé`) {
		t.Fatalf("message of %d bytes: %.60q", len(b.Message), b.Message)
	}
	if b.Details == nil || len(*b.Details) > MaxDetails || !utf8.ValidString(*b.Details) {
		t.Fatalf("details %v", b.Details)
	}
	short := Invalid("slippage", "slippage must be between 0 and 100 (percent)").Body()
	if short.Message != "slippage must be between 0 and 100 (percent)" || *short.Details != "slippage" {
		t.Fatalf("a short error changed: %+v", short)
	}
}
