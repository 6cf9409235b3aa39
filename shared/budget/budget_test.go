package budget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// clock is a settable clock for WithClock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(t time.Time) *clock { return &clock{t: t} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// wed is a Wednesday afternoon: 40 s left in the minute, 25 min 40 s in the
// hour, and until Monday 2025-11-24 00:00 UTC in the week.
var wed = time.Date(2025, 11, 19, 12, 34, 20, 0, time.UTC)

const wedWeekLeft = 4*86400 + 11*3600 + 25*60 + 40

// startServer runs an embedded NATS server with JetStream and declares the
// buckets as every role does.
func startServer(tb testing.TB) *bus.Server {
	tb.Helper()
	srv, err := bus.StartServer(bus.ServerConfig{StoreDir: tb.TempDir()}, nil)
	if err != nil {
		tb.Fatalf("start server: %v", err)
	}
	tb.Cleanup(srv.Shutdown)
	openKV(tb, srv, "declare")
	return srv
}

// connectJS is JetStream over a connection of its own, as a separate
// ingress process has.
func connectJS(tb testing.TB, srv *bus.Server, name string) jetstream.JetStream {
	tb.Helper()
	nc, err := srv.Connect(name)
	if err != nil {
		tb.Fatalf("connect: %v", err)
	}
	tb.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatalf("jetstream: %v", err)
	}
	return js
}

// openKV opens the budget bucket over a connection of its own, as a separate
// ingress process would.
func openKV(tb testing.TB, srv *bus.Server, name string) jetstream.KeyValue {
	tb.Helper()
	js := connectJS(tb, srv, name)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bus.Declare(ctx, js, bus.Options{}); err != nil {
		tb.Fatalf("declare: %v", err)
	}
	kv, err := js.KeyValue(ctx, bus.BucketBudget)
	if err != nil {
		tb.Fatalf("open bucket: %v", err)
	}
	return kv
}

// newBudget returns a Budget on kv; with run, its Run goroutine is started
// and checked to end cleanly when the test ends.
func newBudget(tb testing.TB, kv jetstream.KeyValue, clk *clock, run bool) *Budget {
	tb.Helper()
	var opts []Option
	if clk != nil {
		opts = append(opts, WithClock(clk.Now))
	}
	b := New(kv, nil, opts...)
	if run {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- b.Run(ctx) }()
		tb.Cleanup(func() {
			cancel()
			if err := <-done; err != nil {
				tb.Errorf("Run returned %v, want nil", err)
			}
		})
	}
	return b
}

func ctxT(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	tb.Cleanup(cancel)
	return ctx
}

// stored reads the record of a key straight from the bucket.
func stored(t *testing.T, kv jetstream.KeyValue, account string, family wire.Family) (record, bool) {
	t.Helper()
	kve, err := kv.Get(ctxT(t), kvKey(cacheKey{account, family}))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return record{}, false
	}
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	rec, err := decode(kve.Value())
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return rec, true
}

// refusedIn checks that err is RATE_LIMITED naming window.
func refusedIn(t *testing.T, st State, err error, window string) {
	t.Helper()
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		t.Fatalf("error = %v, want *apierr.Error", err)
	}
	if ae.Code != apierr.RateLimited || ae.Details != window || ae.Status() != http.StatusTooManyRequests {
		t.Fatalf("error = %s %q %d, want RATE_LIMITED %q 429", ae.Code, ae.Details, ae.Status(), window)
	}
	if st.Spent != window {
		t.Fatalf("Spent = %q, want %q", st.Spent, window)
	}
}

