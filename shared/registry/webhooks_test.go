package registry_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/registry"
)

// TestWebhookBook: the book answers from its copy of the bucket once it is
// loaded (and not before), follows sets and deletes, and leaves out a
// record that does not decode.
func TestWebhookBook(t *testing.T) {
	b := bustest.Start(t, "webhook-book")
	kv := b.Buckets.Webhooks
	ctx := context.Background()
	if _, err := kv.Put(ctx, "acc1", []byte(`{"url":"https://one.example/hook","secret":"whsec_1"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "acc2", []byte(`{"url":`)); err != nil {
		t.Fatal(err)
	}
	book := registry.NewWebhookBook(kv, nil)
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, _, err := book.Webhook(short, "acc1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("lookup before the book is loaded: %v, want the deadline", err)
	}

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = book.Run(runCtx) }()
	select {
	case <-book.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("book not loaded")
	}
	if w, ok, err := book.Webhook(ctx, "acc1"); err != nil || !ok || w.URL != "https://one.example/hook" || w.Secret != "whsec_1" {
		t.Fatalf("acc1: %+v %v %v", w, ok, err)
	}
	if tg, ok, err := book.Target(ctx, "acc1"); err != nil || !ok || tg.URL != "https://one.example/hook" || tg.Secret != "whsec_1" {
		t.Fatalf("acc1 target: %+v %v %v", tg, ok, err)
	}
	if _, ok, err := book.Webhook(ctx, "acc2"); ok || err != nil {
		t.Fatalf("a record that does not decode: %v %v, want no webhook", ok, err)
	}
	if _, ok, err := book.Webhook(ctx, "nobody"); ok || err != nil {
		t.Fatalf("an account without a webhook: %v %v", ok, err)
	}

	if _, err := kv.Put(ctx, "acc3", []byte(`{"url":"https://three.example/hook","secret":"whsec_3"}`)); err != nil {
		t.Fatal(err)
	}
	if err := kv.Delete(ctx, "acc1"); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Second, "the book follows a set and a delete", func() bool {
		_, has1, _ := book.Webhook(ctx, "acc1")
		w3, has3, _ := book.Webhook(ctx, "acc3")
		return !has1 && has3 && w3.Secret == "whsec_3"
	})
}
