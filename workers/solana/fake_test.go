package solana

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// fakeChain serves accounts from memory through the RPC interface and
// records what it was asked.
type fakeChain struct {
	mu         sync.Mutex
	accounts   map[sol.PublicKey]rpc.Account
	blockhash  sol.Hash
	height     uint64
	reads      [][]sol.PublicKey
	hashReads  int
	accountErr error
	hashErr    error
	prioFees   []uint64
	prioReads  int
	prioErr    error
	// statuses are the transactions the chain holds, by signature; slot
	// is the slot account reads are answered at, and minSlot the last
	// minContextSlot a read asked for (a later one than slot is refused,
	// as by a node behind it).
	statuses map[sol.Signature]*rpc.SignatureStatusesResult
	slot     uint64
	minSlot  uint64
	// afterStatuses, when set, runs once after a statuses answer: what
	// the chain does between that answer and the next read.
	afterStatuses func()
}

func newFakeChain() *fakeChain {
	return &fakeChain{
		accounts:  make(map[sol.PublicKey]rpc.Account),
		blockhash: sol.HashFromBytes(make([]byte, 32)),
		height:    1234,
	}
}

func (c *fakeChain) GetMultipleAccountsWithOpts(_ context.Context, keys []sol.PublicKey, opts *rpc.GetMultipleAccountsOpts) (*rpc.GetMultipleAccountsResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = append(c.reads, append([]sol.PublicKey(nil), keys...))
	if opts != nil && opts.MinContextSlot != nil {
		if c.minSlot = *opts.MinContextSlot; c.minSlot > c.slot {
			return nil, fmt.Errorf("Minimum context slot has not been reached")
		}
	}
	if c.accountErr != nil {
		return nil, c.accountErr
	}
	out := &rpc.GetMultipleAccountsResult{Value: make([]*rpc.Account, len(keys))}
	out.Context.Slot = c.slot
	for i, k := range keys {
		if a, ok := c.accounts[k]; ok {
			out.Value[i] = &a
		}
	}
	return out, nil
}

func (c *fakeChain) GetLatestBlockhash(context.Context, rpc.CommitmentType) (*rpc.GetLatestBlockhashResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hashReads++
	if c.hashErr != nil {
		return nil, c.hashErr
	}
	return &rpc.GetLatestBlockhashResult{Value: &rpc.LatestBlockhashResult{Blockhash: c.blockhash, LastValidBlockHeight: c.height}}, nil
}

func (c *fakeChain) GetSignatureStatuses(_ context.Context, _ bool, sigs ...sol.Signature) (*rpc.GetSignatureStatusesResult, error) {
	if len(sigs) > 256 {
		// As a node answers more than it takes.
		return nil, fmt.Errorf("Too many inputs provided; max 256")
	}
	c.mu.Lock()
	out := &rpc.GetSignatureStatusesResult{Value: make([]*rpc.SignatureStatusesResult, len(sigs))}
	for i, sig := range sigs {
		if st := c.statuses[sig]; st != nil {
			cp := *st
			out.Value[i] = &cp
		}
	}
	after := c.afterStatuses
	c.afterStatuses = nil
	c.mu.Unlock()
	if after != nil {
		after()
	}
	return out, nil
}

func (c *fakeChain) GetRecentPrioritizationFees(context.Context, sol.PublicKeySlice) ([]rpc.PriorizationFeeResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.prioReads++
	if c.prioErr != nil {
		return nil, c.prioErr
	}
	out := make([]rpc.PriorizationFeeResult, len(c.prioFees))
	for i, f := range c.prioFees {
		out[i] = rpc.PriorizationFeeResult{Slot: uint64(100 + i), PrioritizationFee: f}
	}
	return out, nil
}

func (c *fakeChain) set(key, owner sol.PublicKey, lamports uint64, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.accounts[key] = rpc.Account{Lamports: lamports, Owner: owner, Data: rpc.DataBytesOrJSONFromBytes(data)}
}

func (c *fakeChain) remove(key sol.PublicKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.accounts, key)
}

func (c *fakeChain) readLog() [][]sol.PublicKey {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]sol.PublicKey(nil), c.reads...)
}

// fakeKeys hands out wallet keys and counts the requests.
type fakeKeys struct {
	mu    sync.Mutex
	keys  map[string]sol.PrivateKey
	calls int
}

func (k *fakeKeys) PrivateKey(_ context.Context, family wire.Family, address string) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls++
	if family != wire.FamilySol {
		return nil, fmt.Errorf("family %q", family)
	}
	key, ok := k.keys[address]
	if !ok {
		return nil, errors.New("no such wallet")
	}
	return append([]byte(nil), key...), nil
}

func (k *fakeKeys) count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.calls
}

