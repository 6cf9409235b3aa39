package bus

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// DefaultNATSUser is the user name of generated credentials, and of given
// ones that carry only a password.
const DefaultNATSUser = "tradeapi"

// Credentials are a deployment's NATS credentials: either the master user
// and password, from which every role's user is derived (see the package
// documentation), one role's derived password alone (a process of that
// role on a host that must not hold the master), or a creds file that
// authenticates a client on its own. They never print a password:
// String, GoString, LogValue and MarshalJSON redact it.
type Credentials struct {
	// User is the admin's user name and the prefix of the role users.
	User string
	// Password is the master password.
	Password string
	// RolePassword is one role's password as RoleCredentials derives it
	// from the master: it authenticates that role's user, <User>-<role>,
	// and nothing else. A server cannot require it, nor another role
	// connect with it.
	RolePassword string
	// CredsFile is the path of a NATS creds file (a user JWT and its
	// seed). It authenticates a client against an operator-managed NATS,
	// which decides the permissions; the servers of this package cannot
	// use it.
	CredsFile string
}

// IsZero reports whether no credentials are set.
func (c Credentials) IsZero() bool {
	return c.User == "" && c.Password == "" && c.RolePassword == "" && c.CredsFile == ""
}

// String describes the credentials without their password.
func (c Credentials) String() string {
	switch {
	case c.IsZero():
		return "none"
	case c.CredsFile != "":
		return "creds file " + c.CredsFile
	case c.RolePassword != "":
		return "user " + c.User + " role password [redacted]"
	default:
		return "user " + c.User + " password [redacted]"
	}
}

// GoString keeps %#v from printing the password.
func (c Credentials) GoString() string { return "bus.Credentials{" + c.String() + "}" }

// LogValue keeps slog from printing the password.
func (c Credentials) LogValue() slog.Value {
	switch {
	case c.IsZero():
		return slog.StringValue("none")
	case c.CredsFile != "":
		return slog.GroupValue(slog.String("creds_file", c.CredsFile))
	case c.RolePassword != "":
		return slog.GroupValue(slog.String("user", c.User), slog.String("role_password", "[redacted]"))
	default:
		return slog.GroupValue(slog.String("user", c.User), slog.String("password", "[redacted]"))
	}
}

// MarshalJSON keeps the password out of any JSON the credentials end up
// in; the credentials file is written by other means.
func (c Credentials) MarshalJSON() ([]byte, error) {
	v := map[string]string{}
	if c.User != "" {
		v["user"] = c.User
	}
	if c.Password != "" {
		v["password"] = "[redacted]"
	}
	if c.RolePassword != "" {
		v["role_password"] = "[redacted]"
	}
	if c.CredsFile != "" {
		v["creds_file"] = c.CredsFile
	}
	return json.Marshal(v)
}

// Where credentials can be given, for error messages.
const givenHint = "nats.user and nats.password (or a role process's nats.role_password), or nats.creds, in the config " +
	"(TRADEAPI_NATS_USER and TRADEAPI_NATS_PASSWORD or TRADEAPI_NATS_ROLE_PASSWORD, or TRADEAPI_NATS_CREDS)"

// ErrNoCredentials is returned by LoadCredentials when none are given and
// the credentials file does not exist (yet).
var ErrNoCredentials = errors.New("no nats credentials")

// normalize checks given credentials and fills the default user.
func (c Credentials) normalize() (Credentials, error) {
	if c.CredsFile != "" && (c.User != "" || c.Password != "" || c.RolePassword != "") {
		return Credentials{}, errors.New("nats credentials: set nats.creds or nats.user and nats.password, not both")
	}
	if c.Password != "" && c.RolePassword != "" {
		return Credentials{}, errors.New("nats credentials: set nats.password (the master) or nats.role_password (one role's), not both")
	}
	if c.User != "" && c.Password == "" && c.RolePassword == "" {
		return Credentials{}, errors.New("nats credentials: nats.user is set without nats.password (TRADEAPI_NATS_PASSWORD)")
	}
	if (c.Password != "" || c.RolePassword != "") && c.User == "" {
		c.User = DefaultNATSUser
	}
	if strings.ContainsAny(c.User, " \t\r\n") {
		return Credentials{}, errors.New("nats credentials: the user name must not contain spaces")
	}
	return c, nil
}

