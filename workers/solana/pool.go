package solana

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/guard"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// poolMarket is what one job reads about a PumpSwap pool.
type poolMarket struct {
	addr  sol.PublicKey
	facts poolFacts
	quote string // the pool's quote asset: SOL, USDC, USD1, or "" for another mint
	why   string

	pool         pumpswap.Pool
	poolLamports uint64
	// short is set for a pool shorter than what create_pool allocates now
	// (an older layout, or a newer one short of the program's 300 bytes):
	// the first transaction grows it with extend_account, as the official
	// SDK does below that size, and lands before the others are sent
	// (wire.TxBatch.FirstLandsFirst).
	short  bool
	gc     *pumpswap.GlobalConfig
	fc     *pumpswap.FeeConfig
	res    pumpswap.Reserves
	supply uint64

	feeRecipient, feeRecipientTA     sol.PublicKey
	feeTAExists                      bool
	creatorVaultAuth, creatorVaultTA sol.PublicKey
	creatorTAExists                  bool

	solUSD    float64            // USD per SOL, when the bounds needed it
	autoPrice prefetched[uint64] // compute-unit price, when the order has auto_tip

	blockhash            sol.Hash
	lastValidBlockHeight uint64
}

// solQuote reports whether the pool is quoted in SOL (WSOL), which a trade
// wraps and unwraps around the swap.
func (pm *poolMarket) solQuote() bool { return pm.quote == quoteSOL }

// amount formats base units of the pool's quote asset, "1.5 USDC".
func (pm *poolMarket) amount(units uint64) string {
	return money.Format(new(big.Int).SetUint64(units), int(pm.facts.quoteDecimals)) + " " + pm.quote
}

// signPool signs job on the PumpSwap pool at addr.
func (s *Signer) signPool(ctx context.Context, job *wire.SwapJob, o *order, addr sol.PublicKey, why string) (*wire.TxBatch, error) {
	facts, err := s.poolFactsFor(ctx, addr)
	if fe := (*feeMintError)(nil); errors.As(err, &fe) {
		return nil, apierr.Newf(apierr.TokenNotFound, job.Token, "%s", fe.Error())
	}
	if errors.Is(err, errNoPool) {
		if addr != o.mint {
			return nil, apierr.Newf(apierr.TokenNotFound, job.Token, "the bonding curve of %s is complete and its PumpSwap pool %s does not exist yet: a completed curve is migrated to it shortly, try again then (with another Idempotency-Key: this answer is kept for the one given)", job.Token, addr)
		}
		return nil, notTraded(job.Token)
	}
	if err != nil {
		return nil, err
	}
	pm := &poolMarket{addr: addr, facts: facts, quote: s.quoteAsset(facts.quoteMint), why: why}
	if err := s.checkQuote(job, o, pm); err != nil {
		return nil, err
	}
	if o.side == wire.Buy {
		// The pool's mint has the last word on the amount's decimals.
		for i := range o.legs {
			l := &o.legs[i]
			if l.spend, err = parseUnits(l.field, l.amount, pm.quote, int(facts.quoteDecimals)); err != nil {
				return nil, err
			}
		}
	}
	// One read of the pool and every wallet: the quote and the balance
	// checks below are made on one consistent view of the chain.
	if err := s.readPoolMarket(ctx, o, pm); err != nil {
		return nil, err
	}
	// The client's market filters first: a market outside them is refused
	// whatever the wallets hold.
	if err := s.checkPoolBounds(o, pm); err != nil {
		return nil, err
	}
	// Fees are fixed before planning, since every balance check counts
	// them; under auto_tip they are the market's, within the caps.
	if err := s.settleFees(o, pm.autoPrice); err != nil {
		return nil, err
	}
	// Every leg is quoted and every wallet checked before the first
	// signature, so an order is signed whole or not at all.
	if err := s.countSalesInFlight(ctx, o, pm.facts.baseMint); err != nil {
		return nil, err
	}
	if err := s.planPool(pm, o); err != nil {
		return nil, err
	}
	route := fmt.Sprintf("pumpswap pool %s quoted in %s: %s", addr, orName(pm.quote, facts.quoteMint.String()), why)
	// A coin that graduated from pump.fun is known by its bonding curve's
	// address too.
	where := traded{route: route, venue: venues.PumpSwap, mint: facts.baseMint, pool: addr, curve: s.pdas.bondingCurve(facts.baseMint)}
	batch, err := s.signBatch(ctx, job, o, where, pm.blockhash, pm.lastValidBlockHeight,
		func(l *leg, first bool) []sol.Instruction { return s.poolInstructions(pm, o, l, first) })
	if err != nil {
		return nil, err
	}
	// Only the first transaction grows a short pool (a second
	// extend_account fails once it is grown), and every trade on the pool
	// fails until it is: the others wait for it to land.
	batch.FirstLandsFirst = pm.short && len(batch.Txs) > 1
	return batch, nil
}

