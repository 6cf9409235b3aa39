package broadcaster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// slowRelayChain: the relay takes every bundle but its answer never comes
// back (a timeout); the bundle lands a moment after it was sent.
type slowRelayChain struct {
	sends  atomic.Int64
	landAt atomic.Int64 // unix nanos; 0: nothing sent
}

func (c *slowRelayChain) Send(context.Context, wire.SignedTx) error { return nil }
func (c *slowRelayChain) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	out := make([]Status, len(sigs))
	if at := c.landAt.Load(); at != 0 && time.Now().UnixNano() > at {
		for i := range out {
			out[i] = Status{State: wire.StateConfirmed, Slot: 7}
		}
	}
	return out, nil
}
func (c *slowRelayChain) Height(context.Context) (uint64, error) { return 1, nil }
func (c *slowRelayChain) Slot(context.Context) (uint64, error)   { return 1_000_000, nil }
func (c *slowRelayChain) SendBundle(ctx context.Context, txs []wire.SignedTx) (string, error) {
	if c.sends.Add(1) == 4 {
		c.landAt.Store(time.Now().Add(300 * time.Millisecond).UnixNano())
	}
	return "", errors.New("relay: context deadline exceeded")
}
func (c *slowRelayChain) BundleOutcome(context.Context, string, []wire.SignedTx) (Status, error) {
	return Status{}, errors.New("no")
}
func (c *slowRelayChain) Bundle(string) (wire.Bundle, bool)       { return wire.Bundle{}, false }
func (c *slowRelayChain) ExpireBundle(string) (wire.Bundle, bool) { return wire.Bundle{}, false }
func (c *slowRelayChain) RelayName() string                       { return "test relay" }

// TestDeployLastTryUnknownIsNotFailed: on a launch's last try, a bundle
// the relay may have taken (its answer timed out) is not called failed,
// which would have the bot launch again: the chain tells, and here it
// landed.
func TestDeployLastTryUnknownIsNotFailed(t *testing.T) {
	t.Parallel()
	c := &slowRelayChain{}
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 1, Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: c})
	b := batchOf("eu-deploy-slow", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w", Signature: "5j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7", Raw: []byte{1}, Bundle: 1, Kind: "create", Mint: "m"})
	b.Kind = wire.KindDeploy
	b.Mints = []string{"m"}
	// Deliveries 1..3 send and nak; the last (4) sends again and ends.
	c.landAt.Store(0)
	r := p.send(t, b)
	o := p.orderIn(t, b.OrderID, 5*time.Second, wire.StateConfirmed, wire.StateFailed)
	if r.Error != nil || r.Deploy == nil || len(r.Deploy.LandedTxs) != 1 || o.State != wire.StateConfirmed {
		t.Fatalf("answer %+v deploy %+v, order %s %+v: want the landed launch, since the bundle sent on the last try landed", r.Error, r.Deploy, o.State, o.Error)
	}
}

// heldMsg counts the in-progress marks of a message held by a handler.
type heldMsg struct {
	jetstream.Msg
	marks atomic.Int64
}

func (m *heldMsg) InProgress() error { m.marks.Add(1); return nil }

// TestPatientlyWaitsForTheStore: on a batch's last try, an unreadable
// order record is read again every second, the message kept in progress,
// until it reads or the handler's time runs out.
func TestPatientlyWaitsForTheStore(t *testing.T) {
	t.Parallel()
	m := &heldMsg{}
	var reads int
	err := patiently(context.Background(), nil, m, func() error {
		if reads++; reads < 3 {
			return errors.New("store away")
		}
		return nil
	})
	if err != nil || reads != 3 || m.marks.Load() != 3 {
		t.Fatalf("err %v after %d reads, %d marks; want the third read's success", err, reads, m.marks.Load())
	}
	// The time after the read is kept: with 11.5 s left, one read more.
	ctx, cancel := context.WithTimeout(context.Background(), afterRead+1500*time.Millisecond)
	defer cancel()
	reads = 0
	if err := patiently(ctx, nil, m, func() error { reads++; return errors.New("store away") }); err == nil || reads != 1 {
		t.Fatalf("err %v after %d reads: a store away for good was waited out as read, or past the time kept", err, reads)
	}
	// A stopping broadcaster hands the batch back at once.
	stop := make(chan struct{})
	close(stop)
	if err := patiently(context.Background(), stop, m, func() error { return errors.New("store away") }); !errors.Is(err, errStopping) {
		t.Fatalf("err %v while stopping", err)
	}
}