// validServer reports whether a server can require c.
func (c Credentials) validServer() error {
	if c.CredsFile != "" || c.User == "" || c.Password == "" {
		return errors.New("nats server: credentials need a user and a password; a creds file only authenticates a client")
	}
	return nil
}

// NATSDir is the nats role's folder under the data folder: the default
// JetStream store and the credentials file.
func NATSDir(dataDir string) string { return filepath.Join(dataDir, "nats") }

// CredentialsPath is where generated credentials are kept.
func CredentialsPath(dataDir string) string { return filepath.Join(NATSDir(dataDir), "credentials") }

// credentialsFile is the format of the credentials file: one JSON object.
type credentialsFile struct {
	User     string `json:"user"`
	Password string `json:"password"`
}

// LoadOrCreateCredentials returns the credentials the NATS server requires.
// Given ones (config or environment) win. Otherwise they are read from
// CredentialsPath, or generated there on first start: a random master
// password of 32 bytes, in a file of mode 0600 in a folder of mode 0700.
// Two processes starting together end up with the same credentials.
func LoadOrCreateCredentials(dataDir string, given Credentials) (Credentials, error) {
	if given.RolePassword != "" {
		return Credentials{}, errors.New("nats credentials: nats.role_password authenticates one role's process against a NATS server elsewhere; " +
			"a server, and a process running several roles (up), need the master nats.password")
	}
	if !given.IsZero() {
		return given.normalize()
	}
	if dataDir == "" {
		return Credentials{}, errors.New("nats credentials: no data folder to keep them in")
	}
	path := CredentialsPath(dataDir)
	if c, err := readCredentials(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return c, err
	}
	if err := os.MkdirAll(NATSDir(dataDir), 0o700); err != nil {
		return Credentials{}, fmt.Errorf("nats credentials: create folder: %w", err)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return Credentials{}, fmt.Errorf("nats credentials: random: %w", err)
	}
	data, err := json.Marshal(credentialsFile{User: DefaultNATSUser, Password: base64.RawURLEncoding.EncodeToString(secret)})
	if err != nil {
		return Credentials{}, err
	}
	if err := createOnce(path, append(data, '\n')); err != nil {
		return Credentials{}, fmt.Errorf("nats credentials: %w", err)
	}
	// Whoever won the race wrote the file; everyone uses what it holds.
	return readCredentials(path)
}

// createOnce writes data to path unless path exists, so that the file
// appears whole or not at all: it is written and synced under a temporary
// name, then linked to path, which fails if another process got there
// first. Where links are not supported it falls back to an exclusive
// create, whose half-written window readCredentials waits out.
func createOnce(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".credentials-*")
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("chmod temporary file: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write temporary file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("sync temporary file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close temporary file: %w", err)
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		syncDir(dir)
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return f.Close()
}

