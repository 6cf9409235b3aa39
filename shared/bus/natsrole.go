package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/nats-io/nats-server/v2/conf"
	"github.com/nats-io/nats-server/v2/server"
)

// DefaultNATSListen is where the nats role accepts clients unless told
// otherwise, the address the other roles dial by default.
const DefaultNATSListen = "127.0.0.1:4222"

// NATSRoleConfig configures the nats role: the NATS server as a process of
// its own.
type NATSRoleConfig struct {
	// DataDir is the data folder shared with the other roles; the
	// credentials are kept under it (CredentialsPath) unless given.
	DataDir string
	// StoreDir is JetStream's folder; NATSDir(DataDir) when empty. The
	// nodes of a cluster on one host need one each.
	StoreDir string
	// ServerName names this node; "tradeapi" when empty, and required in a
	// cluster, where each node needs its own.
	ServerName string
	// Listen is where clients connect; DefaultNATSListen when empty.
	Listen string
	// Monitor is the host:port of the monitoring endpoints (/healthz,
	// /varz, /jsz); empty serves none.
	Monitor string
	// Cluster joins the other nodes; zero runs a single server.
	Cluster ClusterConfig
	// Credentials are the given ones (config or environment); when zero
	// they are read from, or generated in, the data folder.
	Credentials Credentials
	// SyncAlways makes JetStream fsync every write.
	SyncAlways bool
	// Ready, when set, is called once the server accepts clients, with the
	// server (its addresses, an in-process connection).
	Ready func(*Server)
}

// RunNATS runs the nats role until ctx ends: the NATS server with
// JetStream on disk, requiring the per-role users derived from the
// credentials, in a cluster when configured. It shuts the server down and
// waits for it before returning.
func RunNATS(ctx context.Context, cfg NATSRoleConfig, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.DataDir == "" && (cfg.StoreDir == "" || cfg.Credentials.IsZero()) {
		return errors.New("nats role: no data folder")
	}
	if cfg.Listen == "" {
		cfg.Listen = DefaultNATSListen
	}
	if cfg.StoreDir == "" {
		cfg.StoreDir = NATSDir(cfg.DataDir)
	}
	creds, err := LoadOrCreateCredentials(cfg.DataDir, cfg.Credentials)
	if err != nil {
		return err
	}
	if err := creds.validServer(); err != nil {
		return fmt.Errorf("nats role: %w", err)
	}
	srv, err := StartServer(ServerConfig{
		StoreDir:    cfg.StoreDir,
		Listen:      cfg.Listen,
		SyncAlways:  cfg.SyncAlways,
		ServerName:  cfg.ServerName,
		Credentials: creds,
		Cluster:     cfg.Cluster,
		Monitor:     cfg.Monitor,
	}, log)
	if err != nil {
		return err
	}
	defer srv.Shutdown()
	attrs := []any{"clients", srv.ClientURL(), "store", cfg.StoreDir}
	if cfg.Credentials.IsZero() {
		attrs = append(attrs, "credentials", CredentialsPath(cfg.DataDir))
	} else {
		attrs = append(attrs, "credentials", "given")
	}
	if a := srv.ClusterAddr(); a != nil {
		attrs = append(attrs, "cluster", cfg.Cluster.Name, "cluster_listen", a.String())
	}
	if a := srv.MonitorAddr(); a != nil {
		attrs = append(attrs, "monitor", "http://"+a.String())
	}
	log.Info("nats server ready", attrs...)
	if cfg.Ready != nil {
		cfg.Ready(srv)
	}

	stopped := make(chan struct{})
	go func() {
		srv.ns.WaitForShutdown()
		close(stopped)
	}()
	select {
	case <-ctx.Done():
		log.Info("stopping nats server")
		return nil
	case <-stopped:
		return errors.New("nats server stopped by itself")
	}
}

