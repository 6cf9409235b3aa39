package solana

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// Chain constants the balance check uses.
const (
	lamportsPerSignature = 5000
	// Rent-exempt minimum: two years of rent at 3480 lamports per byte-year
	// over the data plus 128 bytes of account overhead.
	rentLamportsPerByte = 3480 * 2
	accountOverhead     = 128

	splTokenAccountSize = 165
	// An associated Token-2022 account carries the ImmutableOwner
	// extension: account type byte plus a 4-byte TLV header.
	token2022AccountSize = 170

	mintSize = 82
	// maxAccountsPerCall is getMultipleAccounts' limit.
	maxAccountsPerCall = 100
)

func rentExempt(size uint64) uint64 { return (size + accountOverhead) * rentLamportsPerByte }

func tokenAccountSize(program sol.PublicKey) uint64 {
	if program == pumpfun.Token2022ProgramID {
		return token2022AccountSize
	}
	return splTokenAccountSize
}

// add sums lamport amounts, saturating: a sum past uint64 is more than any
// wallet holds.
func add(vs ...uint64) uint64 {
	var sum uint64
	for _, v := range vs {
		if sum+v < sum {
			return math.MaxUint64
		}
		sum += v
	}
	return sum
}

// market is what one job reads about the token.
type market struct {
	global    *pumpfun.Global
	feeConfig *pumpfun.FeeConfig // nil: Global's rates apply
	// stateErr is why Global could not be read: it fails a trade on the
	// curve, once the venue's gate let it through (a venue paused for it
	// answers VENUE_PAUSED), and nothing else, since a coin's pool or a
	// launchpad's curve does not need it.
	stateErr error

	mint         sol.PublicKey
	curveAddr    sol.PublicKey
	curveFound   bool
	curve        pumpfun.BondingCurve
	mintFound    bool
	tokenProgram sol.PublicKey
	decimals     uint8
	mintSupply   uint64

	creatorVault     sol.PublicKey
	creatorVaultRent uint64 // what a buy adds to make the vault rent-exempt

	// address is the account the job's address names, as read: a mint, or
	// a PumpSwap pool.
	address *rpc.Account

	blockhash            sol.Hash
	lastValidBlockHeight uint64

	solUSD    prefetched[float64] // USD per SOL, when the order has bounds
	autoPrice prefetched[uint64]  // compute-unit price, when it has auto_tip
}

// prefetched is a value an order may need, read beside its market so that
// it costs no round trip of its own. Its error counts only where the order
// uses the value, as when the value was read there.
type prefetched[T any] struct {
	v   T
	err error
}

// graduated tells where a job whose address is not a live curve trades: the
// pool the address names, or the canonical PumpSwap pool of a coin whose
// curve has completed (quoted in the curve's quote mint, WSOL for SOL).
// why says which, for the batch's route.
func (m *market) graduated() (pool sol.PublicKey, why string, ok bool) {
	if a := m.address; a != nil && a.Owner == pumpswap.ProgramID {
		if d := data(a); len(d) >= 8 && pumpswap.Discriminator(d[:8]) == pumpswap.PoolDiscriminator {
			return m.mint, "the pool the address names", true
		}
	}
	if m.curveFound && m.mintFound && m.curve.Complete {
		return m.graduationPool(pumpswap.CanonicalPoolPDA), "graduated from its pump.fun curve", true
	}
	return sol.PublicKey{}, "", false
}

// graduationPool is the PumpSwap pool the curve's coin moves to when the
// curve completes: its canonical pool in the curve's quote mint (WSOL for
// SOL), derived by derive.
func (m *market) graduationPool(derive func(mint, quote sol.PublicKey) sol.PublicKey) sol.PublicKey {
	quote := m.curve.QuoteMint
	if pumpfun.IsSOLLikeQuote(quote) {
		quote = pumpswap.WrappedSOLMint
	}
	return derive(m.mint, quote)
}

// tradable returns TOKEN_NOT_FOUND unless the token is a SOL-quoted pump.fun
// coin still on its curve.
func (m *market) tradable(token string) error {
	switch {
	case !m.curveFound || !m.mintFound:
		return notTraded(token)
	case m.curve.Complete || m.curve.VirtualTokenReserves == 0:
		return apierr.Newf(apierr.TokenNotFound, token, "the bonding curve of %s is complete", token)
	case !pumpfun.IsSOLLikeQuote(m.curve.QuoteMint):
		return apierr.Newf(apierr.TokenNotFound, token, "the bonding curve of %s is not quoted in SOL", token)
	}
	return nil
}

// notTraded is the TOKEN_NOT_FOUND of a token with neither a pump.fun
// curve nor a PumpSwap pool.
func notTraded(token string) error {
	return apierr.Newf(apierr.TokenNotFound, token, "no pump.fun bonding curve, PumpSwap pool, LaunchLab pool or Meteora DBC pool for %s", token)
}

// stateCache keeps Global and FeeConfig for Config.StateTTL.
type stateCache struct {
	mu        sync.Mutex
	global    *pumpfun.Global
	feeConfig *pumpfun.FeeConfig
	at        time.Time
}

