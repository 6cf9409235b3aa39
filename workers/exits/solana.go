package exits

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/capped"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// SolanaRPC is the part of a Solana JSON-RPC client the engine reads with;
// *rpc.Client implements it.
type SolanaRPC interface {
	GetMultipleAccountsWithOpts(ctx context.Context, accounts []sol.PublicKey, opts *rpc.GetMultipleAccountsOpts) (*rpc.GetMultipleAccountsResult, error)
	GetTransaction(ctx context.Context, sig sol.Signature, opts *rpc.GetTransactionOpts) (*rpc.GetTransactionResult, error)
}

// Solana reads fills, balances and prices of pump.fun curves, PumpSwap
// pools, LaunchLab (letsbonk) curves and DBC (bags) virtual pools.
type Solana struct {
	rpc     SolanaRPC
	timeout time.Duration
	mints   capped.Cache[sol.PublicKey, mintFacts]
	configs capped.Cache[sol.PublicKey, *dbc.PoolConfig]
}

// mintFacts are what never changes about a mint.
type mintFacts struct {
	program  sol.PublicKey
	decimals uint8
}

// NewSolana returns the Solana chain of the engine; every call is bounded
// by timeout.
func NewSolana(c SolanaRPC, timeout time.Duration) *Solana {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	return &Solana{rpc: c, timeout: timeout}
}

func (s *Solana) accounts(ctx context.Context, keys ...sol.PublicKey) ([]*rpc.Account, error) {
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	res, err := s.rpc.GetMultipleAccountsWithOpts(cctx, keys, &rpc.GetMultipleAccountsOpts{
		Encoding: sol.EncodingBase64, Commitment: rpc.CommitmentConfirmed})
	if err != nil {
		return nil, fmt.Errorf("get %d accounts: %w", len(keys), err)
	}
	if res == nil || len(res.Value) != len(keys) {
		return nil, fmt.Errorf("get %d accounts: malformed result", len(keys))
	}
	return res.Value, nil
}

func accountData(a *rpc.Account) []byte {
	if a == nil || a.Data == nil {
		return nil
	}
	return a.Data.GetBinary()
}

// mint returns a mint's token program and decimals, read once.
func (s *Solana) mint(ctx context.Context, mint sol.PublicKey) (mintFacts, error) {
	f, ok := s.mints.Get(mint)
	if ok {
		return f, nil
	}
	acc, err := s.accounts(ctx, mint)
	if err != nil {
		return mintFacts{}, err
	}
	a := acc[0]
	d := accountData(a)
	if a == nil || (a.Owner != pumpfun.TokenProgramID && a.Owner != pumpfun.Token2022ProgramID) || len(d) < 82 {
		return mintFacts{}, fmt.Errorf("%s is not a token mint", mint)
	}
	f = mintFacts{program: a.Owner, decimals: d[44]}
	s.mints.Put(mint, f)
	return f, nil
}

// observe reads keys and, when devATA is set, the dev's token account after
// them, in one getMultipleAccounts; the observation holds the dev's balance.
func (s *Solana) observe(ctx context.Context, devATA sol.PublicKey, keys ...sol.PublicKey) ([]*rpc.Account, Observation, error) {
	if !devATA.IsZero() {
		keys = append(keys, devATA)
	}
	acc, err := s.accounts(ctx, keys...)
	if err != nil {
		return nil, Observation{}, err
	}
	obs := Observation{At: time.Now()}
	if !devATA.IsZero() {
		obs.DevBalance = new(big.Int).SetUint64(tokenAmount(acc[len(acc)-1]))
	}
	return acc, obs, nil
}

// tokenAmount reads a token account's amount; a missing account holds 0.
func tokenAmount(a *rpc.Account) uint64 {
	d := accountData(a)
	if len(d) < 72 {
		return 0
	}
	return binary.LittleEndian.Uint64(d[64:72])
}

func (s *Solana) ata(ctx context.Context, owner, mint sol.PublicKey) (sol.PublicKey, error) {
	f, err := s.mint(ctx, mint)
	if err != nil {
		return sol.PublicKey{}, err
	}
	return pumpfun.AssociatedTokenAddress(owner, mint, f.program), nil
}

// Balance implements Chain.
func (s *Solana) Balance(ctx context.Context, wallet, token string) (*big.Int, error) {
	owner, err := sol.PublicKeyFromBase58(wallet)
	if err != nil {
		return nil, fmt.Errorf("wallet %q: %w", wallet, err)
	}
	mint, err := sol.PublicKeyFromBase58(token)
	if err != nil {
		return nil, fmt.Errorf("token %q: %w", token, err)
	}
	ata, err := s.ata(ctx, owner, mint)
	if err != nil {
		return nil, err
	}
	acc, err := s.accounts(ctx, ata)
	if err != nil {
		return nil, err
	}
	return new(big.Int).SetUint64(tokenAmount(acc[0])), nil
}

