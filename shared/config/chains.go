package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// Serves reports whether a chain is served: configured (solana.rpc_url, or
// listed under evm.chains), or run by the local chains when
// devnet.enabled. The evm name (wire.ChainAnyEVM, jobs that omit chain) is
// served when any EVM chain is. Nothing falls back to a local chain that
// is off: an unserved chain has no worker, and its orders get 503
// CHAIN_UNAVAILABLE.
func (c *Config) Serves(chain string) bool {
	switch chain {
	case wire.ChainSolana:
		return c.Solana.RPCURL != "" || c.Devnet.Enabled
	case wire.ChainAnyEVM:
		for _, name := range wire.EVMChains {
			if c.Serves(name) {
				return true
			}
		}
		return false
	}
	if _, listed := c.EVM.Chains[chain]; listed {
		return true
	}
	return c.Devnet.Enabled && slices.Contains(wire.EVMChains, chain)
}

// ServedChains lists the served chains: solana first, then the EVM chains
// in wire.EVMChains order.
func (c *Config) ServedChains() []string {
	var out []string
	for _, name := range append([]string{wire.ChainSolana}, wire.EVMChains...) {
		if c.Serves(name) {
			out = append(out, name)
		}
	}
	return out
}

// LocalChains lists the served chains that the local chains, test
// doubles, run (devnet.enabled, no rpc_url of their own), in
// ServedChains' order.
func (c *Config) LocalChains() []string {
	var out []string
	for _, name := range c.ServedChains() {
		if c.Local(name) {
			out = append(out, name)
		}
	}
	return out
}

// Local reports whether a served chain is run by the local chains: a test
// double, not a public network. The evm catch-all, which trades on the EVM
// chain each order resolves to, is local when every EVM chain served is.
func (c *Config) Local(chain string) bool {
	if !c.Devnet.Enabled {
		return false
	}
	if chain == wire.ChainSolana {
		return c.Solana.RPCURL == ""
	}
	if chain == wire.ChainAnyEVM {
		evm := slices.DeleteFunc(c.ServedChains(), func(s string) bool { return !slices.Contains(wire.EVMChains, s) })
		return len(evm) > 0 && !slices.ContainsFunc(evm, func(s string) bool { return !c.Local(s) })
	}
	_, listed := c.EVM.Chains[chain]
	return !listed && slices.Contains(wire.EVMChains, chain)
}

// Network names the network a served chain is on, as its jobs say it
// (bus.HeaderNetwork), so that a worker of the chain configured otherwise
// than the job's publisher does not sign it: wire.NetworkLocal for a chain
// the local chains run, wire.NetworkPublic for a configured one; for the
// evm catch-all, which trades on whichever EVM chain an order resolves to,
// one of those when every EVM chain served is on it, else
// wire.NetworkMixedPrefix and the local ones.
func (c *Config) Network(chain string) string {
	if chain != wire.ChainAnyEVM {
		if c.Local(chain) {
			return wire.NetworkLocal
		}
		return wire.NetworkPublic
	}
	var local, served []string
	for _, name := range c.ServedChains() {
		if !slices.Contains(wire.EVMChains, name) {
			continue
		}
		served = append(served, name)
		if c.Local(name) {
			local = append(local, name)
		}
	}
	switch {
	case len(local) == 0:
		return wire.NetworkPublic
	case len(local) == len(served):
		return wire.NetworkLocal
	}
	return wire.NetworkMixedPrefix + strings.Join(local, ",")
}

// MixedChains returns, when the local chains serve some chains while
// others are configured (a public network, most likely), both lists; nil,
// nil otherwise. Orders on the local ones trade on test doubles beside
// real ones: a production file that left devnet.enabled at its default.
func (c *Config) MixedChains() (local, configured []string) {
	for _, name := range c.ServedChains() {
		if c.Local(name) {
			local = append(local, name)
		} else {
			configured = append(configured, name)
		}
	}
	if len(local) == 0 || len(configured) == 0 {
		return nil, nil
	}
	return local, configured
}

// ChainKey is the key that configures a chain for production:
// solana.rpc_url, or evm.chains.<name>.rpc_url.
func ChainKey(chain string) string {
	if chain == wire.ChainSolana {
		return "solana.rpc_url"
	}
	return "evm.chains." + chain + ".rpc_url"
}

// RequireChains returns an error naming the keys to set when no chain is
// served: a process that would trade nowhere refuses to start instead.
func (c *Config) RequireChains() error {
	if len(c.ServedChains()) > 0 {
		return nil
	}
	keys := []string{ChainKey(wire.ChainSolana)}
	for _, name := range wire.EVMChains {
		keys = append(keys, ChainKey(name))
	}
	return fmt.Errorf("no chain is configured and devnet.enabled is false: set %s, or devnet.enabled: true for the local chains",
		strings.Join(keys, ", "))
}
