package ingress

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/logtest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestPresenceAwait: a starting ingress's probe is answered by the running
// workers, and Await returns once each served chain's worker beat, before
// the first order; a chain without a worker is waited for only up to the
// bound, and named.
func TestPresenceAwait(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "presence")
	// A worker of solana, answering probes as workers do, once let (after
	// the check that the answer had not come before Await).
	release := make(chan struct{})
	sub, err := b.Conn.Subscribe(bus.PresenceProbe, func(*nats.Msg) {
		go func() {
			<-release
			beat, _ := json.Marshal(wire.Beat{Chain: wire.ChainSolana, Worker: "w1"})
			_ = b.Conn.Publish(bus.PresenceSubject(wire.ChainSolana), beat)
		}()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	if err := b.Conn.Flush(); err != nil {
		t.Fatal(err)
	}
	p, err := NewPresence(b.Conn, 5*time.Second, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	if p.Available(wire.ChainSolana) {
		t.Fatal("a worker available before any answered")
	}
	close(release)
	if missing := p.Await(context.Background(), []string{wire.ChainSolana}, 5*time.Second); len(missing) != 0 {
		t.Fatalf("missing %v", missing)
	}
	start := time.Now()
	missing := p.Await(context.Background(), []string{wire.ChainSolana, wire.ChainBase}, 100*time.Millisecond)
	if !slices.Equal(missing, []string{wire.ChainBase}) || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("missing %v after %s", missing, time.Since(start))
	}
}

// TestPresenceCount counts the workers of a chain that beat within the
// TTL, a goodbye at once, and forgets a worker that died without one.
func TestPresenceCount(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "presence-count")
	// A TTL a loaded machine's pauses do not reach between two steps; a
	// worker's silence past it is made by dating its last beat back.
	const ttl = 2 * time.Second
	p, err := NewPresence(b.Conn, ttl, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	beat := func(worker string, leaving bool) {
		t.Helper()
		data, _ := json.Marshal(wire.Beat{Chain: wire.ChainSolana, Worker: worker, Leaving: leaving})
		if err := b.Conn.Publish(bus.PresenceSubject(wire.ChainSolana), data); err != nil {
			t.Fatal(err)
		}
		if err := b.Conn.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	count := func(want int) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Second)
		for p.Count(wire.ChainSolana) != want {
			if time.Now().After(deadline) {
				t.Fatalf("%d workers counted, want %d", p.Count(wire.ChainSolana), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	beat("w1", false)
	beat("w2", false)
	count(2)
	beat("w2", true)
	count(1)
	if p.Count(wire.ChainBase) != 0 {
		t.Fatal("a worker counted for a chain none beat for")
	}
	// w1 stops beating: counted no more once the TTL passed.
	p.mu.Lock()
	p.seen[wire.ChainSolana]["w1"] = time.Now().Add(-ttl - time.Millisecond)
	p.mu.Unlock()
	count(0)
	p.mu.Lock()
	p.seen[wire.ChainSolana]["w0"] = time.Now().Add(-2 * forgetWorker)
	p.mu.Unlock()
	beat("w3", false)
	count(1)
	p.mu.RLock()
	_, kept := p.seen[wire.ChainSolana]["w0"]
	p.mu.RUnlock()
	if kept {
		t.Fatal("a worker long gone without its goodbye is remembered")
	}
}

// TestPresenceOnItsNetwork: an ingress serving a chain on the public
// network does not route to a worker of that chain left on the local
// chains (a test double), and one serving the local chains not to a
// worker of the public network; the mismatch is logged, not counted.
func TestPresenceOnItsNetwork(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "presence-network")
	var logs logtest.Buffer
	// solana is served on the public network, base on the local chains,
	// the evm catch-all on a mix leaving bsc local.
	network := func(chain string) string {
		switch chain {
		case wire.ChainBase:
			return wire.NetworkLocal
		case wire.ChainAnyEVM:
			return wire.NetworkMixedPrefix + wire.ChainBsc
		}
		return wire.NetworkPublic
	}
	p, err := NewPresence(b.Conn, 5*time.Second, network, slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	beat := func(chain, worker string, local bool) {
		t.Helper()
		data, _ := json.Marshal(wire.Beat{Chain: chain, Worker: worker, Local: local})
		if err := b.Conn.Publish(bus.PresenceSubject(chain), data); err != nil {
			t.Fatal(err)
		}
	}
	beat(wire.ChainSolana, "devnet-worker", true)
	beat(wire.ChainBase, "mainnet-worker", false)
	beat(wire.ChainSolana, "mainnet-worker", false)
	beat(wire.ChainBase, "devnet-worker", true)
	if missing := p.Await(context.Background(), []string{wire.ChainSolana, wire.ChainBase}, 5*time.Second); len(missing) != 0 {
		t.Fatalf("missing %v", missing)
	}
	if n, m := p.Count(wire.ChainSolana), p.Count(wire.ChainBase); n != 1 || m != 1 {
		t.Fatalf("%d solana and %d base workers counted, want the one on each chain's network", n, m)
	}
	// The evm catch-all: a worker whose mix leaves other chains local (or
	// none) is not counted; one whose mix is this process's is.
	for worker, net := range map[string]string{"all-public": wire.NetworkPublic, "other-mix": wire.NetworkMixedPrefix + "bsc,base", "same-mix": network(wire.ChainAnyEVM)} {
		data, _ := json.Marshal(wire.Beat{Chain: wire.ChainAnyEVM, Worker: worker, Network: net})
		if err := b.Conn.Publish(bus.PresenceSubject(wire.ChainAnyEVM), data); err != nil {
			t.Fatal(err)
		}
	}
	// A beat after them, once counted, says they were all heard.
	beat(wire.ChainSolana, "mainnet-worker-2", false)
	poll.Until(t, 5*time.Second, "the beats heard", func() bool { return p.Count(wire.ChainSolana) == 2 })
	if n := p.Count(wire.ChainAnyEVM); n != 1 {
		t.Fatalf("%d evm workers counted, want the one of this process's mix", n)
	}
	if !strings.Contains(logs.String(), `"worker":"devnet-worker"`) || !strings.Contains(logs.String(), `"worker":"mainnet-worker"`) {
		t.Fatalf("the workers on the other network are not named in the log:\n%s", logs.String())
	}
}

// TestJobSaysItsNetwork: each job says which network this process serves
// its chain on, so that a worker of the chain on the other network, which
// shares the chain's consumer, hands it back unsigned.
func TestJobSaysItsNetwork(t *testing.T) {
	t.Parallel()
	b := bustest.Start(t, "pipeline-network")
	p, err := NewPipeline(b.Conn, b.JS, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	// solana is served on the public network, base on the local chains.
	p.SetNetworks(func(chain string) string {
		if chain == wire.ChainBase {
			return wire.NetworkLocal
		}
		return wire.NetworkPublic
	})
	s, err := b.JS.Stream(context.Background(), bus.StreamOrders)
	if err != nil {
		t.Fatal(err)
	}
	for chain, want := range map[string]string{wire.ChainSolana: wire.NetworkPublic, wire.ChainBase: wire.NetworkLocal} {
		// No worker answers: the wait ends once the stream has the job.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		queued := false
		_, err := p.Submit(ctx, chain, "eu-net-"+chain, &wire.SwapJob{OrderID: "eu-net-" + chain}, func() { queued = true; cancel() })
		cancel()
		if err != nil || !queued {
			t.Fatalf("%s: submit %v, queued %v", chain, err, queued)
		}
		m, err := s.GetLastMsgForSubject(context.Background(), bus.OrdersSubject(chain))
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Header.Get(bus.HeaderNetwork); got != want {
			t.Errorf("%s job's network %q, want %q", chain, got, want)
		}
	}
}
