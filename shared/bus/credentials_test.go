package bus_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/bus/bustest"
)

func TestLoadOrCreateCredentialsGenerates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, err := bus.LoadOrCreateCredentials(dir, bus.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	if c.User != bus.DefaultNATSUser || len(c.Password) < 43 || c.CredsFile != "" {
		t.Fatalf("generated user %q, password of %d characters, creds file %q; want %q, at least 43, none",
			c.User, len(c.Password), c.CredsFile, bus.DefaultNATSUser)
	}
	path := bus.CredentialsPath(dir)
	if path != filepath.Join(dir, "nats", "credentials") {
		t.Errorf("CredentialsPath = %s", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", path, fi.Mode().Perm())
	}
	di, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("%s has mode %v, want 0700", filepath.Dir(path), di.Mode().Perm())
	}
	again, err := bus.LoadOrCreateCredentials(dir, bus.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	if again.User != c.User || again.Password != c.Password {
		t.Error("a second start generated other credentials instead of reading the file")
	}
	other, err := bus.LoadOrCreateCredentials(t.TempDir(), bus.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	if other.Password == c.Password {
		t.Error("two data folders got the same password")
	}
	client, err := bus.LoadCredentials(dir, bus.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	if client.User != c.User || client.Password != c.Password {
		t.Error("LoadCredentials read other credentials than the nats role made")
	}
}

func TestGivenCredentialsWin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := bus.LoadOrCreateCredentials(dir, bus.Credentials{}); err != nil {
		t.Fatal(err)
	}
	given := bus.Credentials{User: "ops", Password: "given-password"}
	for name, load := range map[string]func(string, bus.Credentials) (bus.Credentials, error){
		"server": bus.LoadOrCreateCredentials, "client": bus.LoadCredentials,
	} {
		c, err := load(dir, given)
		if err != nil {
			t.Fatal(err)
		}
		if c != given {
			t.Errorf("%s: got %v, want the given %v", name, c, given)
		}
		c, err = load(dir, bus.Credentials{CredsFile: "ingress.creds"})
		if err != nil {
			t.Fatal(err)
		}
		if c.CredsFile != "ingress.creds" || c.User != "" || c.Password != "" {
			t.Errorf("%s: a given creds file gave %v", name, c)
		}
		c, err = load(dir, bus.Credentials{Password: "only-a-password"})
		if err != nil {
			t.Fatal(err)
		}
		if c.User != bus.DefaultNATSUser || c.Password != "only-a-password" {
			t.Errorf("%s: a given password alone gave user %q", name, c.User)
		}
	}

	fresh := t.TempDir()
	if _, err := bus.LoadOrCreateCredentials(fresh, given); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bus.CredentialsPath(fresh)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("given credentials still wrote a file: %v", err)
	}
}

func TestGivenCredentialsRefused(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		given bus.Credentials
		want  string
	}{
		"user without password": {bus.Credentials{User: "ops"}, "nats.user is set without nats.password"},
		"creds and password":    {bus.Credentials{CredsFile: "x.creds", User: "ops", Password: "pw-secret-1"}, "not both"},
		// A server, and up's in-process connections, need the master.
		"a role's password": {bus.Credentials{User: "ops", RolePassword: "pw-secret-2"}, "need the master nats.password"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := bus.LoadOrCreateCredentials(t.TempDir(), tc.given)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			for _, pw := range []string{tc.given.Password, tc.given.RolePassword} {
				if pw != "" && strings.Contains(err.Error(), pw) {
					t.Errorf("the error shows the password: %v", err)
				}
			}
		})
	}
}

func TestConcurrentCreatorsAgree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const n = 16
	got := make([]bus.Credentials, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			got[i], errs[i] = bus.LoadOrCreateCredentials(dir, bus.Credentials{})
		}()
	}
	close(start)
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("creator %d: %v", i, errs[i])
		}
		if got[i].User != got[0].User || got[i].Password != got[0].Password {
			t.Fatalf("creator %d got other credentials than creator 0", i)
		}
	}
	entries, err := os.ReadDir(bus.NATSDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "credentials" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the nats folder holds %v, want only the credentials file", names)
	}
}