// behindChain: a node behind the one that confirmed a launch's bundle (an
// earlier delivery landed it): it shows neither the bundle nor its
// blockhash until it catches up, and its relay refuses the bundle sent
// again as a blockhash it does not know.
type behindChain struct {
	slowRelayChain
	caughtUp atomic.Int64 // unix nanos
}

func (c *behindChain) behind() bool { return time.Now().UnixNano() < c.caughtUp.Load() }
func (c *behindChain) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	out := make([]Status, len(sigs))
	if !c.behind() {
		for i := range out {
			out[i] = Status{State: wire.StateConfirmed, Slot: 7}
		}
	}
	return out, nil
}
func (c *behindChain) Height(context.Context) (uint64, error) {
	if c.behind() {
		return 5, nil
	}
	return 500, nil
}
func (c *behindChain) SendBundle(context.Context, []wire.SignedTx) (string, error) {
	c.sends.Add(1)
	return "", &Refused{Reason: "Blockhash not found"}
}

// TestBundleSentAgainRefusedAsksTheChain: a launch's bundle that an earlier
// delivery may have landed, sent again and refused by the relay (its node
// behind, the blockhash unknown to it), is not called failed on the
// relay's word, which would have the bot launch the coin a second time:
// the chain tells once it can, here that the bundle landed. A first
// delivery's refusal is the relay's word alone.
func TestBundleSentAgainRefusedAsksTheChain(t *testing.T) {
	t.Parallel()
	txs := []wire.SignedTx{{Wallet: "w", Signature: "5j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7",
		Raw: []byte{1}, Bundle: 1, Kind: "create", Mint: "m", LastValidBlockHeight: 100}}
	log := slog.New(slog.DiscardHandler)
	for _, again := range []bool{true, false} {
		c := &behindChain{}
		c.caughtUp.Store(time.Now().Add(300 * time.Millisecond).UnixNano())
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		st, _, err := landBundle(ctx, c, c, txs, again, 20*time.Millisecond, log)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if c.sends.Load() != 1 {
			t.Fatalf("again %v: sent %d times, want once", again, c.sends.Load())
		}
		want := wire.StateConfirmed
		if !again {
			want = wire.StateFailed
		}
		if st.State != want {
			t.Fatalf("again %v: bundle %+v, want %s", again, st, want)
		}
	}
}

// processedChain is a behindChain whose relay refuses the bundle as one
// whose transactions were already processed.
type processedChain struct{ behindChain }

func (c *processedChain) SendBundle(context.Context, []wire.SignedTx) (string, error) {
	c.sends.Add(1)
	return "", &Refused{Reason: "bundle relay: bundle contains an already processed transaction"}
}

// TestBundleAlreadyProcessedAsksTheChain: a relay that refuses a launch's
// bundle as already processed says its bytes landed (a delivery of the
// batch running beside this one, handed out again while this one was cut
// off from NATS, sent it first), even on this delivery's first send: the
// launch waits for the chain's word, here that it landed, instead of
// being answered failed while its coin is on chain, which would have the
// bot launch it a second time.
func TestBundleAlreadyProcessedAsksTheChain(t *testing.T) {
	t.Parallel()
	txs := []wire.SignedTx{{Wallet: "w", Signature: "5j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7",
		Raw: []byte{1}, Bundle: 1, Kind: "create", Mint: "m", LastValidBlockHeight: 100}}
	for _, again := range []bool{true, false} {
		c := &processedChain{}
		c.caughtUp.Store(time.Now().Add(300 * time.Millisecond).UnixNano())
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		st, _, err := landBundle(ctx, c, c, txs, again, 20*time.Millisecond, slog.New(slog.DiscardHandler))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if st.State != wire.StateConfirmed {
			t.Fatalf("again %v: bundle %+v, want confirmed, as the chain shows it", again, st)
		}
	}
}