func (c *stateCache) get(now time.Time, ttl time.Duration) (*pumpfun.Global, *pumpfun.FeeConfig, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.global == nil || now.Sub(c.at) >= ttl {
		return nil, nil, false
	}
	return c.global, c.feeConfig, true
}

func (c *stateCache) put(now time.Time, g *pumpfun.Global, fc *pumpfun.FeeConfig) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.global, c.feeConfig, c.at = g, fc, now
}

// mintFacts are what a job needs to know of a mint before it can name the
// wallets' accounts: the token program owning it and the curve's creator.
type mintFacts struct {
	tokenProgram sol.PublicKey
	creator      sol.PublicKey
}

// readMarket reads the curve and the mint (and Global and FeeConfig when
// the cached copies are stale) in one getMultipleAccounts, concurrently
// with the SOL/USD price when the order has bounds and the prioritization
// fees when it has auto_tip, and takes the latest blockhash from the cache
// (read concurrently too when the cached one is too old). With a guess of
// the mint's facts the same call also reads the wallets' accounts, returned
// for applyWallets.
func (s *Signer) readMarket(ctx context.Context, o *order, guess *mintFacts) (*market, []*rpc.Account, error) {
	mint := o.mint
	m := &market{mint: mint, curveAddr: s.pdas.bondingCurve(mint)}
	global, feeConfig, cached := s.state.get(s.now(), s.cfg.StateTTL)
	keys := []sol.PublicKey{m.curveAddr, mint}
	if !cached {
		keys = append(keys, pumpfun.GlobalPDA, pumpfun.FeeConfigPDA)
	}
	walletsAt := len(keys)
	if guess != nil {
		keys = append(keys, s.walletKeys(m, o, guess.tokenProgram, guess.creator)...)
	}

	accounts, hash, err := s.readBeside(ctx, o, m.curveAddr, keys, &m.solUSD, &m.autoPrice)
	if err != nil {
		return nil, nil, err
	}
	m.blockhash, m.lastValidBlockHeight = hash.hash, hash.lastValid

	if !cached {
		if global, feeConfig, err = decodeState(accounts[2], accounts[3]); err == nil {
			s.state.put(s.now(), global, feeConfig)
		}
		m.stateErr = err
	}
	m.global, m.feeConfig = global, feeConfig

	if a := accounts[0]; a != nil && a.Owner == pumpfun.ProgramID && m.curve.Decode(data(a)) == nil {
		m.curveFound = true
	}
	m.address = accounts[1]
	if a := accounts[1]; a != nil && (a.Owner == pumpfun.TokenProgramID || a.Owner == pumpfun.Token2022ProgramID) {
		if d := data(a); len(d) >= mintSize && d[45] == 1 {
			m.mintFound = true
			m.tokenProgram = a.Owner
			m.mintSupply = binary.LittleEndian.Uint64(d[36:44])
			m.decimals = d[44]
		}
	}
	if guess != nil {
		return m, accounts[walletsAt:], nil
	}
	return m, nil, nil
}

// readBeside reads keys with the latest blockhash (see readWithBlockhash)
// and, beside them, the SOL/USD price when the order has bounds and the
// prioritization fees of feeAccount when it has auto_tip: none of those
// depends on what the accounts hold.
func (s *Signer) readBeside(ctx context.Context, o *order, feeAccount sol.PublicKey, keys []sol.PublicKey,
	solUSD *prefetched[float64], autoPrice *prefetched[uint64]) ([]*rpc.Account, recentBlockhash, error) {
	var accounts []*rpc.Account
	hash, err := s.readWithBlockhash(ctx, func(ctx context.Context) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var side sync.WaitGroup
		// A panic of either read (guard) is its error, a defect the
		// worker answers as one.
		if o.bounds.any() && solUSD != nil {
			side.Go(func() {
				solUSD.err = guard.Run(func() (err error) { solUSD.v, err = s.solUSD(ctx); return err })
			})
		}
		if o.autoTip {
			side.Go(func() {
				autoPrice.err = guard.Run(func() (err error) {
					autoPrice.v, err = s.autoPrice(ctx, []sol.PublicKey{feeAccount})
					return err
				})
			})
		}
		var err error
		if accounts, err = s.getAccounts(ctx, keys); err != nil {
			cancel()
		}
		side.Wait()
		return err
	})
	return accounts, hash, err
}

// latestBlockhash asks the chain for the latest blockhash and the last
// block height at which it is valid. Swaps take it through s.hashes.
func (s *Signer) latestBlockhash(ctx context.Context) (sol.Hash, uint64, error) {
	cctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	res, err := s.rpc.GetLatestBlockhash(cctx, s.cfg.Commitment)
	if err != nil {
		return sol.Hash{}, 0, fmt.Errorf("get latest blockhash: %w", err)
	}
	if res == nil || res.Value == nil {
		return sol.Hash{}, 0, fmt.Errorf("get latest blockhash: empty result")
	}
	return res.Value.Blockhash, res.Value.LastValidBlockHeight, nil
}

