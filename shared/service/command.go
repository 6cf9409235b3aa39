package service

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/tradeapi/tradeapi/shared/bus"
	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/preflight"
	"github.com/tradeapi/tradeapi/shared/registry/admincli"
)

const usage = `usage: tradeapi COMMAND [ARGS]

commands:
  up [--config FILE]   run every role in one process (embedded NATS; with devnet.enabled, the
                       default, the local chains and a demo account)
  registry             run the registry and its admin API (owns the bbolt file; makes the demo account)
  ingress              run the public listeners (--listeners eu,us,evm)
  worker               run chain workers (--chain solana[,eth,...])
  broadcaster          run the broadcaster
  exits                run the auto-order engine (positions, price watching, exit sells)
  devnet               serve the local development chains (test doubles; needs devnet.enabled)
  nats                 run the NATS server with JetStream under the data folder, requiring the
                       deployment's credentials (generated under data/nats on the first start);
                       --conf FILE reads a nats-server file such as configs/cluster/nats-1.conf
  nats role-password ROLE [--config FILE]
                       print the NATS user and password of ROLE alone (TRADEAPI_NATS_USER,
                       TRADEAPI_NATS_ROLE_PASSWORD), derived from the master credentials, for a
                       host that runs only that role and must not hold the master
  admin VERB ...       manage accounts, API keys, wallets, strategies and limits (tradeapi admin help)
  check [--config FILE] [--timeout D]
                       connect to every configured chain and verify what the service relies on
                       there (programs, accounts, contract code, decimals, relays), one line per
                       item; exit 0 only when every item passes

Role commands take --config FILE and --metrics-addr HOST:PORT, read the same
TRADEAPI_* variables as up, and connect to TRADEAPI_NATS_URL
(default nats://127.0.0.1:4222) as their role's NATS user, with the credentials
of nats.user/nats.password or nats.creds (TRADEAPI_NATS_USER, TRADEAPI_NATS_PASSWORD,
TRADEAPI_NATS_CREDS), or nats.user with the role's own nats.role_password
(TRADEAPI_NATS_ROLE_PASSWORD), else those the nats role keeps under the same data folder.

A chain is served when it is configured (solana.rpc_url, evm.chains.<chain>)
or, with devnet.enabled, by its local chain; up and worker refuse to start
with nothing to serve, naming the keys to set.
`