// landingChain lands every bundle it is sent at once, in a slot far above
// its block height, as on a public chain where slots that made no block
// put the height behind the slot; before sending each, it calls seen with
// how many bundles it had been sent.
type landingChain struct {
	slowRelayChain
	seen func(sent int64)
}

func (c *landingChain) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	return make([]Status, len(sigs)), nil
}
func (c *landingChain) Height(context.Context) (uint64, error) { return 900, nil }
func (c *landingChain) SendBundle(_ context.Context, txs []wire.SignedTx) (string, error) {
	c.seen(c.sends.Add(1) - 1)
	return txs[0].Signature, nil
}
func (c *landingChain) BundleOutcome(context.Context, string, []wire.SignedTx) (Status, error) {
	return Status{State: wire.StateConfirmed, Slot: 900_000}, nil
}

// TestDeployRecordFollowsItsBundles: a launch's bundles go out one after
// another, each once the chain's slot (not its block height, far behind)
// is past the one before it landed in; and its order record shows each
// bundle landed as it lands, not only the first, so that a bot looking up
// a long launch sees it progress.
func TestDeployRecordFollowsItsBundles(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	sigs := []string{
		"5j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7",
		"4j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7",
		"3j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7",
	}
	b := batchOf("eu-deploy-progress", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w", Signature: sigs[0], Raw: []byte{1}, Bundle: 1, Kind: "create", Mint: "m"},
		wire.SignedTx{Wallet: "w", Signature: sigs[1], Raw: []byte{2}, Bundle: 2, Kind: "buy", Mint: "m"},
		wire.SignedTx{Wallet: "w", Signature: sigs[2], Raw: []byte{3}, Bundle: 3, Kind: "buy", Mint: "m"})
	b.Kind, b.Mints = wire.KindDeploy, []string{"m"}
	confirmedBefore := make([]int, 3)
	landedBefore := make([]int, 3)
	c := &landingChain{seen: func(sent int64) {
		if sent == 0 {
			return
		}
		o := p.order(t, b.OrderID)
		for _, s := range o.Signatures {
			if s.State == wire.StateConfirmed {
				confirmedBefore[sent]++
			}
		}
		// What landed so far, the coin among it: a launch whose later
		// bundles are never settled still shows its mint.
		if o.Deploy != nil && slices.Equal(o.Deploy.MintAddresses, []string{"m"}) {
			landedBefore[sent] = len(o.Deploy.LandedTxs)
		}
	}}
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: c})
	if r := p.send(t, b); r.Error != nil || r.Deploy == nil || len(r.Deploy.LandedTxs) != 3 {
		t.Fatalf("answer %+v deploy %+v", r.Error, r.Deploy)
	}
	if confirmedBefore[1] != 1 || confirmedBefore[2] != 2 {
		t.Fatalf("the record held %v transactions confirmed when bundles 2 and 3 were sent, want 1 and 2", confirmedBefore[1:])
	}
	if landedBefore[1] != 1 || landedBefore[2] != 2 {
		t.Fatalf("the record's launch listed %v landed transactions with its mint when bundles 2 and 3 were sent, want 1 and 2", landedBefore[1:])
	}
}

// droppedRelayChain's relay said it dropped every bundle it was sent.
type droppedRelayChain struct{ slowRelayChain }

func (c *droppedRelayChain) Bundle(sig string) (wire.Bundle, bool) {
	return wire.Bundle{ID: "b1", Relay: "test relay", State: wire.BundleDropped, Reason: "Blockhash not found", Signatures: []string{sig}}, true
}

// TestLandedBundleNotNotedDropped: a bundle sent again that the relay
// dropped (its transactions were processed already) and the chain shows
// landed is noted landed in the order, not dropped beside a coin on chain.
func TestLandedBundleNotNotedDropped(t *testing.T) {
	t.Parallel()
	run := &deployRun{}
	txs := []wire.SignedTx{{Signature: "s1", Bundle: 1}}
	run.noteBundle(&droppedRelayChain{}, txs, Status{State: wire.StateConfirmed, Slot: 9})
	if b := run.bundles[0]; b.State != wire.BundleLanded || b.Slot != 9 || b.Reason != "" {
		t.Fatalf("bundle noted %+v, want landed in slot 9", b)
	}
	run = &deployRun{}
	run.noteBundle(&droppedRelayChain{}, txs, Status{State: wire.StateFailed, Err: "instruction 2 failed"})
	if b := run.bundles[0]; b.State != wire.BundleDropped {
		t.Fatalf("a bundle not on chain noted %+v, want the relay's verdict", b)
	}
}

