package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
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
	// in-process connections. Port 0 picks a free port.
	Listen string
	// SyncAlways makes JetStream fsync every write.
	SyncAlways bool
	// ServerName names the server; "tradeapi" when empty. Every node of a
	// cluster needs its own, kept across restarts: JetStream knows its
	// peers by it.
	ServerName string
	// Credentials, when set, make the server require authentication: the
	// admin, one user per role with RolePermissions, and the route user of
	// a cluster, all derived from them. They must hold a user and a
	// password; a creds file only authenticates a client. Zero accepts
	// every client, as the tests' servers do.
	Credentials Credentials
	// Cluster joins other NATS nodes; zero runs a single server.
	Cluster ClusterConfig
	// Monitor is a host:port for the monitoring endpoints (/healthz,
	// /varz, /jsz); empty serves none. Port 0 picks a free port.
	Monitor string
}

// ClusterConfig is the cluster block of a NATS node.
type ClusterConfig struct {
	// Name is the cluster's name, the same on every node.
	Name string
	// Listen is the host:port this node accepts routes on. Port 0 picks a
	// free port.
	Listen string
	// Routes are the route URLs of the nodes (nats-route://host:port or
	// host:port); every node may list every node, itself included. With
	// Credentials the routes authenticate as the route user.
	Routes []string
}

func (c ClusterConfig) enabled() bool { return c.Listen != "" || len(c.Routes) > 0 }

// Server is an embedded nats-server with JetStream.
type Server struct {
	ns     *server.Server
	creds  Credentials
	unlock func()
	log    *slog.Logger
	// pipes hands out the in-process connections: the server itself, or a
	// test's stand-in that meddles with a handshake.
	pipes nats.InProcessConnProvider
}

// maxPayload is big enough for a batch of signed transactions of many
// wallets.
const maxPayload = 8 << 20

// StartServer starts an embedded server and waits until it accepts clients.
func StartServer(cfg ServerConfig, log *slog.Logger) (*Server, error) {
	opts, err := serverOptions(cfg)
	if err != nil {
		return nil, err
	}
	unlock := func() {}
	if cfg.StoreDir != "" {
		if unlock, err = lockStore(opts.StoreDir); err != nil {
			return nil, err
		}
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		unlock()
		return nil, fmt.Errorf("nats server: %w", err)
	}
	if log != nil {
		ns.SetLoggerV2(&natsLogger{log: log.With("component", "nats-server")}, false, false, false)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		ns.WaitForShutdown()
		unlock()
		return nil, errors.New("nats server: not ready after 10s")
	}
	return &Server{ns: ns, creds: cfg.Credentials, unlock: unlock, log: log, pipes: ns}, nil
}

// serverOptions turns cfg into the server's options.
func serverOptions(cfg ServerConfig) (*server.Options, error) {
	name := cfg.ServerName
	if name == "" {
		name = "tradeapi"
	}
	opts := &server.Options{
		ServerName: name,
		JetStream:  true,
		StoreDir:   filepath.Clean(cfg.StoreDir),
		NoSigs:     true,
		SyncAlways: cfg.SyncAlways,
		DontListen: cfg.Listen == "",
		MaxPayload: maxPayload,
	}
	if cfg.Listen != "" {
		host, port, err := listenHostPort("nats listen", cfg.Listen)
		if err != nil {
			return nil, err
		}
		opts.Host, opts.Port = host, port
	}
	if cfg.Monitor != "" {
		host, port, err := listenHostPort("nats monitor", cfg.Monitor)
		if err != nil {
			return nil, err
		}
		opts.HTTPHost, opts.HTTPPort = host, port
	}
	if !cfg.Credentials.IsZero() {
		if err := cfg.Credentials.validServer(); err != nil {
			return nil, err
		}
		opts.Users = serverUsers(cfg.Credentials)
	}
	if cfg.Cluster.enabled() {
		if err := clusterOptions(opts, cfg); err != nil {
			return nil, err
		}
	}
	return opts, nil
}