func TestLoadCredentialsMissing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := bus.LoadCredentials(dir, bus.Credentials{})
	if !errors.Is(err, bus.ErrNoCredentials) {
		t.Fatalf("err = %v, want ErrNoCredentials", err)
	}
	for _, want := range []string{bus.CredentialsPath(dir), "TRADEAPI_NATS_USER", "TRADEAPI_NATS_PASSWORD", "TRADEAPI_NATS_CREDS"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %s: %v", want, err)
		}
	}
}

func TestLoadCredentialsBrokenFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(bus.NATSDir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	const content = "not-json-but-a-secret"
	if err := os.WriteFile(bus.CredentialsPath(dir), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := bus.LoadCredentials(dir, bus.Credentials{})
	if err == nil || errors.Is(err, bus.ErrNoCredentials) {
		t.Fatalf("err = %v, want a broken-file error", err)
	}
	if !strings.Contains(err.Error(), bus.CredentialsPath(dir)) || strings.Contains(err.Error(), content) {
		t.Errorf("the error should name the file and not show its content: %v", err)
	}
}

func TestAwaitCredentials(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	_, err := bus.AwaitCredentials(ctx, dir, bus.Credentials{})
	cancel()
	if !errors.Is(err, bus.ErrNoCredentials) {
		t.Fatalf("with no file and ctx ended: err = %v, want ErrNoCredentials", err)
	}

	type result struct {
		c   bus.Credentials
		err error
	}
	done := make(chan result, 1)
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() {
		c, err := bus.AwaitCredentials(ctx, dir, bus.Credentials{})
		done <- result{c, err}
	}()
	made, err := bus.LoadOrCreateCredentials(dir, bus.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.c.User != made.User || r.c.Password != made.Password {
		t.Error("the waiting role read other credentials than the nats role made")
	}
}

func TestCredentialsNeverShowThePassword(t *testing.T) {
	t.Parallel()
	c := bus.Credentials{User: "tradeapi", Password: "s3cr3t-master-password"}
	var logged bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logged, nil))
	log.Info("starting", "creds", c)
	slog.New(slog.NewTextHandler(&logged, nil)).Info("starting", "creds", c)
	js, err := json.Marshal(struct{ C bus.Credentials }{c})
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join([]string{
		fmt.Sprint(c), fmt.Sprintf("%v %+v %#v %s %q", c, c, c, c, c), fmt.Sprintf("%v", &c),
		fmt.Sprintf("%v", []bus.Credentials{c}), logged.String(), string(js),
	}, "\n")
	if strings.Contains(out, c.Password) {
		t.Fatalf("the password shows in:\n%s", out)
	}
	if !strings.Contains(out, "tradeapi") || !strings.Contains(out, "redacted") {
		t.Errorf("want the user and a redaction mark in:\n%s", out)
	}
	for role := range strings.SplitSeq("ingress worker admin", " ") {
		_, pass := bus.ClientCredentials(role, c)
		if strings.Contains(out, pass) {
			t.Errorf("the %s password shows", role)
		}
	}

	own, err := bus.RoleCredentials(bus.RoleWorker, c)
	if err != nil {
		t.Fatal(err)
	}
	logged.Reset()
	log.Info("starting", "creds", own)
	js, _ = json.Marshal(own)
	out = strings.Join([]string{fmt.Sprintf("%v %+v %#v", own, own, own), logged.String(), string(js)}, "\n")
	if strings.Contains(out, own.RolePassword) || !strings.Contains(out, "redacted") {
		t.Fatalf("a role's password shows, or no redaction mark, in:\n%s", out)
	}
}