// sideBySideChain: bundle 1 lands when sent; the relay takes bundle 2's
// first send and drops it a moment later (no transaction of it failed),
// and its second send, the same bytes, lands.
type sideBySideChain struct {
	slowRelayChain
	mu      sync.Mutex
	landed  map[string]bool
	dropAt  time.Time
	b2sends int
}

func (c *sideBySideChain) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return landedIn(c.landed, sigs), nil
}

// landedIn is the statuses of sigs on a chain where those in landed
// landed, in slot 7.
func landedIn(landed map[string]bool, sigs []string) []Status {
	out := make([]Status, len(sigs))
	for i, s := range sigs {
		if landed[s] {
			out[i] = Status{State: wire.StateConfirmed, Slot: 7}
		}
	}
	return out
}
func (c *sideBySideChain) Height(context.Context) (uint64, error) { return 50, nil }
func (c *sideBySideChain) SendBundle(_ context.Context, txs []wire.SignedTx) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if txs[0].Bundle == 1 {
		c.landed[txs[0].Signature] = true
		return "b1", nil
	}
	if c.b2sends++; c.b2sends == 1 {
		c.dropAt = time.Now().Add(300 * time.Millisecond)
		return "b2-dropped", nil
	}
	c.landed[txs[0].Signature] = true
	return "b2-landed", nil
}
func (c *sideBySideChain) BundleOutcome(_ context.Context, id string, _ []wire.SignedTx) (Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case id == "b1" || id == "b2-landed":
		return Status{State: wire.StateConfirmed, Slot: 7}, nil
	case id == "b2-dropped" && time.Now().After(c.dropAt):
		return Status{State: wire.StateFailed, Err: "bundle relay: dropped", Dropped: true}, nil
	}
	return Status{}, nil
}

// twoBundleLaunch is a launch's batch of two bundles, the create and a
// buy of mint m, whose blockhash is valid to height 100.
func twoBundleLaunch(orderID string) *wire.TxBatch {
	b := batchOf(orderID, wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w", Signature: "5j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7",
			Raw: []byte{1}, Bundle: 1, Kind: "create", Mint: "m", LastValidBlockHeight: 100},
		wire.SignedTx{Wallet: "w", Signature: "4j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7",
			Raw: []byte{2}, Bundle: 2, Kind: "buy", Mint: "m", LastValidBlockHeight: 100})
	b.Kind, b.Mints = wire.KindDeploy, []string{"m"}
	return b
}

// quietMsg is a batch's message whose endings do nothing.
type quietMsg struct{ jetstream.Msg }

func (quietMsg) Ack() error                       { return nil }
func (quietMsg) Nak() error                       { return nil }
func (quietMsg) NakWithDelay(time.Duration) error { return nil }
func (quietMsg) InProgress() error                { return nil }

// TestDroppedBundleNotCalledFailedWhileItCanLand: a launch's batch handed
// out again while its first delivery still runs (its ack wait passed: the
// process cut off from NATS, its relay traffic going on) runs beside it.
// The relay drops the first delivery's bundle 2 (no transaction of it
// failed); the second delivery, which read the record before any settle,
// sends the same bytes again and they land. The first delivery does not
// tell the bot bundle 2 did not land while its bytes could still land: it
// asks the chain, and answers what landed.
func TestDroppedBundleNotCalledFailedWhileItCanLand(t *testing.T) {
	t.Parallel()
	p := newPipeline(t)
	b := twoBundleLaunch("eu-side-by-side")
	c := &sideBySideChain{landed: map[string]bool{}}
	br := New(Config{Poll: 20 * time.Millisecond}, p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: c}, p.log)
	inbox := nats.NewInbox()
	sub, err := p.bus.Conn.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); br.handleDeploy(quietMsg{}, b, inbox, 1, false, p.log) }()
	time.Sleep(450 * time.Millisecond)
	go func() { defer wg.Done(); br.handleDeploy(quietMsg{}, b, inbox, 2, true, p.log) }()
	wg.Wait()
	for i := range 2 {
		r := bustest.NextReply(t, sub, 5*time.Second)
		if r.Error != nil || r.Deploy == nil || len(r.Deploy.LandedTxs) != 2 {
			t.Fatalf("answer %d: %+v %+v, want both bundles landed: bundle 2 is on chain", i+1, r.Error, r.Deploy)
		}
	}
	if o := p.order(t, b.OrderID); o.State != wire.StateConfirmed || len(o.Deploy.LandedTxs) != 2 {
		t.Fatalf("order %s %+v", o.State, o.Deploy)
	}
}

