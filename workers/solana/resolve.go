package solana

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/capped"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/token2022"
)

// venue is where an address that is not a live pump.fun curve trades: a
// PumpSwap pool, or a launchpad's pool when launchpad is set, and why (the
// coin graduated, the address is the pool, or it is the coin's pool).
type venue struct {
	pool      sol.PublicKey
	why       string
	launchpad padKind
	at        time.Time
}

// venueCache remembers the pool an address resolved to for
// Config.ResolveTTL, bounded: when full it starts again. A curve never
// comes back once it has completed, so the bound only limits how long a
// wrong answer could live.
type venueCache struct {
	c capped.Cache[sol.PublicKey, venue]
}

func (c *venueCache) get(address sol.PublicKey, now time.Time, ttl time.Duration) (venue, bool) {
	v, ok := c.c.Get(address)
	if !ok || now.Sub(v.at) >= ttl {
		return venue{}, false
	}
	return v, true
}

func (c *venueCache) put(address sol.PublicKey, v venue, now time.Time) {
	v.at = now
	c.c.Put(address, v)
}

// poolFacts are what a job needs to know of a pool before it can name the
// accounts to read: its mints, their token programs and decimals, and its
// vaults, none of which change, and the coin creator, which rarely does and
// is checked against every read of the pool.
type poolFacts struct {
	baseMint, quoteMint       sol.PublicKey
	baseProgram, quoteProgram sol.PublicKey
	baseVault, quoteVault     sol.PublicKey
	baseDecimals              uint8
	quoteDecimals             uint8
	coinCreator               sol.PublicKey
	mayhem                    bool
}

// ammStateCache keeps the AMM's GlobalConfig and FeeConfig for
// Config.StateTTL.
type ammStateCache struct {
	mu sync.Mutex
	gc *pumpswap.GlobalConfig
	fc *pumpswap.FeeConfig
	at time.Time
}

func (c *ammStateCache) get(now time.Time, ttl time.Duration) (*pumpswap.GlobalConfig, *pumpswap.FeeConfig, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gc == nil || now.Sub(c.at) >= ttl {
		return nil, nil, false
	}
	return c.gc, c.fc, true
}

func (c *ammStateCache) put(now time.Time, gc *pumpswap.GlobalConfig, fc *pumpswap.FeeConfig) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gc, c.fc, c.at = gc, fc, now
}

// feeMintError is a PumpSwap pool one of whose mints charges a Token-2022
// transfer fee.
type feeMintError struct{ pool, mint sol.PublicKey }

func (e *feeMintError) Error() string {
	return fmt.Sprintf("PumpSwap pool %s trades %s, which charges a Token-2022 transfer fee: this service does not quote such a pool (a trade would deliver less than quoted)", e.pool, e.mint)
}

// errNoPool is wrapped when an address names no PumpSwap pool.
var errNoPool = errors.New("no pumpswap pool")

// decodePoolAccount decodes a on-chain pool account, or wraps errNoPool.
func decodePoolAccount(addr sol.PublicKey, a *rpc.Account) (*pumpswap.Pool, error) {
	if a == nil || a.Owner != pumpswap.ProgramID {
		return nil, fmt.Errorf("%w at %s", errNoPool, addr)
	}
	d := data(a)
	if len(d) < 8 || pumpswap.Discriminator(d[:8]) != pumpswap.PoolDiscriminator {
		return nil, fmt.Errorf("%w at %s", errNoPool, addr)
	}
	p := new(pumpswap.Pool)
	if err := p.Decode(d); err != nil {
		return nil, fmt.Errorf("%w at %s: %v", errNoPool, addr, err)
	}
	return p, nil
}

// mintInfo reads a mint account's token program, decimals and supply.
func mintInfo(a *rpc.Account) (program sol.PublicKey, decimals uint8, supply uint64, ok bool) {
	if a == nil || (a.Owner != pumpswap.TokenProgramID && a.Owner != pumpswap.Token2022ProgramID) {
		return sol.PublicKey{}, 0, 0, false
	}
	d := data(a)
	if len(d) < mintSize || d[45] != 1 {
		return sol.PublicKey{}, 0, 0, false
	}
	return a.Owner, d[44], binary.LittleEndian.Uint64(d[36:44]), true
}

