// Package bus is the NATS side of the pipeline: the server (embedded in
// `tradeapi up`, or run on its own by the nats role), the connections, and
// the streams and buckets that are declared idempotently at start.
//
// # Authentication
//
// NATS is a trust boundary: every connection authenticates, and each role
// gets only the subjects it uses. A deployment has one secret, the master
// Credentials (a user name, "tradeapi" unless given, and a password). From
// it every party derives its own NATS user:
//
//	<user>            the admin: every subject. Used by the embedded server's
//	                  in-process connections of `up` and by operators' tools.
//	<user>-<role>     one user per role (ingress, worker, broadcaster, exits,
//	                  registry, devnet) with the password
//	                  base64url(HMAC-SHA256(master password, "tradeapi nats role <role>")).
//	<user>-route      the cluster routes between NATS nodes, derived the same way.
//
// One credentials file therefore serves every process, the server computes
// the same table from the same secret, and the master password itself never
// crosses the wire from a role process. A role process still reads the
// master, so the per-role permissions stop a role's bug or a misrouted
// message, not an attacker who owns the host's data folder; a creds file
// (nats.creds) issued per role by an operator-managed NATS is the way to
// separate hosts.
//
// Given credentials (configuration or TRADEAPI_NATS_USER,
// TRADEAPI_NATS_PASSWORD, TRADEAPI_NATS_CREDS) always win. Without them the
// nats role generates a master on its first start in
// <data folder>/nats/credentials (mode 0600), and every role started with
// the same data folder reads it there (LoadOrCreateCredentials,
// LoadCredentials). No password is ever printed or logged: Credentials
// redact themselves in fmt, slog and JSON.
//
// # Permissions
//
// RolePermissions holds the table, derived from the subjects, streams and
// buckets of subjects.go. Each role also gets its own inbox prefix
// (InboxPrefix, set by ConnectOptions): JetStream answers, KV reads and
// consumer deliveries arrive on the reader's inbox, so a role that could
// subscribe to every inbox could read what another role fetched.
//
// Only the registry (and the admin) may create or update streams: a stream
// update can add a source, which would copy a bucket a role may not read
// into one it may. The other roles wait for the streams to exist instead of
// declaring them (DeclareAs).
package bus
