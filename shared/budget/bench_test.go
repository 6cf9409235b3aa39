package budget

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// unlimited keeps every benchmark charge on the write path.
var unlimited = Limits{1 << 50, 1 << 50, 1 << 50}

// BenchmarkCharge measures charges against an embedded file-backed bucket,
// each Budget with its watch running as in production.
func BenchmarkCharge(b *testing.B) {
	ctx := context.Background()

	b.Run("uncontended", func(b *testing.B) {
		srv := startServer(b)
		bud := newBudget(b, openKV(b, srv, "ingress"), nil, true)
		if _, err := bud.Charge(ctx, "acct-bench", wire.FamilySol, unlimited); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for b.Loop() {
			if _, err := bud.Charge(ctx, "acct-bench", wire.FamilySol, unlimited); err != nil {
				b.Fatal(err)
			}
		}
		reportConflicts(b, bud)
	})

	// The floor: a bare compare-and-set update of one key, known revision.
	b.Run("kv-update-floor", func(b *testing.B) {
		srv := startServer(b)
		kv := openKV(b, srv, "ingress")
		rec := record{}
		rev, err := kv.Create(ctx, "floor.sol", rec.encode())
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for b.Loop() {
			if rev, err = kv.Update(ctx, "floor.sol", rec.encode(), rev); err != nil {
				b.Fatal(err)
			}
		}
	})

	b.Run("parallel-accounts", func(b *testing.B) {
		srv := startServer(b)
		bud := newBudget(b, openKV(b, srv, "ingress"), nil, true)
		var next atomic.Int64
		b.SetParallelism(8)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			// Each goroutine has accounts of its own: no two charges race.
			g := next.Add(1)
			for n := 0; pb.Next(); n++ {
				acct := fmt.Sprintf("acct-%d-%d", g, n%256)
				if _, err := bud.Charge(ctx, acct, wire.FamilySol, unlimited); err != nil {
					b.Fatal(err)
				}
			}
		})
		reportConflicts(b, bud)
	})

	b.Run("contended-one-key", func(b *testing.B) {
		srv := startServer(b)
		bud := newBudget(b, openKV(b, srv, "ingress"), nil, true)
		var lat latencies
		b.SetParallelism(8)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			var mine []time.Duration
			for pb.Next() {
				t0 := time.Now()
				if _, err := bud.Charge(ctx, "acct-hot", wire.FamilySol, unlimited); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			lat.add(mine)
		})
		reportConflicts(b, bud)
		lat.report(b)
	})

	b.Run("contended-one-key-two-processes", func(b *testing.B) {
		srv := startServer(b)
		buds := []*Budget{
			newBudget(b, openKV(b, srv, "ingress-eu"), nil, true),
			newBudget(b, openKV(b, srv, "ingress-us"), nil, true),
		}
		var (
			next atomic.Int64
			lat  latencies
		)
		b.SetParallelism(8)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			bud := buds[next.Add(1)%2]
			var mine []time.Duration
			for pb.Next() {
				t0 := time.Now()
				if _, err := bud.Charge(ctx, "acct-hot", wire.FamilySol, unlimited); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			lat.add(mine)
		})
		reportConflicts(b, buds...)
		lat.report(b)
	})

	b.Run("refused", func(b *testing.B) {
		srv := startServer(b)
		// A fixed clock: the spent minute must not roll over mid-run.
		bud := newBudget(b, openKV(b, srv, "ingress"), newClock(wed), true)
		lim := Limits{1, 1 << 50, 1 << 50}
		if _, err := bud.Charge(ctx, "acct-spent", wire.FamilySol, lim); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for b.Loop() {
			if _, err := bud.Charge(ctx, "acct-spent", wire.FamilySol, lim); err == nil {
				b.Fatal("charge passed a spent minute")
			}
		}
	})
}

// latencies gathers per-charge times from parallel goroutines.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d []time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.d = append(l.d, d...)
}

// report adds the median, 99th percentile and worst charge time.
func (l *latencies) report(b *testing.B) {
	if len(l.d) == 0 {
		return
	}
	slices.Sort(l.d)
	at := func(q float64) float64 { return float64(l.d[int(q*float64(len(l.d)-1))].Microseconds()) }
	b.ReportMetric(at(0.5), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
	b.ReportMetric(at(1), "max-µs")
}

func reportConflicts(b *testing.B, buds ...*Budget) {
	var n uint64
	for _, bud := range buds {
		n += bud.conflicts.Load()
	}
	b.ReportMetric(float64(n)/float64(b.N), "conflicts/op")
}

// BenchmarkPeek measures the cached read that uncharged responses use.
func BenchmarkPeek(b *testing.B) {
	srv := startServer(b)
	bud := newBudget(b, openKV(b, srv, "ingress"), nil, true)
	for i := range 1000 {
		if _, err := bud.Charge(context.Background(), fmt.Sprintf("acct-%d", i), wire.FamilySol, DefaultLimits); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			if st := bud.Peek("acct-500", wire.FamilySol, DefaultLimits); st.Remaining.Week < DefaultLimits.Week-1 {
				b.Fatalf("Remaining = %+v", st.Remaining)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if st := bud.Peek("acct-500", wire.FamilySol, DefaultLimits); st.Remaining.Week < DefaultLimits.Week-1 {
					b.Errorf("Remaining = %+v", st.Remaining)
					return
				}
			}
		})
	})
}