// syncDir makes a new directory entry durable where the platform allows.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// readCredentials reads the credentials file. A file that is empty or cut
// short is being written by a starting process (the exclusive-create
// fallback of createOnce), so it is read again for a moment before it is
// called broken. Errors name the file, never its content.
func readCredentials(path string) (Credentials, error) {
	deadline := time.Now().Add(time.Second)
	for {
		b, err := os.ReadFile(path)
		if err != nil {
			return Credentials{}, err
		}
		var f credentialsFile
		err = json.Unmarshal(b, &f)
		if err == nil && f.User != "" && f.Password != "" {
			return Credentials{User: f.User, Password: f.Password}, nil
		}
		if time.Now().After(deadline) {
			return Credentials{}, fmt.Errorf("nats credentials file %s is not a JSON object with a user and a password", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// LoadCredentials returns the credentials a client role connects with:
// given ones win; otherwise those in CredentialsPath, which the nats role
// writes. With neither, the error wraps ErrNoCredentials and names the file
// and where credentials can be given.
func LoadCredentials(dataDir string, given Credentials) (Credentials, error) {
	if !given.IsZero() {
		return given.normalize()
	}
	path := CredentialsPath(dataDir)
	c, err := readCredentials(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Credentials{}, fmt.Errorf("%w: set %s, or start the nats role with the same data folder so that it writes %s",
			ErrNoCredentials, givenHint, path)
	}
	if err != nil {
		return Credentials{}, fmt.Errorf("nats credentials: %w", err)
	}
	return c, nil
}

// AwaitCredentials is LoadCredentials that waits, until ctx ends, for the
// nats role to write the file: in a deployment whose processes start
// together, a role may start before the nats role has written it.
func AwaitCredentials(ctx context.Context, dataDir string, given Credentials) (Credentials, error) {
	for {
		c, err := LoadCredentials(dataDir, given)
		if !errors.Is(err, ErrNoCredentials) {
			return c, err
		}
		select {
		case <-ctx.Done():
			return Credentials{}, err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// derive returns the password of one derived user: HMAC-SHA256 of the
// purpose under the master password, so that knowing one derived password
// tells nothing of the master or of the others.
func derive(master, purpose string) string {
	m := hmac.New(sha256.New, []byte(master))
	m.Write([]byte("tradeapi nats " + purpose))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// ClientCredentials returns the user and password role connects with under
// the master credentials c: the admin uses c as they are and a role its
// derived user; under a role's password, that role's user. Both are empty
// for a creds file, no credentials, or the admin under a role's password.
func ClientCredentials(role string, c Credentials) (user, password string) {
	if c.CredsFile != "" || c.User == "" {
		return "", ""
	}
	if c.RolePassword != "" {
		if role == RoleAdmin {
			return "", ""
		}
		return c.User + "-" + role, c.RolePassword
	}
	if c.Password == "" {
		return "", ""
	}
	if role == RoleAdmin {
		return c.User, c.Password
	}
	return c.User + "-" + role, derive(c.Password, "role "+role)
}

// RoleCredentials returns the credentials a process of role alone may be
// given instead of the master ones: the role's derived password, which the
// server checks as its derivation from the master. A host that runs only
// that role then holds nothing that opens another role's permissions.
func RoleCredentials(role string, master Credentials) (Credentials, error) {
	if _, ok := roleGrants[role]; !ok {
		return Credentials{}, fmt.Errorf("nats credentials: unknown role %q (one of %s)", role, strings.Join(Roles(), ", "))
	}
	if master.CredsFile != "" || master.RolePassword != "" || master.User == "" || master.Password == "" {
		return Credentials{}, errors.New("nats credentials: a role's password is derived from the master nats.user and nats.password")
	}
	_, pass := ClientCredentials(role, master)
	return Credentials{User: master.User, RolePassword: pass}, nil
}

// routeCredentials are the user and password of the cluster routes.
func routeCredentials(c Credentials) (user, password string) {
	return c.User + "-route", derive(c.Password, "route")
}

// InboxPrefix is the prefix of role's inboxes: each role reads replies
// only under its own, so no role can listen to what another fetched.
func InboxPrefix(role string) string { return "_INBOX_" + role }

// ConnectOptions are the options that authenticate a connection as role
// under c: the role's derived user and its inbox prefix, or the creds
// file (whose permissions the issuing operator decides, so the prefix is
// left to it). With zero credentials only the inbox prefix is set, which
// any server accepts. An unknown role makes the connection fail.
func ConnectOptions(role string, c Credentials) []nats.Option {
	if _, ok := roleGrants[role]; !ok && role != RoleAdmin {
		return []nats.Option{func(*nats.Options) error { return fmt.Errorf("nats connect: unknown role %q", role) }}
	}
	if c.RolePassword != "" && role == RoleAdmin {
		return []nats.Option{func(*nats.Options) error {
			return errors.New("nats connect: nats.role_password is one role's; a connection of every role (up, several roles in one process) needs the master nats.password")
		}}
	}
	var opts []nats.Option
	if role == RoleWorker {
		// A worker's publish that gave up must never land later: a signed
		// batch the client held while reconnecting would reach TXS after
		// its job went back and its EVM nonces may have been filled as
		// lost. Publishes fail at once while the connection is down
		// instead of being held, in process as over the network.
		opts = append(opts, nats.ReconnectBufSize(-1))
	}
	if c.CredsFile != "" {
		return append(opts, nats.UserCredentials(c.CredsFile))
	}
	opts = append(opts, nats.CustomInboxPrefix(InboxPrefix(role)))
	if user, pass := ClientCredentials(role, c); user != "" {
		opts = append(opts, nats.UserInfo(user, pass))
	}
	return opts
}
