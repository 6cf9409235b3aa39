package bus

import (
	"slices"
	"sort"

	"github.com/nats-io/nats-server/v2/server"
	"golang.org/x/crypto/bcrypt"
)

// Roles that connect to NATS, each as its own user (ClientCredentials).
// They are the names of the tradeapi commands that run them.
const (
	RoleIngress     = "ingress"
	RoleWorker      = "worker"
	RoleBroadcaster = "broadcaster"
	RoleExits       = "exits"
	RoleRegistry    = "registry"
	RoleDevnet      = "devnet"
	// RoleAdmin may do everything: the in-process connections of `up`,
	// which share one set of buckets between all roles, the nats role
	// itself, and operators' tools.
	RoleAdmin = "admin"
)

// Roles lists the roles of the permission table.
func Roles() []string {
	out := make([]string, 0, len(roleGrants))
	for r := range roleGrants {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// bucketAccess is what a role may do with a KV bucket.
type bucketAccess int

const (
	// read: get a key, watch, list keys.
	read bucketAccess = iota + 1
	// write: read, and put, create, update (compare-and-set) and delete.
	write
)

// consumerGrant lets a role create a consumer on a stream, pull from it and
// acknowledge. consumer "*" is any name: the ephemeral consumers with
// generated names, or a family of durables (one per chain).
type consumerGrant struct{ stream, consumer string }

// roleGrant is what one role may do, in the terms of subjects.go.
type roleGrant struct {
	buckets map[string]bucketAccess
	// keys are buckets the role may read and write under one key prefix
	// only, by bucket: the prefix names the keys "<prefix>.>".
	keys      map[string]string
	consumers []consumerGrant
	// publish and subscribe are core subjects, a stream's subjects
	// included (a JetStream publish is a publish with a reply inbox).
	publish, subscribe []string
	// reads are streams whose messages the role may get by sequence or
	// subject.
	reads []string
	// purges are streams the role may purge: ingress the markers its
	// withdrawn idempotency claims leave (it writes every key there).
	purges []string
	// declare allows creating and updating the declared streams.
	declare bool
}

// replySubjects are where the workers and the broadcaster answer the
// waiting ingress: the inbox it put in HeaderReply, made with nats.NewInbox
// (the shared "_INBOX." prefix) or with its connection's own prefix.
var replySubjects = []string{"_INBOX.>", InboxPrefix(RoleIngress) + ".>"}

// roleGrants is the permission table. Every role besides devnet may also
// read the JetStream account, stream and consumer information (not their
// messages), and subscribe to its own inboxes (InboxPrefix); see
// RolePermissions.
var roleGrants = map[string]roleGrant{
	// The registry owns the read model: it alone writes the registry,
	// wallet-keys and webhooks buckets, and it alone declares the streams
	// and buckets. Its admin API reads the rate budgets and order records
	// and an account's recent events, through short-lived consumers on
	// EVENTS; after a change it publishes RegistryChanged.
	RoleRegistry: {
		buckets: map[string]bucketAccess{BucketRegistry: write, BucketWalletKeys: write, BucketWebhooks: write,
			BucketBudget: read, BucketOrders: read, BucketVenues: write},
		consumers: []consumerGrant{{StreamEvents, "*"}},
		publish:   []string{RegistryChanged},
		subscribe: []string{RegistryChanged},
		declare:   true,
	},
	// Ingress reads the registry's read model (never the wallet keys nor
	// the webhooks), charges the rate budgets, writes order records and
	// idempotent answers (and purges the markers of the claims it
	// withdraws), reads the trade history, publishes jobs to
	// ORDERS, reads the workers' backlog (consumer information), hears the
	// workers' presence and asks for it, and receives the replies on its
	// inboxes. An order whose job it could not tell queued it voids in TXS
	// (a create-only marker on the order's batch subject, read back when
	// taken), so that no batch of it can follow before it is failed, and
	// publishes the failed event of an order it fails itself (that event
	// alone: the exits engines open positions from confirmed ones).
	RoleIngress: {
		buckets: map[string]bucketAccess{BucketRegistry: read, BucketBudget: write, BucketOrders: write,
			BucketTrades: read, BucketIdempotency: write, BucketVenues: read},
		publish:   []string{OrdersSubject("*"), PresenceProbe, BatchSubject("*", "*"), EventsSubject("*", "failed")},
		subscribe: []string{PresenceSubject("*"), RegistryChanged, "_INBOX.>"},
		reads:     []string{StreamTxs},
		purges:    []string{kvStream(BucketIdempotency)},
	},
	// A worker consumes its chain's jobs from ORDERS (durable
	// WorkerConsumer(chain)), reads the encrypted wallet keys and the
	// registry (whose wallets the job's account owns), keeps the order
	// records and the EVM nonces, claims the mints of skip_if_bought buys
	// (the "skip." keys of the idempotency bucket, never the answers kept
	// there), publishes the signed batches to TXS and
	// reads them back there (a redelivered job looks for its batch; the
	// signed bucket for one an earlier version recorded), publishes failure
	// events, announces its presence, and replies to the waiting ingress.
	RoleWorker: {
		buckets: map[string]bucketAccess{BucketWalletKeys: read, BucketRegistry: read, BucketSigned: read, BucketTrades: read,
			BucketOrders: write, BucketNonces: write, BucketSignatures: write, BucketVenues: write},
		keys:      map[string]string{BucketIdempotency: SkipClaimPrefix},
		consumers: []consumerGrant{{StreamOrders, "*"}},
		publish:   append([]string{"txs.>", AllEvents, PresenceSubject("*")}, replySubjects...),
		subscribe: []string{PresenceProbe},
		reads:     []string{StreamTxs},
	},
	// The broadcaster consumes TXS (BroadcasterConsumer) and the server's
	// notices of the batches whose deliveries it spent (GivenUpConsumer),
	// each of which it reads back from TXS; it writes the order
	// records, the trade history and the tracking list, publishes the
	// order events and replies to the waiting ingress. The webhook
	// dispatcher runs in its process: it consumes EVENTS (WebhookConsumer)
	// and the deliveries whose retry has come (WebhookDueConsumer), puts
	// deliveries to wait for a retry and the events of a slow receiver in
	// its account's backlog, which it consumes (WebhookBacklogConsumer),
	// reads the webhooks bucket and records deliveries.
	RoleBroadcaster: {
		buckets: map[string]bucketAccess{BucketOrders: write, BucketTrades: write, BucketTracking: write,
			BucketWebhooks: read, BucketWebhookDeliveries: write},
		consumers: []consumerGrant{{StreamTxs, BroadcasterConsumer}, {StreamTxsGivenUp, GivenUpConsumer},
			{StreamEvents, WebhookConsumer}, {StreamWebhookRetries, WebhookDueConsumer}, {StreamWebhookBacklog, "*"}},
		publish: append([]string{AllEvents, WebhookWaitPrefix + ">", WebhookBacklogPrefix + "*"}, replySubjects...),
		reads:   []string{StreamTxs},
	},
	// The exits engines consume EVENTS (ExitsConsumer), keep the positions
	// and the order records of their sells, read the venues' states (an
	// exit waits while its venue is paused) and the registry (a buyer's
	// own wallets are never a token's creator), publish sell jobs to
	// ORDERS and exit events, and announce themselves to each other.
	RoleExits: {
		buckets:   map[string]bucketAccess{BucketPositions: write, BucketOrders: write, BucketVenues: read, BucketRegistry: read},
		consumers: []consumerGrant{{StreamEvents, ExitsConsumer}},
		publish:   []string{OrdersSubject("*"), AllEvents, ExitsPresence, ExitsProbe},
		subscribe: []string{ExitsPresence, ExitsProbe},
	},
	// The local chains do not use NATS: the devnet user may connect and
	// nothing else.
	RoleDevnet: {},
}

// DurableConsumers names the durable consumers the roles consume from, as
// the metrics label them: every one a role is granted by name, the
// workers' of each of chains (WorkerConsumer), and WebhookBacklogConsumers
// for the accounts' backlog consumers. Sorted.
func DurableConsumers(chains []string) []string {
	names := []string{WebhookBacklogConsumers}
	for _, chain := range chains {
		names = append(names, WorkerConsumer(chain))
	}
	for _, g := range roleGrants {
		for _, c := range g.consumers {
			if c.consumer != "*" {
				names = append(names, c.consumer)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// CanDeclare reports whether role may create and update the streams and
// buckets (Declare); the others wait for them (AwaitDeclared).
func CanDeclare(role string) bool { return role == RoleAdmin || roleGrants[role].declare }

// JetStream API subjects.
const (
	jsAPI = "$JS.API."
	jsAck = "$JS.ACK."
	jsFC  = "$JS.FC."
)

// RolePermissions returns the NATS permissions of role's user, or nil for
// the admin (every subject) and for an unknown role (ok false).
func RolePermissions(role string) (perms *server.Permissions, ok bool) {
	if role == RoleAdmin {
		return nil, true
	}
	g, ok := roleGrants[role]
	if !ok {
		return nil, false
	}
	var pub, sub []string
	if role != RoleDevnet {
		// Information only, never messages: OpenBuckets and the metrics
		// read every stream's, ingress the workers' consumers'.
		pub = append(pub, jsAPI+"INFO", jsAPI+"STREAM.INFO.*", jsAPI+"STREAM.NAMES",
			jsAPI+"CONSUMER.INFO.*.*", jsAPI+"CONSUMER.LIST.*", jsAPI+"CONSUMER.NAMES.*")
		sub = append(sub, InboxPrefix(role)+".>")
	}
	for _, b := range sortedBuckets(g.buckets) {
		s := kvStream(b)
		// A read is a direct get (with or without a key in the subject), a
		// message get where direct gets are off, or an ordered consumer
		// for a watch or a key listing, which the client deletes when done
		// and whose flow control it answers (both ack formats).
		pub = append(pub, jsAPI+"DIRECT.GET."+s, jsAPI+"DIRECT.GET."+s+".>", jsAPI+"STREAM.MSG.GET."+s,
			jsAPI+"CONSUMER.CREATE."+s, jsAPI+"CONSUMER.CREATE."+s+".>", jsAPI+"CONSUMER.DELETE."+s+".*",
			jsFC+s+".>", jsFC+"*.*."+s+".>")
		if g.buckets[b] == write {
			pub = append(pub, "$KV."+b+".>")
		}
	}
	for _, b := range sortedKeys(g.keys) {
		// Only a direct get names its key in its subject: a bucket whose
		// keys are granted by prefix is read that way, and written.
		keys := "$KV." + b + "." + g.keys[b] + ".>"
		pub = append(pub, jsAPI+"DIRECT.GET."+kvStream(b)+"."+keys, keys)
	}
	for _, c := range g.consumers {
		pub = append(pub, jsAPI+"CONSUMER.CREATE."+c.stream+"."+c.consumer,
			jsAPI+"CONSUMER.CREATE."+c.stream+"."+c.consumer+".>",
			jsAPI+"CONSUMER.DURABLE.CREATE."+c.stream+"."+c.consumer,
			jsAPI+"CONSUMER.MSG.NEXT."+c.stream+"."+c.consumer,
			jsAck+c.stream+"."+c.consumer+".>", jsAck+"*.*."+c.stream+"."+c.consumer+".>")
		if c.consumer == "*" {
			// Consumers with generated names are the reader's to remove.
			pub = append(pub, jsAPI+"CONSUMER.DELETE."+c.stream+".*")
		}
	}
	for _, s := range g.reads {
		pub = append(pub, jsAPI+"DIRECT.GET."+s, jsAPI+"DIRECT.GET."+s+".>", jsAPI+"STREAM.MSG.GET."+s)
	}
	for _, s := range g.purges {
		pub = append(pub, jsAPI+"STREAM.PURGE."+s)
	}
	if g.declare {
		for _, s := range declaredStreams() {
			pub = append(pub, jsAPI+"STREAM.CREATE."+s, jsAPI+"STREAM.UPDATE."+s)
		}
	}
	pub = append(pub, g.publish...)
	sub = append(sub, g.subscribe...)
	return &server.Permissions{Publish: only(pub), Subscribe: only(sub)}, true
}

// only allows subjects and nothing else. An empty allow list would allow
// everything, so none is a deny of every subject.
func only(subjects []string) *server.SubjectPermission {
	if len(subjects) == 0 {
		return &server.SubjectPermission{Deny: []string{">"}}
	}
	return &server.SubjectPermission{Allow: subjects}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for b := range m {
		out = append(out, b)
	}
	sort.Strings(out)
	return out
}

func sortedBuckets(m map[string]bucketAccess) []string {
	out := make([]string, 0, len(m))
	for b := range m {
		out = append(out, b)
	}
	sort.Strings(out)
	return out
}

// serverUsers are the users a server with credentials c accepts: the admin
// and one per role. The server holds their passwords as bcrypt hashes, so
// that neither its options nor a dump of its memory give them away.
func serverUsers(c Credentials) []*server.User {
	user, pass := ClientCredentials(RoleAdmin, c)
	users := []*server.User{{Username: user, Password: serverPassword(pass)}}
	for _, role := range Roles() {
		user, pass := ClientCredentials(role, c)
		perms, _ := RolePermissions(role)
		users = append(users, &server.User{Username: user, Password: serverPassword(pass), Permissions: perms})
	}
	return users
}

// serverPassword is the bcrypt hash a server compares a client's password
// with. Bcrypt's lowest cost keeps a connection's comparison under a
// millisecond: the roles' passwords are derived secrets of 256 bits, and
// the master password is one too unless the operator chose it, so the
// rounds are not what keeps them from being guessed. A
// configured password bcrypt cannot take (over 72 bytes) stays as it is,
// which the server accepts too (and warns about).
func serverPassword(pass string) string {
	h, err := bcrypt.GenerateFromPassword([]byte(pass), bcrypt.MinCost)
	if err != nil {
		return pass
	}
	return string(h)
}
