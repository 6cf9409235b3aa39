package config

import (
	"strings"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// ExplorerTxPatterns returns the transaction explorer URL pattern of every
// chain that has one, by chain name (solana, eth, bsc, base, rbh, arc), with
// %s standing for the signature or hash. A chain served by the local
// development chain links to the devnet's own transaction view
// (http://<devnet.addr>/solana/tx/%s, /evm/<chain>/tx/%s); a configured
// chain uses its explorer_tx key, and gets no link without one.
func (c *Config) ExplorerTxPatterns() map[string]string {
	out := map[string]string{}
	local := "http://" + c.Devnet.Addr
	switch {
	case c.Solana.ExplorerTx != "":
		out[wire.ChainSolana] = c.Solana.ExplorerTx
	case c.LocalSolana():
		out[wire.ChainSolana] = local + "/solana/tx/%s"
	}
	for _, name := range wire.EVMChains {
		ch, configured := c.EVM.Chains[name]
		switch {
		case configured && ch.ExplorerTx != "":
			out[name] = ch.ExplorerTx
		case !configured && c.Devnet.Enabled:
			out[name] = local + "/evm/" + name + "/tx/%s"
		}
	}
	return out
}

// validExplorerPattern reports whether p holds exactly one %s and no other
// verb, so that formatting it with a signature cannot go wrong.
func validExplorerPattern(p string) bool {
	return p == "" || (strings.Count(p, "%") == 1 && strings.Count(p, "%s") == 1 &&
		(strings.HasPrefix(p, "https://") || strings.HasPrefix(p, "http://")))
}