// outageChain: bundle 1 lands; bundle 2's send goes unanswered (the relay's
// answer lost) and the chain's node cannot tell its height nor shows the
// bundle, until it heals: then bundle 2 shows landed.
type outageChain struct {
	slowRelayChain
	healed atomic.Bool
	first  atomic.Value
}

func (c *outageChain) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	out := make([]Status, len(sigs))
	f, _ := c.first.Load().(string)
	for i, s := range sigs {
		if s == f || c.healed.Load() {
			out[i] = Status{State: wire.StateConfirmed, Slot: 7}
		}
	}
	return out, nil
}
func (c *outageChain) Height(context.Context) (uint64, error) {
	if c.healed.Load() {
		return 50, nil
	}
	return 0, errors.New("node unhealthy")
}
func (c *outageChain) SendBundle(_ context.Context, txs []wire.SignedTx) (string, error) {
	if txs[0].Bundle == 1 {
		c.first.Store(txs[0].Signature)
		return "b1", nil
	}
	return "", errors.New("relay: context deadline exceeded")
}
func (c *outageChain) BundleOutcome(_ context.Context, id string, _ []wire.SignedTx) (Status, error) {
	if id == "b1" {
		return Status{State: wire.StateConfirmed, Slot: 7}, nil
	}
	return Status{}, nil
}

// TestLastTryAsksTheChainOn: a launch's last try that cannot learn a
// bundle's outcome in its own time (the chain's node unhealthy) asks the
// chain on, the batch kept in hand, instead of leaving the order
// broadcast for good: the node heals, the bundle shows landed, and the
// launch settles confirmed with both bundles.
func TestLastTryAsksTheChainOn(t *testing.T) {
	patience, try := lastTryPatience, deployTryTime
	lastTryPatience, deployTryTime = 30*time.Second, 2*time.Second
	t.Cleanup(func() { lastTryPatience, deployTryTime = patience, try })
	p := newPipeline(t)
	b := twoBundleLaunch("eu-ask-on")
	c := &outageChain{}
	br := New(Config{MaxAttempts: 1, Poll: 20 * time.Millisecond}, p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: c}, p.log)
	inbox := nats.NewInbox()
	sub, err := p.bus.Conn.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		br.handleDeploy(quietMsg{}, b, inbox, uint64(br.cfg.MaxAttempts+3), true, p.log)
	}()
	// The try's own time (two seconds here) passes with the node
	// unhealthy; it heals a few seconds into the asking on.
	time.AfterFunc(5*time.Second, func() { c.healed.Store(true) })
	r := bustest.NextReply(t, sub, 25*time.Second)
	<-done
	if r.Error != nil || r.Deploy == nil || len(r.Deploy.LandedTxs) != 2 {
		t.Fatalf("answer %+v %+v, want both bundles landed", r.Error, r.Deploy)
	}
	if o := p.order(t, b.OrderID); o.State != wire.StateConfirmed || len(o.Deploy.LandedTxs) != 2 {
		t.Fatalf("order %s %+v, want confirmed with both bundles", o.State, o.Deploy)
	}
}