func orName(name, fallback string) string {
	if name == "" {
		return fallback
	}
	return name
}

// checkQuote applies the quote-asset rules: a buy spends the pool's own
// quote asset (no route through another pool); a sell receives it, and
// names another quote asset than SOL, the default, only when it is the
// pool's. A pool whose base is SOL itself is not a token market.
func (s *Signer) checkQuote(job *wire.SwapJob, o *order, pm *poolMarket) error {
	if pumpswap.IsSOLQuote(pm.facts.baseMint) {
		return apierr.Newf(apierr.TokenNotFound, job.Token, "PumpSwap pool %s trades SOL itself; the API trades tokens against SOL, USDC or USD1", pm.addr)
	}
	return quoteRules(job, o, "PumpSwap pool "+pm.addr.String(), pm.quote, pm.facts.quoteMint)
}

// quoteRules applies the quote-asset rules to an order on a market (where)
// quoted in quote (the asset's name, "" for a mint that is none): a buy
// spends the market's own quote asset (no route through another market).
// A sell receives it, whatever quote_asset says: the field is what a buy
// spends, and a coin's market is one.
func quoteRules(job *wire.SwapJob, o *order, where, quote string, mint sol.PublicKey) error {
	switch {
	case o.side == wire.Sell:
		return nil
	case quote == "":
		return apierr.Newf(apierr.TokenNotFound, job.Token, "%s trades against %s on %s, which is not a quote asset (SOL, USDC, USD1)", job.Token, mint, where)
	case o.quote != quote:
		return apierr.Newf(apierr.TokenNotFound, job.Token, "%s trades against %s on %s; a buy spends the market's quote asset and is not routed through another market: send quote_asset %s", job.Token, quote, where, quote)
	}
	return nil
}

