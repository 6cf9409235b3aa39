package bus_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/venues"
)

// roleClient is one role's connection, with the asynchronous errors the
// server sent it: a permissions violation reaches the client only there.
type roleClient struct {
	role string
	nc   *nats.Conn
	js   jetstream.JetStream
	errs chan error
}

func newRoleClient(t *testing.T, role string, nc *nats.Conn) *roleClient {
	t.Helper()
	t.Cleanup(nc.Close)
	c := &roleClient{role: role, nc: nc, errs: make(chan error, 256)}
	nc.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case c.errs <- err:
		default:
		}
	})
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	c.js = js
	return c
}

// dialRole connects over TCP as role, as a role process does.
func dialRole(t *testing.T, url, role string, creds bus.Credentials) *roleClient {
	t.Helper()
	nc, err := nats.Connect(url, append(bus.ConnectOptions(role, creds), nats.Name("test-"+role))...)
	if err != nil {
		t.Fatalf("%s connects: %v", role, err)
	}
	return newRoleClient(t, role, nc)
}

// inProcessRole connects in process as role, as `up` does.
func inProcessRole(t *testing.T, srv *bus.Server, role string) *roleClient {
	t.Helper()
	nc, err := srv.ConnectAs(role, "test-"+role)
	if err != nil {
		t.Fatalf("%s connects in process: %v", role, err)
	}
	return newRoleClient(t, role, nc)
}

func (c *roleClient) kv(ctx context.Context, bucket string) jetstream.KeyValue {
	kv, err := c.js.KeyValue(ctx, bucket)
	if err != nil {
		panic(c.role + " opens bucket " + bucket + ": " + err.Error())
	}
	return kv
}

// clean fails the test if the server refused anything of what the role did
// so far: the flush is answered after any error for what came before it.
func (c *roleClient) clean(t *testing.T) {
	t.Helper()
	if err := c.nc.Flush(); err != nil {
		t.Fatalf("%s flush: %v", c.role, err)
	}
	for {
		select {
		case err := <-c.errs:
			t.Errorf("%s was refused something it needs: %v", c.role, err)
		default:
			return
		}
	}
}

// violation waits for the server's permissions violation naming subject.
func (c *roleClient) violation(t *testing.T, what, subject string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case err := <-c.errs:
			if strings.Contains(err.Error(), "Permissions Violation") && strings.Contains(err.Error(), subject) {
				return
			}
		case <-deadline:
			t.Errorf("%s %s: no permissions violation for %s", c.role, what, subject)
			return
		}
	}
}

// denied runs a JetStream operation that must be refused: it fails (the
// refused request is never answered) and the server reports a violation
// for subject.
func (c *roleClient) denied(t *testing.T, what, subject string, op func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	err := op(ctx)
	cancel()
	if err == nil {
		t.Errorf("%s %s: succeeded", c.role, what)
	}
	c.violation(t, what, subject)
}

// deniedPub publishes where the role may not.
func (c *roleClient) deniedPub(t *testing.T, subject string) {
	t.Helper()
	if err := c.nc.Publish(subject, []byte("x")); err != nil {
		t.Fatal(err)
	}
	c.violation(t, "publish", subject)
}

// deniedSub subscribes where the role may not.
func (c *roleClient) deniedSub(t *testing.T, subject string) {
	t.Helper()
	sub, err := c.nc.SubscribeSync(subject)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	c.violation(t, "subscribe", "Subscription to \""+subject+"\"")
}

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// found accepts a read that reached the bucket, the key being there or not.
func found(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("%s: %v", what, err)
	}
}

// watchToEnd reads a watch up to the marker of the initial values.
func watchToEnd(t *testing.T, what string, w jetstream.KeyWatcher, err error) int {
	t.Helper()
	must(t, what, err)
	defer w.Stop()
	n := 0
	timeout := time.After(5 * time.Second)
	for {
		select {
		case e := <-w.Updates():
			if e == nil {
				return n
			}
			n++
		case <-timeout:
			t.Fatalf("%s: no end of the initial values", what)
		}
	}
}

func drainKeys(t *testing.T, what string, l jetstream.KeyLister, err error) []string {
	t.Helper()
	must(t, what, err)
	var keys []string
	// The lister stops by itself after the last key.
	for k := range l.Keys() {
		keys = append(keys, k)
	}
	return keys
}

// fetchOne pulls one message and acknowledges it, waiting for the server
// to confirm the ack.
// A pull request answered "no responders" reached no consumer leader: in a
// cluster, a consumer just created is elected, and its interest carried over
// the routes, a moment later. It is asked again until ctx ends; any other
// outcome, an empty fetch included, is the answer.
func fetchOne(t *testing.T, ctx context.Context, what string, cons jetstream.Consumer) jetstream.Msg {
	t.Helper()
	for {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
		must(t, what, err)
		for m := range batch.Messages() {
			must(t, what+" ack", m.DoubleAck(ctx))
			return m
		}
		if !errors.Is(batch.Error(), nats.ErrNoResponders) || ctx.Err() != nil {
			t.Fatalf("%s: no message (%v)", what, batch.Error())
		}
		time.Sleep(poll.Interval)
	}
}

