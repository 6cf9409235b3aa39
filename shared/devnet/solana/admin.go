package solana

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/pumpfun"
)

// The helpers below change the ledger directly or through transactions the
// chain signs itself. They are what tests and the devnet admin endpoints use
// to set up a scene; nothing like them exists on a real cluster.

var airdropSeq atomic.Uint64

// ErrNotFound is returned when an account a helper needs does not exist.
var ErrNotFound = errors.New("devnet solana: account not found")

// Airdrop credits lamports to pubkey directly, creating a system account if
// there is none. It records no transaction.
func (c *Chain) Airdrop(pubkey sol.PublicKey, lamports uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.accounts[pubkey]
	if a == nil {
		a = &Account{Owner: systemProgramID}
	} else {
		a = a.clone()
	}
	a.Lamports += lamports
	c.accounts[pubkey] = a
	c.changes++
}

// airdropTx pays lamports from the faucet with a real signed transfer, the
// way requestAirdrop does on a test cluster, and returns its signature.
func (c *Chain) airdropTx(to sol.PublicKey, lamports uint64) (sol.Signature, error) {
	bh, _ := c.LatestBlockhash()
	faucet := c.faucet.PublicKey()
	transfer := sol.NewInstruction(systemProgramID, sol.AccountMetaSlice{
		{PublicKey: faucet, IsSigner: true, IsWritable: true},
		{PublicKey: to, IsWritable: true},
	}, sysIx(2, u64le(lamports)))
	// A memo with a sequence number keeps two equal airdrops apart.
	memo := sol.NewInstruction(memoProgramID, nil, []byte("airdrop "+strconv.FormatUint(airdropSeq.Add(1), 10)))
	tx, err := sol.NewTransaction([]sol.Instruction{transfer, memo}, bh, sol.TransactionPayer(faucet))
	if err != nil {
		return sol.Signature{}, fmt.Errorf("build airdrop: %w", err)
	}
	if _, err := tx.Sign(c.signerFor(c.faucet)); err != nil {
		return sol.Signature{}, fmt.Errorf("sign airdrop: %w", err)
	}
	return c.SendTransaction(tx)
}

// RequestAirdrop pays lamports from the faucet to pubkey with a signed
// transfer that lands like any other transaction.
func (c *Chain) RequestAirdrop(pubkey sol.PublicKey, lamports uint64) (sol.Signature, error) {
	return c.airdropTx(pubkey, lamports)
}

func (c *Chain) signerFor(keys ...sol.PrivateKey) func(sol.PublicKey) *sol.PrivateKey {
	return func(k sol.PublicKey) *sol.PrivateKey {
		for i := range keys {
			if keys[i].PublicKey() == k {
				return &keys[i]
			}
		}
		return nil
	}
}

// Balance returns the lamports of pubkey (0 for a missing account).
func (c *Chain) Balance(pubkey sol.PublicKey) uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if a := c.accounts[pubkey]; a != nil {
		return a.Lamports
	}
	return 0
}

// GetAccount returns a copy of the account at pubkey.
func (c *Chain) GetAccount(pubkey sol.PublicKey) (Account, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	a := c.accounts[pubkey]
	if a == nil {
		return Account{}, false
	}
	return *a.clone(), true
}

// SetAccount replaces the account at pubkey (a zero-lamport account removes
// it), for tests that need a state no transaction produces.
func (c *Chain) SetAccount(pubkey sol.PublicKey, a Account) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.changes++
	if a.Lamports == 0 {
		delete(c.accounts, pubkey)
		return
	}
	c.accounts[pubkey] = a.clone()
}

// TokenBalance returns owner's balance of mint in its associated token
// account under the mint's program; 0 when that account does not exist.
func (c *Chain) TokenBalance(owner, mint sol.PublicKey) (uint64, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m := c.accounts[mint]
	if m == nil || !isTokenProgram(m.Owner) {
		return 0, fmt.Errorf("token balance of %s: mint %s: %w", owner, mint, ErrNotFound)
	}
	a := c.accounts[associatedTokenAddress(owner, m.Owner, mint)]
	if a == nil || a.Owner != m.Owner || !validTokenAccountData(a.Owner, a.Data) {
		return 0, nil
	}
	return tokAccAmount(a.Data), nil
}