// clusterOptions fills the cluster block: listener, routes, and the route
// user that every node requires of the others.
func clusterOptions(opts *server.Options, cfg ServerConfig) error {
	c := cfg.Cluster
	if c.Name == "" || c.Listen == "" {
		return errors.New("nats cluster: a cluster needs a name and a listen address")
	}
	if cfg.ServerName == "" {
		return errors.New("nats cluster: every node needs its own server name")
	}
	host, port, err := listenHostPort("nats cluster listen", c.Listen)
	if err != nil {
		return err
	}
	opts.Cluster.Name, opts.Cluster.Host, opts.Cluster.Port = c.Name, host, port
	var routeUser, routePass string
	if !cfg.Credentials.IsZero() {
		routeUser, routePass = routeCredentials(cfg.Credentials)
		opts.Cluster.Username, opts.Cluster.Password = routeUser, routePass
	}
	for _, r := range c.Routes {
		u, err := routeURL(r)
		if err != nil {
			return err
		}
		// A configured route presents the credentials of its URL only;
		// the server adds the cluster's own just to the routes it learns.
		if u.User == nil && routeUser != "" {
			u.User = url.UserPassword(routeUser, routePass)
		}
		opts.Routes = append(opts.Routes, u)
	}
	return nil
}

// routeURL parses a route as nats-route://host:port or host:port. The
// error names the route without any user information it carries.
func routeURL(r string) (*url.URL, error) {
	if !strings.Contains(r, "://") {
		r = "nats-route://" + r
	}
	u, err := url.Parse(r)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("nats cluster: route %q is not nats-route://host:port", redactURL(r))
	}
	return u, nil
}

// redactURL drops the user information of a URL for an error message.
func redactURL(s string) string {
	if at := strings.LastIndex(s, "@"); at >= 0 {
		if i := strings.Index(s, "://"); i >= 0 && i < at {
			return s[:i+3] + "[redacted]" + s[at:]
		}
		return "[redacted]" + s[at:]
	}
	return s
}

// Connect opens an in-process client connection to the server, as the
// admin when the server requires authentication.
func (s *Server) Connect(name string) (*nats.Conn, error) {
	return s.connect(RoleAdmin, name)
}

// ConnectAs opens an in-process client connection as role's user, with the
// role's permissions when the server requires authentication.
func (s *Server) ConnectAs(role, name string) (*nats.Conn, error) {
	if _, ok := roleGrants[role]; !ok && role != RoleAdmin {
		return nil, fmt.Errorf("nats connect: unknown role %q", role)
	}
	return s.connect(role, name)
}

// connectPatience bounds an in-process connect, its retries included.
const connectPatience = 30 * time.Second

func (s *Server) connect(role, name string) (*nats.Conn, error) {
	// The handshake over the in-process pipe can only be slow, never
	// unreachable: on a machine busy starting every role at once,
	// nats.go's default of 2 s stopped up with "read pipe: i/o timeout".
	// The timeout is the connection's for life: its reconnects use it too.
	opts := append([]nats.Option{nats.InProcessServer(s.pipes), nats.Name(name), nats.MaxReconnects(-1), nats.Timeout(connectPatience),
		logErrors(s.log)}, ConnectOptions(role, s.creds)...)
	// Retries begin within connectPatience (an attempt itself may take as
	// long: a handshake that crosses the first ping has taken two seconds).
	deadline := time.Now().Add(connectPatience)
	for pause := 10 * time.Millisecond; ; pause = min(2*pause, time.Second) {
		nc, err := nats.Connect(s.ns.ClientURL(), opts...)
		if err == nil || !handshakeRace(err) || time.Now().Add(pause).After(deadline) {
			return nc, err
		}
		if s.log != nil {
			s.log.Warn("nats in-process connect: handshake crossed the server's first ping, trying again",
				"connection", name, "err", err, "after", pause)
		}
		time.Sleep(pause)
	}
}

// handshakeRace tells the error of a connect whose answer to its PING was
// preceded by the server's own first PING: the server pings a client about
// two seconds after its CONNECT, and a handshake slower than that (a machine
// busy past its cores, the password's hash checked under load) reads the
// server's PING where nats.go takes only the PONG (nats-server issue 1174).
// Nothing was refused: the connect is simply made again. An -ERR from the
// server (an authorization refused) is another error and is not retried.
func handshakeRace(err error) bool {
	return strings.HasPrefix(err.Error(), "nats: expected 'PONG', got 'PING'")
}

// ClientURL is the URL to reach the server over TCP, when it listens.
func (s *Server) ClientURL() string { return s.ns.ClientURL() }