// LoadNATSConf reads a nats-server configuration file, such as
// configs/cluster/nats-1.conf, into the nats role's configuration: server
// name, client, monitoring and cluster listeners, routes, JetStream store
// folder and, when the file has them, the authorization user and password.
// A setting it would not carry over (tls, accounts, leafnodes, a payload
// bound other than the server's, ...) is refused, naming it, rather than
// dropped: an operator who writes a tls block must not run without TLS
// believing it on. DataDir is left for the caller.
func LoadNATSConf(path string) (NATSRoleConfig, error) {
	if err := carriedOver(path); err != nil {
		return NATSRoleConfig{}, err
	}
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		return NATSRoleConfig{}, fmt.Errorf("nats config %s: %w", path, err)
	}
	if opts.MaxPayload != 0 && opts.MaxPayload != maxPayload {
		return NATSRoleConfig{}, fmt.Errorf("nats config %s: max_payload: the server runs with %d bytes (a signed batch of many wallets' transactions needs them); leave it out or set 8MB",
			path, maxPayload)
	}
	cfg := NATSRoleConfig{ServerName: opts.ServerName, StoreDir: opts.StoreDir, SyncAlways: opts.SyncAlways,
		Credentials: Credentials{User: opts.Username, Password: opts.Password}}
	if opts.Port != 0 {
		cfg.Listen = joinHostPort(opts.Host, opts.Port)
	}
	if opts.HTTPPort != 0 {
		cfg.Monitor = joinHostPort(opts.HTTPHost, opts.HTTPPort)
	}
	if opts.Cluster.Port != 0 {
		cfg.Cluster = ClusterConfig{Name: opts.Cluster.Name, Listen: joinHostPort(opts.Cluster.Host, opts.Cluster.Port)}
		for _, u := range opts.Routes {
			cfg.Cluster.Routes = append(cfg.Cluster.Routes, u.String())
		}
	}
	return cfg, nil
}

// confCarried are the settings of a nats-server file LoadNATSConf carries
// over: for each top-level key, the keys of its block (nil: a value).
var confCarried = map[string][]string{
	"server_name": nil, "listen": nil, "host": nil, "net": nil, "port": nil,
	"http": nil, "http_host": nil, "http_port": nil, "monitor_port": nil, "max_payload": nil,
	"jetstream":     {"store_dir", "store", "storedir", "sync_interval", "sync", "enabled", "enable"},
	"cluster":       {"name", "listen", "host", "net", "port", "routes"},
	"authorization": {"user", "username", "pass", "password"},
}

// carriedOver refuses a file with a setting LoadNATSConf does not carry
// over, naming it and what is carried.
func carriedOver(path string) error {
	m, err := conf.ParseFile(path)
	if err != nil {
		return fmt.Errorf("nats config %s: %w", path, err)
	}
	refuse := func(key string, known []string) error {
		return fmt.Errorf("nats config %s: %s is not carried over by tradeapi nats, which takes only %s; "+
			"leave it out, or run nats-server with a file of your own and give the roles its URL and credentials",
			path, key, strings.Join(known, ", "))
	}
	top := slices.Sorted(maps.Keys(confCarried))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		sub, ok := confCarried[strings.ToLower(k)]
		if !ok {
			return refuse(k, top)
		}
		block, isBlock := m[k].(map[string]any)
		if strings.EqualFold(k, "jetstream") && !isBlock && !switchedOn(m[k]) {
			return fmt.Errorf("nats config %s: %s: %v: the nats role always runs JetStream, which the service stores in", path, k, m[k])
		}
		if sub == nil || !isBlock {
			continue
		}
		for _, sk := range slices.Sorted(maps.Keys(block)) {
			lk := strings.ToLower(sk)
			if !slices.Contains(sub, lk) {
				return refuse(k+"."+sk, sub)
			}
			// Only "always" is carried (SyncAlways); a period is not.
			if v, _ := block[sk].(string); (lk == "sync_interval" || lk == "sync") && v != "always" {
				return fmt.Errorf("nats config %s: %s.%s: only \"always\" is carried over (nats.sync_always); leave it out for the server's default",
					path, k, sk)
			}
			if (lk == "enabled" || lk == "enable") && !switchedOn(block[sk]) {
				return fmt.Errorf("nats config %s: %s.%s: %v: the nats role always runs JetStream, which the service stores in", path, k, sk, block[sk])
			}
		}
	}
	return nil
}

// switchedOn reads a nats-server switch (true, "enabled", "on", ...) as
// nats-server does; anything else is off.
func switchedOn(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		switch strings.ToLower(v) {
		case "true", "yes", "on", "enable", "enabled":
			return true
		}
	}
	return false
}

// joinHostPort writes a listener of the server's options back as
// host:port, its random port as 0.
func joinHostPort(host string, port int) string {
	if port == server.RANDOM_PORT {
		port = 0
	}
	if host == "" {
		host = "0.0.0.0"
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}
