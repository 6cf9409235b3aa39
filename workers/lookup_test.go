package workers

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestLookupTriesAgainWhatWasNotAnswered: a read sent while its stream had
// no leader is never answered, even once one is elected: each try is
// bounded by lookupTry and the read sent again until LookupWait has
// passed, while an answer (found or not) ends the lookup at once.
func TestLookupTriesAgainWhatWasNotAnswered(t *testing.T) {
	t.Parallel()
	w := &Worker{cfg: Config{LookupWait: 5 * time.Second}}
	tries := 0
	err := w.lookup(context.Background(), 1, func(ctx context.Context) error {
		tries++
		if tries == 1 {
			<-ctx.Done() // sent while the stream had no leader
			return ctx.Err()
		}
		return nil
	})
	if err != nil || tries != 2 {
		t.Fatalf("after a try that got no answer: err %v after %d tries, want the second's answer", err, tries)
	}
	for _, answer := range []error{jetstream.ErrMsgNotFound, jetstream.ErrKeyNotFound} {
		tries = 0
		err = w.lookup(context.Background(), 1, func(context.Context) error { tries++; return answer })
		if err != answer || tries != 1 {
			t.Fatalf("%v: err %v after %d tries, want it at once", answer, err, tries)
		}
	}
	tries = 0
	w.cfg.LookupWait = 1500 * time.Millisecond
	start := time.Now()
	err = w.lookup(context.Background(), 1, func(context.Context) error { tries++; return nats.ErrNoResponders })
	if err != nats.ErrNoResponders || tries < 2 || time.Since(start) > 10*time.Second {
		t.Fatalf("no responders throughout: err %v after %d tries in %v", err, tries, time.Since(start))
	}
}