// fetchPoolFacts reads a pool and its two mints, and caches what does not
// change. An address that is no pool wraps errNoPool.
func (s *Signer) fetchPoolFacts(ctx context.Context, pool sol.PublicKey) (poolFacts, error) {
	accounts, err := s.getAccounts(ctx, []sol.PublicKey{pool})
	if err != nil {
		return poolFacts{}, err
	}
	p, err := decodePoolAccount(pool, accounts[0])
	if err != nil {
		return poolFacts{}, err
	}
	mints, err := s.getAccounts(ctx, []sol.PublicKey{p.BaseMint, p.QuoteMint})
	if err != nil {
		return poolFacts{}, err
	}
	f := poolFacts{
		baseMint: p.BaseMint, quoteMint: p.QuoteMint,
		baseVault: p.PoolBaseTokenAccount, quoteVault: p.PoolQuoteTokenAccount, coinCreator: p.CoinCreator,
		mayhem: p.IsMayhemMode,
	}
	var ok1, ok2 bool
	f.baseProgram, f.baseDecimals, _, ok1 = mintInfo(mints[0])
	f.quoteProgram, f.quoteDecimals, _, ok2 = mintInfo(mints[1])
	if !ok1 || !ok2 {
		return poolFacts{}, apierr.Wrap(fmt.Errorf("pool %s names mints %s and %s that are not both token mints", pool, p.BaseMint, p.QuoteMint), "internal error")
	}
	// A mint with a transfer fee delivers less than a trade sends, which
	// PumpSwap's SDK does not quote: a buy's least out would be above what
	// arrives, a sale priced on more than reaches the pool.
	for i, m := range []sol.PublicKey{p.BaseMint, p.QuoteMint} {
		if chargesTransferFee(mints[i]) {
			return poolFacts{}, &feeMintError{pool: pool, mint: m}
		}
	}
	s.pools.Put(pool, f)
	return f, nil
}

// poolFactsFor returns the cached facts of pool, reading them when missing.
func (s *Signer) poolFactsFor(ctx context.Context, pool sol.PublicKey) (poolFacts, error) {
	if f, ok := s.pools.Get(pool); ok {
		return f, nil
	}
	return s.fetchPoolFacts(ctx, pool)
}

// quoteAsset names a pool's quote mint as a quote asset: SOL for WSOL, the
// symbol of a configured stable, or "" for anything else.
func (s *Signer) quoteAsset(mint sol.PublicKey) string {
	if pumpswap.IsSOLQuote(mint) {
		return quoteSOL
	}
	for sym, m := range s.cfg.QuoteMints {
		if m == mint {
			return sym
		}
	}
	return ""
}

// TokenAccountsRPC is the lookup of an owner's token accounts an RPC client
// may offer beside RPC; *rpc.Client does. Without it a pump.fun coin is
// traded by its mint, not by its bonding curve's address.
type TokenAccountsRPC interface {
	GetTokenAccountsByOwner(ctx context.Context, owner sol.PublicKey, conf *rpc.GetTokenAccountsConfig, opts *rpc.GetTokenAccountsOpts) (*rpc.GetTokenAccountsResult, error)
}

// isBondingCurve reports whether a is a pump.fun bonding curve.
func isBondingCurve(a *rpc.Account) bool {
	d := data(a)
	return a != nil && a.Owner == pumpfun.ProgramID && len(d) >= 8 && [8]byte(d[:8]) == [8]byte(pumpfun.BondingCurveDiscriminator)
}

// curveMint finds the mint of the pump.fun bonding curve at curve: the mint
// of a token account the curve owns (its associated account, under
// Token-2022 for a create_v2 coin, SPL Token for an older one) whose curve
// it is. False when none is.
func (s *Signer) curveMint(ctx context.Context, curve sol.PublicKey) (sol.PublicKey, bool, error) {
	lookup, ok := s.rpc.(TokenAccountsRPC)
	if !ok {
		return sol.PublicKey{}, false, nil
	}
	for _, prog := range []sol.PublicKey{pumpfun.Token2022ProgramID, pumpfun.TokenProgramID} {
		cctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
		res, err := lookup.GetTokenAccountsByOwner(cctx, curve, &rpc.GetTokenAccountsConfig{ProgramId: &prog},
			&rpc.GetTokenAccountsOpts{Commitment: s.cfg.Commitment, Encoding: sol.EncodingBase64})
		cancel()
		if err != nil {
			return sol.PublicKey{}, false, fmt.Errorf("token accounts of bonding curve %s: %w", curve, err)
		}
		if res == nil {
			continue
		}
		for _, ta := range res.Value {
			if ta == nil {
				continue
			}
			d := data(&ta.Account)
			if len(d) < 64 {
				continue
			}
			mint := sol.PublicKeyFromBytes(d[:32])
			if s.pdas.bondingCurve(mint) == curve {
				return mint, true, nil
			}
		}
	}
	return sol.PublicKey{}, false, nil
}

// chargesTransferFee reports whether a mint's account carries a Token-2022
// TransferFeeConfig that takes a fee in either schedule, or one that does
// not decode (not known not to).
func chargesTransferFee(mint *rpc.Account) bool {
	cfg, has, err := token2022.MintTransferFeeConfig(data(mint))
	return err != nil || has && cfg.Charges()
}