// readPoolMarket reads the pool, its vaults and base mint, the AMM's
// GlobalConfig and FeeConfig when the cached ones are stale, the fee
// accounts a trade may have to create, and every wallet's accounts, in one
// getMultipleAccounts (more when a guess about the pool was wrong),
// concurrently with the SOL/USD price for bounds on a SOL market and the
// prioritization fees for auto_tip, and takes the latest blockhash from the
// cache (read concurrently too when the cached one is too old).
func (s *Signer) readPoolMarket(ctx context.Context, o *order, pm *poolMarket) error {
	f := &pm.facts
	keys := []sol.PublicKey{pm.addr, f.baseVault, f.quoteVault, f.baseMint}
	gc, fc, cached := s.ammState.get(s.now(), s.cfg.StateTTL)
	stateAt := len(keys)
	if !cached {
		keys = append(keys, pumpswap.GlobalConfigPDA, pumpswap.FeeConfigPDA)
	}
	feesAt := len(keys)
	pm.creatorVaultAuth = s.pdas.coinCreatorVaultAuthority(f.coinCreator)
	pm.creatorVaultTA = s.pdas.ata(pm.creatorVaultAuth, f.quoteMint, f.quoteProgram)
	keys = append(keys, pm.creatorVaultTA)
	if cached {
		pm.feeRecipient = pickKey(feeRecipients(gc, f.mayhem))
		pm.feeRecipientTA = s.pdas.ata(pm.feeRecipient, f.quoteMint, f.quoteProgram)
		keys = append(keys, pm.feeRecipientTA)
	}
	walletsAt := len(keys)
	for i := range o.legs {
		l := &o.legs[i]
		l.ata = s.pdas.ata(l.wallet, f.baseMint, f.baseProgram)
		l.quoteATA = s.pdas.ata(l.wallet, f.quoteMint, f.quoteProgram)
		l.uva = s.pdas.ammUserVolumeAccumulator(l.wallet)
		keys = append(keys, l.wallet, l.ata, l.quoteATA, l.uva)
	}

	var accounts []*rpc.Account
	hash, err := s.readWithBlockhash(ctx, func(ctx context.Context) error {
		// Most orders read the accounts alone, on this goroutine.
		if !(o.bounds.any() && pm.solQuote()) && !o.autoTip {
			var err error
			accounts, err = s.getAccounts(ctx, keys)
			return err
		}
		g, gctx := guard.WithContext(ctx)
		g.Go(func() error {
			var err error
			accounts, err = s.getAccounts(gctx, keys)
			return err
		})
		if o.bounds.any() && pm.solQuote() {
			g.Go(func() error {
				var err error
				pm.solUSD, err = s.solUSD(gctx)
				return err
			})
		}
		if o.autoTip {
			// Its error counts in settleFees, after the pool's own.
			g.Go(func() error {
				pm.autoPrice.v, pm.autoPrice.err = s.autoPrice(gctx, []sol.PublicKey{pm.addr})
				return nil
			})
		}
		return g.Wait()
	})
	if err != nil {
		return err
	}
	pm.blockhash, pm.lastValidBlockHeight = hash.hash, hash.lastValid

	p, err := decodePoolAccount(pm.addr, accounts[0])
	if err != nil {
		return apierr.Newf(apierr.TokenNotFound, o.mint.String(), "PumpSwap pool %s no longer exists", pm.addr)
	}
	pm.pool = *p
	pm.poolLamports = accounts[0].Lamports
	pm.short = len(data(accounts[0])) < pumpswap.PoolAccountSize
	base, okBase := tokenAmount(accounts[1], f.baseMint)
	quote, okQuote := tokenAmount(accounts[2], f.quoteMint)
	_, _, supply, okMint := mintInfo(accounts[3])
	if !okBase || !okQuote || !okMint {
		return apierr.Newf(apierr.TokenNotFound, o.mint.String(), "PumpSwap pool %s has no vaults to trade against", pm.addr)
	}
	// Read on every order: a mint's fee authority may raise its fee after
	// the pool's facts were cached.
	if chargesTransferFee(accounts[3]) {
		return apierr.Newf(apierr.TokenNotFound, o.mint.String(), "%s", (&feeMintError{pool: pm.addr, mint: f.baseMint}).Error())
	}
	pm.res = pumpswap.Reserves{Base: base, Quote: quote, Virtual: p.VirtualQuoteReserves}
	pm.supply = supply
	if !cached {
		if gc, fc, err = decodeAMMState(accounts[stateAt], accounts[stateAt+1]); err != nil {
			return err
		}
		s.ammState.put(s.now(), gc, fc)
	}
	pm.gc, pm.fc = gc, fc
	_, pm.creatorTAExists = tokenAmount(accounts[feesAt], f.quoteMint)
	if cached {
		_, pm.feeTAExists = tokenAmount(accounts[feesAt+1], f.quoteMint)
	}
	for i := range o.legs {
		l := &o.legs[i]
		w, ata, qata, uva := accounts[walletsAt+4*i], accounts[walletsAt+4*i+1], accounts[walletsAt+4*i+2], accounts[walletsAt+4*i+3]
		if w != nil {
			l.balance = w.Lamports
		}
		l.tokens, l.ataExists = tokenAmount(ata, f.baseMint)
		l.closable = l.ataExists && closableTokenAccount(ata, l.wallet)
		l.quoteTokens, l.quoteATAExists = tokenAmount(qata, f.quoteMint)
		l.ataLamports, l.quoteATALamports = lamportsOf(ata), lamportsOf(qata)
		l.uvaExists = uva != nil && uva.Owner == pumpswap.ProgramID
	}

	// The guesses the first read made: the coin creator and the mayhem
	// flag the facts remember, and a fee recipient from a GlobalConfig
	// that was not cached. Wrong ones cost one more read.
	var again []sol.PublicKey
	if p.CoinCreator != f.coinCreator || p.IsMayhemMode != f.mayhem || !cached {
		if p.CoinCreator != f.coinCreator || p.IsMayhemMode != f.mayhem {
			f.coinCreator, f.mayhem = p.CoinCreator, p.IsMayhemMode
			s.pools.Put(pm.addr, *f)
		}
		pm.creatorVaultAuth = s.pdas.coinCreatorVaultAuthority(f.coinCreator)
		pm.creatorVaultTA = s.pdas.ata(pm.creatorVaultAuth, f.quoteMint, f.quoteProgram)
		pm.feeRecipient = pickKey(feeRecipients(gc, f.mayhem))
		pm.feeRecipientTA = s.pdas.ata(pm.feeRecipient, f.quoteMint, f.quoteProgram)
		again = []sol.PublicKey{pm.creatorVaultTA, pm.feeRecipientTA}
	}
	if again != nil {
		more, err := s.getAccounts(ctx, again)
		if err != nil {
			return err
		}
		_, pm.creatorTAExists = tokenAmount(more[0], f.quoteMint)
		_, pm.feeTAExists = tokenAmount(more[1], f.quoteMint)
	}
	return nil
}