// TestRoleCredentials: a role's own credentials are its derived user and
// password and nothing more: they authenticate that role, never the admin
// (the connection refuses to be made) nor another role.
func TestRoleCredentials(t *testing.T) {
	t.Parallel()
	c := bus.Credentials{User: "tradeapi", Password: "master"}
	for _, role := range bus.Roles() {
		own, err := bus.RoleCredentials(role, c)
		if err != nil {
			t.Fatal(err)
		}
		if own.Password != "" {
			t.Fatalf("%s: the master is in a role's credentials", role)
		}
		wantUser, wantPass := bus.ClientCredentials(role, c)
		if user, pass := bus.ClientCredentials(role, own); user != wantUser || pass != wantPass {
			t.Errorf("%s: connects as %q, want %q with the derived password", role, user, wantUser)
		}
		if user, pass := bus.ClientCredentials(bus.RoleAdmin, own); user != "" || pass != "" {
			t.Errorf("%s: its credentials give the admin %q", role, user)
		}
	}
	if _, err := bus.RoleCredentials("root", c); err == nil || !strings.Contains(err.Error(), "unknown role") {
		t.Errorf("an unknown role: %v", err)
	}
	own, _ := bus.RoleCredentials(bus.RoleIngress, c)
	if _, err := bus.RoleCredentials(bus.RoleWorker, own); err == nil {
		t.Error("a role's password derived another's")
	}

	b, master := bustest.StartAuth(t, "admin")
	ingress, err := bus.RoleCredentials(bus.RoleIngress, master)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(b.Server.ClientURL(), bus.ConnectOptions(bus.RoleIngress, ingress)...)
	if err != nil {
		t.Fatalf("the ingress with its own password: %v", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := b.Buckets.Webhooks.Put(ctx, "acct1", []byte(`{"secret":"whsec_1"}`)); err != nil {
		t.Fatal(err)
	}
	if kv, err := js.KeyValue(ctx, bus.BucketIdempotency); err != nil {
		t.Errorf("the ingress's own bucket: %v", err)
	} else if _, err := kv.Put(ctx, "k", []byte("v")); err != nil {
		t.Errorf("the ingress's own bucket: %v", err)
	}
	// A denied read is not answered: it waits out its context.
	denied, stop := context.WithTimeout(ctx, 2*time.Second)
	defer stop()
	if kv, err := js.KeyValue(denied, bus.BucketWebhooks); err == nil {
		if _, err := kv.Get(denied, "acct1"); err == nil {
			t.Error("the ingress's own password read a webhook secret")
		}
	}
	for _, role := range []string{bus.RoleAdmin, bus.RoleWorker, bus.RoleRegistry} {
		if nc, err := nats.Connect(b.Server.ClientURL(), append(bus.ConnectOptions(role, ingress), nats.MaxReconnects(0))...); err == nil {
			nc.Close()
			t.Errorf("the ingress's password connected as %s", role)
		}
	}
}

func TestClientCredentials(t *testing.T) {
	t.Parallel()
	c := bus.Credentials{User: "tradeapi", Password: "master"}
	user, pass := bus.ClientCredentials(bus.RoleAdmin, c)
	if user != "tradeapi" || pass != "master" {
		t.Errorf("admin = %q, want the master credentials", user)
	}
	seen := map[string]string{}
	for _, role := range bus.Roles() {
		user, pass := bus.ClientCredentials(role, c)
		if user != "tradeapi-"+role {
			t.Errorf("%s: user %q, want tradeapi-%s", role, user, role)
		}
		if len(pass) < 43 || pass == c.Password || strings.Contains(pass, c.Password) {
			t.Errorf("%s: the derived password must be long and not the master", role)
		}
		if other, dup := seen[pass]; dup {
			t.Errorf("%s and %s share a password", role, other)
		}
		seen[pass] = role
		if _, again := bus.ClientCredentials(role, c); again != pass {
			t.Errorf("%s: the derivation is not deterministic", role)
		}
		if _, otherMaster := bus.ClientCredentials(role, bus.Credentials{User: "tradeapi", Password: "other"}); otherMaster == pass {
			t.Errorf("%s: the password does not depend on the master", role)
		}
	}
	if u, p := bus.ClientCredentials(bus.RoleIngress, bus.Credentials{CredsFile: "x.creds"}); u != "" || p != "" {
		t.Error("a creds file should give no user and password")
	}
}

// TestWrongCredentialsSaySo: a role whose NATS credentials the server
// refuses stops waiting once the client gives the connection up, with the
// server's own word (an authorization violation) and never the password,
// instead of waiting for good as for a server that is down.
func TestWrongCredentialsSaySo(t *testing.T) {
	t.Parallel()
	b, creds := bustest.StartAuth(t, "admin")
	creds.Password = "wrong-" + creds.Password
	nc, err := bus.Dial(b.Server.ClientURL(), "test-wrong", slog.New(slog.DiscardHandler), bus.ConnectOptions(bus.RoleWorker, creds)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err = bus.AwaitDeclared(ctx, js, nil)
	if ctx.Err() != nil {
		t.Fatalf("still waiting after 20 s: %v", err)
	}
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "authorization violation") {
		t.Fatalf("err = %v, want one naming the authorization violation", err)
	}
	if strings.Contains(err.Error(), creds.Password) {
		t.Fatalf("the error shows the password: %v", err)
	}
}
