// Command tradeapi is the trading and token-launch API server.
//
//	tradeapi up [--config FILE]     every role in one process, with local chains
//	tradeapi admin VERB ...         the account manager's CLI (tradeapi admin help)
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/node"
	"github.com/tradeapi/tradeapi/shared/registry"
)

const usage = `usage: tradeapi COMMAND [ARGS]

commands:
  up [--config FILE]   run every role in one process (embedded NATS, local chains, demo account)
  admin VERB ...       manage accounts, API keys, wallets, strategies and limits (tradeapi admin help)
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
	case "admin":
		return registry.CLI(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "tradeapi: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func loadConfig(name string, args []string, stderr io.Writer) (config.Config, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "YAML config file (optional)")
	if err := fs.Parse(args); err != nil {
		return config.Config{}, err
	}
	cfg, err := config.Load(*path)
	if err != nil {
		return cfg, err
	}
	cfg.ApplyEnv(os.Getenv)
	return cfg, cfg.Validate()
}

func up(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := loadConfig("up", args, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "tradeapi up: %v\n", err)
		return 2
	}
	log := node.NewLogger(cfg, stderr)
	if err := node.NewUp(cfg, log, stdout).Run(ctx); err != nil {
		log.Error("tradeapi up failed", "err", err)
		return 1
	}
	return 0
}