func TestChargeExactUnderConcurrency(t *testing.T) {
	srv := startServer(t)
	clk := newClock(wed)
	kvs := []jetstream.KeyValue{openKV(t, srv, "ingress-eu"), openKV(t, srv, "ingress-us")}
	both := []*Budget{newBudget(t, kvs[0], clk, true), newBudget(t, kvs[1], clk, true)}
	lone := []*Budget{newBudget(t, kvs[0], clk, false)}

	tests := []struct {
		name    string
		budgets []*Budget
		lim     Limits
		calls   int
		window  string
	}{
		{"one budget, minute", lone, Limits{50, 1000, 1000}, 200, "minute"},
		{"one budget, hour", lone, Limits{1000, 50, 1000}, 200, "hour"},
		{"two connections, minute", both, Limits{50, 1000, 1000}, 200, "minute"},
		{"two connections, week", both, Limits{1000, 1000, 50}, 200, "week"},
		{"two connections, limit 1", both, Limits{1, 1000, 1000}, 100, "minute"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acct := fmt.Sprintf("acct-exact-%d", i)
			var (
				start   = make(chan struct{})
				wg      sync.WaitGroup
				mu      sync.Mutex
				ok, ref int
			)
			for n := range tt.calls {
				b := tt.budgets[n%len(tt.budgets)]
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					st, err := b.Charge(ctxT(t), acct, wire.FamilySol, tt.lim)
					mu.Lock()
					defer mu.Unlock()
					if err == nil {
						ok++
						return
					}
					var ae *apierr.Error
					if !errors.As(err, &ae) || ae.Code != apierr.RateLimited || ae.Details != tt.window || st.Spent != tt.window {
						t.Errorf("charge: state %+v, err %v; want RATE_LIMITED in %s", st, err, tt.window)
						return
					}
					ref++
				}()
			}
			close(start)
			wg.Wait()
			limit := min(tt.lim.Minute, tt.lim.Hour, tt.lim.Week)
			if int64(ok) != limit || ref != tt.calls-int(limit) {
				t.Fatalf("ok %d, refused %d; want %d and %d", ok, ref, limit, tt.calls-int(limit))
			}
			rec, found := stored(t, kvs[0], acct, wire.FamilySol)
			if !found {
				t.Fatal("no stored record")
			}
			for w := range rec {
				if rec[w].count != limit {
					t.Errorf("stored %s count = %d, want %d", windows[w], rec[w].count, limit)
				}
			}
		})
	}
}

func TestChargeNamesSpentWindow(t *testing.T) {
	srv := startServer(t)
	kv := openKV(t, srv, "ingress")
	clk := newClock(wed)
	b := newBudget(t, kv, clk, false)

	tests := []struct {
		name      string
		lim       Limits
		window    string
		retry     int64
		remaining Limits // on the refusal
	}{
		{"minute", Limits{3, 100, 100}, "minute", 40, Limits{0, 97, 97}},
		{"hour", Limits{10, 3, 100}, "hour", 25*60 + 40, Limits{7, 0, 97}},
		{"week", Limits{10, 100, 3}, "week", wedWeekLeft, Limits{7, 97, 0}},
		// A retry before the week resets is refused again: the longest spent
		// window is the one to wait for.
		{"last to reset of several", Limits{3, 3, 3}, "week", wedWeekLeft, Limits{0, 0, 0}},
		{"minute and hour spent", Limits{3, 3, 100}, "hour", 25*60 + 40, Limits{0, 0, 97}},
		{"zero minute lets nothing pass", Limits{0, 10, 10}, "minute", 40, Limits{0, 10, 10}},
		{"zero week lets nothing pass", Limits{5, 10, 0}, "week", wedWeekLeft, Limits{5, 10, 0}},
		{"negative counts as zero", Limits{-1, 10, 10}, "minute", 40, Limits{0, 10, 10}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acct := fmt.Sprintf("acct-spent-%d", i)
			passes := max(min(tt.lim.Minute, tt.lim.Hour, tt.lim.Week), 0)
			if _, err := b.Peek(acct, wire.FamilyEVM, tt.lim).Refusal(); (err == nil) != (passes > 0) {
				t.Fatalf("Refusal of a fresh budget: %v", err)
			}
			for n := range passes {
				st, err := b.Charge(ctxT(t), acct, wire.FamilyEVM, tt.lim)
				if err != nil {
					t.Fatalf("charge %d: %v", n+1, err)
				}
				if st.Spent != "" || st.RetryAfter != 0 {
					t.Fatalf("charge %d: passed with Spent %q RetryAfter %d", n+1, st.Spent, st.RetryAfter)
				}
			}
			for range 2 { // a refusal charges nothing: the second is the same
				st, err := b.Charge(ctxT(t), acct, wire.FamilyEVM, tt.lim)
				refusedIn(t, st, err, tt.window)
				// The refusal read from the cache is the one Charge gives.
				pst, perr := b.Peek(acct, wire.FamilyEVM, tt.lim).Refusal()
				refusedIn(t, pst, perr, tt.window)
				if pst != st || perr.Error() != err.Error() {
					t.Errorf("Refusal = %+v %v, Charge = %+v %v", pst, perr, st, err)
				}
				if st.RetryAfter != tt.retry {
					t.Errorf("RetryAfter = %d, want %d", st.RetryAfter, tt.retry)
				}
				if want := [3]int64{40, 25*60 + 40, wedWeekLeft}; st.Reset != want {
					t.Errorf("Reset = %v, want %v", st.Reset, want)
				}
				if st.Remaining != tt.remaining {
					t.Errorf("Remaining = %+v, want %+v", st.Remaining, tt.remaining)
				}
			}
			rec, found := stored(t, kv, acct, wire.FamilyEVM)
			if passes == 0 {
				if found {
					t.Fatalf("a refused first charge stored %+v", rec)
				}
				return
			}
			for w := range rec {
				if rec[w].count != passes {
					t.Errorf("stored %s count = %d, want %d", windows[w], rec[w].count, passes)
				}
			}
		})
	}
}