// fixture is a chain with pump.fun's Global and FeeConfig and one coin on
// its curve.
type fixture struct {
	chain        *fakeChain
	keys         *fakeKeys
	signer       *Signer
	clock        time.Time
	global       pumpfun.Global
	feeConfig    pumpfun.FeeConfig
	mint         sol.PublicKey
	tokenProgram sol.PublicKey
	curve        pumpfun.BondingCurve
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{
		chain:        newFakeChain(),
		keys:         &fakeKeys{keys: make(map[string]sol.PrivateKey)},
		clock:        time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		mint:         sol.NewWallet().PublicKey(),
		tokenProgram: pumpfun.Token2022ProgramID,
	}
	f.global = pumpfun.Global{
		Initialized:                 true,
		FeeRecipient:                sol.NewWallet().PublicKey(),
		InitialVirtualTokenReserves: 1_073_000_000_000_000,
		InitialVirtualSolReserves:   30_000_000_000,
		InitialRealTokenReserves:    793_100_000_000_000,
		TokenTotalSupply:            1_000_000_000_000_000,
		FeeBasisPoints:              95,
		CreatorFeeBasisPoints:       30,
		ReservedFeeRecipient:        sol.NewWallet().PublicKey(),
	}
	for i := range f.global.FeeRecipients {
		f.global.FeeRecipients[i] = sol.NewWallet().PublicKey()
		f.global.ReservedFeeRecipients[i] = sol.NewWallet().PublicKey()
	}
	for i := range f.global.BuybackFeeRecipients {
		f.global.BuybackFeeRecipients[i] = sol.NewWallet().PublicKey()
	}
	f.feeConfig = pumpfun.FeeConfig{FeeTiers: []pumpfun.FeeTier{{Fees: pumpfun.Fees{ProtocolFeeBps: 95, CreatorFeeBps: 30}}}}
	f.curve = pumpfun.NewBondingCurve(&f.global, sol.NewWallet().PublicKey(), false)
	f.chain.set(pumpfun.GlobalPDA, pumpfun.ProgramID, 1e9, f.global.Encode())
	f.chain.set(pumpfun.FeeConfigPDA, pumpfun.FeeProgramID, 1e9, f.feeConfig.Encode())
	f.putCurve()
	f.chain.set(f.mint, f.tokenProgram, 1e7, mintData(1_000_000_000_000_000, pumpfun.TokenDecimals))
	cfg := DefaultConfig()
	cfg.TipAccounts = JitoTipAccounts[:2]
	f.signer = NewSigner(f.chain, f.keys, cfg, nil)
	f.signer.now = func() time.Time { return f.clock }
	return f
}

// seedCurve buys lamports worth of tokens off the curve, so that it holds
// SOL to pay sellers.
func (f *fixture) seedCurve(lamports uint64) {
	q, err := f.curve.QuoteBuyExactSolIn(pumpfun.FeeRates{}, lamports)
	if err != nil {
		panic(err)
	}
	f.curve.ApplyBuy(q)
	f.putCurve()
}

func (f *fixture) putCurve() {
	f.chain.set(pumpfun.BondingCurvePDA(f.mint), pumpfun.ProgramID, 1e7, f.curve.Encode())
}

// wallet adds a funded wallet; tokens > 0 also gives it a token account.
func (f *fixture) wallet(lamports, tokens uint64) sol.PublicKey {
	w := sol.NewWallet()
	pub := w.PublicKey()
	f.keys.mu.Lock()
	f.keys.keys[pub.String()] = w.PrivateKey
	f.keys.mu.Unlock()
	if lamports > 0 {
		f.chain.set(pub, pumpfun.SystemProgramID, lamports, nil)
	}
	if tokens > 0 {
		f.setTokens(pub, tokens)
	}
	return pub
}

func (f *fixture) setTokens(owner sol.PublicKey, tokens uint64) {
	f.chain.set(pumpfun.AssociatedTokenAddress(owner, f.mint, f.tokenProgram), f.tokenProgram, rentExempt(tokenAccountSize(f.tokenProgram)),
		tokenAccountData(f.mint, owner, tokens, f.tokenProgram == pumpfun.Token2022ProgramID))
}

func (f *fixture) job(side wire.Side, legs ...wire.Leg) *wire.SwapJob {
	return &wire.SwapJob{
		OrderID:      "eu-test",
		AccountID:    "acct",
		Family:       wire.FamilySol,
		Chain:        wire.ChainSolana,
		Token:        f.mint.String(),
		Side:         side,
		QuoteAsset:   "SOL",
		Legs:         legs,
		SlippageBps:  1000,
		PriorityFee:  "1000000",
		ProcessorTip: "100000",
	}
}

// mintData is an initialized SPL mint (the base layout Token-2022 shares).
func mintData(supply uint64, decimals uint8) []byte {
	d := make([]byte, mintSize)
	binary.LittleEndian.PutUint32(d[0:4], 1)
	copy(d[4:36], pumpfun.MintAuthorityPDA[:])
	binary.LittleEndian.PutUint64(d[36:44], supply)
	d[44] = decimals
	d[45] = 1
	return d
}

// tokenAccountData is an initialized token account; a Token-2022
// associated account carries the ImmutableOwner extension.
func tokenAccountData(mint, owner sol.PublicKey, amount uint64, token2022 bool) []byte {
	d := make([]byte, splTokenAccountSize)
	copy(d[0:32], mint[:])
	copy(d[32:64], owner[:])
	binary.LittleEndian.PutUint64(d[64:72], amount)
	d[108] = 1 // initialized
	if token2022 {
		d = append(d, 2, 7, 0, 0, 0) // account type Account, ImmutableOwner TLV
	}
	return d
}
