package wire

import "testing"

// TestChainNetwork: a mixed network (the evm catch-all's, some EVM chains
// local and others public) is local for the chains it lists only.
func TestChainNetwork(t *testing.T) {
	for _, c := range []struct{ network, chain, want string }{
		{NetworkLocal, ChainBase, NetworkLocal},
		{NetworkPublic, ChainBase, NetworkPublic},
		{NetworkMixedPrefix + "eth,base", ChainBase, NetworkLocal},
		{NetworkMixedPrefix + "eth,base", ChainBsc, NetworkPublic},
		{NetworkMixedPrefix + "ethx", ChainEth, NetworkPublic},
		{"", ChainEth, ""},
	} {
		if got := ChainNetwork(c.network, c.chain); got != c.want {
			t.Errorf("ChainNetwork(%q, %q) = %q, want %q", c.network, c.chain, got, c.want)
		}
	}
}