func TestWindowsRollOver(t *testing.T) {
	srv := startServer(t)
	kv := openKV(t, srv, "ingress")
	clk := newClock(wed)
	b := newBudget(t, kv, clk, false)

	sunday := time.Date(2025, 11, 23, 23, 59, 59, 250e6, time.UTC)
	monday := time.Date(2025, 11, 24, 0, 0, 0, 0, time.UTC)
	type step struct {
		at        time.Time
		window    string // "" when the charge passes
		remaining Limits
		retry     int64
	}
	tests := []struct {
		name  string
		lim   Limits
		steps []step
	}{
		{"minute rolls over, hour does not", Limits{2, 3, 100}, []step{
			{wed, "", Limits{1, 2, 99}, 0},
			{wed.Add(30 * time.Second), "", Limits{0, 1, 98}, 0},
			{wed.Add(39 * time.Second), "minute", Limits{0, 1, 98}, 1},
			{wed.Add(40 * time.Second), "", Limits{1, 0, 97}, 0}, // 12:35:00
			{wed.Add(41 * time.Second), "hour", Limits{1, 0, 97}, 25*60 - 1},
			{wed.Add(25*time.Minute + 39*time.Second), "hour", Limits{2, 0, 97}, 1},
			{wed.Add(25*time.Minute + 40*time.Second), "", Limits{1, 2, 96}, 0}, // 13:00:00
		}},
		{"ISO week starts Monday 00:00 UTC", Limits{100, 100, 2}, []step{
			{sunday.Add(-48 * time.Hour), "", Limits{99, 99, 1}, 0}, // Friday
			{sunday, "", Limits{99, 99, 0}, 0},
			{sunday.Add(500 * time.Millisecond), "week", Limits{99, 99, 0}, 1},
			{monday, "", Limits{99, 99, 1}, 0},
			{monday.Add(6 * 24 * time.Hour), "", Limits{99, 99, 0}, 0},
			{monday.Add(7*24*time.Hour - time.Second), "week", Limits{100, 100, 0}, 1},
			{monday.Add(7 * 24 * time.Hour), "", Limits{99, 99, 1}, 0},
		}},
		{"week seen from another zone", Limits{100, 100, 1}, []step{
			// Sunday 20:00 in New York is Monday 01:00 UTC: a new week.
			{sunday.Add(-time.Hour), "", Limits{99, 99, 0}, 0},
			{monday.Add(time.Hour).In(time.FixedZone("EST", -5*3600)), "", Limits{99, 99, 0}, 0},
		}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acct := fmt.Sprintf("acct-roll-%d", i)
			for n, s := range tt.steps {
				clk.Set(s.at)
				st, err := b.Charge(ctxT(t), acct, wire.FamilySol, tt.lim)
				if s.window == "" && err != nil {
					t.Fatalf("step %d: %v", n, err)
				}
				if s.window != "" {
					refusedIn(t, st, err, s.window)
				}
				if st.Remaining != s.remaining || st.RetryAfter != s.retry {
					t.Fatalf("step %d: Remaining %+v RetryAfter %d, want %+v %d",
						n, st.Remaining, st.RetryAfter, s.remaining, s.retry)
				}
				if peek := b.Peek(acct, wire.FamilySol, tt.lim); peek.Remaining != s.remaining {
					t.Fatalf("step %d: Peek Remaining %+v, want %+v", n, peek.Remaining, s.remaining)
				}
			}
		})
	}
}

