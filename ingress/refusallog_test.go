package ingress

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/logtest"
)

// refusedLines returns the refused_since_last_line of each refusal line of
// log.
func refusedLines(log string) []int {
	var ns []int
	for _, m := range regexp.MustCompile(`order refused before it was taken.* refused_since_last_line=(\d+)`).FindAllStringSubmatch(log, -1) {
		n, _ := strconv.Atoi(m[1])
		ns = append(ns, n)
	}
	return ns
}

// TestRefusalBurstTailLogged: the refusals of a burst held by the pacing
// of the lines are written once the second is over, though no refusal
// comes after them to carry their count.
func TestRefusalBurstTailLogged(t *testing.T) {
	t.Parallel()
	var logs logtest.Buffer
	h := newHarness(t, budget.DefaultLimits, noChains{}, withLog(&logs))
	const burst = 5
	sent := time.Now()
	for range burst {
		a := call(t, "POST", h.eu.URL+"/api/v1/swap", solKey, "application/json", `{"address":"`+solMint+`","side":"Buy","amount":"0.1"}`)
		if a.status != 503 || a.code() != "CHAIN_UNAVAILABLE" {
			t.Fatalf("%d %s", a.status, a.raw)
		}
	}
	// A burst sent within a second gets two lines: its first refusal's,
	// and the one the timer writes for the rest. A loaded machine may take
	// longer to send it, and each second more allows one line more.
	took := time.Since(sent)
	most := 2 + int(took/time.Second)
	deadline := time.Now().Add(10 * time.Second)
	var lines []int
	for {
		ns := refusedLines(logs.String())
		sum := 0
		for _, n := range ns {
			sum += n
		}
		if sum == burst {
			if len(ns) > most {
				t.Fatalf("lines %v for a burst sent in %v: want at most %d, a second apart", ns, took, most)
			}
			lines = ns
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("lines %v: want the %d refusals counted within 10 s\n%s", ns, burst, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(1200 * time.Millisecond)
	if ns := refusedLines(logs.String()); len(ns) > len(lines) {
		t.Fatalf("lines %v after the burst was logged in %v: want no more", ns, lines)
	}
}

// TestRefusalFlushPaced: the line of the held refusals goes out at the end
// of the second after the last line, not before; a refusal in between that
// writes its own line takes the count, and those held after it are written
// a second after that line.
func TestRefusalFlushPaced(t *testing.T) {
	t.Parallel()
	type timer struct {
		d time.Duration
		f func()
	}
	var timers []timer
	r := refusalLog{after: func(d time.Duration, f func()) { timers = append(timers, timer{d, f}) }}
	var lines []int
	line := func(n int) { lines = append(lines, n) }
	t0 := time.Unix(1_700_000_000, 0)
	if n, ok := r.noteOr("base", t0, line); !ok || n != 1 {
		t.Fatalf("first refusal: %d %v, want logged", n, ok)
	}
	for i := 1; i <= 3; i++ {
		if _, ok := r.noteOr("base", t0.Add(time.Duration(i)*100*time.Millisecond), line); ok {
			t.Fatalf("refusal %d within the second logged", i)
		}
	}
	if len(timers) != 1 || timers[0].d != 900*time.Millisecond {
		t.Fatalf("timers %v: want one, due at the end of the second", timers)
	}
	timers[0].f()
	if len(lines) != 1 || lines[0] != 3 {
		t.Fatalf("flushed %v, want the 3 held", lines)
	}
	// The flush counts as a line: a refusal right after it is held.
	if _, ok := r.noteOr("base", t0.Add(1100*time.Millisecond), line); ok {
		t.Fatal("refusal 0.1 s after the flushed line logged")
	}
	if len(timers) != 2 || timers[1].d != 900*time.Millisecond {
		t.Fatalf("timers %v: want a second one due a second after the flushed line", timers)
	}
	// A later refusal writes the line itself; the one held after it is
	// written a second after that line.
	if n, ok := r.noteOr("base", t0.Add(2000*time.Millisecond), line); !ok || n != 2 {
		t.Fatalf("refusal a second after the flushed line: %d %v, want logged with 2", n, ok)
	}
	if _, ok := r.noteOr("base", t0.Add(2500*time.Millisecond), line); ok {
		t.Fatal("refusal 0.5 s after a line logged")
	}
	timers[1].f()
	if len(lines) != 1 {
		t.Fatalf("lines %v: the timer due before the last line wrote one", lines)
	}
	if len(timers) != 3 || timers[2].d != time.Second {
		t.Fatalf("timers %v: want one re-armed for a second after the last line", timers)
	}
	timers[2].f()
	if len(lines) != 2 || lines[1] != 1 {
		t.Fatalf("lines %v: want the one held after the last line written", lines)
	}
	if len(timers) != 3 {
		t.Fatalf("timers %v: want no more", timers)
	}
}