// feeRecipients returns the protocol fee recipients a trade may name.
func feeRecipients(gc *pumpswap.GlobalConfig, mayhem bool) []sol.PublicKey {
	if c := gc.ProtocolFeeRecipientCandidates(mayhem); len(c) > 0 {
		return c
	}
	return gc.ProtocolFeeRecipients[:]
}

// decodeAMMState decodes the AMM's GlobalConfig, which must exist, and its
// FeeConfig, which may not (GlobalConfig's rates apply then).
func decodeAMMState(gcAcc, fcAcc *rpc.Account) (*pumpswap.GlobalConfig, *pumpswap.FeeConfig, error) {
	gc, err := requiredAccount[pumpswap.GlobalConfig](gcAcc, pumpswap.ProgramID, pumpswap.GlobalConfigPDA, "pumpswap global config")
	if err != nil {
		return nil, nil, err
	}
	fc, err := optionalAccount[pumpswap.FeeConfig](fcAcc, pumpswap.FeeProgramID, pumpswap.FeeConfigPDA, "pumpswap fee config")
	if err != nil {
		return nil, nil, err
	}
	return gc, fc, nil
}

// lamportsOf is what account a holds, 0 when it is missing.
func lamportsOf(a *rpc.Account) uint64 {
	if a == nil {
		return 0
	}
	return a.Lamports
}

// tokenAmount returns the balance of a token account of mint; exists is
// false when the account is missing or is not one.
func tokenAmount(a *rpc.Account, mint sol.PublicKey) (amount uint64, exists bool) {
	if a == nil || (a.Owner != pumpswap.TokenProgramID && a.Owner != pumpswap.Token2022ProgramID) {
		return 0, false
	}
	d := data(a)
	if len(d) < splTokenAccountSize || sol.PublicKeyFromBytes(d[:32]) != mint {
		return 0, false
	}
	return binary.LittleEndian.Uint64(d[64:72]), true
}