func publishJob(t *testing.T, ctx context.Context, js jetstream.JetStream, subject, orderID string) {
	t.Helper()
	msg := &nats.Msg{Subject: subject, Data: []byte(`{}`), Header: nats.Header{}}
	msg.Header.Set(bus.HeaderOrder, orderID)
	_, err := js.PublishMsg(ctx, msg, jetstream.WithMsgID(orderID))
	must(t, "publish to "+subject, err)
}

// TestRolePermissions runs what each role does with its own user, over
// TCP as a role process does, and what it must not do.
func TestRolePermissions(t *testing.T) {
	t.Parallel()
	b, creds := bustest.StartAuth(t, "admin")
	url := b.Server.ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// What the registry and the pipeline would have written.
	_, err := b.Buckets.Registry.Put(ctx, "acct.acct1", []byte("account"))
	must(t, "seed registry", err)
	_, err = b.Buckets.WalletKeys.Put(ctx, "addr1", []byte("sealed"))
	must(t, "seed wallet keys", err)
	_, err = b.Buckets.Webhooks.Put(ctx, "acct1", []byte("hook"))
	must(t, "seed webhooks", err)
	publishJob(t, ctx, b.JS, bus.EventsSubject("acct1", "confirmed"), "ev-1")

	t.Run("registry", func(t *testing.T) {
		r := dialRole(t, url, bus.RoleRegistry, creds)
		must(t, "declare", bus.DeclareAs(ctx, r.js, bus.RoleRegistry, bus.Options{}))
		reg, wk, wh := r.kv(ctx, bus.BucketRegistry), r.kv(ctx, bus.BucketWalletKeys), r.kv(ctx, bus.BucketWebhooks)
		_, err := reg.Put(ctx, "acct.acct2", []byte("account"))
		must(t, "write the registry", err)
		_, err = wk.Put(ctx, "addr2", []byte("sealed"))
		must(t, "write a wallet key", err)
		must(t, "delete a wallet key", wk.Delete(ctx, "addr2"))
		_, err = wh.Put(ctx, "acct2", []byte("hook"))
		must(t, "write a webhook", err)
		w, err := reg.WatchAll(ctx, jetstream.IgnoreDeletes())
		if n := watchToEnd(t, "watch the registry", w, err); n != 2 {
			t.Errorf("the registry watch saw %d keys, want 2", n)
		}
		w, err = wk.WatchAll(ctx, jetstream.IgnoreDeletes())
		watchToEnd(t, "watch the wallet keys", w, err)
		_, err = r.kv(ctx, bus.BucketBudget).Get(ctx, "acct1.sol")
		found(t, "read a budget", err)
		_, err = r.kv(ctx, bus.BucketOrders).Get(ctx, "o-none")
		found(t, "read an order", err)
		st, err := r.js.Stream(ctx, bus.StreamEvents)
		must(t, "events stream", err)
		cons, err := st.CreateConsumer(ctx, jetstream.ConsumerConfig{FilterSubject: bus.AccountEvents("acct1"),
			AckPolicy: jetstream.AckNonePolicy, InactiveThreshold: time.Minute})
		must(t, "consumer of an account's events", err)
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
		must(t, "read an account's events", err)
		n := 0
		for range batch.Messages() {
			n++
		}
		if n != 1 {
			t.Errorf("read %d events of acct1, want 1 (%v)", n, batch.Error())
		}
		must(t, "drop the consumer", st.DeleteConsumer(ctx, cons.CachedInfo().Name))
		must(t, "publish registry changed", r.nc.Publish(bus.RegistryChanged, nil))
		r.clean(t)

		r.deniedPub(t, bus.OrdersSubject("solana"))
		r.denied(t, "delete the wallet keys", "$JS.API.STREAM.DELETE.KV_wallet_keys", func(ctx context.Context) error {
			return r.js.DeleteStream(ctx, "KV_"+bus.BucketWalletKeys)
		})
		r.denied(t, "pull the workers' jobs", "$JS.API.CONSUMER.MSG.NEXT.ORDERS", func(ctx context.Context) error {
			_, err := r.nc.RequestWithContext(ctx, "$JS.API.CONSUMER.MSG.NEXT.ORDERS."+bus.WorkerConsumer("solana"), []byte(`{"batch":1}`))
			return err
		})
	})

	// The workers' consumer exists once a worker started; ingress reads it.
	_, err = b.JS.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
		Durable: bus.WorkerConsumer("solana"), FilterSubject: bus.OrdersSubject("solana"),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: bus.AckWait})
	must(t, "workers' consumer", err)

	t.Run("ingress", func(t *testing.T) {
		in := dialRole(t, url, bus.RoleIngress, creds)
		must(t, "await the streams", bus.DeclareAs(ctx, in.js, bus.RoleIngress, bus.Options{}))
		bk, err := bus.OpenBuckets(ctx, in.js)
		must(t, "open every bucket", err)
		_, err = bk.Registry.Get(ctx, "acct.acct1")
		must(t, "read the registry", err)
		w, err := bk.Registry.WatchAll(ctx)
		watchToEnd(t, "watch the registry", w, err)
		rev, err := bk.Budget.Create(ctx, "acct1.sol.minute", []byte("1"))
		must(t, "charge a budget", err)
		_, err = bk.Budget.Update(ctx, "acct1.sol.minute", []byte("2"), rev)
		must(t, "charge a budget again", err)
		w, err = bk.Budget.WatchAll(ctx)
		watchToEnd(t, "watch the budgets", w, err)
		rev, err = bk.Orders.Create(ctx, "o-in", []byte("pending"))
		must(t, "store an order", err)
		_, err = bk.Orders.Update(ctx, "o-in", []byte("failed"), rev)
		must(t, "fail an order", err)
		_, err = bk.Trades.Get(ctx, "acct1.sol.mint")
		found(t, "read the trade history", err)
		_, err = bk.Idempotency.Create(ctx, "acct1.key", []byte("in flight"))
		must(t, "claim an idempotency key", err)
		iw, err := bk.Idempotency.Watch(ctx, "acct1.key", jetstream.UpdatesOnly())
		must(t, "watch an idempotency key", err)
		_, err = bk.Idempotency.Put(ctx, "acct1.key", []byte("answer"))
		must(t, "store an answer", err)
		select {
		case e := <-iw.Updates():
			if e == nil || string(e.Value()) != "answer" {
				t.Errorf("idempotency watch got %v", e)
			}
		case <-time.After(5 * time.Second):
			t.Error("idempotency watch: no update")
		}
		must(t, "stop the watch", iw.Stop())
		must(t, "release an idempotency key", bk.Idempotency.Delete(ctx, "acct1.key"))
		idem, err := in.js.Stream(ctx, bus.KVStream(bus.BucketIdempotency))
		must(t, "the idempotency bucket's stream", err)
		marker, err := idem.GetLastMsgForSubject(ctx, "$KV."+bus.BucketIdempotency+".acct1.key")
		must(t, "read the marker of a released key", err)
		must(t, "purge the marker of a released key", idem.Purge(ctx,
			jetstream.WithPurgeSubject("$KV."+bus.BucketIdempotency+".acct1.key"), jetstream.WithPurgeSequence(marker.Sequence+1)))

		publishJob(t, ctx, in.js, bus.OrdersSubject("solana"), "o-in")
		_, err = in.js.Consumer(ctx, bus.StreamOrders, bus.WorkerConsumer("solana"))
		must(t, "read the workers' backlog", err)
		st, err := in.js.Stream(ctx, bus.StreamTxs)
		must(t, "stream information", err)
		for range st.ListConsumers(ctx).Info() {
		}
		_, err = in.nc.SubscribeSync(bus.PresenceSubject("*"))
		must(t, "hear the workers", err)
		must(t, "ask for presence", in.nc.Publish(bus.PresenceProbe, nil))
		_, err = in.nc.SubscribeSync(bus.RegistryChanged)
		must(t, "hear registry changes", err)
		_, err = in.js.Publish(ctx, bus.EventsSubject("acct1", "failed"), []byte(`{}`))
		must(t, "publish the failed event of an order it failed", err)
		in.clean(t)

		in.denied(t, "read a wallet key", "$JS.API.DIRECT.GET.KV_wallet_keys", func(ctx context.Context) error {
			_, err := bk.WalletKeys.Get(ctx, "addr1")
			return err
		})
		in.denied(t, "watch the wallet keys", "$JS.API.CONSUMER.CREATE.KV_wallet_keys", func(ctx context.Context) error {
			w, err := bk.WalletKeys.WatchAll(ctx)
			if err == nil {
				w.Stop()
			}
			return err
		})
		in.denied(t, "get a wallet-key message", "$JS.API.STREAM.MSG.GET.KV_wallet_keys", func(ctx context.Context) error {
			_, err := in.nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET.KV_wallet_keys", []byte(`{"seq":1}`))
			return err
		})
		in.denied(t, "read a webhook", "$JS.API.DIRECT.GET.KV_webhooks", func(ctx context.Context) error {
			_, err := bk.Webhooks.Get(ctx, "acct1")
			return err
		})
		in.denied(t, "write the registry", "$KV.registry.acct.acct1", func(ctx context.Context) error {
			_, err := bk.Registry.Put(ctx, "acct.acct1", []byte("forged"))
			return err
		})
		in.denied(t, "consume the jobs", "$JS.API.CONSUMER.CREATE.ORDERS", func(ctx context.Context) error {
			_, err := in.js.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{Durable: "thief"})
			return err
		})
		in.denied(t, "declare the streams", "$JS.API.STREAM.UPDATE.ORDERS", func(ctx context.Context) error {
			return bus.Declare(ctx, in.js, bus.Options{})
		})
		in.denied(t, "copy the wallet keys into a stream of its own", "$JS.API.STREAM.CREATE.COPY", func(ctx context.Context) error {
			_, err := in.js.CreateStream(ctx, jetstream.StreamConfig{Name: "COPY",
				Sources: []*jetstream.StreamSource{{Name: "KV_" + bus.BucketWalletKeys}}})
			return err
		})
		in.deniedPub(t, bus.TxsSubject("solana"))
		in.deniedPub(t, bus.EventsSubject("acct1", "confirmed"))
		in.deniedSub(t, bus.InboxPrefix(bus.RoleWorker)+".>")
		in.deniedSub(t, "$KV.wallet_keys.>")
	})

	t.Run("worker", func(t *testing.T) {
		w := dialRole(t, url, bus.RoleWorker, creds)
		must(t, "await the streams", bus.DeclareAs(ctx, w.js, bus.RoleWorker, bus.Options{}))
		cons, err := w.js.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{
			Durable: bus.WorkerConsumer("solana"), FilterSubject: bus.OrdersSubject("solana"),
			AckPolicy: jetstream.AckExplicitPolicy, AckWait: bus.AckWait})
		must(t, "bind the workers' consumer", err)
		publishJob(t, ctx, b.JS, bus.OrdersSubject("solana"), "o-w")
		got := make(chan string, 8)
		pool, err := bus.Consume(cons, 2, func(m jetstream.Msg) {
			_ = m.InProgress()
			_ = m.Ack()
			got <- m.Headers().Get(bus.HeaderOrder)
		}, nil)
		must(t, "consume jobs", err)
		for seen := false; !seen; {
			select {
			case id := <-got:
				seen = id == "o-w"
			case <-time.After(10 * time.Second):
				t.Fatal("the worker got no job")
			}
		}
		pool.Stop()
		var info *jetstream.ConsumerInfo
		if !poll.True(5*time.Second, func() bool {
			var err error
			info, err = cons.Info(ctx)
			must(t, "consumer information", err)
			return info.NumAckPending == 0 && info.NumPending == 0
		}) {
			t.Fatalf("acks not taken: %d pending, %d unacknowledged", info.NumPending, info.NumAckPending)
		}
		e, err := w.kv(ctx, bus.BucketWalletKeys).Get(ctx, "addr1")
		must(t, "read a wallet key", err)
		if string(e.Value()) != "sealed" {
			t.Errorf("wallet key = %q", e.Value())
		}
		_, err = w.kv(ctx, bus.BucketRegistry).Get(ctx, "acct.acct1")
		must(t, "read the registry", err)
		if _, err = w.kv(ctx, bus.BucketSigned).Get(ctx, "o-w"); !errors.Is(err, jetstream.ErrKeyNotFound) {
			t.Fatalf("read a batch an earlier version recorded: %v", err)
		}
		rev, err := w.kv(ctx, bus.BucketOrders).Create(ctx, "o-w", []byte("pending"))
		must(t, "store an order", err)
		_, err = w.kv(ctx, bus.BucketOrders).Update(ctx, "o-w", []byte("signed"), rev)
		must(t, "update an order", err)
		rev, err = w.kv(ctx, bus.BucketNonces).Create(ctx, "eth.0xabc", []byte("1"))
		must(t, "take a nonce", err)
		_, err = w.kv(ctx, bus.BucketNonces).Update(ctx, "eth.0xabc", []byte("2"), rev)
		must(t, "advance a nonce", err)
		skips := w.kv(ctx, bus.BucketIdempotency)
		rev, err = skips.Create(ctx, "skip.acct1.sol.mint", []byte(`{"order":"o-w"}`))
		must(t, "claim a mint for skip_if_bought", err)
		if _, err = skips.Create(ctx, "skip.acct1.sol.mint", []byte(`{"order":"o-x"}`)); !errors.Is(err, jetstream.ErrKeyExists) {
			t.Fatalf("claim a claimed mint: %v, want the key to exist", err)
		}
		held, err := skips.Get(ctx, "skip.acct1.sol.mint")
		must(t, "read a skip_if_bought claim", err)
		if held.Revision() != rev {
			t.Errorf("claim revision = %d, want %d", held.Revision(), rev)
		}
		_, err = skips.Update(ctx, "skip.acct1.sol.mint", []byte(`{"order":"o-x"}`), rev)
		must(t, "take a skip_if_bought claim over", err)
		publishJob(t, ctx, w.js, bus.BatchSubject("solana", "o-w"), "o-w")
		txs, err := w.js.Stream(ctx, bus.StreamTxs)
		must(t, "find the signed batches", err)
		_, err = txs.GetLastMsgForSubject(ctx, bus.BatchSubject("solana", "o-w"))
		must(t, "read an order's signed batch back", err)
		publishJob(t, ctx, w.js, bus.EventsSubject("acct1", "failed"), "ev-w")
		must(t, "announce", w.nc.Publish(bus.PresenceSubject("solana"), []byte("{}")))
		_, err = w.nc.SubscribeSync(bus.PresenceProbe)
		must(t, "hear probes", err)
		w.clean(t)

		w.denied(t, "write the registry", "$KV.registry.", func(ctx context.Context) error {
			_, err := w.kv(context.Background(), bus.BucketRegistry).Put(ctx, "acct.acct1", []byte("forged"))
			return err
		})
		w.denied(t, "write a wallet key", "$KV.wallet_keys.", func(ctx context.Context) error {
			_, err := w.kv(context.Background(), bus.BucketWalletKeys).Put(ctx, "addr1", []byte("forged"))
			return err
		})
		w.denied(t, "read a webhook", "$JS.API.DIRECT.GET.KV_webhooks", func(ctx context.Context) error {
			_, err := w.kv(context.Background(), bus.BucketWebhooks).Get(ctx, "acct1")
			return err
		})
		w.denied(t, "write an idempotent answer", "$KV.idempotency.acct1.", func(ctx context.Context) error {
			_, err := w.kv(context.Background(), bus.BucketIdempotency).Put(ctx, "acct1.key", []byte("forged"))
			return err
		})
		w.denied(t, "read an idempotent answer", "$JS.API.DIRECT.GET.KV_idempotency.$KV.idempotency.acct1.", func(ctx context.Context) error {
			_, err := w.kv(context.Background(), bus.BucketIdempotency).Get(ctx, "acct1.key")
			return err
		})
		w.denied(t, "write the signed bucket", "$KV.signed.", func(ctx context.Context) error {
			_, err := w.kv(context.Background(), bus.BucketSigned).Put(ctx, "o-w", []byte("forged"))
			return err
		})
		w.denied(t, "purge the idempotency bucket", "$JS.API.STREAM.PURGE.KV_idempotency", func(ctx context.Context) error {
			st, err := w.js.Stream(context.Background(), bus.KVStream(bus.BucketIdempotency))
			if err != nil {
				return err
			}
			return st.Purge(ctx)
		})
		w.denied(t, "read the jobs", "$JS.API.STREAM.MSG.GET.ORDERS", func(ctx context.Context) error {
			st, err := w.js.Stream(ctx, bus.StreamOrders)
			if err != nil {
				return err
			}
			_, err = st.GetMsg(ctx, 1)
			return err
		})
		w.denied(t, "consume the signed batches", "$JS.API.CONSUMER.CREATE.TXS", func(ctx context.Context) error {
			_, err := w.js.CreateOrUpdateConsumer(ctx, bus.StreamTxs, jetstream.ConsumerConfig{Durable: bus.BroadcasterConsumer})
			return err
		})
		w.denied(t, "declare the streams", "$JS.API.STREAM.UPDATE.", func(ctx context.Context) error {
			return bus.Declare(ctx, w.js, bus.Options{})
		})
		w.deniedSub(t, "_INBOX.>")
		w.deniedPub(t, bus.OrdersSubject("solana"))
	})

	t.Run("broadcaster", func(t *testing.T) {
		br := dialRole(t, url, bus.RoleBroadcaster, creds)
		cons, err := br.js.CreateOrUpdateConsumer(ctx, bus.StreamTxs, jetstream.ConsumerConfig{
			Durable: bus.BroadcasterConsumer, FilterSubjects: []string{bus.ChainBatches("solana"), bus.TxsSubject("solana"),
				bus.ChainBatches("eth")},
			AckPolicy: jetstream.AckExplicitPolicy, AckWait: bus.AckWait, MaxDeliver: 1})
		must(t, "bind the broadcaster's consumer", err)
		publishJob(t, ctx, b.JS, bus.BatchSubject("solana", "o-b"), "o-b")
		fetchOne(t, ctx, "take a signed batch", cons)
		// A batch handed out as many times as the consumer may, none
		// acknowledged: the server's notice of it, and the batch read
		// back from TXS by it.
		givenUp, err := br.js.CreateOrUpdateConsumer(ctx, bus.StreamTxsGivenUp, jetstream.ConsumerConfig{
			Durable: bus.GivenUpConsumer, AckPolicy: jetstream.AckExplicitPolicy})
		must(t, "bind the consumer of the batches given up", err)
		publishJob(t, ctx, b.JS, bus.BatchSubject("solana", "o-g"), "o-g")
		// The batches before it taken and acknowledged, it is handed back.
		for nakd := false; !nakd; {
			taken, err := cons.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
			must(t, "take a batch", err)
			n := 0
			for m := range taken.Messages() {
				n++
				if m.Headers().Get(bus.HeaderOrder) != "o-g" {
					must(t, "ack a batch", m.DoubleAck(ctx))
					continue
				}
				must(t, "hand a batch back", m.Nak())
				nakd = true
			}
			if n == 0 {
				t.Fatalf("batch o-g not handed out: %v", taken.Error())
			}
		}
		// The server gives the batch up when it would hand it out again.
		again, err := cons.Fetch(1, jetstream.FetchMaxWait(200*time.Millisecond))
		must(t, "ask for the batch again", err)
		for m := range again.Messages() {
			t.Fatalf("batch %s handed out past the consumer's deliveries", m.Subject())
		}
		notice := fetchOne(t, ctx, "take the notice of a batch given up", givenUp)
		g, err := bus.ReadGivenUp(ctx, br.js, notice.Data())
		must(t, "read a batch given up back from TXS", err)
		if g.Msg.Header.Get(bus.HeaderOrder) != "o-g" || g.Deliveries != 1 {
			t.Errorf("batch given up: order %q after %d deliveries, want o-g after 1", g.Msg.Header.Get(bus.HeaderOrder), g.Deliveries)
		}
		hooks, err := br.js.CreateOrUpdateConsumer(ctx, bus.StreamEvents, jetstream.ConsumerConfig{
			Durable: bus.WebhookConsumer, FilterSubject: bus.AllEvents, AckPolicy: jetstream.AckExplicitPolicy})
		must(t, "bind the webhook dispatcher's consumer", err)
		fetchOne(t, ctx, "take an event", hooks)
		// A delivery put to wait for its retry, scheduled by the server,
		// then taken when due.
		due, err := br.js.CreateOrUpdateConsumer(ctx, bus.StreamWebhookRetries, jetstream.ConsumerConfig{
			Durable: bus.WebhookDueConsumer, FilterSubject: bus.AllWebhookDue, AckPolicy: jetstream.AckExplicitPolicy})
		must(t, "bind the webhook retries' consumer", err)
		wait := nats.NewMsg(bus.WebhookWaitSubject("acct1", "k1"))
		wait.Data = []byte(`{}`)
		wait.Header.Set("Nats-Schedule", "@at "+time.Now().UTC().Format(time.RFC3339))
		wait.Header.Set("Nats-Schedule-Target", bus.WebhookDueSubject("acct1", "k1"))
		_, err = br.js.PublishMsg(ctx, wait)
		must(t, "put a webhook delivery to wait", err)
		if m := fetchOne(t, ctx, "take a due delivery", due); m.Subject() != bus.WebhookDueSubject("acct1", "k1") {
			t.Errorf("due delivery on %s", m.Subject())
		}
		// A slow receiver's events put in its account's backlog, read
		// through the account's own consumer, and the backlogs found.
		_, err = br.js.Publish(ctx, bus.WebhookBacklogSubject("acct1"), []byte(`{}`))
		must(t, "put an event in an account's backlog", err)
		backlog, err := br.js.CreateOrUpdateConsumer(ctx, bus.StreamWebhookBacklog, jetstream.ConsumerConfig{
			Durable: bus.WebhookBacklogConsumer("acct1"), FilterSubject: bus.WebhookBacklogSubject("acct1"),
			AckPolicy: jetstream.AckExplicitPolicy, InactiveThreshold: time.Minute})
		must(t, "bind an account's backlog consumer", err)
		fetchOne(t, ctx, "take an event from an account's backlog", backlog)
		bst, err := br.js.Stream(ctx, bus.StreamWebhookBacklog)
		must(t, "find the backlogs' stream", err)
		_, err = bst.Info(ctx, jetstream.WithSubjectFilter(bus.WebhookBacklogPrefix+"*"))
		must(t, "list the accounts' backlogs", err)
		_, err = br.kv(ctx, bus.BucketTrades).Put(ctx, "acct1.sol.mint", []byte("o-b"))
		must(t, "record a trade", err)
		tr := br.kv(ctx, bus.BucketTracking)
		_, err = tr.Put(ctx, "o-b", []byte("sigs"))
		must(t, "track an order", err)
		l, err := tr.ListKeys(ctx)
		if keys := drainKeys(t, "list the tracked orders", l, err); len(keys) != 1 {
			t.Errorf("tracked %v, want [o-b]", keys)
		}
		_, err = tr.Get(ctx, "o-b")
		must(t, "read a tracked order", err)
		must(t, "stop tracking", tr.Delete(ctx, "o-b"))
		rev, err := br.kv(ctx, bus.BucketOrders).Create(ctx, "o-b", []byte("broadcast"))
		must(t, "store an order", err)
		_, err = br.kv(ctx, bus.BucketOrders).Update(ctx, "o-b", []byte("confirmed"), rev)
		must(t, "update an order", err)
		_, err = br.kv(ctx, bus.BucketWebhooks).Get(ctx, "acct1")
		must(t, "read a webhook", err)
		// The dispatcher's book follows the bucket with a watch.
		hw, err := br.kv(ctx, bus.BucketWebhooks).WatchAll(ctx)
		must(t, "watch the webhooks", err)
		for loaded := false; !loaded; {
			select {
			case e := <-hw.Updates():
				loaded = e == nil
			case <-time.After(5 * time.Second):
				t.Fatal("watch the webhooks: not loaded")
			}
		}
		must(t, "stop watching the webhooks", hw.Stop())
		_, err = br.kv(ctx, bus.BucketWebhookDeliveries).Put(ctx, "acct1.ev-1", []byte("200"))
		must(t, "record a delivery", err)
		publishJob(t, ctx, br.js, bus.EventsSubject("acct1", "confirmed"), "ev-b")
		br.clean(t)

		br.denied(t, "read a wallet key", "$JS.API.DIRECT.GET.KV_wallet_keys", func(ctx context.Context) error {
			_, err := br.kv(context.Background(), bus.BucketWalletKeys).Get(ctx, "addr1")
			return err
		})
		br.denied(t, "write the registry", "$KV.registry.", func(ctx context.Context) error {
			_, err := br.kv(context.Background(), bus.BucketRegistry).Put(ctx, "acct.acct1", []byte("forged"))
			return err
		})
		br.denied(t, "consume the jobs", "$JS.API.CONSUMER.CREATE.ORDERS", func(ctx context.Context) error {
			_, err := br.js.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{Durable: "thief"})
			return err
		})
		br.deniedPub(t, bus.OrdersSubject("solana"))
	})

	t.Run("exits", func(t *testing.T) {
		ex := dialRole(t, url, bus.RoleExits, creds)
		cons, err := ex.js.CreateOrUpdateConsumer(ctx, bus.StreamEvents, jetstream.ConsumerConfig{
			Durable:        bus.ExitsConsumer,
			FilterSubjects: []string{bus.EventsOfType("confirmed"), bus.EventsOfType("failed"), bus.EventsOfType("expired")},
			AckPolicy:      jetstream.AckExplicitPolicy, AckWait: bus.AckWait})
		must(t, "bind the exits consumer", err)
		fetchOne(t, ctx, "take an event", cons)
		pos := ex.kv(ctx, bus.BucketPositions)
		rev, err := pos.Create(ctx, "p1", []byte("open"))
		must(t, "open a position", err)
		rev, err = pos.Update(ctx, "p1", []byte("closed"), rev)
		must(t, "close a position", err)
		w, err := pos.WatchAll(ctx)
		watchToEnd(t, "watch the positions", w, err)
		l, err := pos.ListKeys(ctx)
		drainKeys(t, "list the positions", l, err)
		must(t, "sweep a position", pos.Delete(ctx, "p1", jetstream.LastRevision(rev)))
		_, err = ex.kv(ctx, bus.BucketOrders).Create(ctx, "o-x", []byte("pending"))
		must(t, "store a sell", err)
		_, err = ex.kv(ctx, bus.BucketOrders).Get(ctx, "o-b")
		must(t, "read the buy", err)
		_, err = ex.kv(ctx, bus.BucketRegistry).Get(ctx, "acct.acct1")
		must(t, "read the registry", err)
		publishJob(t, ctx, ex.js, bus.OrdersSubject("solana"), "o-x")
		publishJob(t, ctx, ex.js, bus.EventsSubject("acct1", "exit_fired"), "ev-x")
		for _, s := range []string{bus.ExitsPresence, bus.ExitsProbe} {
			_, err := ex.nc.SubscribeSync(s)
			must(t, "hear "+s, err)
			must(t, "publish "+s, ex.nc.Publish(s, []byte("{}")))
		}
		ex.clean(t)

		ex.denied(t, "read a wallet key", "$JS.API.DIRECT.GET.KV_wallet_keys", func(ctx context.Context) error {
			_, err := ex.kv(context.Background(), bus.BucketWalletKeys).Get(ctx, "addr1")
			return err
		})
		ex.denied(t, "write the registry", "$KV.registry.", func(ctx context.Context) error {
			_, err := ex.kv(context.Background(), bus.BucketRegistry).Put(ctx, "acct.acct1", []byte("forged"))
			return err
		})
		ex.denied(t, "consume the jobs", "$JS.API.CONSUMER.CREATE.ORDERS", func(ctx context.Context) error {
			_, err := ex.js.CreateOrUpdateConsumer(ctx, bus.StreamOrders, jetstream.ConsumerConfig{Durable: "thief"})
			return err
		})
		ex.deniedPub(t, bus.TxsSubject("solana"))
	})

	t.Run("devnet", func(t *testing.T) {
		d := dialRole(t, url, bus.RoleDevnet, creds)
		d.denied(t, "read a stream", "$JS.API.STREAM.INFO.ORDERS", func(ctx context.Context) error {
			_, err := d.js.Stream(ctx, bus.StreamOrders)
			return err
		})
		d.deniedPub(t, bus.OrdersSubject("solana"))
		d.deniedSub(t, "tapi.>")
	})

	t.Run("replies reach ingress", func(t *testing.T) {
		in := dialRole(t, url, bus.RoleIngress, creds)
		shared, err := in.nc.SubscribeSync(nats.NewInbox() + ".*")
		must(t, "subscribe to a reply inbox", err)
		own, err := in.nc.SubscribeSync(in.nc.NewInbox() + ".*")
		must(t, "subscribe to an own inbox", err)
		if !strings.HasPrefix(own.Subject, bus.InboxPrefix(bus.RoleIngress)+".") {
			t.Errorf("ingress inbox %s lacks its prefix", own.Subject)
		}
		must(t, "flush", in.nc.Flush())
		for _, role := range []string{bus.RoleWorker, bus.RoleBroadcaster} {
			c := dialRole(t, url, role, creds)
			for _, sub := range []*nats.Subscription{shared, own} {
				reply := strings.TrimSuffix(sub.Subject, "*") + "o1"
				must(t, role+" replies", c.nc.Publish(reply, []byte(role)))
				m, err := sub.NextMsg(5 * time.Second)
				must(t, "ingress hears "+role, err)
				if string(m.Data) != role {
					t.Errorf("reply %q, want %q", m.Data, role)
				}
			}
			c.clean(t)
		}
		in.clean(t)
	})
}