// ClusterAddr is the address the server accepts routes on, or nil outside
// a cluster.
func (s *Server) ClusterAddr() net.Addr {
	if a := s.ns.ClusterAddr(); a != nil {
		return a
	}
	return nil
}

// MonitorAddr is the address of the monitoring endpoints, or nil when none
// are served.
func (s *Server) MonitorAddr() net.Addr {
	if a := s.ns.MonitorAddr(); a != nil {
		return a
	}
	return nil
}

// StoreUsage is what the server's JetStream file store holds, in bytes, and
// its bound (JetStream's max_store: given, or worked out from the disk when
// JetStream started). At the bound every stream refuses new messages: no
// order is taken.
func (s *Server) StoreUsage() (used, limit uint64, err error) {
	info, err := s.ns.Jsz(&server.JSzOptions{})
	if err != nil {
		return 0, 0, err
	}
	if info.Disabled || info.Config.MaxStore <= 0 {
		return info.Store, 0, errors.New("jetstream has no file store bound")
	}
	return info.Store, uint64(info.Config.MaxStore), nil
}

// Shutdown stops the server and waits for it.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	s.unlock()
}

// Dial connects to a NATS URL and keeps reconnecting for ever: a role whose
// server restarts carries on. A server that stops answering without
// closing the connection (its process frozen, its host cut off) is taken
// for gone after PingInterval times MaxPingsOut unanswered pings, about
// 12 s rather than the client's default of minutes, so that the role shows
// not ready and reconnects. opts come after the defaults, typically
// ConnectOptions(role, credentials).
func Dial(url, name string, log *slog.Logger, opts ...nats.Option) (*nats.Conn, error) {
	all := []nats.Option{nats.Name(name), nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true),
		nats.PingInterval(PingInterval), nats.MaxPingsOutstanding(MaxPingsOut),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil && log != nil {
				log.Warn("nats disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) {
			if log != nil {
				log.Info("nats reconnected", "url", c.ConnectedUrlRedacted())
			}
		}),
		logErrors(log),
	}
	return nats.Connect(url, append(all, opts...)...)
}

// logErrors logs what the server reports to a connection on its own: a
// permissions or authorization violation reaches the client only there,
// and a denied request just times out. Without it nats.go prints the error
// to stderr, outside the service's log.
func logErrors(log *slog.Logger) nats.Option {
	if log == nil {
		return func(*nats.Options) error { return nil } // nats.go's own handler
	}
	return nats.ErrorHandler(func(nc *nats.Conn, _ *nats.Subscription, err error) {
		if err != nil {
			log.Error("nats error", "connection", nc.Opts.Name, "err", err)
		}
	})
}

// PingInterval and MaxPingsOut bound how long a connection of Dial takes a
// server that no longer answers for alive.
const (
	PingInterval = 4 * time.Second
	MaxPingsOut  = 2
)

// Options sizes the streams and buckets.
type Options struct {
	// Replicas of every stream and bucket (1, or 3 in a cluster).
	Replicas int
	// OrderTTL is how long order records are kept.
	OrderTTL time.Duration
	// MaxBytes bounds each of the streams ORDERS, TXS, EVENTS,
	// WEBHOOK_RETRIES and WEBHOOK_BACKLOG and the idempotency bucket
	// (DefaultMaxBytes when 0): what fills first at a high order rate.
	MaxBytes int64
}

// DefaultMaxBytes is Options.MaxBytes when none is given: 1 GiB.
const DefaultMaxBytes int64 = 1 << 30

