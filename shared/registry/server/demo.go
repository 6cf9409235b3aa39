package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/tradeapi/tradeapi/shared/devnet"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// What the demo account gets on a fresh data folder: enough wallets to try
// a multi-wallet swap, and enough of each coin that a new user does not run
// dry while trying the API.
const (
	demoName        = "demo"
	demoSolWallets  = 3
	demoEVMWallets  = 2
	demoSolFunding  = "100"  // SOL per Solana wallet
	demoSolUSDC     = "1000" // USDC per Solana wallet, for buys in USDC
	demoEVMFunding  = "100"  // native coin per EVM wallet and chain
	demoTokenName   = "Demo Coin"
	demoTokenSymbol = "DEMO"
)

// Demo is what EnsureDemo made. SolKey and EVMKey are the only copies of the
// two API keys: print them once and drop them.
type Demo struct {
	AccountID string
	SolKey    string
	EVMKey    string
	// Wallets are the demo wallets, Solana first, in label order.
	Wallets []registry.Wallet
	// Tokens are the demo tokens created on the local chains.
	Tokens []DemoToken
}

// DemoToken is a demo token on one chain and venue.
type DemoToken struct {
	Chain   string `json:"chain"`
	Venue   string `json:"venue"`
	Address string `json:"address"`
	Pool    string `json:"pool"`
}

// EnsureDemo creates the demo account on a fresh data folder: the account
// "demo", Solana wallets W1-W3 and EVM wallets W1-W2 (all spot_active), one
// Solana and one EVM API key. With a devnet it then funds the wallets on
// every local chain (the Solana ones with USDC too) and creates one demo
// token per venue: on Solana a pump.fun coin on its curve and one graduated
// into its PumpSwap pool.
//
// The account, its wallets, its keys and a marker are committed in one
// transaction, so the demo is made once: on a data folder that already has
// it, EnsureDemo returns nil, nil. keep, when set, is given the new demo
// inside that transaction, before it commits: its API keys are then kept
// (by the caller, until shown) whenever the demo exists, even when the
// process dies right after, where they would otherwise be lost with only
// their hashes stored.
//
// With a devnet, a second marker stays until the local chains are seeded:
// a start that stopped before (killed, or the local chains failing) seeds
// them again at the next start, which returns the demo without its keys
// (the caller has them from keep). When the devnet part fails the Demo is
// still returned, with an error saying what is missing, so that its keys can
// be shown.
func (r *Registry) EnsureDemo(ctx context.Context, dn devnet.Devnet, keep func(*Demo) error) (*Demo, error) {
	// Keys are generated before the transaction, and only used if the demo
	// turns out not to exist yet: generating a few keys on every start is
	// cheaper than a second transaction to check first.
	var sol, evm []keyMaterial
	for i := 0; i < demoSolWallets+demoEVMWallets; i++ {
		f := wire.FamilySol
		if i >= demoSolWallets {
			f = wire.FamilyEVM
		}
		km, err := generateKey(f)
		if err != nil {
			return nil, err
		}
		if f == wire.FamilySol {
			sol = append(sol, km)
		} else {
			evm = append(evm, km)
		}
	}
	var demo *Demo
	var items []kvItem
	// One transaction for the marker and everything it stands for: a crash
	// half way leaves no demo and no marker, so the next start makes it
	// whole, and never a second one.
	err := r.store.db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if id := meta.Get(keyDemo); id != nil {
			if meta.Get(keyDemoSeeding) == nil {
				return nil
			}
			d, err := demoOf(tx, string(id))
			if err != nil {
				return err
			}
			demo = d
			return nil
		}
		// One time stamp for everything the demo is made of: it was all
		// made at once, and the records say so.
		t := now()
		id, err := createAccountTx(tx, demoName, t)
		if err != nil {
			return err
		}
		d := &Demo{AccountID: id}
		for _, batch := range []struct {
			f    wire.Family
			keys []keyMaterial
		}{{wire.FamilySol, sol}, {wire.FamilyEVM, evm}} {
			// All spot_active, so a swap without a wallet list trades on
			// every demo wallet of its family.
			ws, err := addWalletsTx(tx, id, batch.f, batch.keys, true, false, r.secrets.MasterKey, t)
			if err != nil {
				return err
			}
			d.Wallets = append(d.Wallets, walletsJSON(ws)...)
			items = append(items, walletItems(ws)...)
		}
		for _, k := range []struct {
			f   wire.Family
			dst *string
		}{{wire.FamilySol, &d.SolKey}, {wire.FamilyEVM, &d.EVMKey}} {
			rec, token, err := createKeyTx(tx, id, k.f, "demo-"+string(k.f), t)
			if err != nil {
				return err
			}
			// The token leaves only in the Demo returned, to be printed
			// once; like any key, only its hash is stored.
			*k.dst = token
			items = append(items, kvItem{key: registry.APIKeyKVKey(rec.Hash)})
		}
		// The order here does not matter: a flush sorts by kvItem.rank,
		// so the wallets' keys go out first, then the account, then the
		// API keys that point at it.
		items = append(items, accountItem(id))
		if keep != nil {
			if err := keep(d); err != nil {
				return fmt.Errorf("keep the demo account's keys until they are shown: %w", err)
			}
		}
		if dn != nil {
			if err := meta.Put(keyDemoSeeding, []byte(id)); err != nil {
				return err
			}
		}
		demo = d
		return meta.Put(keyDemo, []byte(id))
	})
	if err != nil {
		return nil, fmt.Errorf("create demo account: %w", err)
	}
	// The marker was there: a data folder that ran before keeps its demo
	// (or the operator's changes to it) as it is.
	if demo == nil {
		return nil, nil
	}
	if len(items) > 0 {
		// Marked without waiting for the read model: the seeding below is
		// what takes time, and the publish goes on meanwhile.
		r.pub.mark(items...)
		r.log.Info("demo account created", "account", demo.AccountID)
	} else {
		r.log.Info("demo account made by an earlier start; seeding the local chains it did not finish", "account", demo.AccountID)
	}
	// Without local chains the demo is an account with keys and wallets
	// only; there is nothing to fund them on.
	if dn == nil {
		return demo, nil
	}
	if err := r.seedDemo(ctx, dn, demo); err != nil {
		return demo, fmt.Errorf("demo account %s on the local chains: %w", demo.AccountID, err)
	}
	if err := r.store.db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		var steps [][]byte
		c := meta.Cursor()
		for k, _ := c.Seek([]byte(prefixDemoSeeded)); k != nil && bytes.HasPrefix(k, []byte(prefixDemoSeeded)); k, _ = c.Next() {
			steps = append(steps, k)
		}
		for _, k := range steps {
			if err := meta.Delete(k); err != nil {
				return err
			}
		}
		return meta.Delete(keyDemoSeeding)
	}); err != nil {
		return demo, fmt.Errorf("mark the demo account seeded: %w", err)
	}
	return demo, nil
}