// planPool quotes every leg on the pool, each on the reserves the earlier
// legs leave, and checks every wallet's balances; nothing is signed yet.
func (s *Signer) planPool(pm *poolMarket, o *order) error {
	res := pm.res
	fee := lamportsPerSignature + o.priorityFee
	quoteTA := rentExempt(tokenAccountSize(pm.facts.quoteProgram))
	baseTA := rentExempt(tokenAccountSize(pm.facts.baseProgram))
	// Accounts the program creates on a trade when they are missing, paid
	// by the trader: every wallet is asked to be able to pay them, since
	// the transactions of an order may land in any order.
	var shared uint64
	if !pm.feeTAExists {
		shared = add(shared, quoteTA)
	}
	if !pm.creatorTAExists {
		shared = add(shared, quoteTA)
	}
	var extend uint64
	if need := rentExempt(pumpswap.PoolAccountSize); pm.short && pm.poolLamports < need {
		extend = need - pm.poolLamports
	}
	active := 0
	for i := range o.legs {
		l := &o.legs[i]
		rates := pumpswap.ComputeFees(pm.gc, pm.fc, &pm.pool, res, pm.supply)
		switch o.side {
		case wire.Buy:
			q, err := pumpswap.QuoteBuyExactQuoteIn(res, rates, l.spend)
			switch {
			case errors.Is(err, pumpswap.ErrZeroQuoteAmount), errors.Is(err, pumpswap.ErrBuyNotEnoughQuoteTokensToCoverFees),
				errors.Is(err, pumpswap.ErrZeroBaseAmount):
				return apierr.Invalid(l.field, "%d %s base units buy no tokens after fees", l.spend, pm.quote)
			case errors.Is(err, pumpswap.ErrBuyMoreBaseAmountThanPoolReserves):
				return apierr.Invalid(l.field, "the pool holds fewer tokens than %d %s base units buy", l.spend, pm.quote)
			case err != nil:
				return apierr.Wrap(fmt.Errorf("quote pool buy of %d for %s: %w", l.spend, l.wallet, err), "internal error")
			}
			need := add(fee, shared, o.tip)
			if active == 0 {
				need = add(need, extend)
			}
			if !l.ataExists {
				need = add(need, baseTA)
			}
			if !l.uvaExists {
				need = add(need, rentExempt(pumpswap.UserVolumeAccumulatorSize))
			}
			if pm.solQuote() {
				need = add(need, l.spend)
				if !l.quoteATAExists {
					need = add(need, quoteTA)
				}
			} else if l.quoteTokens < l.spend {
				return insufficient(l.wallet, "wallet %s holds %s and needs %s", l.wallet, pm.amount(l.quoteTokens), pm.amount(l.spend))
			}
			if need, ok := l.pays(need, 0); !ok {
				return insufficient(l.wallet, "wallet %s holds %s and needs %s to buy with %s (fees, tip and rent included)", l.wallet,
					solAmount(l.balance), solNeeded(need), pm.amount(l.spend))
			}
			l.poolBuy = pumpswap.BuyExactQuoteInArgs{
				SpendableQuoteIn: l.spend,
				MinBaseAmountOut: pumpfun.MinOut(q.BaseOut, o.slippageBps),
				TrackVolume:      true,
			}
			res.ApplyBuy(q)
		case wire.Sell:
			amount, err := sellAmount(l, o.sellTokens, pm.facts.baseDecimals)
			if err != nil {
				return err
			}
			if amount == 0 {
				l.skip = nothingToSell(l)
				continue
			}
			// The program makes the pool's fee accounts that are missing,
			// and the wallet's quote account is made ahead of the sale: a
			// wrapped-SOL one comes back, closed, with the proceeds; a
			// stable's stays. The tip is counted once every leg is planned
			// (refuseShort).
			l.ahead = shared
			if !l.quoteATAExists {
				l.ahead = add(l.ahead, quoteTA)
			}
			first := uint64(0)
			if active == 0 {
				first = extend
			}
			q, err := pumpswap.QuoteSell(res, rates, amount)
			switch {
			case errors.Is(err, pumpswap.ErrInsufficientRealQuoteReserves):
				return apierr.Invalid(l.field, "the pool holds too little %s to buy back %d tokens from %s", orName(pm.quote, "quote"), amount, l.wallet)
			case err != nil:
				return apierr.Wrap(fmt.Errorf("quote pool sell of %d tokens for %s: %w", amount, l.wallet, err), "internal error")
			case q.Net == 0 && !l.closesOn(amount):
				l.leaveOut("nothing to sell", apierr.Invalid(l.field, "%d base units of %s sell for no %s after fees", amount, pm.facts.baseMint, orName(pm.quote, "quote")))
				continue
			}
			// A wallet left out above pays nothing: only one that sells
			// must pay.
			if refusal := l.cannotPayAhead(fee, add(l.ahead, first)); refusal != nil {
				return refusal
			}
			l.poolSell = pumpswap.SellArgs{BaseAmountIn: amount, MinQuoteAmountOut: pumpfun.MinOut(q.Net, o.slippageBps)}
			l.planClose(amount)
			res.ApplySell(q)
		}
		active++
	}
	if active == 0 {
		return noSale(o, pm.facts.baseMint)
	}
	boundAsLast(o, func() func(uint64) (uint64, bool) {
		r := pm.res
		return func(in uint64) (uint64, bool) {
			rates := pumpswap.ComputeFees(pm.gc, pm.fc, &pm.pool, r, pm.supply)
			if o.side == wire.Sell {
				q, err := pumpswap.QuoteSell(r, rates, in)
				if err != nil {
					return 0, false
				}
				r.ApplySell(q)
				return q.Net, true
			}
			q, err := pumpswap.QuoteBuyExactQuoteIn(r, rates, in)
			if err != nil {
				return 0, false
			}
			r.ApplyBuy(q)
			return q.BaseOut, true
		}
	}, func(l *leg, out uint64) {
		if o.side == wire.Buy {
			l.poolBuy.MinBaseAmountOut = min(l.poolBuy.MinBaseAmountOut, pumpfun.MinOut(out, o.slippageBps))
		} else {
			l.poolSell.MinQuoteAmountOut = min(l.poolSell.MinQuoteAmountOut, pumpfun.MinOut(out, o.slippageBps))
		}
	})
	if o.side == wire.Sell {
		return refuseShort(o, pm.facts.baseMint, fee, extend, func(l *leg) uint64 {
			return l.wsolBack(pm.solQuote(), l.poolSell.MinQuoteAmountOut, quoteTA)
		})
	}
	return nil
}