func TestStateForResets(t *testing.T) {
	tests := []struct {
		name string
		at   time.Time
		want [3]int64
	}{
		{"Monday 00:00 UTC", time.Date(2025, 11, 24, 0, 0, 0, 0, time.UTC), [3]int64{60, 3600, 7 * 86400}},
		{"just before Monday", time.Date(2025, 11, 23, 23, 59, 59, 999e6, time.UTC), [3]int64{1, 1, 1}},
		{"Wednesday", wed, [3]int64{40, 25*60 + 40, wedWeekLeft}},
		{"Wednesday, other zone", wed.In(time.FixedZone("UTC+9", 9*3600)), [3]int64{40, 25*60 + 40, wedWeekLeft}},
		{"Thursday 1970-01-01", time.Unix(0, 0), [3]int64{60, 3600, 4 * 86400}},
		{"Thursday 1 ns into a minute", time.Unix(0, 1), [3]int64{60, 3600, 4 * 86400}},
		{"leap year February 29", time.Date(2024, 2, 29, 12, 0, 30, 0, time.UTC), [3]int64{30, 3570, 3*86400 + 11*3600 + 59*60 + 30}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := StateFor(DefaultLimits, tt.at)
			if st.Reset != tt.want {
				t.Errorf("Reset = %v, want %v", st.Reset, tt.want)
			}
			if st.Limits != DefaultLimits || st.Remaining != DefaultLimits || st.Spent != "" || st.RetryAfter != 0 {
				t.Errorf("state = %+v, want the full default budget", st)
			}
		})
	}
}

func TestPeekSeesOtherProcess(t *testing.T) {
	srv := startServer(t)
	clk := newClock(wed)
	kvA, kvB := openKV(t, srv, "ingress-eu"), openKV(t, srv, "ingress-us")
	a := newBudget(t, kvA, clk, false) // no watch: its cache goes stale
	b := newBudget(t, kvB, clk, true)
	lim := Limits{10, 100, 1000}
	const acct = "acct-peek"

	if got := b.Peek(acct, wire.FamilySol, lim); got.Remaining != lim {
		t.Fatalf("Peek before any charge: Remaining %+v, want %+v", got.Remaining, lim)
	}
	for range 3 {
		if _, err := a.Charge(ctxT(t), acct, wire.FamilySol, lim); err != nil {
			t.Fatalf("charge: %v", err)
		}
	}
	if got := a.Peek(acct, wire.FamilySol, lim); got.Remaining != (Limits{7, 97, 997}) {
		t.Fatalf("Peek of the charging process: Remaining %+v, want 7/97/997", got.Remaining)
	}
	waitPeek(t, b, acct, wire.FamilySol, lim, Limits{7, 97, 997})
	if got := b.Peek(acct, wire.FamilyEVM, lim); got.Remaining != lim {
		t.Fatalf("Peek of the other family: Remaining %+v, want %+v", got.Remaining, lim)
	}

	// b's cache is fresh: its charge continues the count.
	st, err := b.Charge(ctxT(t), acct, wire.FamilySol, lim)
	if err != nil || st.Remaining != (Limits{6, 96, 996}) {
		t.Fatalf("charge on the watching process: %+v, %v; want 6/96/996", st.Remaining, err)
	}
	// a's cache is one write behind: its update fails and it retries with
	// the fresh value.
	conflicts := a.conflicts.Load()
	st, err = a.Charge(ctxT(t), acct, wire.FamilySol, lim)
	if err != nil || st.Remaining != (Limits{5, 95, 995}) {
		t.Fatalf("charge on the stale process: %+v, %v; want 5/95/995", st.Remaining, err)
	}
	if got := a.conflicts.Load() - conflicts; got != 1 {
		t.Errorf("stale charge lost %d races, want 1", got)
	}
	waitPeek(t, b, acct, wire.FamilySol, lim, Limits{5, 95, 995})
}

// waitPeek polls b.Peek until it shows want.
func waitPeek(t *testing.T, b *Budget, account string, family wire.Family, lim, want Limits) {
	t.Helper()
	var got Limits
	if !poll.True(5*time.Second, func() bool {
		got = b.Peek(account, family, lim).Remaining
		return got == want
	}) {
		t.Fatalf("Peek Remaining = %+v after 5 s, want %+v", got, want)
	}
}