// Main runs the tradeapi command with its arguments (without the program
// name) and returns its exit code: the command line of every role, up,
// nats, check and the admin CLI. main.go is only its caller.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopWithGoRun()
	switch args[0] {
	case "up":
		return up(ctx, args[1:], stdout, stderr)
	case RoleRegistry, RoleIngress, RoleWorker, RoleBroadcaster, RoleExits, RoleDevnet:
		return role(ctx, args[0], args[1:], stdout, stderr)
	case "nats":
		return natsRole(ctx, args[1:], stdout, stderr)
	case "check":
		return check(ctx, args[1:], stdout, stderr)
	case "admin":
		return admincli.CLI(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "tradeapi: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// loadConfig parses a command's flags, --config and (for a command that
// serves metrics) --metrics-addr among them, and returns the configuration
// they name. -h answers flag.ErrHelp, the usage printed.
func loadConfig(fs *flag.FlagSet, args []string, serves bool) (config.Config, error) {
	return loadConfigEnv(fs, args, serves, os.LookupEnv)
}

// loadConfigEnv is loadConfig with the file's variables read through lookup.
func loadConfigEnv(fs *flag.FlagSet, args []string, serves bool, lookup func(string) (string, bool)) (config.Config, error) {
	path := fs.String("config", "", "YAML config file (optional)")
	metricsAddr := new(string)
	if serves {
		metricsAddr = fs.String("metrics-addr", "", "metrics and health listener (overrides the config)")
	}
	if err := fs.Parse(args); err != nil {
		return config.Config{}, err
	}
	if fs.NArg() > 0 {
		return config.Config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg, err := config.LoadEnv(*path, lookup)
	if err != nil {
		return cfg, err
	}
	cfg.ApplyEnv(os.Getenv)
	if *metricsAddr != "" {
		cfg.Listen.Metrics = *metricsAddr
	}
	return cfg, cfg.Validate()
}

func role(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	chains := fs.String("chain", "", "worker: comma-separated chains to serve (default: every configured chain)")
	listeners := fs.String("listeners", "", "ingress: comma-separated listeners to serve: eu, us, evm (default: all)")
	lookup := os.LookupEnv
	if name == RoleIngress {
		// The ingress calls no chain: the provider URLs, which carry keys,
		// need not be on its host (an ingress role process of its own is
		// the one bots reach).
		lookup = config.WithoutRPCURLs(lookup)
	}
	cfg, err := loadConfigEnv(fs, args, true, lookup)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "tradeapi %s: %v\n", name, err)
		return 2
	}
	opts := Options{Roles: []string{name}, Chains: split(*chains), Listeners: split(*listeners)}
	log := NewLogger(cfg, stderr).With("role", name)
	return exitCode(ctx, log, "tradeapi "+name, New(cfg, opts, log, stdout).Run(ctx))
}

// exitCode is a command's exit status for what its run returned: 0 when
// it ended cleanly or a signal stopped it, 1 on a failure. A role still
// waiting for NATS or the registry when told to stop ends with what it was
// waiting for; it had nothing to hand back, and the error is logged.
func exitCode(ctx context.Context, log *slog.Logger, what string, err error) int {
	switch {
	case err == nil:
		return 0
	case ctx.Err() != nil:
		log.Warn(what+" stopped by a signal", "err", err)
		return 0
	}
	log.Error(what+" failed", "err", err)
	return 1
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func up(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("up", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg, err := loadConfig(fs, args, true)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "tradeapi up: %v\n", err)
		return 2
	}
	log := NewLogger(cfg, stderr)
	return exitCode(ctx, log, "tradeapi up", NewUp(cfg, log, stdout).Run(ctx))
}

// natsRole runs `tradeapi nats`: the real NATS server, the library the
// binary embeds, as a process of its own, so a multi-process deployment
// needs nothing installed beside tradeapi. Its settings come from a
// nats-server file (--conf), the flags over it, and the data folder and
// credentials of the tradeapi config.
func natsRole(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "role-password" {
		return rolePassword(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("nats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "YAML config file (optional): data_dir, nats.user and nats.password, logs")
	conf := fs.String("conf", "", "nats-server configuration file (server name, ports, cluster routes, store folder)")
	listen := fs.String("listen", "", "client listener host:port (default 127.0.0.1:4222)")
	monitor := fs.String("monitor", "", "monitoring listener host:port (/healthz, /jsz); none by default")
	clusterListen := fs.String("cluster-listen", "", "cluster route listener host:port")
	routes := fs.String("routes", "", "comma-separated cluster routes (nats-route://host:port)")
	storeDir := fs.String("store-dir", "", "JetStream folder (default data_dir/nats)")
	metricsAddr := fs.String("metrics-addr", "", "metrics listener host:port (/metrics with the file store's size and bound, /healthz, /readyz); none by default")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return 0
	} else if err != nil {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "tradeapi nats: %v\n", err)
		return 2
	}
	cfg, err := natsHostConfig(fs, *path)
	if err != nil {
		return fail(err)
	}
	var nc bus.NATSRoleConfig
	if *conf != "" {
		if nc, err = bus.LoadNATSConf(*conf); err != nil {
			return fail(err)
		}
	}
	nc.DataDir = cfg.DataDir
	// Credentials from the config or the environment win over a file's;
	// with none, the role generates them under the data folder.
	if given := givenCredentials(cfg); !given.IsZero() {
		nc.Credentials = given
	}
	for dst, v := range map[*string]string{&nc.Listen: *listen, &nc.Monitor: *monitor,
		&nc.Cluster.Listen: *clusterListen, &nc.StoreDir: *storeDir} {
		if v != "" {
			*dst = v
		}
	}
	if nc.Listen == "" {
		nc.Listen = listenOf(cfg.NATS)
	}
	if *routes != "" {
		nc.Cluster.Routes = split(*routes)
	}
	if nc.Cluster.Listen != "" && nc.Cluster.Name == "" {
		nc.Cluster.Name = "tradeapi"
	}
	nc.SyncAlways = nc.SyncAlways || cfg.NATS.SyncAlways
	log := NewLogger(cfg, stderr).With("role", "nats")
	warnLooseSecrets(log, cfg.DataDir)
	if *metricsAddr != "" {
		// The server's file store is reported: a full one refuses every
		// order. Ready once the server accepts clients.
		// Over TLS when the deployment's listeners are, as every role's.
		tlsCfg, err := cfg.ServerTLS()
		if err != nil {
			return fail(err)
		}
		ln, err := listenMetrics(*metricsAddr, tlsCfg)
		if err != nil {
			return fail(fmt.Errorf("metrics listener: %w", err))
		}
		var up atomic.Bool
		nc.Ready = func(srv *bus.Server) {
			metrics.SetStoreSource(srv)
			up.Store(true)
		}
		mctx, stopMetrics := context.WithCancel(ctx)
		defer stopMetrics()
		go func() {
			if err := serveMetrics(mctx, ln, up.Load); err != nil {
				log.Error("metrics listener failed", "err", err)
			}
		}()
	}
	if err := bus.RunNATS(ctx, nc, log); err != nil {
		log.Error("tradeapi nats failed", "err", err)
		return 1
	}
	return 0
}

// natsHostConfig reads only what a NATS host needs of the configuration
// file and the environment: it needs none of the chains' endpoints (the RPC
// URLs carry the providers' keys), so the file's references to them are
// neither expanded nor required here.
// Arguments left after fs's flags are refused.
func natsHostConfig(fs *flag.FlagSet, path string) (config.Config, error) {
	if fs.NArg() > 0 {
		return config.Config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg, err := config.LoadParts(path, os.LookupEnv, "data_dir", "nats", "log_format", "log_level", "tls")
	if err != nil {
		return cfg, err
	}
	cfg.ApplyEnv(os.Getenv)
	return cfg, cfg.Validate()
}

// givenCredentials are the NATS credentials the configuration gives.
func givenCredentials(cfg config.Config) bus.Credentials {
	return bus.Credentials{User: cfg.NATS.User, Password: cfg.NATS.Password, RolePassword: cfg.NATS.RolePassword,
		CredsFile: cfg.NATS.Creds}
}

// rolePassword runs `tradeapi nats role-password ROLE`: on the host that
// keeps the master credentials (given, or the nats role's file under the
// data folder), it prints the two variables a process of ROLE alone is
// given on a host of its own, so that host holds nothing that opens
// another role's permissions.
func rolePassword(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("nats role-password", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "YAML config file (optional): data_dir, nats.user and nats.password")
	fail := func(err error) int {
		fmt.Fprintf(stderr, "tradeapi nats role-password: %v\n", err)
		return 2
	}
	// The role comes first, as the usage shows; flags may follow it.
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return fail(fmt.Errorf("name the role: one of %s", strings.Join(bus.Roles(), ", ")))
	}
	role := args[0]
	if err := fs.Parse(args[1:]); errors.Is(err, flag.ErrHelp) {
		return 0
	} else if err != nil {
		return 2
	}
	cfg, err := natsHostConfig(fs, *path)
	if err != nil {
		return fail(err)
	}
	master, err := bus.LoadCredentials(cfg.DataDir, givenCredentials(cfg))
	if err != nil {
		return fail(err)
	}
	own, err := bus.RoleCredentials(role, master)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "TRADEAPI_NATS_USER=%s\nTRADEAPI_NATS_ROLE_PASSWORD=%s\n", own.User, own.RolePassword)
	return 0
}

// listenOf is where the nats role listens when neither --listen nor
// --conf says: nats.listen, else the host and port of nats.url
// (TRADEAPI_NATS_URL) when it names one server by an IP address or
// localhost, which is where the other roles of the deployment dial; ""
// for the default. A name the server may not own (a service's DNS name)
// is left to --listen.
func listenOf(c config.NATS) string {
	if c.Listen != "" {
		return c.Listen
	}
	if c.URL == "" || strings.Contains(c.URL, ",") {
		return ""
	}
	// As the NATS client reads it: the scheme and the port may be left out.
	raw := c.URL
	if !strings.Contains(raw, "://") {
		raw = "nats://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Hostname() != "localhost" && net.ParseIP(u.Hostname()) == nil) {
		return ""
	}
	return net.JoinHostPort(u.Hostname(), cmp.Or(u.Port(), "4222"))
}

// check runs `tradeapi check`: it connects to every chain the configuration
// serves and prints one line per item the service relies on there, with
// what it found. It exits 0 only when every item passes, 1 when one fails,
// 3 when none fails but some were skipped (checkExit), and 2 when the
// configuration cannot be checked at all.
func check(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("timeout", preflight.DefaultTimeout, "bound of each call to an endpoint")
	cfg, err := loadConfig(fs, args, false)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err == nil && *timeout <= 0 {
		err = fmt.Errorf("--timeout: %s is not positive", *timeout)
	}
	var c *preflight.Check
	if err == nil {
		c, err = preflight.New(cfg, preflight.Options{Timeout: *timeout})
	}
	if err != nil {
		fmt.Fprintf(stderr, "tradeapi check: %v\n", err)
		return 2
	}
	lines := c.Run(ctx)
	if ctx.Err() != nil {
		// Its lines would say an interrupted call failed.
		fmt.Fprintln(stderr, "tradeapi check: interrupted before every item was checked")
		return 1
	}
	if err := preflight.Print(stdout, lines); err != nil {
		fmt.Fprintf(stderr, "tradeapi check: %v\n", err)
		return 2
	}
	return checkExit(lines, stderr)
}

// checkExit is the exit status of a check that found lines: 0 only when
// every item passed, 1 when one failed, 3 when none failed but some were
// skipped: what was not checked is not known to hold, and a script that
// starts the service on 0 must not start it on that.
func checkExit(lines []preflight.Line, stderr io.Writer) int {
	switch {
	case !preflight.Passed(lines):
		return 1
	case !preflight.AllPassed(lines):
		fmt.Fprintln(stderr, "tradeapi check: no item failed, but not every item passed: the skipped ones were not checked")
		return 3
	}
	return 0
}
