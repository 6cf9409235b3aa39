package bus

import (
	"crypto/sha256"
	"encoding/hex"
)

// Streams, consumers, buckets and subjects. Every name the pipeline uses is
// built here, so that publishers and consumers cannot drift apart.

// Stream names.
const (
	// StreamOrders carries validated jobs from ingress to the chain workers.
	StreamOrders = "ORDERS"
	// StreamTxs carries signed batches from the workers to the broadcaster,
	// each on its order's own subject (BatchSubject), published at most
	// once: the stream is also the record of what was signed for an order,
	// so that a redelivered job finds its batch instead of signing again.
	StreamTxs = "TXS"
	// StreamEvents keeps the order events (EventsSubject) for a day, for the
	// webhook dispatcher and any in-house consumer; limits retention, so
	// every consumer sees every event.
	StreamEvents = "EVENTS"
	// StreamWebhookRetries holds the webhook deliveries that wait for a
	// later attempt, outside the dispatcher's consumers: each as a message
	// the server schedules (WebhookWaitSubject), which it moves to
	// WebhookDueSubject when its time comes. A receiver that stays down
	// thus holds no place among the events every account's deliveries
	// share.
	StreamWebhookRetries = "WEBHOOK_RETRIES"
	// StreamWebhookBacklog holds, per account (WebhookBacklogSubject), the
	// events of a receiver that answers slower than its account's events
	// come, beyond what the webhook dispatcher holds of one account: they
	// wait here, each account's in order, for its own consumer
	// (WebhookBacklogConsumer), instead of among the events every account
	// shares. A work queue: what is delivered is gone.
	StreamWebhookBacklog = "WEBHOOK_BACKLOG"
	// StreamTxsGivenUp keeps the server's notice of each signed batch
	// whose deliveries TXS spent with none acknowledged (GivenUpSubject):
	// every delivery died with its process, the last one too. The
	// broadcaster takes each such batch once more from here
	// (GivenUpConsumer), so that its order is settled all the same.
	StreamTxsGivenUp = "TXS_GIVEN_UP"
)

// KV bucket names.
const (
	// BucketRegistry is the registry's read model: accounts, wallets and
	// API-key hashes. Written only by the registry.
	BucketRegistry = "registry"
	// BucketWalletKeys holds wallet private keys encrypted under the master
	// key, keyed by address. Read by the workers only.
	BucketWalletKeys = "wallet_keys"
	// BucketBudget holds the rate-budget counters.
	BucketBudget = "budget"
	// BucketOrders holds order records by order id.
	BucketOrders = "orders"
	// BucketSigned is where earlier versions recorded each order's signed
	// batch before publishing it. Nothing writes it any more (TXS is the
	// record now); a worker still reads it for a job redelivered across an
	// upgrade, so that such a job republishes its recorded bytes rather than
	// signing again. Its records expire within a day.
	BucketSigned = "signed"
	// BucketTrades records which tokens each account has bought.
	BucketTrades = "trades"
	// BucketTracking lists the orders whose signatures await a final state,
	// so that a restarted broadcaster picks their tracking up again.
	BucketTracking = "tracking"
	// BucketNonces holds each EVM wallet's nonce record, so that exactly
	// one worker assigns a wallet's nonces at a time.
	BucketNonces = "nonces"
	// BucketSignatures holds, for as long as a Solana blockhash lives, the
	// order that signed each transaction, so that two worker processes
	// never hand two orders one transaction. Kept in memory: a claim lost
	// with the server only mattered within those two minutes.
	BucketSignatures = "signatures"
	// BucketIdempotency keeps the answers of requests sent with an
	// Idempotency-Key, for 24 hours.
	BucketIdempotency = "idempotency"
	// SkipClaimPrefix begins the keys of the idempotency bucket that hold
	// skip_if_bought's claims (shared/skipclaim), the only ones a worker
	// may touch.
	SkipClaimPrefix = "skip"
	// BucketWebhooks holds each account's webhook URL and signing secret,
	// keyed by account id. Written only by the registry, read only by the
	// webhook dispatcher.
	BucketWebhooks = "webhooks"
	// BucketWebhookDeliveries records the last delivery attempt of every
	// event sent to a webhook, keyed <account id>.<event id>.
	BucketWebhookDeliveries = "webhook_deliveries"
	// BucketPositions holds the positions opened by buys with auto-orders
	// and the state of their exits, keyed by position id. Written by the
	// exits engines with compare-and-set, so two never fire one exit.
	BucketPositions = "positions"
	// BucketVenues holds each venue's state per chain (shared/venues),
	// keyed <chain>.<venue>: written by the Solana workers' watchers and
	// the registry's resume, read by ingress and the workers, which refuse
	// a paused venue's orders.
	BucketVenues = "venues"
)