// demoOf is the demo account as stored, for seeding it again: its wallets,
// Solana first, without its keys (only their hashes are stored).
func demoOf(tx *bolt.Tx, id string) (*Demo, error) {
	st, err := loadAccount(tx, id)
	if err != nil {
		return nil, fmt.Errorf("the demo account %s: %w", id, err)
	}
	d := &Demo{AccountID: id}
	for _, f := range registry.Families {
		for _, w := range st.wallets {
			if w.Family == f {
				d.Wallets = append(d.Wallets, w.public())
			}
		}
	}
	return d, nil
}

// DemoPending reports whether the demo account is still to be made, or
// its local chains still to be seeded: only then does a registry need the
// local chains at its start.
func (r *Registry) DemoPending() (bool, error) {
	var pending bool
	err := r.store.db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		pending = meta.Get(keyDemo) == nil || meta.Get(keyDemoSeeding) != nil
		return nil
	})
	return pending, err
}

// seedStep runs one step of the demo's seeding unless an earlier start did
// it, and records it once done; what the step made (a token) is stored
// with it and returned again at a later start.
func (r *Registry) seedStep(key string, do func() ([]byte, error)) ([]byte, error) {
	k := []byte(prefixDemoSeeded + key)
	var done []byte
	if err := r.store.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketMeta).Get(k); v != nil {
			done = bytes.Clone(v)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if done != nil {
		return done, nil
	}
	v, err := do()
	if err != nil {
		return nil, err
	}
	if len(v) == 0 {
		v = []byte("done") // a step that made nothing is marked all the same
	}
	return v, r.store.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(k, v) })
}

// seedDemo funds the demo wallets and creates the demo tokens on every
// local chain, going on past failures so that as much as possible is ready;
// a step an earlier start finished is not done again (seedStep).
func (r *Registry) seedDemo(ctx context.Context, dn devnet.Devnet, demo *Demo) error {
	var errs []error
	chains := dn.Chains()
	// In the fixed order of ChainNames, not the map's, so the demo's
	// tokens are listed the same way on every fresh start.
	for _, chain := range devnet.ChainNames {
		if _, ok := chains[chain]; !ok {
			continue
		}
		f, amount := wire.FamilyEVM, demoEVMFunding
		if chain == wire.ChainSolana {
			f, amount = wire.FamilySol, demoSolFunding
		}
		for _, w := range demo.Wallets {
			if w.Family != f {
				continue
			}
			req := devnet.FundRequest{Chain: chain, Address: w.Address, Amount: amount}
			// USDC on Solana too, so that a buy with quote_asset USDC works
			// on the demo without a funding step.
			if chain == wire.ChainSolana {
				req.Token, req.TokenAmount = "USDC", demoSolUSDC
			}
			_, err := r.seedStep(chain+"/fund/"+w.Address, func() ([]byte, error) { return nil, dn.Fund(ctx, req) })
			if err != nil {
				errs = append(errs, fmt.Errorf("fund %s on %s: %w", w.Label, chain, err))
			}
		}
		// One token per venue the chain offers, so every trading path can
		// be tried on the demo from the first start.
		for _, venue := range chains[chain].Venues {
			made, err := r.seedStep(chain+"/token/"+venue, func() ([]byte, error) {
				tok, err := dn.CreateToken(ctx, devnet.TokenRequest{Chain: chain, Venue: venue, Name: demoTokenName, Symbol: demoTokenSymbol})
				if err != nil {
					return nil, err
				}
				r.log.Info("demo token created", "chain", chain, "venue", venue, "address", tok.Address)
				return json.Marshal(DemoToken{Chain: chain, Venue: venue, Address: tok.Address, Pool: tok.Pool})
			})
			var tok DemoToken
			if err == nil {
				err = json.Unmarshal(made, &tok)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("create %s token on %s: %w", venue, chain, err))
				continue
			}
			demo.Tokens = append(demo.Tokens, tok)
		}
	}
	return errors.Join(errs...)
}
