package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"runtime/pprof"
	"testing"
	"time"
)

// pb encodes the few profile.proto fields the tests need.
type pb struct{ b []byte }

func (p *pb) varint(num int, v uint64) {
	p.b = binary.AppendUvarint(p.b, uint64(num)<<3|wireVarint)
	p.b = binary.AppendUvarint(p.b, v)
}

func (p *pb) bytes(num int, b []byte) {
	p.b = binary.AppendUvarint(p.b, uint64(num)<<3|wireBytes)
	p.b = binary.AppendUvarint(p.b, uint64(len(b)))
	p.b = append(p.b, b...)
}

func (p *pb) msg(num int, f func(*pb)) {
	var m pb
	f(&m)
	p.bytes(num, m.b)
}

// synthetic is a CPU profile with one sample per entry of samples: cpu
// nanoseconds, the role label ("" for none), a stack of the one function
// fn. Values are packed and locations not, as the runtime writes a run of
// two and a run of one.
func synthetic(samples []struct {
	role, fn string
	cpu      int64
}) []byte {
	strs := []string{"", "samples", "count", "cpu", "nanoseconds", "role"}
	idx := func(s string) uint64 {
		for i, x := range strs {
			if x == s {
				return uint64(i)
			}
		}
		strs = append(strs, s)
		return uint64(len(strs) - 1)
	}
	var p pb
	p.msg(1, func(m *pb) { m.varint(1, idx("samples")); m.varint(2, idx("count")) })
	p.msg(1, func(m *pb) { m.varint(1, idx("cpu")); m.varint(2, idx("nanoseconds")) })
	for i, s := range samples {
		id := uint64(i + 1)
		p.msg(5, func(m *pb) { m.varint(1, id); m.varint(2, idx(s.fn)) })
		p.msg(4, func(m *pb) { m.varint(1, id); m.msg(4, func(l *pb) { l.varint(1, id) }) })
		p.msg(2, func(m *pb) {
			m.varint(1, id)
			var vals []byte
			vals = binary.AppendUvarint(vals, 1)
			vals = binary.AppendUvarint(vals, uint64(s.cpu))
			m.bytes(2, vals)
			if s.role != "" {
				m.msg(3, func(l *pb) { l.varint(1, idx("role")); l.varint(2, idx(s.role)) })
			}
		})
	}
	for _, s := range strs {
		p.bytes(6, []byte(s))
	}
	return p.b
}

func TestSplitProfile(t *testing.T) {
	raw := synthetic([]struct {
		role, fn string
		cpu      int64
	}{
		{"ingress", "github.com/gin-gonic/gin.(*Engine).ServeHTTP", 10},
		{"worker", "crypto/ed25519.Sign", 20},
		// Started by the composition root, but a worker's code.
		{"nats", "github.com/tradeapi/tradeapi/ingress.(*Pipeline).onReply", 4},
		{"nats", "github.com/tradeapi/tradeapi/shared/devnet/solana.(*Chain).tick", 5},
		{"nats", "github.com/nats-io/nats.go.(*Conn).readLoop", 6},
		// Labelled afresh by the NATS server.
		{"", "github.com/nats-io/nats-server/v2/server.(*stream).internalLoop", 7},
		{"", "runtime.gcBgMarkWorker", 8},
		{"", "runtime.mcall", 9},
	})
	s, err := splitProfile(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Duration{"ingress": 14, "worker": 20, "devnet": 5, "nats": 13, "gc": 8, "runtime": 9}
	for role, d := range want {
		if s.byRole[role] != d {
			t.Errorf("%s: %d ns, want %d (split %v)", role, s.byRole[role], d, s.byRole)
		}
	}
	if len(s.byRole) != len(want) || s.total != 69 {
		t.Errorf("split %v, total %d; want %v, 69", s.byRole, s.total, want)
	}
}

// TestSplitRuntimeProfile reads a profile the runtime wrote: a labelled
// goroutine's CPU time is found under its role.
func TestSplitRuntimeProfile(t *testing.T) {
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		t.Fatal("cannot profile (is go test itself profiling?):", err)
	}
	var sink uint64
	pprof.Do(context.Background(), pprof.Labels(labelRole, "spinner"), func(context.Context) {
		// Enough CPU work for tens of samples at 100 Hz on any machine.
		start := time.Now()
		for i := uint64(0); time.Since(start) < 300*time.Millisecond || i < 1e8; i++ {
			sink += i * i
		}
	})
	pprof.StopCPUProfile()
	_ = sink
	s, err := splitProfile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if s.byRole["spinner"] == 0 || s.byRole["spinner"] > s.total {
		t.Fatalf("spinner %s of %s (split %v)", s.byRole["spinner"], s.total, s.byRole)
	}
}