// decodeState decodes Global, which must exist, and FeeConfig, which may
// not (the program then charges Global's rates).
func decodeState(globalAcc, feeAcc *rpc.Account) (*pumpfun.Global, *pumpfun.FeeConfig, error) {
	g, err := requiredAccount[pumpfun.Global](globalAcc, pumpfun.ProgramID, pumpfun.GlobalPDA, "pump.fun global account")
	if err != nil {
		return nil, nil, err
	}
	fc, err := optionalAccount[pumpfun.FeeConfig](feeAcc, pumpfun.FeeProgramID, pumpfun.FeeConfigPDA, "pump.fun fee config")
	if err != nil {
		return nil, nil, err
	}
	return g, fc, nil
}

// walletKeys lists the accounts a job reads for its wallets: the creator
// vault, then per leg the wallet, its token account and its user volume
// accumulator. It sets the vault and the legs' account addresses.
func (s *Signer) walletKeys(m *market, o *order, tokenProgram, creator sol.PublicKey) []sol.PublicKey {
	m.creatorVault = s.pdas.creatorVault(creator)
	keys := make([]sol.PublicKey, 0, 1+3*len(o.legs))
	keys = append(keys, m.creatorVault)
	for i := range o.legs {
		l := &o.legs[i]
		l.ata = s.pdas.ata(l.wallet, o.mint, tokenProgram)
		l.uva = s.pdas.userVolumeAccumulator(l.wallet)
		keys = append(keys, l.wallet, l.ata, l.uva)
	}
	return keys
}

// readWallets reads, for every leg, the wallet (its lamports), its token
// account for the mint and its user volume accumulator, and the curve's
// creator vault, in as few getMultipleAccounts as the RPC limit allows.
func (s *Signer) readWallets(ctx context.Context, m *market, o *order) error {
	accounts, err := s.getAccounts(ctx, s.walletKeys(m, o, m.tokenProgram, m.curve.Creator))
	if err != nil {
		return err
	}
	s.applyWallets(m, o, accounts)
	return nil
}

// applyWallets takes what was read for walletKeys into the market and legs.
func (s *Signer) applyWallets(m *market, o *order, accounts []*rpc.Account) {
	var vault uint64
	if a := accounts[0]; a != nil {
		vault = a.Lamports
	}
	if min := rentExempt(0); vault < min {
		m.creatorVaultRent = min - vault
	}
	for i := range o.legs {
		l := &o.legs[i]
		w, ata, uva := accounts[1+3*i], accounts[2+3*i], accounts[3+3*i]
		if w != nil {
			l.balance = w.Lamports
		}
		if ata != nil && ata.Owner == m.tokenProgram {
			l.ataExists, l.ataLamports = true, ata.Lamports
			if d := data(ata); len(d) >= 72 && sol.PublicKeyFromBytes(d[:32]) == o.mint {
				l.tokens = binary.LittleEndian.Uint64(d[64:72])
				l.closable = closableTokenAccount(ata, l.wallet)
			}
		}
		l.uvaExists = uva != nil && uva.Owner == pumpfun.ProgramID
	}
}

// getAccounts reads keys in chunks of the RPC limit, concurrently, and
// returns one entry per key (nil for a missing account). Keys that fit one
// call, as an order's usually do, are read on the caller's goroutine.
func (s *Signer) getAccounts(ctx context.Context, keys []sol.PublicKey) ([]*rpc.Account, error) {
	out := make([]*rpc.Account, len(keys))
	if len(keys) <= maxAccountsPerCall {
		if err := s.getChunk(ctx, keys, out); err != nil {
			return nil, err
		}
		return out, nil
	}
	g, gctx := guard.WithContext(ctx)
	for start := 0; start < len(keys); start += maxAccountsPerCall {
		end := min(start+maxAccountsPerCall, len(keys))
		g.Go(func() error { return s.getChunk(gctx, keys[start:end], out[start:end]) })
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// getChunk reads keys, at most the RPC limit, in one getMultipleAccounts
// into out.
func (s *Signer) getChunk(ctx context.Context, keys []sol.PublicKey, out []*rpc.Account) error {
	cctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	res, err := s.rpc.GetMultipleAccountsWithOpts(cctx, keys, &rpc.GetMultipleAccountsOpts{
		Encoding:       sol.EncodingBase64,
		Commitment:     s.cfg.Commitment,
		MinContextSlot: minSlotOf(ctx),
	})
	if err != nil {
		return fmt.Errorf("get %d accounts: %w", len(keys), err)
	}
	if res == nil || len(res.Value) != len(keys) {
		return fmt.Errorf("get %d accounts: malformed result", len(keys))
	}
	noteReadSlot(ctx, res.Context.Slot)
	copy(out, res.Value)
	return nil
}

func data(a *rpc.Account) []byte {
	if a == nil || a.Data == nil {
		return nil
	}
	return a.Data.GetBinary()
}
