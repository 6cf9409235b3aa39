package workers

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// hungStream is a TXS stream whose reads answer only when their context
// ends: a stream without a leader for a while.
type hungStream struct{ jetstream.Stream }

func (hungStream) GetLastMsgForSubject(ctx context.Context, _ string) (*jetstream.RawStreamMsg, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// nakedMsg is a redelivered job's message; it records how it was ended.
type nakedMsg struct {
	jetstream.Msg
	mu    sync.Mutex
	ended []string
}

func (m *nakedMsg) NakWithDelay(time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ended = append(m.ended, "nak")
	return nil
}

// TestLookupBounded: a redelivered job whose earlier delivery cannot be
// looked up (the stream does not answer) is handed back to be tried again
// after LookupWait, nothing signed, instead of holding its handler, and a
// worker that stops, for the job's whole life (a worker stopping during a
// NATS fail-over took 12 s, past the 10 s a role has).
func TestLookupBounded(t *testing.T) {
	e := newEnv(t)
	w := e.newWorker(Config{Chain: "solana", LookupWait: 200 * time.Millisecond}, &randomSigner{})
	w.txs = hungStream{}
	m := &nakedMsg{}
	j := &job{orderID: "eu-hung", seed: &wire.Order{OrderID: "eu-hung", CreatedAt: time.Now()}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	_, _, ok := w.batchOf(ctx, m, j, "", 2, slog.New(slog.DiscardHandler))
	if d := time.Since(start); ok || d > 5*time.Second {
		t.Fatalf("batchOf with a stream that does not answer: ok %v after %v, want it handed back after about 200ms", ok, d)
	}
	if len(m.ended) != 1 || m.ended[0] != "nak" {
		t.Fatalf("the message was ended %v, want handed back", m.ended)
	}
}