// Header names of our own. They never start with Nats-.
const (
	// HeaderReply names the inbox where the waiting ingress expects the reply.
	HeaderReply = "Tapi-Reply"
	// HeaderOrder carries the order id on every message.
	HeaderOrder = "Tapi-Order"
	// HeaderKind names a job that is not a swap (wire.KindDeploy); a job
	// without it is a swap.
	HeaderKind = "Tapi-Kind"
	// HeaderPositions is PositionsNone on an order event that no exits
	// engine acts on: about a buy without auto-orders, or a launch. An
	// engine acks it unread. An event without it is read.
	HeaderPositions = "Tapi-Positions"
	// HeaderVoid marks a message on an order's batch subject that is no
	// batch: the ingress that could not tell whether the order's job was
	// queued put it there first, so that no batch of the order can ever be
	// (batches are published create-only), and failed the order.
	HeaderVoid = "Tapi-Void"
	// HeaderRepeat marks an order event emitted again for an order that
	// was final before: its first emission may or may not have gone out
	// (a tracker settling again after a restart, or an entry a NATS server
	// brought back), and a consumer that had the event drops the repeat.
	HeaderRepeat = "Tapi-Repeat"
	// HeaderNetwork says on a job which network its publisher serves the
	// job's chain on (config.Config.Network: wire.NetworkLocal,
	// wire.NetworkPublic, or the mix of an evm job's): a worker on another
	// one (left on the local chains beside production roles, or the
	// reverse) does not sign it. A job without it (from an earlier
	// version) is taken by any worker.
	HeaderNetwork = "Tapi-Network"
)

// PositionsNone is the HeaderPositions value of an event no exits engine
// acts on.
const PositionsNone = "none"

// OrdersSubject is the subject of jobs for one chain.
func OrdersSubject(chain string) string { return "orders." + chain }

// BatchSubject is the subject of one order's signed batch for chain:
// txs.<chain>.<order id>.
func BatchSubject(chain, orderID string) string { return "txs." + chain + "." + orderID }

// ChainBatches matches every order's signed batch for chain.
func ChainBatches(chain string) string { return "txs." + chain + ".>" }

// TxsSubject is where earlier versions published a chain's signed batches,
// all on one subject; the broadcaster still takes what is left there.
func TxsSubject(chain string) string { return "txs." + chain }

// WorkerConsumer is the durable consumer name of a chain's workers; every
// worker process of that chain binds to it and shares its messages.
func WorkerConsumer(chain string) string { return "worker-" + chain }

// BroadcasterConsumer is the durable consumer of the broadcaster.
const BroadcasterConsumer = "broadcaster"

// GivenUpSubject is where the server notes each batch BroadcasterConsumer
// handed out as many times as it may with none acknowledged: its
// MAX_DELIVERIES advisory, which names the batch's sequence in TXS.
const GivenUpSubject = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + StreamTxs + "." + BroadcasterConsumer

// GivenUpConsumer is the broadcaster's durable consumer of those notices
// (StreamTxsGivenUp).
const GivenUpConsumer = "broadcaster-given-up"

// EventsPrefix starts every order event subject.
const EventsPrefix = "tapi.events."