// CreateMint creates an initialized mint with decimals under tokenProgram
// (SPL Token or Token-2022) whose mint authority is authority, and returns
// its address.
func (c *Chain) CreateMint(decimals uint8, tokenProgram, authority sol.PublicKey) (sol.PublicKey, error) {
	if !isTokenProgram(tokenProgram) {
		return sol.PublicKey{}, fmt.Errorf("create mint: %s is not a token program", tokenProgram)
	}
	k, err := sol.NewRandomPrivateKey()
	if err != nil {
		return sol.PublicKey{}, fmt.Errorf("create mint: %w", err)
	}
	mint := k.PublicKey()
	d := make([]byte, mintLen)
	putCOptionKey(d, &authority)
	d[44] = decimals
	d[45] = 1
	c.mu.Lock()
	defer c.mu.Unlock()
	c.accounts[mint] = &Account{Lamports: MinimumBalanceForRentExemption(mintLen), Owner: tokenProgram, Data: d}
	c.changes++
	return mint, nil
}

// MintTo adds amount of mint to owner's associated token account, creating
// the account when needed, and raises the mint's supply. It works for any
// mint, including pump.fun coins whose mint authority is revoked.
func (c *Chain) MintTo(mint, owner sol.PublicKey, amount uint64) (sol.PublicKey, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.accounts[mint]
	if m == nil || !isTokenProgram(m.Owner) || !validMintData(m.Owner, m.Data) || !mintInitialized(m.Data) {
		return sol.PublicKey{}, fmt.Errorf("mint to %s: mint %s: %w", owner, mint, ErrNotFound)
	}
	prog := m.Owner
	ata := associatedTokenAddress(owner, prog, mint)
	a := c.accounts[ata]
	if a == nil {
		n := tokenAccountLen
		if prog == token2022ProgramID {
			n = token2022AccountLen
		}
		d := make([]byte, n)
		copy(d[0:32], mint[:])
		copy(d[32:64], owner[:])
		d[108] = accountStateInitialized
		if prog == token2022ProgramID {
			d[accountTypeOffset] = accountTypeToken
			d[accountTypeOffset+1] = extImmutableOwner
			if hasTransferFee(prog, m.Data) {
				d = withTransferFeeAmount(d)
			}
		}
		a = &Account{Lamports: MinimumBalanceForRentExemption(len(d)), Owner: prog, Data: d}
	} else {
		if a.Owner != prog || !validTokenAccountData(prog, a.Data) {
			return sol.PublicKey{}, fmt.Errorf("mint to %s: %s is not a token account", owner, ata)
		}
		a = a.clone()
	}
	if tokAccAmount(a.Data)+amount < amount || mintSupply(m.Data)+amount < amount {
		return sol.PublicKey{}, fmt.Errorf("mint to %s: amount overflows", owner)
	}
	setTokAccAmount(a.Data, tokAccAmount(a.Data)+amount)
	m = m.clone()
	setMintSupply(m.Data, mintSupply(m.Data)+amount)
	c.accounts[ata] = a
	c.accounts[mint] = m
	c.changes++
	return ata, nil
}

// PumpCoin is a coin created on the chain's pump.fun program.
type PumpCoin struct {
	Mint         sol.PublicKey
	BondingCurve sol.PublicKey
	Signature    sol.Signature
}

// CreatePumpCoin creates a pump.fun coin with create_v2 in a transaction the
// faucet pays for, with creator as the coin's creator, and returns its mint
// and bonding curve.
func (c *Chain) CreatePumpCoin(creator sol.PublicKey, name, symbol string) (PumpCoin, error) {
	mint, sig, err := c.createCoin(c.faucet, func(mint sol.PublicKey) sol.Instruction {
		accts := pumpfun.NewCreateV2Accounts(mint, c.faucet.PublicKey())
		return pumpfun.CreateV2Instruction(&accts, pumpfun.CreateV2Args{Name: name, Symbol: symbol, URI: "", Creator: creator})
	})
	if err != nil {
		return PumpCoin{}, fmt.Errorf("create pump coin %q: %w", symbol, err)
	}
	return PumpCoin{Mint: mint, BondingCurve: pumpfun.BondingCurvePDA(mint), Signature: sig}, nil
}

