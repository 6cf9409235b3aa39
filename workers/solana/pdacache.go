package solana

import (
	"sync"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// pdaCacheSize bounds the cached addresses (about 100 bytes each).
const pdaCacheSize = 1 << 16

// pdaKind names what a cached address is derived for.
type pdaKind uint8

const (
	pdaBondingCurve pdaKind = iota
	pdaBondingCurveV2
	pdaCreatorVault
	pdaUserVolumeAccumulator
	pdaATA
	pdaAMMUserVolumeAccumulator
	pdaCoinCreatorVaultAuthority
	pdaPoolV2
	pdaCanonicalPool
)

type pdaKey struct {
	kind    pdaKind
	a, b    sol.PublicKey
	program sol.PublicKey
}

// pdaCache remembers program-derived addresses: deriving one costs a few
// SHA-256 and curve checks (tens of microseconds), and the same wallets and
// mints come back job after job. When full it starts over, which keeps it
// bounded without bookkeeping per entry.
type pdaCache struct {
	mu  sync.RWMutex
	m   map[pdaKey]sol.PublicKey
	max int
}

func newPDACache(max int) *pdaCache {
	return &pdaCache{m: make(map[pdaKey]sol.PublicKey), max: max}
}

func (c *pdaCache) get(k pdaKey, derive func() sol.PublicKey) sol.PublicKey {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = derive()
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}

func (c *pdaCache) bondingCurve(mint sol.PublicKey) sol.PublicKey {
	return c.get(pdaKey{kind: pdaBondingCurve, a: mint}, func() sol.PublicKey { return pumpfun.BondingCurvePDA(mint) })
}

func (c *pdaCache) bondingCurveV2(mint sol.PublicKey) sol.PublicKey {
	return c.get(pdaKey{kind: pdaBondingCurveV2, a: mint}, func() sol.PublicKey { return pumpfun.BondingCurveV2PDA(mint) })
}

func (c *pdaCache) creatorVault(creator sol.PublicKey) sol.PublicKey {
	return c.get(pdaKey{kind: pdaCreatorVault, a: creator}, func() sol.PublicKey { return pumpfun.CreatorVaultPDA(creator) })
}

func (c *pdaCache) userVolumeAccumulator(user sol.PublicKey) sol.PublicKey {
	return c.get(pdaKey{kind: pdaUserVolumeAccumulator, a: user}, func() sol.PublicKey { return pumpfun.UserVolumeAccumulatorPDA(user) })
}

func (c *pdaCache) ata(owner, mint, program sol.PublicKey) sol.PublicKey {
	return c.get(pdaKey{kind: pdaATA, a: owner, b: mint, program: program}, func() sol.PublicKey {
		return pumpfun.AssociatedTokenAddress(owner, mint, program)
	})
}

func (c *pdaCache) ammUserVolumeAccumulator(user sol.PublicKey) sol.PublicKey {
	return c.get(pdaKey{kind: pdaAMMUserVolumeAccumulator, a: user}, func() sol.PublicKey { return pumpswap.UserVolumeAccumulatorPDA(user) })
}

func (c *pdaCache) coinCreatorVaultAuthority(coinCreator sol.PublicKey) sol.PublicKey {
	return c.get(pdaKey{kind: pdaCoinCreatorVaultAuthority, a: coinCreator}, func() sol.PublicKey {
		return pumpswap.CoinCreatorVaultAuthorityPDA(coinCreator)
	})
}

func (c *pdaCache) canonicalPool(mint, quote sol.PublicKey) sol.PublicKey {
	return c.get(pdaKey{kind: pdaCanonicalPool, a: mint, b: quote}, func() sol.PublicKey { return pumpswap.CanonicalPoolPDA(mint, quote) })
}

func (c *pdaCache) poolV2(baseMint sol.PublicKey) sol.PublicKey {
	return c.get(pdaKey{kind: pdaPoolV2, a: baseMint}, func() sol.PublicKey { return pumpswap.PoolV2PDA(baseMint) })
}
