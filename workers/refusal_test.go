package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// flakyKV fails its first `fails` writes, as a JetStream hiccup would.
type flakyKV struct {
	jetstream.KeyValue
	fails atomic.Int32
}

func (k *flakyKV) Update(ctx context.Context, key string, v []byte, rev uint64) (uint64, error) {
	if k.fails.Add(-1) >= 0 {
		return 0, errors.New("nats: timeout")
	}
	return k.KeyValue.Update(ctx, key, v, rev)
}

func (k *flakyKV) Create(ctx context.Context, key string, v []byte, o ...jetstream.KVCreateOpt) (uint64, error) {
	if k.fails.Add(-1) >= 0 {
		return 0, errors.New("nats: timeout")
	}
	return k.KeyValue.Create(ctx, key, v, o...)
}

// flakyJS fails its first `fails` event publishes.
type flakyJS struct {
	jetstream.JetStream
	fails atomic.Int32
}

func (j *flakyJS) PublishMsg(ctx context.Context, m *nats.Msg, o ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if strings.HasPrefix(m.Subject, bus.EventsPrefix) && j.fails.Add(-1) >= 0 {
		return nil, errors.New("nats: timeout")
	}
	return j.JetStream.PublishMsg(ctx, m, o...)
}

// toppedUp refuses its first signing INSUFFICIENT_BALANCE, then signs.
type toppedUp struct{ randomSigner }

func (s *toppedUp) Sign(ctx context.Context, job *wire.SwapJob) (*wire.TxBatch, error) {
	if s.calls.Load() == 0 {
		s.calls.Add(1)
		return nil, apierr.Newf(apierr.InsufficientBalance, "W", "wallet W holds too little")
	}
	return s.randomSigner.Sign(ctx, job)
}

// TestUnstoredRefusalNotRunAgain: the refusal's record write and its event
// both fail in one hiccup, after its bot was answered refused. The job is
// not handed back to emit the event again: its redelivery would find the
// record pending and sign an order its bot was told did not trade.
func TestUnstoredRefusalNotRunAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	id := "eu-hiccup"
	data, _ := json.Marshal(&wire.Order{OrderID: id, State: wire.StatePending, Signatures: []wire.SigState{}})
	if _, err := e.b.Orders.Create(ctx, id, data); err != nil {
		t.Fatal(err)
	}
	signer := &toppedUp{}
	w := e.newWorker(Config{Chain: "solana", Beat: 50 * time.Millisecond}, signer)
	kv := &flakyKV{KeyValue: e.b.Orders}
	kv.fails.Store(1)
	w.orders = orders.NewStore(kv)
	js := &flakyJS{JetStream: e.js}
	js.fails.Store(1)
	w.events = events.NewPublisher(js, slog.New(slog.DiscardHandler))
	inbox, sub := e.run(t, w)
	e.publishJob(t, id, inbox)
	r := nextReply(t, sub)
	if r.Error == nil || r.Error.Code != apierr.InsufficientBalance {
		t.Fatalf("first answer %+v", r)
	}
	e.awaitJobsDone(t, "solana", 1)
	time.Sleep(time.Second) // deliberate: a redelivery's back-off is 200 ms
	e.awaitJobsDone(t, "solana", 1)
	if n := e.batches(t); n != 0 {
		t.Fatalf("the bot was answered INSUFFICIENT_BALANCE, yet %d batch(es) of the order are in TXS (signed %d times)", n, signer.calls.Load())
	}
}

// TestRefusedJobHandedOutAgainAfterARestart: a NATS server killed with its
// processes can come back with the acks of its last moments lost, and
// hand out again, as a first delivery, a job already refused. Stored
// before this worker started, it is looked up before anything is signed,
// and refused again from the record.
func TestRefusedJobHandedOutAgainAfterARestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	const id = "eu-refused-before-restart"
	body := apierr.Newf(apierr.InsufficientBalance, "W", "wallet W holds too little").Body()
	data, _ := json.Marshal(&wire.Order{OrderID: id, State: wire.StateFailed, Error: &body, Signatures: []wire.SigState{}})
	if _, err := e.b.Orders.Create(ctx, id, data); err != nil {
		t.Fatal(err)
	}
	e.publishJob(t, id, "")
	// The worker of the restarted process starts after the job was stored,
	// well within lateFirst of it.
	signer := &randomSigner{}
	w := e.newWorker(Config{Chain: "solana", Beat: 50 * time.Millisecond}, signer)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = w.Run(wctx) }()
	e.awaitJobsDone(t, "solana", 1)
	if n := signer.calls.Load(); n != 0 || e.batches(t) != 0 {
		t.Fatalf("signed %d times, %d batches: a refused order was traded after a restart", n, e.batches(t))
	}
}

// lockedKeys fails every signing as a keyring given another master key
// than the registry's does.
type lockedKeys struct{ randomSigner }

func (s *lockedKeys) Sign(context.Context, *wire.SwapJob) (*wire.TxBatch, error) {
	s.calls.Add(1)
	return nil, fmt.Errorf("get key: wallet W: sealed wallet key: %w", registry.ErrWrongMasterKey)
}

// TestWrongMasterKeyRefusedAtOnce: a worker that cannot open a wallet's
// key answers CHAIN_UNAVAILABLE at once, naming the cause in its log, and
// signs nothing (it retried four times and answered 504 "the chain did
// not answer in time").
func TestWrongMasterKeyRefusedAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	signer := &lockedKeys{}
	w := e.newWorker(Config{Chain: "solana", Beat: 50 * time.Millisecond}, signer)
	inbox, sub := e.run(t, w)
	e.publishJob(t, "eu-locked", inbox)
	r := nextReply(t, sub)
	if r.Error == nil || r.Error.Code != apierr.ChainUnavailable || !strings.Contains(r.Error.Message, "master key") {
		t.Fatalf("answer %+v", r)
	}
	e.awaitJobsDone(t, "solana", 1)
	if n := signer.calls.Load(); n != 1 {
		t.Fatalf("signed %d times", n)
	}
}
