// Command tradeapi is the trading and token-launch API server.
//
//	tradeapi up [--config FILE]            every role in one process, with the local
//	                                       chains when devnet.enabled
//	tradeapi registry|ingress|worker|broadcaster|exits|devnet [flags]
//	                                       one role against a NATS URL
//	tradeapi nats [flags]                  the NATS server (JetStream) as a process of its own
//	tradeapi check --config FILE           verify the configured chains before the first order
//	tradeapi admin VERB ...                the account manager's CLI (tradeapi admin help)
//
// The command line itself is service.Main, where it is tested.
package main

import (
	"os"

	"github.com/tradeapi/tradeapi/shared/service"
)

func main() {
	os.Exit(service.Main(os.Args[1:], os.Stdout, os.Stderr))
}