func (o Options) maxBytes() int64 {
	if o.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

func (o Options) replicas() int {
	if o.Replicas < 1 {
		return 1
	}
	return o.Replicas
}

// streamConfigs are the streams every deployment has.
func streamConfigs(o Options) []jetstream.StreamConfig {
	r, maxBytes := o.replicas(), o.maxBytes()
	return []jetstream.StreamConfig{
		// Jobs and signed batches are kept by limits, not as a work queue:
		// each durable consumer's ack floor says what is done, and the
		// server no longer deletes a message (and, whenever the stream
		// empties, its block file) on every ack, which cost each order
		// about a fifth of its latency. Bounded in bytes too: an unacked
		// backlog is bounded far below that by ingress's backlog check,
		// so what ages out first is what was acked long ago.
		{Name: StreamOrders, Subjects: []string{"orders.>"}, Retention: jetstream.LimitsPolicy,
			Storage: jetstream.FileStorage, Replicas: r, Duplicates: 2 * time.Minute, MaxAge: 24 * time.Hour,
			MaxBytes: maxBytes, Discard: jetstream.DiscardOld},
		{Name: StreamTxs, Subjects: []string{"txs.>"}, Retention: jetstream.LimitsPolicy,
			Storage: jetstream.FileStorage, Replicas: r, Duplicates: 2 * time.Minute, MaxAge: 24 * time.Hour,
			MaxBytes: maxBytes, Discard: jetstream.DiscardOld},
		// Events are kept a day whoever has read them, bounded in bytes too;
		// the event id is the message id, so a re-emitted event is dropped.
		{Name: StreamEvents, Subjects: []string{AllEvents}, Retention: jetstream.LimitsPolicy,
			Storage: jetstream.FileStorage, Replicas: r, Duplicates: 2 * time.Minute, MaxAge: 24 * time.Hour,
			MaxBytes: maxBytes, Discard: jetstream.DiscardOld},
		// Webhook deliveries waiting for another attempt: one message per
		// event and subject (a wait put back replaces the one before, and
		// the server purges a wait once it has stored it as due). A work
		// queue, so that a due delivery is gone once ended and the stream's
		// message count is what waits (this stream is off the orders'
		// path). Waits last 15 minutes at most and events are given up
		// after 6 hours, so a day outlives every one.
		{Name: StreamWebhookRetries, Subjects: []string{WebhookWaitPrefix + ">", AllWebhookDue},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: r, MaxAge: 24 * time.Hour,
			MaxBytes: maxBytes, Discard: jetstream.DiscardOld, MaxMsgsPerSubject: 1,
			AllowMsgSchedules: true, AllowRollup: true},
		// Each account's webhook events beyond what a dispatcher holds of
		// one account, in order (one subject per account). Events are given
		// up after 6 hours, so a day outlives every one; a full backlog
		// refuses more, and the dispatcher then holds them as before.
		{Name: StreamWebhookBacklog, Subjects: []string{WebhookBacklogPrefix + "*"},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: r, MaxAge: 24 * time.Hour,
			MaxBytes: maxBytes, Discard: jetstream.DiscardNew, Duplicates: 2 * time.Minute},
		// The server's notices of the batches whose deliveries TXS spent,
		// each a few hundred bytes: a day, as TXS keeps the batches they
		// name, and a small bound of its own.
		{Name: StreamTxsGivenUp, Subjects: []string{GivenUpSubject}, Retention: jetstream.LimitsPolicy,
			Storage: jetstream.FileStorage, Replicas: r, MaxAge: 24 * time.Hour, MaxBytes: givenUpMaxBytes,
			Discard: jetstream.DiscardOld},
	}
}

// givenUpMaxBytes bounds StreamTxsGivenUp: some fifty thousand notices.
const givenUpMaxBytes = 16 << 20

// SignatureClaimTTL is how long a signature's claim is kept: longer than a
// Solana blockhash lives (about 150 slots, a minute), after which the
// transaction can no longer land, whoever signs it.
const SignatureClaimTTL = 2 * time.Minute

// bucketConfigs are the key-value buckets every deployment has.
func bucketConfigs(o Options) []jetstream.KeyValueConfig {
	r := o.replicas()
	orderTTL := o.OrderTTL
	if orderTTL == 0 {
		orderTTL = 7 * 24 * time.Hour
	}
	return []jetstream.KeyValueConfig{
		{Bucket: BucketRegistry, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		{Bucket: BucketWalletKeys, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		// Week windows are the longest: counters older than 8 days are dead.
		{Bucket: BucketBudget, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 8 * 24 * time.Hour},
		{Bucket: BucketOrders, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: orderTTL},
		{Bucket: BucketSigned, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 24 * time.Hour},
		{Bucket: BucketTrades, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		// A settled order's entry is purged with a marker that expires
		// (TrackingForget): deleted keys' markers would otherwise stay a
		// day, one per order, in the server's memory and in the listing a
		// restarted broadcaster reads.
		{Bucket: BucketTracking, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 24 * time.Hour,
			LimitMarkerTTL: TrackingForget},
		{Bucket: BucketNonces, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		{Bucket: BucketSignatures, History: 1, Storage: jetstream.MemoryStorage, Replicas: r, TTL: SignatureClaimTTL},
		{Bucket: BucketIdempotency, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 24 * time.Hour,
			// A full bucket refuses new keys (a free 503), never drops a kept
			// answer; only charged answers are kept, so this bounds the disk
			// one key-holder can fill to what its budget lets it charge.
			MaxBytes: o.maxBytes()},
		{Bucket: BucketWebhooks, History: 1, Storage: jetstream.FileStorage, Replicas: r},
		{Bucket: BucketWebhookDeliveries, History: 1, Storage: jetstream.FileStorage, Replicas: r, TTL: 7 * 24 * time.Hour},
		// Positions live until the exits engine sweeps them a week after
		// they closed: an open one may wait for its trigger for months. A
		// swept one's marker expires (PositionsForget) instead of staying
		// for ever, one per position, in what every engine reads at start.
		{Bucket: BucketPositions, History: 1, Storage: jetstream.FileStorage, Replicas: r,
			LimitMarkerTTL: PositionsForget},
		{Bucket: BucketVenues, History: 1, Storage: jetstream.FileStorage, Replicas: r},
	}
}

// TrackingForget is how long the marker of a purged tracking entry stays:
// no one watches the bucket, so it only has to outlive the purge itself.
const TrackingForget = time.Minute

// PositionsForget is how long the marker of a swept position stays. The
// engines' books drop the position when they see it; one that was away
// longer keeps a closed position in its book until it restarts, which
// fires nothing: a closed position has no armed exit, and firing claims
// the stored position first.
const PositionsForget = time.Hour

// kvStream is the name of the stream that holds a bucket.
func kvStream(bucket string) string { return "KV_" + bucket }

// KVStream is the name of the stream that holds bucket's keys.
func KVStream(bucket string) string { return kvStream(bucket) }

// declaredStreams names every stream Declare creates, the buckets' included.
func declaredStreams() []string {
	var names []string
	for _, sc := range streamConfigs(Options{}) {
		names = append(names, sc.Name)
	}
	for _, kc := range bucketConfigs(Options{}) {
		names = append(names, kvStream(kc.Bucket))
	}
	return names
}

// Declare creates or updates every stream and bucket. It is idempotent; the
// registry calls it at start (see DeclareAs for the other roles).
func Declare(ctx context.Context, js jetstream.JetStream, o Options) error {
	for _, sc := range streamConfigs(o) {
		sc = keepWorkQueue(ctx, js, sc)
		if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
			return fmt.Errorf("declare stream %s: %w", sc.Name, replicasSaid(err, o))
		}
	}
	for _, kc := range bucketConfigs(o) {
		if err := DeclareBucket(ctx, js, kc); err != nil {
			return fmt.Errorf("declare bucket %s: %w", kc.Bucket, replicasSaid(err, o))
		}
	}
	return nil
}

// purgedBuckets are the buckets whose keys the service purges (a purge is a
// rollup of the key's subject): the tracking, by the broadcaster, and the
// positions, by the exits engine, each the one role writing it.
var purgedBuckets = []string{BucketTracking, BucketPositions}

// DeclareBucket creates or updates a bucket, and takes rollups from the
// stream of one the service never purges (every bucket is declared so). A bucket's stream allows them,
// and NATS permissions cannot tell a rollup from a write (it is a header):
// any role that may write one key could otherwise empty the bucket, a
// worker its skip_if_bought claims' bucket with every kept answer, and
// ingress the orders or the rate budget.
func DeclareBucket(ctx context.Context, js jetstream.JetStream, kc jetstream.KeyValueConfig) error {
	if _, err := js.CreateOrUpdateKeyValue(ctx, kc); err != nil {
		return err
	}
	if slices.Contains(purgedBuckets, kc.Bucket) {
		return nil
	}
	st, err := js.Stream(ctx, kvStream(kc.Bucket))
	if err != nil {
		return err
	}
	sc := st.CachedInfo().Config
	if !sc.AllowRollup {
		return nil
	}
	sc.AllowRollup = false
	_, err = js.UpdateStream(ctx, sc)
	return err
}

// errReplicasNotSupported is the server's refusal of replicas over 1 when
// it is not clustered (JSStreamReplicasNotSupportedErr).
const errReplicasNotSupported = 10074

// replicasSaid names the key behind a refusal the configuration caused,
// the replica count or a bound the server's store cannot reserve: the
// server's words alone do not say where it came from.
func replicasSaid(err error, o Options) error {
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode == errReplicasNotSupported {
		return fmt.Errorf("nats.replicas is %d, but the NATS server is not a cluster (set it to 1, or run a cluster of 3): %w", o.replicas(), err)
	}
	if boundUnreservable(err) {
		// The server reserves each bounded stream's MaxBytes (times its
		// replicas) of its JetStream store when it is declared.
		return fmt.Errorf("nats.stream_max_gib is %d GiB, but the NATS server's JetStream store cannot reserve it for each bounded stream and bucket (six, times nats.replicas): give JetStream more disk (its max_file_store) or lower the bound (the streams declared before this one keep it until then): %w",
			o.maxBytes()>>30, err)
	}
	return err
}

// keepWorkQueue returns sc as a stream declared with work-queue retention
// by an earlier version must stay: the server cannot change a stream's
// retention to or from work-queue, and recreating it would drop the jobs
// it holds. Every role works the same on either (consumers are durable and
// deliver everything), so such a deployment keeps running; deleting the
// drained stream while the service is stopped moves it to limits.
func keepWorkQueue(ctx context.Context, js jetstream.JetStream, sc jetstream.StreamConfig) jetstream.StreamConfig {
	if sc.Retention == jetstream.WorkQueuePolicy {
		return sc
	}
	s, err := js.Stream(ctx, sc.Name)
	if err != nil || s.CachedInfo().Config.Retention != jetstream.WorkQueuePolicy {
		return sc
	}
	sc.Retention = jetstream.WorkQueuePolicy
	sc.MaxBytes, sc.Discard = s.CachedInfo().Config.MaxBytes, s.CachedInfo().Config.Discard
	return sc
}

// DeclareAs declares every stream and bucket when role may (the registry
// and the admin), and otherwise waits until they exist (AwaitDeclared): the
// other roles' users may not create or update streams.
func DeclareAs(ctx context.Context, js jetstream.JetStream, role string, o Options) error {
	if CanDeclare(role) {
		return Declare(ctx, js, o)
	}
	return AwaitDeclared(ctx, js, nil)
}

// declarePoll is how often AwaitDeclared looks again, and awaitTell how
// often it says what it waits for.
const (
	declarePoll = 250 * time.Millisecond
	awaitTell   = 5 * time.Second
)

// AwaitDeclared waits until every stream and bucket exists, reading only
// their information, until ctx ends. It is what a role that may not
// declare does at start, while the registry declares. Every few seconds
// of waiting it logs (when log is set) what it waits for: NATS itself
// while the connection is down, else the registry's declaration.
func AwaitDeclared(ctx context.Context, js jetstream.JetStream, log *slog.Logger) error {
	start, told := time.Now(), time.Now()
	for _, name := range declaredStreams() {
		for {
			ictx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, err := js.Stream(ictx, name)
			cancel()
			if err == nil {
				break
			}
			what := fmt.Errorf("wait for stream %s (declared by the registry): %w", name, err)
			if nc := js.Conn(); nc != nil && !nc.IsConnected() {
				servers := make([]string, 0, len(nc.Opts.Servers)+1)
				for _, u := range append([]string{nc.Opts.Url}, nc.Opts.Servers...) {
					if u != "" {
						servers = append(servers, redactURL(u))
					}
				}
				status := strings.ToLower(nc.Status().String())
				if last := nc.LastError(); last != nil {
					// The server's own word (an authorization violation, say).
					status += ": " + last.Error()
				}
				if nc.IsClosed() {
					// The client gave up (a server refusing the credentials
					// twice closes the connection): nothing will come.
					return fmt.Errorf("NATS at %s closed the connection for good (%s): check the NATS URL and credentials",
						strings.Join(servers, ","), status)
				}
				what = fmt.Errorf("wait for NATS at %s (not connected: %s), then for stream %s: %w",
					strings.Join(servers, ","), status, name, err)
			}
			if log != nil && time.Since(told) >= awaitTell {
				told = time.Now()
				log.Warn("not started yet: "+what.Error(), "waited", time.Since(start).Round(time.Second).String())
			}
			select {
			case <-ctx.Done():
				return what
			case <-time.After(declarePoll):
			}
		}
	}
	return nil
}

// keepPoll is how often KeepDeclared looks for streams gone.
var keepPoll = 5 * time.Second

// inMemory returns the configuration of the bucket whose stream is name
// when it is kept in memory (the signatures claims, which a NATS server
// restarted alone loses), and false for any other stream.
func inMemory(name string, o Options) (jetstream.KeyValueConfig, bool) {
	for _, kc := range bucketConfigs(o) {
		if kvStream(kc.Bucket) == name && kc.Storage == jetstream.MemoryStorage {
			return kc, true
		}
	}
	return jetstream.KeyValueConfig{}, false
}

// KeepDeclared looks every few seconds, until ctx ends, for a stream or
// bucket gone. A bucket kept in memory is declared again: a NATS server
// restarted alone loses the signatures claims, which only the registry may
// declare, and without which the other roles' claims fail and a role
// restarted afterwards waits for ever (AwaitDeclared). One kept on disk is
// not: declared again it would come back empty under the roles that use
// it (the EVM nonces, the trade history), so its loss is logged as an
// error for an operator, once, and a registry restarted declares it.
func KeepDeclared(ctx context.Context, js jetstream.JetStream, o Options, log *slog.Logger) {
	gone := map[string]bool{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(keepPoll):
		}
		for _, name := range declaredStreams() {
			ictx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, err := js.Stream(ictx, name)
			cancel()
			if !errors.Is(err, jetstream.ErrStreamNotFound) {
				if err == nil {
					delete(gone, name)
				}
				continue
			}
			kc, memory := inMemory(name, o)
			if !memory {
				if !gone[name] {
					gone[name] = true
					log.Error("a stream kept on disk is gone; not declared again, since it would come back empty: restore it, or restart the registry to declare it anew", "stream", name)
				}
				continue
			}
			dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err = DeclareBucket(dctx, js, kc)
			cancel()
			if err != nil {
				log.Error("a bucket kept in memory is gone; declaring it again failed, will retry", "stream", name, "err", err)
				continue
			}
			log.Warn("a bucket kept in memory was gone (a NATS server restarted alone loses them); declared it again", "stream", name)
		}
	}
}

// Buckets are the key-value buckets opened once per process.
type Buckets struct {
	Registry, WalletKeys, Budget, Orders, Signed, Trades, Tracking, Nonces, Idempotency jetstream.KeyValue
	// Signatures is BucketSignatures.
	Signatures                  jetstream.KeyValue
	Webhooks, WebhookDeliveries jetstream.KeyValue
	// Positions holds the exits engine's positions (BucketPositions).
	Positions jetstream.KeyValue
}

// OpenBuckets binds to every bucket.
func OpenBuckets(ctx context.Context, js jetstream.JetStream) (*Buckets, error) {
	var b Buckets
	for name, dst := range map[string]*jetstream.KeyValue{
		BucketRegistry: &b.Registry, BucketWalletKeys: &b.WalletKeys, BucketBudget: &b.Budget,
		BucketOrders: &b.Orders, BucketSigned: &b.Signed, BucketTrades: &b.Trades, BucketTracking: &b.Tracking, BucketNonces: &b.Nonces, BucketIdempotency: &b.Idempotency,
		BucketSignatures: &b.Signatures, BucketWebhooks: &b.Webhooks, BucketWebhookDeliveries: &b.WebhookDeliveries,
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

// boundUnreservable reports whether err is a stream's declaration refused
// for the store it would reserve: StoreFull on one server; on a cluster,
// no peer with the storage to place it (JSClusterNoPeersErr, 10005; a
// peer offline is another reason of the same code, which passes).
func boundUnreservable(err error) bool {
	if StoreFull(err) {
		return true
	}
	var ae *jetstream.APIError
	return errors.As(err, &ae) && ae.ErrorCode == 10005 && strings.Contains(ae.Description, "insufficient storage")
}

// BoundUnreservable is boundUnreservable for the roles that declare.
func BoundUnreservable(err error) bool { return boundUnreservable(err) }

// StoreFull reports whether err is a stream or bucket refusing a write
// because it holds all it may (its MaxBytes or MaxMsgs under DiscardNew,
// or the server's JetStream storage), not because it failed to answer.
func StoreFull(err error) bool {
	var ae *jetstream.APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.ErrorCode {
	case 10023, 10047: // insufficient (storage) resources
		return true
	case 10077: // storing failed: the store's own reason
		return strings.Contains(ae.Description, "maximum bytes") || strings.Contains(ae.Description, "maximum messages")
	}
	return false
}