// TestAskingOnTellsNoBroadcastAgain: a last try asking the chain on runs
// the launch's bundles again, finding the first landed: its broadcast
// event went out with the try before, and is not emitted again (out of the
// stream's duplicate window, a webhook would have it once per round).
func TestAskingOnTellsNoBroadcastAgain(t *testing.T) {
	patience, try := lastTryPatience, deployTryTime
	lastTryPatience, deployTryTime = 3*time.Second, time.Second
	t.Cleanup(func() { lastTryPatience, deployTryTime = patience, try })
	p := newPipeline(t)
	js := &eventsSeen{JetStream: p.bus.JS}
	br := New(Config{MaxAttempts: 1, Poll: 20 * time.Millisecond}, p.bus.Conn, js, p.bus.Buckets,
		map[string]Chain{wire.ChainSolana: &outageChain{}}, p.log)
	br.handleDeploy(quietMsg{}, twoBundleLaunch("eu-asked-on"), nats.NewInbox(), uint64(br.cfg.MaxAttempts+3), true, p.log)
	n := 0
	for _, data := range js.data {
		var ev events.Event
		if json.Unmarshal(data, &ev) == nil && ev.Type == events.Broadcast {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d broadcast events, want the first landing's alone", n)
	}
}

// stallingRelayChain lands every bundle it is sent at once, but for the
// bundle numbered stall, whose send hangs until its caller gives up.
type stallingRelayChain struct {
	stall   int
	stalled chan struct{}
	mu      sync.Mutex
	landed  map[string]bool
	sent    map[int]int
}

func (c *stallingRelayChain) Send(context.Context, wire.SignedTx) error { return nil }
func (c *stallingRelayChain) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return landedIn(c.landed, sigs), nil
}
func (c *stallingRelayChain) Height(context.Context) (uint64, error) { return 1, nil }
func (c *stallingRelayChain) Slot(context.Context) (uint64, error)   { return 1_000_000, nil }
func (c *stallingRelayChain) SendBundle(ctx context.Context, txs []wire.SignedTx) (string, error) {
	c.mu.Lock()
	c.sent[txs[0].Bundle]++
	c.mu.Unlock()
	if txs[0].Bundle == c.stall {
		close(c.stalled)
		<-ctx.Done()
		return "", ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, tx := range txs {
		c.landed[tx.Signature] = true
	}
	return "bundle", nil
}
func (c *stallingRelayChain) BundleOutcome(_ context.Context, _ string, txs []wire.SignedTx) (Status, error) {
	return Status{State: wire.StateConfirmed, Slot: 7}, nil
}
func (c *stallingRelayChain) Bundle(string) (wire.Bundle, bool)       { return wire.Bundle{}, false }
func (c *stallingRelayChain) ExpireBundle(string) (wire.Bundle, bool) { return wire.Bundle{}, false }
func (c *stallingRelayChain) RelayName() string                       { return "test relay" }

// stopWhileStalled waits until c holds a bundle's send, then stops the
// broadcaster, which must stop while it does, and lets c send on.
func (c *stallingRelayChain) stopWhileStalled(t *testing.T, stop func()) {
	t.Helper()
	select {
	case <-c.stalled:
	case <-time.After(30 * time.Second):
		t.Fatalf("bundle %d was never sent", c.stall)
	}
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatalf("the broadcaster did not stop while the launch's bundle %d was on its way", c.stall)
	}
	c.mu.Lock()
	c.stall = 0
	c.mu.Unlock()
}

// TestStopCutsALaunchShort: a broadcaster told to stop while a launch's
// second bundle is on its way stops at once (it waited for the launch to
// land whole, past the 10 s of a stop), handing the batch back; the next
// broadcaster carries on from what landed, sending the first bundle no
// second time.
func TestStopCutsALaunchShort(t *testing.T) {
	t.Parallel()
	sig := func(n byte) string { return sol.SignatureFromBytes(bytes.Repeat([]byte{n}, 64)).String() }
	c := &stallingRelayChain{stall: 2, stalled: make(chan struct{}), landed: map[string]bool{}, sent: map[int]int{}}
	p := newPipeline(t)
	stop := p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: c})
	b := batchOf("eu-deploy-stop", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w", Signature: sig(1), Raw: []byte{1}, Bundle: 1, Kind: wire.TxCreate, Mint: "m"},
		wire.SignedTx{Wallet: "w2", Signature: sig(2), Raw: []byte{2}, Bundle: 2, Kind: wire.TxBuy, Mint: "m"})
	b.Kind = wire.KindDeploy
	b.Mints = []string{"m"}
	data, _ := json.Marshal(b)
	if _, err := p.bus.JS.Publish(context.Background(), bus.BatchSubject(b.Chain, b.OrderID), data, jetstream.WithMsgID(b.OrderID)); err != nil {
		t.Fatal(err)
	}
	c.stopWhileStalled(t, stop)
	p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: c})
	o := p.orderIn(t, b.OrderID, 30*time.Second, wire.StateConfirmed, wire.StateFailed)
	c.mu.Lock()
	defer c.mu.Unlock()
	if o.State != wire.StateConfirmed || c.sent[1] != 1 || c.sent[2] != 2 {
		t.Fatalf("order %s, bundles sent %v: want confirmed, the first sent once", o.State, c.sent)
	}
}

