package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Watch keeps a copy of a bucket fresh: it watches every key of kv until
// ctx ends, and returns nil then. apply gets each change, the bucket's
// current values (deletions included) first; loaded is called each time
// those are all in, after every start of the watch. A watch that breaks is
// started again after a second, doubling up to half a minute while it
// keeps failing, and replays the bucket.
func Watch(ctx context.Context, kv jetstream.KeyValue, log *slog.Logger, apply func(jetstream.KeyValueEntry), loaded func()) error {
	retry := time.Second
	for {
		start := time.Now()
		err := watchOnce(ctx, kv, apply, loaded)
		if ctx.Err() != nil {
			return nil
		}
		if time.Since(start) > time.Minute {
			retry = time.Second
		}
		log.Warn("bucket watch stopped, restarting", "bucket", kv.Bucket(), "err", err, "in", retry)
		select {
		case <-time.After(retry):
		case <-ctx.Done():
			return nil
		}
		retry = min(2*retry, 30*time.Second)
	}
}

func watchOnce(ctx context.Context, kv jetstream.KeyValue, apply func(jetstream.KeyValueEntry), loaded func()) error {
	w, err := kv.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("watch bucket %s: %w", kv.Bucket(), err)
	}
	defer StopWatching(w)
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("watch bucket " + kv.Bucket() + ": updates closed")
			}
			if e == nil {
				loaded()
				continue
			}
			apply(e)
		}
	}
}