// swapAccounts is pumpswap.NewSwapAccounts with the derived addresses taken
// from what the job read and from the cache.
func (s *Signer) swapAccounts(pm *poolMarket, l *leg) pumpswap.SwapAccounts {
	f := &pm.facts
	a := pumpswap.SwapAccounts{
		Pool:                             pm.addr,
		User:                             l.wallet,
		GlobalConfig:                     pumpswap.GlobalConfigPDA,
		BaseMint:                         f.baseMint,
		QuoteMint:                        f.quoteMint,
		UserBaseTokenAccount:             l.ata,
		UserQuoteTokenAccount:            l.quoteATA,
		PoolBaseTokenAccount:             pm.pool.PoolBaseTokenAccount,
		PoolQuoteTokenAccount:            pm.pool.PoolQuoteTokenAccount,
		ProtocolFeeRecipient:             pm.feeRecipient,
		ProtocolFeeRecipientTokenAccount: pm.feeRecipientTA,
		BaseTokenProgram:                 f.baseProgram,
		QuoteTokenProgram:                f.quoteProgram,
		SystemProgram:                    pumpswap.SystemProgramID,
		AssociatedTokenProgram:           pumpswap.AssociatedTokenProgramID,
		EventAuthority:                   pumpswap.EventAuthorityPDA,
		Program:                          pumpswap.ProgramID,
		CoinCreatorVaultATA:              pm.creatorVaultTA,
		CoinCreatorVaultAuthority:        pm.creatorVaultAuth,
		GlobalVolumeAccumulator:          pumpswap.GlobalVolumeAccumulatorPDA,
		UserVolumeAccumulator:            l.uva,
		FeeConfig:                        pumpswap.FeeConfigPDA,
		FeeProgram:                       pumpswap.FeeProgramID,
		Cashback:                         pm.pool.IsCashbackCoin,
		HasCoinCreator:                   !pm.pool.CoinCreator.IsZero(),
	}
	buybacks := pm.gc.BuybackFeeRecipientCandidates()
	if len(buybacks) == 0 {
		buybacks = pm.gc.BuybackFeeRecipients[:]
	}
	a.BuybackFeeRecipient = pickKey(buybacks)
	a.BuybackFeeRecipientTokenAccount = s.pdas.ata(a.BuybackFeeRecipient, f.quoteMint, f.quoteProgram)
	if a.Cashback {
		a.UserVolumeAccumulatorQuoteTA = s.pdas.ata(l.uva, f.quoteMint, f.quoteProgram)
	}
	if a.HasCoinCreator {
		a.PoolV2 = s.pdas.poolV2(f.baseMint)
	}
	return a
}