// TestBundleWithoutARelayAnswerEndsFinal: a launch's bundle whose send the
// relay never answered is recorded by the id every relay derives from its
// signatures, landed when the chain holds it, and, once it can no longer
// land, pending_timeout rather than pending in a final order.
func TestBundleWithoutARelayAnswerEndsFinal(t *testing.T) {
	t.Parallel()
	sigs := []sol.Signature{sol.SignatureFromBytes(bytes.Repeat([]byte{1}, 64)), sol.SignatureFromBytes(bytes.Repeat([]byte{2}, 64))}
	txs := []wire.SignedTx{{Signature: sigs[0].String(), Bundle: 1}, {Signature: sigs[1].String(), Bundle: 1}}
	// Jito's derive_bundle_id: the SHA-256 of the base58 signatures
	// joined by commas.
	h := sha256.Sum256([]byte(sigs[0].String() + "," + sigs[1].String()))
	id := hex.EncodeToString(h[:])
	c := &stallingRelayChain{}
	for _, tc := range []struct {
		st    Status
		state string
	}{
		{Status{State: wire.StateConfirmed, Slot: 9}, wire.BundleLanded},
		{Status{State: wire.StateExpired, Err: "the bundle expired before it landed"}, wire.BundlePendingTimeout},
	} {
		run := newDeployRun(&wire.TxBatch{Txs: txs})
		run.noteBundle(c, txs, tc.st)
		if b := run.bundles[0]; b.ID != id || b.State != tc.state || b.Relay != "test relay" {
			t.Fatalf("chain says %s: bundle %+v, want id %s, %s", tc.st.State, b, id, tc.state)
		}
	}
}

// TestLastDeliveryOfALaunchLandsThroughAStop: the stream's last delivery
// of a launch is not cut by a stop (its batch handed back would be dropped
// and the launch never settled): it lands and is answered.
func TestLastDeliveryOfALaunchLandsThroughAStop(t *testing.T) {
	t.Parallel()
	sig := func(n byte) string { return sol.SignatureFromBytes(bytes.Repeat([]byte{n}, 64)).String() }
	p := newPipeline(t)
	c := &stallingRelayChain{landed: map[string]bool{}, sent: map[int]int{}}
	br := New(Config{MaxAttempts: 1, Poll: 20 * time.Millisecond}, p.bus.Conn, p.bus.JS, p.bus.Buckets, map[string]Chain{wire.ChainSolana: c}, p.log)
	close(br.stopping)
	inbox := nats.NewInbox()
	sub, err := p.bus.Conn.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	b := batchOf("eu-deploy-last", wire.ChainSolana, wire.FamilySol,
		wire.SignedTx{Wallet: "w", Signature: sig(1), Raw: []byte{1}, Bundle: 1, Kind: wire.TxCreate, Mint: "m"},
		wire.SignedTx{Wallet: "w2", Signature: sig(2), Raw: []byte{2}, Bundle: 2, Kind: wire.TxBuy, Mint: "m"})
	b.Kind = wire.KindDeploy
	b.Mints = []string{"m"}
	br.handleDeploy(quietMsg{}, b, inbox, uint64(br.maxDeliver()), false, p.log)
	r := bustest.NextReply(t, sub, 10*time.Second)
	if r.Error != nil || r.Deploy == nil || len(r.Deploy.LandedTxs) != 2 {
		t.Fatalf("the last delivery through a stop answered %+v, deploy %+v", r.Error, r.Deploy)
	}
	if o := p.order(t, b.OrderID); o.State != wire.StateConfirmed {
		t.Fatalf("order %s", o.State)
	}
}