func TestPerAccountLimits(t *testing.T) {
	srv := startServer(t)
	b := newBudget(t, openKV(t, srv, "ingress"), newClock(wed), true)

	tests := []struct {
		account string
		family  wire.Family
		lim     Limits
		calls   int
		wantOK  int
	}{
		{"acct-small", wire.FamilySol, Limits{2, 1200, 10000}, 6, 2},
		{"acct-large", wire.FamilySol, Limits{5, 1200, 10000}, 6, 5},
		{"acct-small", wire.FamilyEVM, DefaultLimits, 6, 6}, // another family, another budget
		{"acct-hourly", wire.FamilyEVM, Limits{60, 4, 10000}, 6, 4},
	}
	for _, tt := range tests {
		t.Run(tt.account+"/"+string(tt.family), func(t *testing.T) {
			ok := 0
			for range tt.calls {
				if _, err := b.Charge(ctxT(t), tt.account, tt.family, tt.lim); err == nil {
					ok++
				} else if apierr.From(err).Code != apierr.RateLimited {
					t.Fatalf("charge: %v", err)
				}
			}
			if ok != tt.wantOK {
				t.Fatalf("%d charges passed, want %d", ok, tt.wantOK)
			}
			peek := b.Peek(tt.account, tt.family, tt.lim)
			if peek.Limits != tt.lim || peek.Remaining.Minute != tt.lim.Minute-int64(ok) {
				t.Fatalf("Peek = %+v after %d charges", peek, ok)
			}
		})
	}
}

// TestHeadersOnTheWire: the rate-limit headers go out spelled as the API
// specification spells them (X-RateLimit-..., not Go's X-Ratelimit-...),
// for clients that read an answer as text.
func TestHeadersOnTheWire(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		StateFor(DefaultLimits, time.Now()).Headers(w.Header())
	}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Minute", "Hour", "Week"} {
		for _, kind := range []string{"Limit", "Remaining", "Reset"} {
			if name := "\r\nX-RateLimit-" + kind + "-" + w + ": "; !strings.Contains(string(raw), name) {
				t.Errorf("the answer has no %q:\n%s", name[2:], raw)
			}
		}
	}
}

func TestHeaders(t *testing.T) {
	names := [3]string{"Minute", "Hour", "Week"}
	tests := []struct {
		name  string
		state State
		retry string // "" when Retry-After must be absent
	}{
		{"unauthenticated", StateFor(DefaultLimits, wed), ""},
		{"passed", State{Limits: Limits{60, 1200, 10000}, Remaining: Limits{59, 1199, 9999}, Reset: [3]int64{40, 1540, wedWeekLeft}}, ""},
		{"refused", State{Limits: Limits{60, 1200, 10000}, Remaining: Limits{30, 0, 5000}, Reset: [3]int64{40, 1540, wedWeekLeft},
			Spent: "hour", RetryAfter: 1540}, "1540"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			tt.state.Headers(h)
			for i, n := range names {
				for _, c := range []struct {
					header string
					want   int64
				}{
					{"X-RateLimit-Limit-" + n, tt.state.Limits.at(i)},
					{"X-RateLimit-Remaining-" + n, tt.state.Remaining.at(i)},
					{"X-RateLimit-Reset-" + n, tt.state.Reset[i]},
				} {
					// The specification's spelling, as the map holds it.
					v := strings.Join(h[c.header], ",")
					got, err := strconv.ParseInt(v, 10, 64)
					if err != nil || got != c.want {
						t.Errorf("%s = %q, want %d", c.header, v, c.want)
					}
				}
			}
			if got := h.Get("Retry-After"); got != tt.retry {
				t.Errorf("Retry-After = %q, want %q", got, tt.retry)
			}
			want := 9
			if tt.retry != "" {
				want++
			}
			if len(h) != want {
				t.Errorf("%d headers set, want %d: %v", len(h), want, h)
			}
		})
	}
}