func TestRolePermissionsTable(t *testing.T) {
	t.Parallel()
	for _, role := range bus.Roles() {
		perms, ok := bus.RolePermissions(role)
		if !ok || perms == nil || perms.Publish == nil || perms.Subscribe == nil {
			t.Fatalf("%s: no permissions", role)
		}
		for _, s := range append(append([]string{}, perms.Publish.Allow...), perms.Subscribe.Allow...) {
			if s == ">" || s == "$JS.API.>" || s == "$KV.>" {
				t.Errorf("%s may use %s", role, s)
			}
		}
	}
	if perms, ok := bus.RolePermissions(bus.RoleAdmin); !ok || perms != nil {
		t.Error("the admin should have every subject")
	}
	if _, ok := bus.RolePermissions("nobody"); ok {
		t.Error("an unknown role has permissions")
	}
	if !bus.CanDeclare(bus.RoleRegistry) || !bus.CanDeclare(bus.RoleAdmin) || bus.CanDeclare(bus.RoleIngress) {
		t.Error("only the registry and the admin declare")
	}
}

// TestWatchFlowControl reads a watch large enough for the server to ask for
// flow control, which the reader answers on a subject of its own: a
// refused answer would stall the registry view of every ingress.
func TestWatchFlowControl(t *testing.T) {
	t.Parallel()
	b, creds := bustest.StartAuth(t, "admin")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	value := []byte(strings.Repeat("v", 4096))
	const keys = 4000
	futures := make([]jetstream.PubAckFuture, 0, keys)
	for i := range keys {
		f, err := b.JS.PublishAsync("$KV."+bus.BucketRegistry+".k"+strconv.Itoa(i), value)
		must(t, "seed", err)
		futures = append(futures, f)
	}
	select {
	case <-b.JS.PublishAsyncComplete():
	case <-ctx.Done():
		t.Fatal("seeding timed out")
	}
	for _, f := range futures {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			t.Fatal(err)
		}
	}
	in := dialRole(t, b.Server.ClientURL(), bus.RoleIngress, creds)
	w, err := in.kv(ctx, bus.BucketRegistry).WatchAll(ctx)
	if n := watchToEnd(t, "watch a large registry", w, err); n != keys {
		t.Errorf("watched %d keys, want %d", n, keys)
	}
	in.clean(t)
}

