package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/broadcaster"
	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
	"github.com/tradeapi/tradeapi/workers"
)

// TestNonceSafetyTwoWorkers runs two worker processes (each with its own
// NATS connection, RPC connections, signer and nonce assigner) and a
// broadcaster against the local eth chain, and fires concurrent orders for
// the same wallets, half naming the chain and half resolving it: every
// transaction lands, none is replaced, and each wallet's nonces are
// contiguous.
func TestNonceSafetyTwoWorkers(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.DiscardHandler)
	// A token on eth alone, so that unresolved orders trade there too.
	token := newBindKey(t).deployOn(t, e, wire.ChainEth, "100")
	wallets := []common.Address{e.wallet(t, wire.ChainEth, "10", nil), e.wallet(t, wire.ChainEth, "10", nil), e.wallet(t, wire.ChainEth, "10", nil)}

	var running sync.WaitGroup
	run := func(f func(context.Context) error) {
		running.Add(1)
		go func() {
			defer running.Done()
			if err := f(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	defer func() { cancel(); running.Wait() }()
	var signed [2]countingSigner
	for p := range signed {
		nc, js := e.nats.connect(t)
		b, err := bus.OpenBuckets(ctx, js)
		if err != nil {
			t.Fatal(err)
		}
		signed[p].Signer = e.newSigner(t, NewNonces(b.Nonces, 0, log), Config{})
		// Each process has its own view of the registry, in which the
		// jobs' account owns the wallets.
		view := ownerView(t, ctx, b, "acct", wallets, run)
		for _, subject := range []string{wire.ChainEth, wire.ChainAnyEVM} {
			run(workers.New(workers.Config{Chain: subject, Concurrency: 8}, nc, js, b, &signed[p], view, log).Run)
		}
	}
	{
		nc, js := e.nats.connect(t)
		b, err := bus.OpenBuckets(ctx, js)
		if err != nil {
			t.Fatal(err)
		}
		run(broadcaster.New(broadcaster.Config{}, nc, js, b, map[string]broadcaster.Chain{wire.ChainEth: e.sender[wire.ChainEth]}, log).Run)
	}

	nc, js := e.nats.connect(t)
	replies := make(chan *nats.Msg, 64)
	sub, err := nc.ChanSubscribe("_INBOX.evmtest.>", replies)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	const orders = 16
	for i := range orders {
		chain := wire.ChainEth
		if i%2 == 1 {
			chain = "" // resolved by the evm workers
		}
		legs := make([]wire.Leg, len(wallets))
		for k, w := range wallets {
			legs[k] = legOf(w, "0.01")
		}
		job := e.job(chain, wire.Buy, token, "", legs...)
		job.SlippageBps = 3000 // the orders land in any order
		data, _ := json.Marshal(job)
		subject := chain
		if subject == "" {
			subject = wire.ChainAnyEVM
		}
		m := &nats.Msg{Subject: bus.OrdersSubject(subject), Data: data, Header: nats.Header{}}
		m.Header.Set(bus.HeaderReply, fmt.Sprintf("_INBOX.evmtest.%d", i))
		if _, err := js.PublishMsg(ctx, m, jetstream.WithMsgID(job.OrderID)); err != nil {
			t.Fatal(err)
		}
	}

	var sigs []string
	deadline := time.After(90 * time.Second)
	for range orders {
		select {
		case m := <-replies:
			var r wire.Reply
			if err := json.Unmarshal(m.Data, &r); err != nil {
				t.Fatal(err)
			}
			if r.Error != nil || len(r.Signatures) != len(wallets) {
				t.Fatalf("order %s: error %+v, %d signatures", r.OrderID, r.Error, len(r.Signatures))
			}
			sigs = append(sigs, r.Signatures...)
		case <-deadline:
			t.Fatalf("%d replies of %d", len(sigs)/len(wallets), orders)
		}
	}

	t.Logf("orders signed by the two workers: %d and %d", signed[0].n.Load(), signed[1].n.Load())

	c := e.dev.chain(t, wire.ChainEth)
	nonces := map[common.Address][]uint64{}
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	for _, sig := range sigs {
		h := common.HexToHash(sig)
		if _, err := c.WaitMined(wctx, h); err != nil {
			t.Fatal(err)
		}
		tx, _, err := c.Client().TransactionByHash(wctx, h)
		if err != nil {
			t.Fatal(err)
		}
		from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
		if err != nil {
			t.Fatal(err)
		}
		nonces[from] = append(nonces[from], tx.Nonce())
	}
	for _, w := range wallets {
		got := nonces[w]
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		for i, n := range got {
			if n != uint64(i) {
				t.Fatalf("wallet %s landed nonces %v, want 0..%d", w.Hex(), got, orders-1)
			}
		}
		if len(got) != orders {
			t.Fatalf("wallet %s landed %d transactions, want %d", w.Hex(), len(got), orders)
		}
		if n, err := c.Client().NonceAt(wctx, w, nil); err != nil || n != orders {
			t.Fatalf("wallet %s chain nonce %d (%v), want %d: a transaction was replaced or lost", w.Hex(), n, err, orders)
		}
	}
}

// countingSigner counts the orders a worker process signed.
type countingSigner struct {
	*Signer
	n atomic.Int32
}

func (c *countingSigner) Sign(ctx context.Context, job *wire.SwapJob) (*wire.TxBatch, error) {
	c.n.Add(1)
	return c.Signer.Sign(ctx, job)
}

// ownerView writes an account owning wallets into the registry's read
// model and returns a loaded view of it, run by run.
func ownerView(t *testing.T, ctx context.Context, b *bus.Buckets, account string, wallets []common.Address, run func(func(context.Context) error)) *registry.View {
	t.Helper()
	doc := registry.AccountDoc{ID: account, Name: account}
	for i, w := range wallets {
		doc.Wallets = append(doc.Wallets, registry.Wallet{Address: w.Hex(), Label: fmt.Sprintf("W%d", i+1), Family: wire.FamilyEVM})
	}
	data, _ := json.Marshal(doc)
	if _, err := b.Registry.Put(ctx, registry.AccountKVKey(account), data); err != nil {
		t.Fatal(err)
	}
	view := registry.NewView(b.Registry, nil)
	run(view.Run)
	select {
	case <-view.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("registry view not ready")
	}
	return view
}