// poolInstructions returns l's instructions on the pool: the compute
// budget, on the order's first transaction extend_account for a short
// pool, the wallet's accounts (created idempotently), for a SOL pool the
// wrapping of the SOL spent and the unwrapping of what is left or received,
// the swap with the program's full account list, on a sell of the whole
// holding the close of the wallet's token account, and the tip.
func (s *Signer) poolInstructions(pm *poolMarket, o *order, l *leg, first bool) []sol.Instruction {
	ixs := s.budget(o, l, 10)
	if first && pm.short {
		ixs = append(ixs, pumpswap.ExtendAccountInstruction(pm.addr, l.wallet))
	}
	f := &pm.facts
	a := s.swapAccounts(pm, l)
	switch o.side {
	case wire.Buy:
		ixs = append(ixs, createATAIdempotent(l.wallet, l.ata, l.wallet, f.baseMint, f.baseProgram))
		if pm.solQuote() {
			ixs = append(ixs,
				createATAIdempotent(l.wallet, l.quoteATA, l.wallet, f.quoteMint, f.quoteProgram),
				system.NewTransferInstruction(l.spend, l.wallet, l.quoteATA).Build(),
				syncNative(l.quoteATA, f.quoteProgram))
		}
		// buy_exact_quote_in, not buy: a Buy leg's amount is what to spend,
		// fees included; slippage bounds the tokens received.
		ixs = append(ixs, pumpswap.BuyExactQuoteInInstruction(&a, l.poolBuy))
	case wire.Sell:
		ixs = append(ixs, createATAIdempotent(l.wallet, l.quoteATA, l.wallet, f.quoteMint, f.quoteProgram),
			pumpswap.SellInstruction(&a, l.poolSell))
		if l.closes {
			ixs = append(ixs, closeAccount(l.ata, l.wallet, f.baseProgram))
		}
	}
	if pm.solQuote() {
		ixs = append(ixs, closeAccount(l.quoteATA, l.wallet, f.quoteProgram))
	}
	return s.tip(ixs, o, l)
}

// SPL Token instruction indexes the pool trades use.
const (
	tokenCloseAccount = 9
	tokenSyncNative   = 17
)

// syncNative sets a wrapped-SOL account's balance to its lamports above
// rent.
func syncNative(account, tokenProgram sol.PublicKey) sol.Instruction {
	return sol.NewInstruction(tokenProgram, sol.AccountMetaSlice{sol.Meta(account).WRITE()}, []byte{tokenSyncNative})
}

// closeAccount closes a token account of owner into owner; for wrapped SOL
// it unwraps everything the account holds.
func closeAccount(account, owner, tokenProgram sol.PublicKey) sol.Instruction {
	return sol.NewInstruction(tokenProgram, sol.AccountMetaSlice{
		sol.Meta(account).WRITE(), sol.Meta(owner).WRITE(), sol.Meta(owner).SIGNER(),
	}, []byte{tokenCloseAccount})
}
