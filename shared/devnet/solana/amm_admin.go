package solana

import (
	"errors"
	"fmt"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// Default liquidity of a PumpSwap coin a helper creates: what a pump.fun
// graduation leaves in the pool (85 SOL), or its value in a stable at the
// stable/SOL pool's genesis price.
const (
	DefaultPoolSOL    uint64 = 85 * 1_000_000_000
	DefaultPoolStable uint64 = 12_750 * 1_000_000
)

// ErrNotGraduable is returned by GraduateCoin for a curve that has not
// completed or has migrated already.
var ErrNotGraduable = errors.New("devnet solana: the curve cannot graduate")

// PumpSwapCoin is a pump.fun coin that trades on its canonical PumpSwap
// pool.
type PumpSwapCoin struct {
	Mint         sol.PublicKey
	BondingCurve sol.PublicKey
	Pool         sol.PublicKey
	QuoteMint    sol.PublicKey
	// Signature is the create_v2 transaction's.
	Signature sol.Signature
}

// CreatePumpSwapCoin creates a pump.fun coin with a real create_v2
// transaction and graduates it at once into its canonical PumpSwap pool
// quoted in quoteMint (WSOL, USDC or USD1), as if its curve had sold out:
// the curve's real token reserves go to creator, the rest of the supply and
// liquidity quote units (0: DefaultPoolSOL or DefaultPoolStable) to the
// pool. A stable quote is minted for the purpose.
func (c *Chain) CreatePumpSwapCoin(creator sol.PublicKey, name, symbol string, quoteMint sol.PublicKey, liquidity uint64) (PumpSwapCoin, error) {
	if quoteMint.IsZero() {
		quoteMint = nativeMintID
	}
	if liquidity == 0 {
		liquidity = DefaultPoolStable
		if quoteMint == nativeMintID {
			liquidity = DefaultPoolSOL
		}
	}
	c.mu.RLock()
	qm := c.accounts[quoteMint]
	c.mu.RUnlock()
	if qm == nil || !isTokenProgram(qm.Owner) || !validMintData(qm.Owner, qm.Data) || !mintInitialized(qm.Data) {
		return PumpSwapCoin{}, fmt.Errorf("create pumpswap coin: quote mint %s: %w", quoteMint, ErrNotFound)
	}
	coin, err := c.CreatePumpCoin(creator, name, symbol)
	if err != nil {
		return PumpSwapCoin{}, fmt.Errorf("create pumpswap coin: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	pool, err := c.graduateLocked(coin.Mint, quoteMint, liquidity, creator)
	if err != nil {
		return PumpSwapCoin{}, fmt.Errorf("create pumpswap coin: %w", err)
	}
	return PumpSwapCoin{Mint: coin.Mint, BondingCurve: coin.BondingCurve, Pool: pool, QuoteMint: quoteMint, Signature: coin.Signature}, nil
}

// GraduateCoin migrates a pump.fun coin whose curve has completed into its
// canonical PumpSwap pool, as pump.fun's migration does: the tokens left on
// the curve and its SOL, less Global.pool_migration_fee, become the pool's
// reserves. It returns the pool.
func (c *Chain) GraduateCoin(mint sol.PublicKey) (sol.PublicKey, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	pool, err := c.graduateLocked(mint, sol.PublicKey{}, 0, sol.PublicKey{})
	if err != nil {
		return pool, fmt.Errorf("graduate %s: %w", mint, err)
	}
	return pool, nil
}

// graduateLocked moves a curve into its canonical pool. With a quote mint it
// graduates a fresh coin as if its curve had sold out to buyer (the curve's
// real token reserves go to buyer, liquidity quote units are created for
// the pool); without one it migrates a completed curve.
func (c *Chain) graduateLocked(mint, quoteMint sol.PublicKey, liquidity uint64, buyer sol.PublicKey) (sol.PublicKey, error) {
	curveKey := pumpfun.BondingCurvePDA(mint)
	ca, ma := c.accounts[curveKey], c.accounts[mint]
	if ca == nil || ca.Owner != pumpProgramID || ma == nil || !isTokenProgram(ma.Owner) {
		return sol.PublicKey{}, fmt.Errorf("no pump.fun curve for %s: %w", mint, ErrNotFound)
	}
	var curve pumpfun.BondingCurve
	if err := curve.Decode(ca.Data); err != nil {
		return sol.PublicKey{}, fmt.Errorf("curve of %s: %w", mint, err)
	}
	var g pumpfun.Global
	if ga := c.accounts[pumpfun.GlobalPDA]; ga == nil || g.Decode(ga.Data) != nil {
		return sol.PublicKey{}, errors.New("the pump.fun Global account is missing")
	}
	baseProg := ma.Owner
	curveATAKey := associatedTokenAddress(curveKey, baseProg, mint)
	curveATA := c.accounts[curveATAKey]
	if curveATA == nil {
		return sol.PublicKey{}, fmt.Errorf("the curve of %s holds no tokens: %w", mint, ErrNotFound)
	}
	curveATA = curveATA.clone()
	onCurve := tokAccAmount(curveATA.Data)
	ca = ca.clone()

	fresh := !quoteMint.IsZero()
	var baseAmount, quoteAmount uint64
	if fresh {
		if curve.Complete {
			return sol.PublicKey{}, fmt.Errorf("%w: the curve of %s has completed", ErrNotGraduable, mint)
		}
		sold := min(curve.RealTokenReserves, onCurve)
		baseAmount = onCurve - sold
		quoteAmount = liquidity
		holder := associatedTokenAddress(buyer, baseProg, mint)
		h := c.accounts[holder]
		if h == nil {
			h = newTokenAccount(baseProg, mint, buyer, 0)
		} else {
			h = h.clone()
		}
		setTokAccAmount(h.Data, tokAccAmount(h.Data)+sold)
		c.accounts[holder] = h
		curve.RealTokenReserves = 0
		curve.Complete = true
		if quoteMint != nativeMintID {
			curve.QuoteMint = quoteMint
		}
	} else {
		if !curve.Complete {
			return sol.PublicKey{}, fmt.Errorf("%w: the curve of %s has not completed", ErrNotGraduable, mint)
		}
		if curve.RealQuoteReserves == 0 {
			return sol.PublicKey{}, fmt.Errorf("%w: the curve of %s has migrated", ErrNotGraduable, mint)
		}
		quoteMint = nativeMintID
		if !curve.QuoteMint.IsZero() {
			quoteMint = curve.QuoteMint
		}
		if quoteMint != nativeMintID {
			return sol.PublicKey{}, fmt.Errorf("%w: the curve of %s is not quoted in SOL", ErrNotGraduable, mint)
		}
		baseAmount = onCurve
		fee := min(g.PoolMigrationFee, curve.RealQuoteReserves)
		quoteAmount = curve.RealQuoteReserves - fee
		if ca.Lamports < curve.RealQuoteReserves {
			return sol.PublicKey{}, fmt.Errorf("the curve of %s holds %d lamports, less than its real reserves", mint, ca.Lamports)
		}
		ca.Lamports -= curve.RealQuoteReserves
		if fee > 0 {
			w := c.accounts[g.WithdrawAuthority]
			if w == nil {
				w = &Account{Owner: systemProgramID}
			} else {
				w = w.clone()
			}
			w.Lamports += fee
			c.accounts[g.WithdrawAuthority] = w
		}
		curve.RealQuoteReserves = 0
	}
	qm := c.accounts[quoteMint]
	if qm == nil || !isTokenProgram(qm.Owner) {
		return sol.PublicKey{}, fmt.Errorf("quote mint %s: %w", quoteMint, ErrNotFound)
	}
	authority := pumpswap.PumpPoolAuthorityPDA(mint)
	pool, err := c.putPoolLocked(directPool{
		creator: authority, base: mint, quote: quoteMint, baseProgram: baseProg, quoteProgram: qm.Owner,
		coinCreator: curve.Creator, baseAmount: baseAmount, quoteAmount: quoteAmount, lpOwner: authority,
	})
	if err != nil {
		return pool, err
	}
	if fresh && quoteMint != nativeMintID {
		qm = qm.clone()
		setMintSupply(qm.Data, mintSupply(qm.Data)+quoteAmount)
		c.accounts[quoteMint] = qm
	}
	setTokAccAmount(curveATA.Data, 0)
	c.accounts[curveATAKey] = curveATA
	writeCurve(ca, &curve)
	c.accounts[curveKey] = ca
	c.changes++
	return pool, nil
}

func rpcDevnetCreatePumpSwapCoin(c *Chain, p rpcParams) (any, *rpcError) {
	var req struct {
		Creator   string     `json:"creator"`
		Name      string     `json:"name"`
		Symbol    string     `json:"symbol"`
		QuoteMint string     `json:"quoteMint"`
		Liquidity flexUint64 `json:"liquidity"`
	}
	if err := p.decode(0, &req); err != nil {
		return nil, err
	}
	creator, rerr := parseKeyParam("creator", req.Creator)
	if rerr != nil {
		return nil, rerr
	}
	quote := nativeMintID
	if req.QuoteMint != "" {
		if quote, rerr = parseKeyParam("quoteMint", req.QuoteMint); rerr != nil {
			return nil, rerr
		}
	}
	coin, err := c.CreatePumpSwapCoin(creator, req.Name, req.Symbol, quote, uint64(req.Liquidity))
	if errors.Is(err, ErrNotFound) {
		return nil, invalidParams("Invalid params: %v", err)
	}
	if err != nil {
		return nil, &rpcError{Code: rpcInternal, Message: err.Error()}
	}
	return map[string]string{
		"mint": coin.Mint.String(), "bondingCurve": coin.BondingCurve.String(), "pool": coin.Pool.String(),
		"quoteMint": coin.QuoteMint.String(), "signature": coin.Signature.String(),
	}, nil
}

func rpcDevnetGraduate(c *Chain, p rpcParams) (any, *rpcError) {
	var req struct {
		Mint string `json:"mint"`
	}
	if err := p.decode(0, &req); err != nil {
		return nil, err
	}
	mint, rerr := parseKeyParam("mint", req.Mint)
	if rerr != nil {
		return nil, rerr
	}
	pool, err := c.GraduateCoin(mint)
	if err != nil {
		return nil, invalidParams("Invalid params: %v", err)
	}
	return map[string]string{"pool": pool.String()}, nil
}

func rpcDevnetQuoteAssets(c *Chain, _ rpcParams) (any, *rpcError) {
	return map[string]any{
		"mints":         map[string]string{"SOL": nativeMintID.String(), "USDC": USDCMint.String(), "USD1": USD1Mint.String()},
		"stableSolPool": StableSOLPool.String(),
		"tipAccounts":   keyStrings(c.cfg.TipAccounts),
	}, nil
}

func keyStrings(keys []sol.PublicKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}