func TestStoreStartsOver(t *testing.T) {
	srv := startServer(t)
	kv := openKV(t, srv, "ingress")
	js := connectJS(t, srv, "operator")
	b := newBudget(t, kv, newClock(wed), false)
	lim := Limits{5, 100, 100}

	tests := []struct {
		name  string
		spoil func(key string) error
	}{
		{"deleted key", func(key string) error { return kv.Delete(ctxT(t), key) }},
		{"purged key", func(key string) error { bustest.PurgeKey(t, js, bus.BucketBudget, key); return nil }},
		{"unreadable value", func(key string) error {
			_, err := kv.Put(ctxT(t), key, []byte(`{"not":"a record"}`))
			return err
		}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acct := fmt.Sprintf("acct-over-%d", i)
			for range 3 {
				if _, err := b.Charge(ctxT(t), acct, wire.FamilySol, lim); err != nil {
					t.Fatalf("charge: %v", err)
				}
			}
			if err := tt.spoil(kvKey(cacheKey{acct, wire.FamilySol})); err != nil {
				t.Fatalf("spoil: %v", err)
			}
			// The cached revision is outdated; the charge reads the key
			// again and counts from zero.
			st, err := b.Charge(ctxT(t), acct, wire.FamilySol, lim)
			if err != nil || st.Remaining != (Limits{4, 99, 99}) {
				t.Fatalf("charge after the key was spoiled: %+v, %v; want 4/99/99", st.Remaining, err)
			}
			if rec, _ := stored(t, kv, acct, wire.FamilySol); rec[minute].count != 1 {
				t.Fatalf("stored minute count = %d, want 1", rec[minute].count)
			}
		})
	}
}

func TestChargeErrors(t *testing.T) {
	srv := startServer(t)
	b := newBudget(t, openKV(t, srv, "ingress"), newClock(wed), false)

	tests := []struct {
		name   string
		ctx    func() context.Context
		family wire.Family
		want   error
	}{
		{"unknown family", context.Background, wire.Family("btc"), nil},
		{"cancelled context", func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, wire.FamilySol, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := b.Charge(tt.ctx(), "acct-err", tt.family, DefaultLimits)
			if err == nil {
				t.Fatal("charge passed")
			}
			if apierr.From(err).Code != apierr.Internal {
				t.Errorf("code = %s, want INTERNAL", apierr.From(err).Code)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestKeys(t *testing.T) {
	srv := startServer(t)
	kv := openKV(t, srv, "ingress")
	tests := []struct {
		account string
		family  wire.Family
		key     string
	}{
		{"acct_01-AbC", wire.FamilySol, "acct_01-AbC.sol"},
		{"3f2a9c1e-77b0-4c2d-9a51-0e6b7d8c9f10", wire.FamilyEVM, "3f2a9c1e-77b0-4c2d-9a51-0e6b7d8c9f10.evm"},
		{"a.b", wire.FamilySol, "=YS5i.sol"},
		{"user@example.com", wire.FamilyEVM, "=dXNlckBleGFtcGxlLmNvbQ.evm"},
		{"ünï cödé", wire.FamilySol, "=w7xuw68gY8O2ZMOp.sol"},
		{"", wire.FamilySol, "=.sol"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			k := cacheKey{tt.account, tt.family}
			if got := kvKey(k); got != tt.key {
				t.Fatalf("kvKey = %q, want %q", got, tt.key)
			}
			if got, ok := parseKey(tt.key); !ok || got != k {
				t.Fatalf("parseKey = %+v %v, want %+v", got, ok, k)
			}
			if _, err := kv.Put(ctxT(t), tt.key, nil); err != nil {
				t.Fatalf("the bucket refuses the key: %v", err)
			}
		})
	}
	for _, bad := range []string{"nodot", ".sol", "acct.", "a@b.sol", "=!!.sol"} {
		if k, ok := parseKey(bad); ok {
			t.Errorf("parseKey(%q) = %+v, want refusal", bad, k)
		}
	}
}

func TestRecordRoundTrip(t *testing.T) {
	rec := record{{wed.Unix() - 20, 7}, {wed.Unix() - 2060, 90}, {1763337600, 1}}
	b := rec.encode()
	if len(b) != recordSize {
		t.Fatalf("encoded %d bytes, want %d", len(b), recordSize)
	}
	got, err := decode(b)
	if err != nil || got != rec {
		t.Fatalf("decode = %+v, %v; want %+v", got, err, rec)
	}
	for _, bad := range [][]byte{nil, b[:recordSize-1], append([]byte{2}, b[1:]...)} {
		if _, err := decode(bad); !errors.Is(err, errBadRecord) {
			t.Errorf("decode(% x) error = %v, want errBadRecord", bad, err)
		}
	}
}