// flexUint64 reads a JSON number or a decimal string.
type flexUint64 uint64

func (f *flexUint64) UnmarshalJSON(b []byte) error {
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		s = string(b)
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("want an unsigned integer in base units, got %s", b)
	}
	*f = flexUint64(v)
	return nil
}

func parseKeyParam(name, s string) (sol.PublicKey, *rpcError) {
	k, err := sol.PublicKeyFromBase58(s)
	if err != nil {
		return sol.PublicKey{}, invalidParams("Invalid params: %s: %v", name, err)
	}
	return k, nil
}

func rpcDevnetCreatePumpCoin(c *Chain, p rpcParams) (any, *rpcError) {
	var req struct {
		Creator string `json:"creator"`
		Name    string `json:"name"`
		Symbol  string `json:"symbol"`
	}
	if err := p.decode(0, &req); err != nil {
		return nil, err
	}
	creator, rerr := parseKeyParam("creator", req.Creator)
	if rerr != nil {
		return nil, rerr
	}
	coin, err := c.CreatePumpCoin(creator, req.Name, req.Symbol)
	if err != nil {
		return nil, &rpcError{Code: rpcInternal, Message: err.Error()}
	}
	return map[string]string{"mint": coin.Mint.String(), "bondingCurve": coin.BondingCurve.String(), "signature": coin.Signature.String()}, nil
}

func rpcDevnetCreateMint(c *Chain, p rpcParams) (any, *rpcError) {
	var req struct {
		Decimals     uint8  `json:"decimals"`
		TokenProgram string `json:"tokenProgram"`
		Authority    string `json:"authority"`
	}
	if err := p.decode(0, &req); err != nil {
		return nil, err
	}
	prog := tokenProgramID
	if req.TokenProgram != "" {
		var rerr *rpcError
		if prog, rerr = parseKeyParam("tokenProgram", req.TokenProgram); rerr != nil {
			return nil, rerr
		}
	}
	auth := c.faucet.PublicKey()
	if req.Authority != "" {
		var rerr *rpcError
		if auth, rerr = parseKeyParam("authority", req.Authority); rerr != nil {
			return nil, rerr
		}
	}
	mint, err := c.CreateMint(req.Decimals, prog, auth)
	if err != nil {
		return nil, invalidParams("Invalid params: %v", err)
	}
	return map[string]string{"mint": mint.String()}, nil
}

func rpcDevnetMintTo(c *Chain, p rpcParams) (any, *rpcError) {
	var req struct {
		Mint   string     `json:"mint"`
		Owner  string     `json:"owner"`
		Amount flexUint64 `json:"amount"`
	}
	if err := p.decode(0, &req); err != nil {
		return nil, err
	}
	mint, rerr := parseKeyParam("mint", req.Mint)
	if rerr != nil {
		return nil, rerr
	}
	owner, rerr := parseKeyParam("owner", req.Owner)
	if rerr != nil {
		return nil, rerr
	}
	ata, err := c.MintTo(mint, owner, uint64(req.Amount))
	if err != nil {
		return nil, invalidParams("Invalid params: %v", err)
	}
	return map[string]string{"tokenAccount": ata.String()}, nil
}

func rpcDevnetFund(c *Chain, p rpcParams) (any, *rpcError) {
	var req struct {
		Address  string     `json:"address"`
		Lamports flexUint64 `json:"lamports"`
	}
	if err := p.decode(0, &req); err != nil {
		return nil, err
	}
	k, rerr := parseKeyParam("address", req.Address)
	if rerr != nil {
		return nil, rerr
	}
	c.Airdrop(k, uint64(req.Lamports))
	return map[string]uint64{"lamports": c.Balance(k)}, nil
}

func rpcDevnetExpireBlockhashes(c *Chain, _ rpcParams) (any, *rpcError) {
	c.ExpireBlockhashes()
	return true, nil
}

// b58enc and b58dec go through solana-go's Base58 type.
func b58enc(b []byte) string { return sol.Base58(b).String() }

func b58dec(s string) ([]byte, error) {
	var b sol.Base58
	if err := b.UnmarshalJSON(strconv.AppendQuote(nil, s)); err != nil {
		return nil, err
	}
	return b, nil
}