// Fill implements Chain: the venue's trade event names the mint or pool,
// the creator and the quote paid; the wallet's token balances before and
// after give what it received. pump.fun and PumpSwap events are read from
// the logs, LaunchLab and DBC events from the inner instructions. A creator
// that is the buying wallet itself is marked DevOwned: its sales are the
// position's own.
func (s *Solana) Fill(ctx context.Context, signature, wallet, _ string, _ bool, _ func(string) bool) (*Fill, error) {
	sig, err := sol.SignatureFromBase58(signature)
	if err != nil {
		return nil, fmt.Errorf("signature %q: %w", signature, err)
	}
	user, err := sol.PublicKeyFromBase58(wallet)
	if err != nil {
		return nil, fmt.Errorf("wallet %q: %w", wallet, err)
	}
	tx, err := s.transaction(ctx, sig)
	if err != nil {
		return nil, err
	}
	f, err := s.fillFromLogs(ctx, tx.Meta.LogMessages, user)
	if errors.Is(err, ErrNoTrade) {
		f, err = s.fillFromEvents(ctx, tx, user)
	}
	if err != nil {
		return nil, err
	}
	mint := sol.MustPublicKeyFromBase58(f.Token)
	pre, post := ownerBalance(tx.Meta.PreTokenBalances, user, mint), ownerBalance(tx.Meta.PostTokenBalances, user, mint)
	f.Received = new(big.Int).Sub(post, pre)
	f.In = solanaPlace(tx.Slot, false)
	mf, err := s.mint(ctx, mint)
	if err != nil {
		return nil, err
	}
	f.Decimals = mf.decimals
	if f.Dev != "" {
		// A coin bought by the wallet that launched it: the position's
		// own exits would lower the "creator's" holding and fire its
		// dev_sell. Another wallet of the account that launched it stays
		// a creator to watch (a bot's snipers following its launch
		// wallet's sales). The creator stays the position's Dev, which
		// the token's market watches for other positions.
		f.DevOwned = f.Dev == wallet
		if f.DevBalance, err = s.Balance(ctx, f.Dev, f.Token); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Sale implements Chain: the sale's slot, and the wallet's balance of the
// token after it from the transaction's own token balances (none listed:
// its token account closed, nothing held).
func (s *Solana) Sale(ctx context.Context, signature, wallet, token string) (Sale, error) {
	sig, err := sol.SignatureFromBase58(signature)
	if err != nil {
		return Sale{}, fmt.Errorf("signature %q: %w", signature, err)
	}
	user, err := sol.PublicKeyFromBase58(wallet)
	if err != nil {
		return Sale{}, fmt.Errorf("wallet %q: %w", wallet, err)
	}
	mint, err := sol.PublicKeyFromBase58(token)
	if err != nil {
		return Sale{}, fmt.Errorf("token %q: %w", token, err)
	}
	tx, err := s.transaction(ctx, sig)
	if err != nil {
		return Sale{}, err
	}
	return Sale{In: solanaPlace(tx.Slot, true), Balance: ownerBalance(tx.Meta.PostTokenBalances, user, mint)}, nil
}

// solanaPlace is where a transaction landed on Solana, for the order of a
// wallet's buys and sales (Fill.In, Sale.In): its slot doubled, a buy's one
// more, so that of a buy and a sale in one slot, whose order the node does
// not tell, the sale counts first: a bot that buys again right after an
// exit's sale, in the same slot, keeps its new position whole. (A sale
// after a buy in one slot then bounds that buy's position only by the
// wallet's balance when its event is handled, as before sales were kept.)
func solanaPlace(slot uint64, sale bool) uint64 {
	if sale {
		return 2 * slot
	}
	return 2*slot + 1
}

// transaction reads a confirmed transaction with its meta.
func (s *Solana) transaction(ctx context.Context, sig sol.Signature) (*rpc.GetTransactionResult, error) {
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	v := uint64(0)
	tx, err := s.rpc.GetTransaction(cctx, sig, &rpc.GetTransactionOpts{Encoding: sol.EncodingBase64,
		Commitment: rpc.CommitmentConfirmed, MaxSupportedTransactionVersion: &v})
	if err != nil {
		return nil, fmt.Errorf("get transaction: %w", err)
	}
	if tx == nil || tx.Meta == nil {
		return nil, errors.New("transaction not found")
	}
	return tx, nil
}

// fillFromLogs finds the wallet's buy among the events a transaction logged.
func (s *Solana) fillFromLogs(ctx context.Context, logs []string, user sol.PublicKey) (*Fill, error) {
	const prefix = "Program data: "
	for _, line := range logs {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(line, prefix))
		if err != nil || len(raw) < 8 {
			continue
		}
		var trade pumpfun.TradeEvent
		if pumpfun.Discriminator(raw[:8]) == pumpfun.TradeEventDiscriminator && trade.Decode(raw) == nil &&
			trade.IsBuy && trade.User == user {
			quote, qdec, sym := trade.SolAmount, uint8(9), "SOL"
			if !pumpfun.IsSOLLikeQuote(trade.QuoteMint) {
				qf, err := s.mint(ctx, trade.QuoteMint)
				if err != nil {
					return nil, err
				}
				quote, qdec, sym = trade.QuoteAmount, qf.decimals, ""
			}
			spent := new(big.Int).SetUint64(quote)
			spent.Add(spent, new(big.Int).SetUint64(trade.Fee))
			spent.Add(spent, new(big.Int).SetUint64(trade.CreatorFee))
			f := &Fill{Token: trade.Mint.String(), Venue: wire.VenuePumpFun, QuoteAsset: orSOL(sym), QuoteDecimals: qdec,
				Spent: spent, PoolIn: new(big.Int).SetUint64(quote), PoolOut: new(big.Int).SetUint64(trade.TokenAmount)}
			if !trade.Creator.IsZero() {
				f.Dev = trade.Creator.String()
			}
			return f, nil
		}
		var buy pumpswap.BuyEvent
		if pumpswap.Discriminator(raw[:8]) == pumpswap.BuyEventDiscriminator && buy.Decode(raw) == nil && buy.User == user {
			pool, err := s.pool(ctx, buy.Pool)
			if err != nil {
				return nil, err
			}
			qf, err := s.mint(ctx, pool.QuoteMint)
			if err != nil {
				return nil, err
			}
			f := &Fill{Token: pool.BaseMint.String(), Venue: wire.VenuePumpSwap, Pool: buy.Pool.String(),
				QuoteAsset: "SOL", QuoteDecimals: qf.decimals, Spent: new(big.Int).SetUint64(buy.UserQuoteAmountIn),
				PoolIn: new(big.Int).SetUint64(buy.QuoteAmountIn), PoolOut: new(big.Int).SetUint64(buy.BaseAmountOut)}
			if !pool.CoinCreator.IsZero() {
				f.Dev = pool.CoinCreator.String()
			}
			return f, nil
		}
	}
	return nil, fmt.Errorf("%w: no pump.fun or PumpSwap buy in its logs", ErrNoTrade)
}

// orSOL: a sell names SOL as its quote whatever the pool's quote is; the
// worker pays out the pool's own quote.
func orSOL(sym string) string {
	if sym == "" {
		return "SOL"
	}
	return sym
}

func ownerBalance(list []rpc.TokenBalance, owner, mint sol.PublicKey) *big.Int {
	v := new(big.Int)
	for _, b := range list {
		if b.Owner == nil || *b.Owner != owner || b.Mint != mint || b.UiTokenAmount == nil {
			continue
		}
		if n, ok := new(big.Int).SetString(b.UiTokenAmount.Amount, 10); ok {
			v.Add(v, n)
		}
	}
	return v
}

func (s *Solana) pool(ctx context.Context, addr sol.PublicKey) (*pumpswap.Pool, error) {
	acc, err := s.accounts(ctx, addr)
	if err != nil {
		return nil, err
	}
	d := accountData(acc[0])
	if acc[0] == nil || acc[0].Owner != pumpswap.ProgramID || len(d) < 8 || pumpswap.Discriminator(d[:8]) != pumpswap.PoolDiscriminator {
		return nil, fmt.Errorf("%s is not a PumpSwap pool", addr)
	}
	p := new(pumpswap.Pool)
	if err := p.Decode(d); err != nil {
		return nil, fmt.Errorf("decode pool %s: %w", addr, err)
	}
	return p, nil
}

// SellLeg implements Chain: Solana sells the exact token quantity.
func (s *Solana) SellLeg(_ context.Context, p *wire.Position, amount *big.Int, _ bool) (string, string, error) {
	return wire.SellTokens, money.Format(amount, int(p.Decimals)), nil
}

// Market implements Chain: a coin on its pump.fun curve is priced by the
// curve's virtual reserves and moves to its canonical pool when the curve
// completes; a pool by its vaults (and virtual quote reserves); a coin on
// its LaunchLab or DBC curve by its pool until it migrates.
func (s *Solana) Market(p *wire.Position) (Market, error) {
	mint, err := sol.PublicKeyFromBase58(p.Token)
	if err != nil {
		return nil, fmt.Errorf("token %q: %w", p.Token, err)
	}
	m := &solMarket{s: s, mint: mint, decimals: p.Decimals}
	if p.Dev != "" {
		if m.dev, err = sol.PublicKeyFromBase58(p.Dev); err != nil {
			return nil, fmt.Errorf("dev %q: %w", p.Dev, err)
		}
	}
	if p.Venue == wire.VenueLaunchLab || p.Venue == wire.VenueDBC {
		return s.curveMarket(p, mint, m.dev)
	}
	if p.Venue == wire.VenuePumpSwap {
		if m.pool, err = sol.PublicKeyFromBase58(p.Pool); err != nil {
			return nil, fmt.Errorf("pool %q: %w", p.Pool, err)
		}
	}
	return m, nil
}

// solMarket reads one Solana token: its curve, or its pool once known.
type solMarket struct {
	s        *Solana
	mint     sol.PublicKey
	decimals uint8
	dev      sol.PublicKey
	devATA   sol.PublicKey

	pool                  sol.PublicKey // zero while on the curve
	baseVault, quoteVault sol.PublicKey
	quoteDecimals         uint8
	// graduated is set once the coin is known to trade on its canonical
	// PumpSwap pool: its curve completed, or the pool read is that one.
	graduated bool
}

// sellVenue implements sellVenuer: a coin that left its pump.fun curve
// sells on PumpSwap, whatever venue its position was bought on.
func (m *solMarket) sellVenue() string {
	if m.graduated {
		return wire.VenuePumpSwap
	}
	return ""
}

// Observe implements Market with one getMultipleAccounts.
func (m *solMarket) Observe(ctx context.Context) (Observation, error) {
	if !m.dev.IsZero() && m.devATA.IsZero() {
		ata, err := m.s.ata(ctx, m.dev, m.mint)
		if err != nil {
			return Observation{}, err
		}
		m.devATA = ata
	}
	if !m.pool.IsZero() && m.baseVault.IsZero() {
		if err := m.learnPool(ctx); err != nil {
			return Observation{}, err
		}
	}
	var keys []sol.PublicKey
	if m.pool.IsZero() {
		keys = []sol.PublicKey{pumpfun.BondingCurvePDA(m.mint)}
	} else {
		keys = []sol.PublicKey{m.pool, m.baseVault, m.quoteVault}
	}
	acc, obs, err := m.s.observe(ctx, m.devATA, keys...)
	if err != nil {
		return Observation{}, err
	}
	if m.pool.IsZero() {
		return m.curvePrice(ctx, acc[0], obs)
	}
	var pool pumpswap.Pool
	if err := pool.Decode(accountData(acc[0])); err != nil {
		return Observation{}, fmt.Errorf("decode pool %s: %w", m.pool, err)
	}
	r := pumpswap.Reserves{Base: tokenAmount(acc[1]), Quote: tokenAmount(acc[2]), Virtual: pool.VirtualQuoteReserves}
	obs.Price = wholePrice(r.EffectiveQuote(), new(big.Int).SetUint64(r.Base), m.quoteDecimals, m.decimals)
	if obs.Price == nil {
		return Observation{}, fmt.Errorf("pool %s holds no tokens", m.pool)
	}
	return obs, nil
}

func (m *solMarket) curvePrice(ctx context.Context, a *rpc.Account, obs Observation) (Observation, error) {
	var c pumpfun.BondingCurve
	if a == nil || c.Decode(accountData(a)) != nil {
		return Observation{}, fmt.Errorf("no bonding curve for %s", m.mint)
	}
	if c.Complete || c.VirtualTokenReserves == 0 {
		// Graduated: the coin trades on its canonical pool from now on.
		quote := c.QuoteMint
		if pumpfun.IsSOLLikeQuote(quote) {
			quote = pumpswap.WrappedSOLMint
		}
		m.pool = pumpswap.CanonicalPoolPDA(m.mint, quote)
		m.graduated = true
		return m.Observe(ctx)
	}
	qdec := uint8(9)
	if !pumpfun.IsSOLLikeQuote(c.QuoteMint) {
		qf, err := m.s.mint(ctx, c.QuoteMint)
		if err != nil {
			return Observation{}, err
		}
		qdec = qf.decimals
	}
	obs.Price = wholePrice(new(big.Int).SetUint64(c.VirtualQuoteReserves), new(big.Int).SetUint64(c.VirtualTokenReserves), qdec, m.decimals)
	return obs, nil
}

func (m *solMarket) learnPool(ctx context.Context) error {
	p, err := m.s.pool(ctx, m.pool)
	if err != nil {
		return err
	}
	qf, err := m.s.mint(ctx, p.QuoteMint)
	if err != nil {
		return err
	}
	m.baseVault, m.quoteVault, m.quoteDecimals = p.PoolBaseTokenAccount, p.PoolQuoteTokenAccount, qf.decimals
	if m.pool == pumpswap.CanonicalPoolPDA(m.mint, p.QuoteMint) {
		// Only the curve's migration makes that pool.
		m.graduated = true
	}
	if m.dev.IsZero() && !p.CoinCreator.IsZero() {
		m.dev = p.CoinCreator
	}
	return nil
}