// EventsSubject is the subject of an account's order events of one type
// (broadcast, confirmed, failed, expired, exit_fired):
// tapi.events.<account id>.<type>.
func EventsSubject(account, typ string) string { return EventsPrefix + account + "." + typ }

// AccountEvents matches every event of one account.
func AccountEvents(account string) string { return EventsPrefix + account + ".>" }

// AllEvents matches every order event of every account.
const AllEvents = EventsPrefix + ">"

// ExitsConsumer is the durable consumer of the exits engines on the EVENTS
// stream (confirmed buys open positions; final sells reduce them); every
// engine process binds to it and shares the events.
const ExitsConsumer = "exits"

// EventsOfType matches the events of one type of every account.
func EventsOfType(typ string) string { return EventsPrefix + "*." + typ }

// WebhookConsumer is the durable consumer of the webhook dispatchers; every
// dispatcher process binds to it and shares the events.
const WebhookConsumer = "webhooks"

// WebhookDueConsumer is the durable consumer of the webhook dispatchers on
// StreamWebhookRetries: the deliveries whose next attempt has come.
const WebhookDueConsumer = "webhooks-due"

// Webhook retry subjects. A delivery waiting for its next attempt is the
// message tapi.webhooks.wait.<account id>.<key> (key: one per event, so a
// delivery waits once however often it is put back), scheduled for the
// attempt's time; the server then stores it on
// tapi.webhooks.due.<account id>.<key>.
const (
	WebhookWaitPrefix = "tapi.webhooks.wait."
	WebhookDuePrefix  = "tapi.webhooks.due."
	// AllWebhookDue matches every delivery whose attempt has come.
	AllWebhookDue = WebhookDuePrefix + ">"
)

// WebhookWaitSubject is the subject of a delivery's scheduled wait.
func WebhookWaitSubject(account, key string) string { return WebhookWaitPrefix + account + "." + key }

// WebhookDueSubject is where a delivery's wait puts it when it ends.
func WebhookDueSubject(account, key string) string { return WebhookDuePrefix + account + "." + key }

// WebhookBacklogPrefix begins the subjects of StreamWebhookBacklog, one per
// account: tapi.webhooks.backlog.<account id>.
const WebhookBacklogPrefix = "tapi.webhooks.backlog."

// WebhookBacklogSubject is an account's backlog of webhook events.
func WebhookBacklogSubject(account string) string { return WebhookBacklogPrefix + account }

// WebhookBacklogConsumers names the family of durable consumers of
// StreamWebhookBacklog, one per account (WebhookBacklogConsumer); it is
// also the consumer label of their redeliveries.
const WebhookBacklogConsumers = "webhooks-backlog"

// WebhookBacklogConsumer is the durable consumer of an account's backlog,
// shared by every dispatcher process. Account ids are subject tokens, which
// may hold characters a consumer name may not: such an id is named by its
// digest.
func WebhookBacklogConsumer(account string) string {
	for _, r := range account {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			sum := sha256.Sum256([]byte(account))
			return WebhookBacklogConsumers + "-" + hex.EncodeToString(sum[:12])
		}
	}
	return WebhookBacklogConsumers + "-" + account
}

// HeaderAttempts carries, on a waiting webhook delivery, the attempts
// made before it.
const HeaderAttempts = "Tapi-Attempts"

// PresenceSubject is where the workers of a chain announce themselves.
func PresenceSubject(chain string) string { return "tapi.presence." + chain }

// PresenceProbe is where ingress asks every worker to announce itself now.
const PresenceProbe = "tapi.presence.probe"

// RegistryChanged is published by the registry after a change is written to
// the read model, so that views can wait for it.
const RegistryChanged = "tapi.registry.changed"

// ExitsPresence is where the exits engines announce themselves to each
// other, so that they split the price reads of the watched tokens.
const ExitsPresence = "tapi.exits.presence"

// ExitsProbe is where a starting exits engine asks the others to announce
// themselves now.
const ExitsProbe = "tapi.exits.probe"