// TestNoRoleRollsUpABucket: a role that may write one key of a bucket
// cannot empty the bucket with a rollup (a header NATS permissions do not
// see): the buckets the service never purges refuse rollups. A worker,
// which may write only skip_if_bought's claims in the idempotency bucket,
// erased every kept answer so, and a repeat of an order traded again;
// ingress could erase the orders or the rate budget. The two buckets whose
// keys are purged keep them, for the one role that writes each.
func TestNoRoleRollsUpABucket(t *testing.T) {
	t.Parallel()
	b, creds := bustest.StartAuth(t, "admin")
	url := b.Server.ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := b.Buckets.Idempotency.Put(ctx, "acct1-key1", []byte("kept answer"))
	must(t, "seed idempotency", err)
	_, err = b.Buckets.Orders.Put(ctx, "eu-1", []byte("order"))
	must(t, "seed orders", err)
	// Declared again by its own package, as `up` does after the others.
	vkv, err := venues.Declare(ctx, b.JS, 1)
	must(t, "declare venues", err)
	_, err = vkv.Put(ctx, venues.Key("solana", "pump_fun"), []byte("paused"))
	must(t, "seed venues", err)
	for _, tc := range []struct{ role, subject string }{
		{bus.RoleWorker, "$KV." + bus.BucketIdempotency + "." + bus.SkipClaimPrefix + ".x"},
		{bus.RoleIngress, "$KV." + bus.BucketOrders + ".eu-2"},
		{bus.RoleWorker, "$KV." + bus.BucketVenues + ".solana.x"},
	} {
		r := dialRole(t, url, tc.role, creds)
		m := nats.NewMsg(tc.subject)
		m.Header.Set(jetstream.MsgRollup, jetstream.MsgRollupAll)
		m.Data = []byte("x")
		if _, err := r.js.PublishMsg(ctx, m); err == nil {
			t.Errorf("%s rolled up %s", tc.role, tc.subject)
		}
	}
	_, err = b.Buckets.Idempotency.Get(ctx, "acct1-key1")
	must(t, "a kept answer after a worker's rollup", err)
	_, err = b.Buckets.Orders.Get(ctx, "eu-1")
	must(t, "an order after ingress's rollup", err)
	_, err = vkv.Get(ctx, venues.Key("solana", "pump_fun"))
	must(t, "a venue's pause after a worker's rollup", err)
	// Purged keys still purge.
	_, err = b.Buckets.Tracking.Put(ctx, "eu-3", []byte("tracked"))
	must(t, "track", err)
	must(t, "purge a tracking entry", b.Buckets.Tracking.Purge(ctx, "eu-3"))
	_, err = b.Buckets.Positions.Put(ctx, "p1", []byte("position"))
	must(t, "position", err)
	must(t, "purge a position", b.Buckets.Positions.Purge(ctx, "p1"))
}
