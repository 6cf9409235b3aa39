// Command tradeapi is the trading and token-launch API server.
//
//	tradeapi up [--config FILE]            every role in one process, with the local
//	                                       chains when devnet.enabled
//	tradeapi registry|ingress|worker|broadcaster|exits|devnet [flags]
//	                                       one role against a NATS URL
//	tradeapi admin VERB ...                the account manager's CLI (tradeapi admin help)
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/registry/admincli"
	"github.com/tradeapi/tradeapi/shared/service"
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
  admin VERB ...       manage accounts, API keys, wallets, strategies and limits (tradeapi admin help)

Role commands take --config FILE and --metrics-addr HOST:PORT, read the same
TRADEAPI_* variables as up, and connect to TRADEAPI_NATS_URL
(default nats://127.0.0.1:4222).

A chain is served when it is configured (solana.rpc_url, evm.chains.<chain>)
or, with devnet.enabled, by its local chain; up and worker refuse to start
with nothing to serve, naming the keys to set.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch args[0] {
	case "up":
		return up(ctx, args[1:], stdout, stderr)
	case service.RoleRegistry, service.RoleIngress, service.RoleWorker, service.RoleBroadcaster, service.RoleExits, service.RoleDevnet:
		return role(ctx, args[0], args[1:], stdout, stderr)
	case "admin":
		return admincli.CLI(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "tradeapi: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func loadConfig(fs *flag.FlagSet, args []string) (config.Config, error) {
	path := fs.String("config", "", "YAML config file (optional)")
	metricsAddr := fs.String("metrics-addr", "", "metrics and health listener (overrides the config)")
	if err := fs.Parse(args); err != nil {
		return config.Config{}, err
	}
	if fs.NArg() > 0 {
		return config.Config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg, err := config.Load(*path)
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
	cfg, err := loadConfig(fs, args)
	if err != nil {
		fmt.Fprintf(stderr, "tradeapi %s: %v\n", name, err)
		return 2
	}
	opts := service.Options{Roles: []string{name}, Chains: split(*chains), Listeners: split(*listeners)}
	log := service.NewLogger(cfg, stderr).With("role", name)
	if err := service.New(cfg, opts, log, stdout).Run(ctx); err != nil {
		log.Error("tradeapi "+name+" failed", "err", err)
		return 1
	}
	return 0
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
	cfg, err := loadConfig(fs, args)
	if err != nil {
		fmt.Fprintf(stderr, "tradeapi up: %v\n", err)
		return 2
	}
	log := service.NewLogger(cfg, stderr)
	if err := service.NewUp(cfg, log, stdout).Run(ctx); err != nil {
		log.Error("tradeapi up failed", "err", err)
		return 1
	}
	return 0
}
