// Package bus is the NATS side of the pipeline: the embedded server, the
// connection, and the streams and buckets that every role declares
// idempotently at start.
package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ServerConfig configures the embedded NATS server.
type ServerConfig struct {
	// StoreDir is where JetStream keeps its files.
	StoreDir string
	// Listen is a host:port to accept clients on; empty accepts only
	// in-process connections.
	Listen string
	// SyncAlways makes JetStream fsync every write.
	SyncAlways bool
}

// Server is an embedded nats-server with JetStream.
type Server struct {
	ns *server.Server
}

// StartServer starts an embedded server and waits until it accepts clients.
func StartServer(cfg ServerConfig, log *slog.Logger) (*Server, error) {
	opts := &server.Options{
		ServerName: "tradeapi",
		JetStream:  true,
		StoreDir:   filepath.Clean(cfg.StoreDir),
		NoSigs:     true,
		SyncAlways: cfg.SyncAlways,
		DontListen: cfg.Listen == "",
		// Big enough for a batch of signed transactions of many wallets.
		MaxPayload: 8 << 20,
	}
	if cfg.Listen != "" {
		host, port, err := splitHostPort(cfg.Listen)
		if err != nil {
			return nil, err
		}
		opts.Host, opts.Port = host, port
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("nats server: %w", err)
	}
	if log != nil {
		ns.SetLoggerV2(&natsLogger{log: log.With("component", "nats-server")}, false, false, false)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("nats server: not ready after 10s")
	}
	return &Server{ns: ns}, nil
}

// Connect opens an in-process client connection to the server.
func (s *Server) Connect(name string) (*nats.Conn, error) {
	return nats.Connect(s.ns.ClientURL(), nats.InProcessServer(s.ns), nats.Name(name),
		nats.MaxReconnects(-1))
}

// ClientURL is the URL to reach the server over TCP, when it listens.
func (s *Server) ClientURL() string { return s.ns.ClientURL() }

// Shutdown stops the server and waits for it.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// Dial connects to a NATS URL and keeps reconnecting for ever: a role whose
// server restarts carries on.
func Dial(url, name string, log *slog.Logger) (*nats.Conn, error) {
	return nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.RetryOnFailedConnect(true),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil && log != nil {
				log.Warn("nats disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) {
			if log != nil {
				log.Info("nats reconnected", "url", c.ConnectedUrlRedacted())
			}
		}))
}

// Options sizes the streams and buckets.
type Options struct {
	// Replicas of every stream and bucket (1, or 3 in a cluster).
	Replicas int
	// OrderTTL is how long order records are kept.
	OrderTTL time.Duration
}

func (o Options) replicas() int {
	if o.Replicas < 1 {
		return 1
	}
	return o.Replicas
}

// Declare creates or updates every stream and bucket. It is idempotent and
// every role calls it at start.
func Declare(ctx context.Context, js jetstream.JetStream, o Options) error {
	r := o.replicas()
	orderTTL := o.OrderTTL
	if orderTTL == 0 {
		orderTTL = 7 * 24 * time.Hour
	}
	streams := []jetstream.StreamConfig{
		{Name: StreamOrders, Subjects: []string{"orders.>"}, Retention: jetstream.WorkQueuePolicy,
			Storage: jetstream.FileStorage, Replicas: r, Duplicates: 2 * time.Minute, MaxAge: 24 * time.Hour},
		{Name: StreamTxs, Subjects: []string{"txs.>"}, Retention: jetstream.WorkQueuePolicy,
			Storage: jetstream.FileStorage, Replicas: r, Duplicates: 2 * time.Minute, MaxAge: 24 * time.Hour},
		// Events are kept a day whoever has read them, bounded in bytes too;
		// the event id is the message id, so a re-emitted event is dropped.
		{Name: StreamEvents, Subjects: []string{AllEvents}, Retention: jetstream.LimitsPolicy,
			Storage: jetstream.FileStorage, Replicas: r, Duplicates: 2 * time.Minute, MaxAge: 24 * time.Hour,
			MaxBytes: 1 << 30, Discard: jetstream.DiscardOld},
	}
	for _, sc := range streams {
		if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
			return fmt.Errorf("declare stream %s: %w", sc.Name, err)
		}
	}
	buckets := []jetstream.KeyValueConfig{
		{Bucket: BucketRegistry, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		{Bucket: BucketWalletKeys, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		// Week windows are the longest: counters older than 8 days are dead.
		{Bucket: BucketBudget, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 8 * 24 * time.Hour},
		{Bucket: BucketOrders, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: orderTTL},
		{Bucket: BucketSigned, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 24 * time.Hour},
		{Bucket: BucketTrades, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		{Bucket: BucketTracking, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 24 * time.Hour},
		{Bucket: BucketNonces, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		{Bucket: BucketIdempotency, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 24 * time.Hour},
		{Bucket: BucketWebhooks, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		{Bucket: BucketWebhookDeliveries, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 7 * 24 * time.Hour},
		// Positions live until the exits engine sweeps them a week after
		// they closed: an open one may wait for its trigger for months.
		{Bucket: BucketPositions, History: 1, Storage: jetstream.FileStorage, Replicas: r},
	}
	for _, kc := range buckets {
		if _, err := js.CreateOrUpdateKeyValue(ctx, kc); err != nil {
			return fmt.Errorf("declare bucket %s: %w", kc.Bucket, err)
		}
	}
	return nil
}

// Buckets are the key-value buckets opened once per process.
type Buckets struct {
	Registry, WalletKeys, Budget, Orders, Signed, Trades, Tracking, Nonces, Idempotency jetstream.KeyValue
	Webhooks, WebhookDeliveries                                                         jetstream.KeyValue
	// Positions holds the exits engine's positions (BucketPositions).
	Positions jetstream.KeyValue
}

// OpenBuckets binds to every bucket.
func OpenBuckets(ctx context.Context, js jetstream.JetStream) (*Buckets, error) {
	var b Buckets
	for name, dst := range map[string]*jetstream.KeyValue{
		BucketRegistry: &b.Registry, BucketWalletKeys: &b.WalletKeys, BucketBudget: &b.Budget,
		BucketOrders: &b.Orders, BucketSigned: &b.Signed, BucketTrades: &b.Trades, BucketTracking: &b.Tracking, BucketNonces: &b.Nonces, BucketIdempotency: &b.Idempotency,
		BucketWebhooks: &b.Webhooks, BucketWebhookDeliveries: &b.WebhookDeliveries,
		BucketPositions: &b.Positions,
	} {
		kv, err := js.KeyValue(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("open bucket %s: %w", name, err)
		}
		*dst = kv
	}
	return &b, nil
}
