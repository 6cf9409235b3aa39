package solana

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	sol "github.com/gagliardetto/solana-go"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/programs/system"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/metadata"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Bundle limits of a Jito-style relay.
const (
	maxBundleTxs = 5
	// maxTxComputeUnits is the most compute units one transaction may ask.
	maxTxComputeUnits = 1_400_000
)

// WithMetadata sets the store a deploy's metadata document goes to, and
// returns s. Without one, deploys are refused.
func (s *Signer) WithMetadata(store metadata.Store) *Signer {
	s.meta = store
	return s
}

// action is one step of a launch: the create (with the creator's buy, when
// there is one) or one buyer's buy. Each becomes a transaction of its own or
// shares one with its neighbours (packed mode).
type action struct {
	kind  string // wire.TxCreate, wire.TxDevBuy or wire.TxBuy
	payer sol.PublicKey
	ixs   []sol.Instruction
	cu    uint32
	// fee is the action's priority fee in lamports.
	fee uint64
	// cost is what the action takes from its payer beyond fees: the SOL it
	// spends and the rent of the accounts it opens.
	cost uint64
	// alone marks a buy the program takes only as the first swap of its
	// pool in the transaction (a DBC buy under a rate limiter): packing
	// never puts it after another buy.
	alone bool
}

// launchPlan is one configs[] entry made into actions.
type launchPlan struct {
	dex  string
	mint sol.PublicKey
	// pool is where the coin trades: its LaunchLab or DBC pool, or the
	// PumpSwap pool a pump.fun coin graduates to.
	pool    sol.PublicKey
	mintKey ed25519.PrivateKey
	actions []action
}

// deployOrder is a deploy job read into chain types.
type deployOrder struct {
	job     *wire.DeployJob
	creator sol.PublicKey
	buyers  []sol.PublicKey
	uri     string
	// keys caches the wallets' keys for the job's signatures.
	keys map[sol.PublicKey]ed25519.PrivateKey

	// The venues' configurations checkLaunch read, for planLaunch: each
	// is read once per job.
	bonkGlobal   *launchlab.GlobalConfig
	bonkPlatform *launchlab.PlatformConfig
	// bonkVaultsRent is the rent of the letsbonk fee vaults the first buy
	// opens (readBonk).
	bonkVaultsRent uint64
	bagsConfigs    map[sol.PublicKey]*dbc.PoolConfig
}

// standInURI takes the stored uri's place in the plans made before the
// metadata is uploaded: as long as any uri the store may answer.
var standInURI = strings.Repeat("x", metadata.MaxURILen)

// SignDeploy builds and signs every transaction of a deploy: for each
// launch a new mint, its create with the creator's buy, and the buys, laid
// out in bundles as the bundle mode says (see bundleLayout). The metadata
// document is stored once the launches are planned, its uri goes into
// every create.
//
// Refusals are *apierr.Error before anything is signed: INVALID_REQUEST
// naming an option the program would reject (or buys that do not fit a
// packed bundle), INSUFFICIENT_BALANCE naming the first wallet that cannot
// pay its part. Other errors are transient.
func (s *Signer) SignDeploy(ctx context.Context, job *wire.DeployJob) (*wire.TxBatch, error) {
	o, err := s.parseDeploy(job)
	if err != nil {
		return nil, err
	}
	// Omitted (0), the tip is the relay's minimum: every bundle must tip.
	// Choosing it is the service's choice, so it too stays under the
	// account's cap; a cap below the minimum cannot launch at all.
	if job.JitoTip == 0 {
		job.JitoTip = s.cfg.MinBundleTip
		if limit, err := strconv.ParseUint(job.MaxJitoTip, 10, 64); err == nil && job.JitoTip > limit {
			return nil, apierr.Invalid("jito_tip", "a launch needs a jito_tip of at least %d lamports, above this account's max_jito_tip cap of %d lamports",
				s.cfg.MinBundleTip, limit)
		}
	}
	if job.JitoTip < s.cfg.MinBundleTip {
		return nil, apierr.Invalid("jito_tip", "jito_tip must be at least %d lamports: the bundle relay lands only bundles that tip", s.cfg.MinBundleTip)
	}
	if s.meta == nil {
		return nil, apierr.Newf(apierr.ChainUnavailable, wire.ChainSolana, "token launches need a metadata store; none is configured")
	}
	var plans []*launchPlan
	need := make(map[sol.PublicKey]uint64)
	for i, l := range job.Launches {
		at := fmt.Sprintf("configs[%d]", i)
		if err := s.checkLaunch(ctx, o, l, at); err != nil {
			return nil, err
		}
	}
	// Every refusal of planning (an amount that buys nothing, an option
	// the program would reject) comes before the upload, so a refused
	// deploy leaves nothing in the metadata store, a paid one in
	// production. This trial's creates carry a stand-in uri; the plans are
	// made again below with the stored one.
	o.uri = standInURI
	for i := range job.Launches {
		if _, err := s.planLaunch(ctx, o, i); err != nil {
			return nil, err
		}
	}
	o.uri, err = s.meta.Put(ctx, metadata.NewDocument(job.Metadata))
	if err != nil {
		return nil, fmt.Errorf("store token metadata: %w", err)
	}
	recent, err := s.hashes.get(ctx)
	if err != nil {
		return nil, err
	}
	blockhash, lastValid := recent.hash, recent.lastValid
	for i := range job.Launches {
		p, err := s.planLaunch(ctx, o, i)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	batch := &wire.TxBatch{OrderID: job.OrderID, AccountID: job.AccountID, Family: wire.FamilySol,
		Chain: wire.ChainSolana, Kind: wire.KindDeploy, Route: "bundle_mode " + job.BundleMode, Venue: launchVenue(job)}
	bundle := 0
	// Every transaction of a launch is bytes of its own (deployTx.salt).
	signed := map[string]bool{}
	for _, p := range plans {
		batch.Mints = append(batch.Mints, p.mint.String())
		batch.Pools = append(batch.Pools, p.pool.String())
		curve := ""
		if p.dex == wire.DexPumpFun {
			curve = s.pdas.bondingCurve(p.mint).String()
		}
		batch.Curves = append(batch.Curves, curve)
		for _, a := range p.actions {
			need[a.payer] = add(need[a.payer], a.cost)
		}
		layout, err := s.bundleLayout(o, p, blockhash)
		if err != nil {
			return nil, err
		}
		for _, txs := range layout {
			bundle++
			for _, t := range txs {
				_, payer, _ := s.deployInstructions(o, t)
				need[payer] = add(need[payer], lamportsPerSignature*uint64(1+len(t.actions)), t.fee())
				need[o.creator] = add(need[o.creator], t.tip)
				stx, err := s.signDeployTx(ctx, o, p, t, blockhash, lastValid)
				for err == nil && signed[stx.Signature] {
					t.salt++
					stx, err = s.signDeployTx(ctx, o, p, t, blockhash, lastValid)
				}
				if err != nil {
					return nil, err
				}
				signed[stx.Signature] = true
				stx.Bundle = bundle
				batch.Txs = append(batch.Txs, stx)
			}
		}
	}
	if err := s.checkDeployBalances(ctx, o, need); err != nil {
		return nil, err
	}
	batch.SignedAt = s.now().UTC()
	s.log.Debug("signed deploy", "order_id", job.OrderID, "launches", len(plans), "txs", len(batch.Txs), "bundles", bundle)
	return batch, nil
}

func (s *Signer) parseDeploy(job *wire.DeployJob) (*deployOrder, error) {
	creator, err := sol.PublicKeyFromBase58(job.Wallet)
	if err != nil {
		return nil, apierr.Invalid("wallet_address", "wallet_address is not a Solana address")
	}
	o := &deployOrder{job: job, creator: creator, keys: make(map[sol.PublicKey]ed25519.PrivateKey)}
	for i, b := range job.Buys {
		k, err := sol.PublicKeyFromBase58(b.Wallet)
		if err != nil {
			return nil, apierr.Invalid(fmt.Sprintf("buys[%d].wallet_address", i), "buys[%d].wallet_address is not a Solana address", i)
		}
		o.buyers = append(o.buyers, k)
	}
	if len(job.Launches) == 0 {
		return nil, apierr.Invalid("configs", "configs must have at least one entry")
	}
	return o, nil
}

// checkLaunch refuses, before anything is signed, an option the venue's
// program would reject, and keeps what it read of the venue in o.
func (s *Signer) checkLaunch(ctx context.Context, o *deployOrder, l wire.Launch, at string) error {
	switch l.Dex {
	case wire.DexPumpFun:
		return s.checkPumpLaunch(ctx, l, at)
	case wire.DexBonk:
		if o.bonkGlobal != nil {
			return nil
		}
		return s.readBonk(ctx, o)
	case wire.DexBags:
		key, err := s.bagsConfigKey(l, at)
		if err != nil || o.bagsConfigs[key] != nil {
			return err
		}
		cfg, err := s.readBagsConfig(ctx, key, at)
		if err != nil {
			return err
		}
		if o.bagsConfigs == nil {
			o.bagsConfigs = make(map[sol.PublicKey]*dbc.PoolConfig)
		}
		o.bagsConfigs[key] = cfg
		return nil
	}
	return apierr.Invalid(at+".dex", "%s.dex must be pump_fun, bags or bonk", at)
}

// planLaunch makes the job's i-th launch into actions.
func (s *Signer) planLaunch(ctx context.Context, o *deployOrder, i int) (*launchPlan, error) {
	l, at := o.job.Launches[i], fmt.Sprintf("configs[%d]", i)
	mintKey, err := newMintKey()
	if err != nil {
		return nil, err
	}
	p := &launchPlan{dex: l.Dex, mintKey: mintKey, mint: sol.PublicKeyFromBytes(mintKey[32:])}
	switch l.Dex {
	case wire.DexPumpFun:
		err = s.planPumpLaunch(ctx, o, l, p)
	case wire.DexBonk:
		first := slices.IndexFunc(o.job.Launches, func(l wire.Launch) bool { return l.Dex == wire.DexBonk }) == i
		err = s.planBonkLaunch(o, l, p, first)
	case wire.DexBags:
		err = s.planBagsLaunch(o, l, p, at)
	default:
		err = apierr.Invalid(at+".dex", "%s.dex must be pump_fun, bags or bonk", at)
	}
	if err != nil {
		return nil, err
	}
	if p.pool.IsZero() {
		p.pool = pumpswap.CanonicalPoolPDA(p.mint, pumpswap.WrappedSOLMint)
	}
	return p, nil
}

// newMintKey returns a fresh keypair for a mint: it signs the create once
// and is then forgotten (the mint authority is the program's).
func newMintKey() (ed25519.PrivateKey, error) {
	k, err := sol.NewRandomPrivateKey()
	if err != nil {
		return nil, fmt.Errorf("new mint key: %w", err)
	}
	return ed25519.PrivateKey(k), nil
}

// deployTx is one transaction of a layout: its actions and the tip it
// ends with (0: none).
type deployTx struct {
	actions []action
	tip     uint64
	// salt sets the compute-unit limit apart from a transaction of the
	// launch that would otherwise be the very same bytes (one wallet's two
	// buys of one amount whose least out is nothing): a bundle holding a
	// transaction twice lands nothing of it.
	salt uint32
}

// bundleLayout lays a launch's actions out in bundles, each at most five
// transactions, sent in order, each once the one before it landed. The
// head of every layout is the create and the creator's buy: one
// transaction when both fit, else the create then the dev_buy.
//
//   - packed: one bundle. After the head, the buys follow in order, each
//     joining the current transaction while it still fits 1232 bytes and
//     1.4M compute units, else opening the next. More buys than five
//     transactions hold is INVALID_REQUEST naming buys.
//   - non_packed: the head, then each buy in a transaction of its own;
//     bundle 1 is the head and the first buys up to five transactions, then
//     bundles of five buys.
//   - sniper: bundle 1 is the head alone; the buys follow in bundles of
//     five, after it landed.
//
// The tip (jito_tip, paid by the creator to one of the tip accounts) ends
// the last transaction of every bundle, so it is paid only when the whole
// bundle lands.
func (s *Signer) bundleLayout(o *deployOrder, p *launchPlan, blockhash sol.Hash) ([][]deployTx, error) {
	head, buys := p.actions[:1], p.actions[1:]
	if len(buys) > 0 && buys[0].kind == wire.TxDevBuy {
		head, buys = p.actions[:2], p.actions[2:]
	}
	first := s.pack(o, nil, head, blockhash)
	var bundles [][]deployTx
	switch o.job.BundleMode {
	case wire.BundlePacked:
		txs := s.pack(o, first, buys, blockhash)
		if len(txs) > maxBundleTxs {
			return nil, apierr.Invalid("buys", "packed mode fits %d of the %d buys in one bundle of %d transactions on %s; use non_packed or sniper",
				fitted(txs[:maxBundleTxs]), len(buys), maxBundleTxs, p.dex)
		}
		bundles = [][]deployTx{txs}
	case wire.BundleNonPacked:
		n := min(len(buys), maxBundleTxs-len(first))
		for _, b := range buys[:n] {
			first = append(first, deployTx{actions: []action{b}})
		}
		bundles = append([][]deployTx{first}, singles(buys[n:])...)
	case wire.BundleSniper:
		bundles = append([][]deployTx{first}, singles(buys)...)
	default:
		return nil, apierr.Invalid("bundle_mode", "bundle_mode must be packed, non_packed or sniper")
	}
	for _, b := range bundles {
		b[len(b)-1].tip = o.job.JitoTip
		for _, t := range b {
			if size, cu := s.txSize(o, t, blockhash); size > maxTxSize || cu > maxTxComputeUnits {
				return nil, apierr.Wrap(fmt.Errorf("a %s transaction of a %s launch is %d bytes and %d compute units", t.actions[0].kind, p.dex, size, cu), "internal error")
			}
		}
	}
	return bundles, nil
}

// pack appends acts to txs in order, each joining the last transaction
// while it fits (and, for a buy that must be alone, holds no buy yet), else
// opening a new one.
func (s *Signer) pack(o *deployOrder, txs []deployTx, acts []action, blockhash sol.Hash) []deployTx {
	for _, a := range acts {
		if n := len(txs); n > 0 && !(a.alone && txs[n-1].buys()) {
			grown := deployTx{actions: append(append([]action(nil), txs[n-1].actions...), a)}
			if s.fits(o, grown, blockhash) {
				txs[n-1] = grown
				continue
			}
		}
		txs = append(txs, deployTx{actions: []action{a}})
	}
	return txs
}

// buys tells whether t carries a buy (the creator's or a wallet's).
func (t deployTx) buys() bool {
	for _, a := range t.actions {
		if a.kind == wire.TxBuy || a.kind == wire.TxDevBuy {
			return true
		}
	}
	return false
}

// fitted counts the buys in txs.
func fitted(txs []deployTx) int {
	n := 0
	for _, t := range txs {
		for _, a := range t.actions {
			if a.kind == wire.TxBuy {
				n++
			}
		}
	}
	return n
}

// singles puts each action in a transaction of its own, five to a bundle.
func singles(acts []action) [][]deployTx {
	var out [][]deployTx
	for start := 0; start < len(acts); start += maxBundleTxs {
		var b []deployTx
		for _, a := range acts[start:min(start+maxBundleTxs, len(acts))] {
			b = append(b, deployTx{actions: []action{a}})
		}
		out = append(out, b)
	}
	return out
}

// fee is the priority fee of t: its actions'.
func (t deployTx) fee() uint64 {
	var fee uint64
	for _, a := range t.actions {
		fee = add(fee, a.fee)
	}
	return fee
}

// fits reports whether t compiles to a transaction the network takes. A
// tip is counted whether or not t ends up carrying it, so that a packed
// transaction never has to be split again to make room for it.
func (s *Signer) fits(o *deployOrder, t deployTx, blockhash sol.Hash) bool {
	size, cu := s.txSize(o, t, blockhash)
	return size <= maxTxSize && cu <= maxTxComputeUnits
}

// txSize is the serialized size and the compute units of t with a tip.
func (s *Signer) txSize(o *deployOrder, t deployTx, blockhash sol.Hash) (int, uint32) {
	t.tip = max(t.tip, 1)
	ixs, payer, cu := s.deployInstructions(o, t)
	msg := compileMessage(ixs, payer, blockhash)
	raw, err := msg.MarshalBinary()
	if err != nil {
		return math.MaxInt, cu
	}
	return len(raw) + 1 + 64*int(msg.Header.NumRequiredSignatures), cu
}

// deployInstructions returns t's instructions: the compute budget (the
// sum of its actions' units, priced so that their priority fees are paid),
// the actions', and the tip from the creator. The payer is the first
// action's.
func (s *Signer) deployInstructions(o *deployOrder, t deployTx) ([]sol.Instruction, sol.PublicKey, uint32) {
	var cu uint32
	for _, a := range t.actions {
		cu += a.cu
	}
	if cu+t.salt <= maxTxComputeUnits {
		cu += t.salt
	} else {
		cu -= t.salt
	}
	ixs := []sol.Instruction{computebudget.NewSetComputeUnitLimitInstruction(cu).Build()}
	if price := microLamportsPerCU(t.fee(), cu); price > 0 {
		ixs = append(ixs, computebudget.NewSetComputeUnitPriceInstruction(price).Build())
	}
	for _, a := range t.actions {
		ixs = append(ixs, a.ixs...)
	}
	if t.tip > 0 {
		ixs = append(ixs, system.NewTransferInstruction(t.tip, o.creator, pickKey(s.cfg.TipAccounts)).Build())
	}
	return ixs, t.actions[0].payer, cu
}

// signDeployTx compiles and signs t with every key it needs: the payer's,
// the other wallets', and the new mint's when t creates it.
func (s *Signer) signDeployTx(ctx context.Context, o *deployOrder, p *launchPlan, t deployTx, blockhash sol.Hash, lastValid uint64) (wire.SignedTx, error) {
	ixs, payer, cu := s.deployInstructions(o, t)
	tx := &sol.Transaction{Message: compileMessage(ixs, payer, blockhash)}
	msg, err := tx.Message.MarshalBinary()
	if err != nil {
		return wire.SignedTx{}, fmt.Errorf("encode message: %w", err)
	}
	n := int(tx.Message.Header.NumRequiredSignatures)
	tx.Signatures = make([]sol.Signature, n)
	for i, k := range tx.Message.AccountKeys[:n] {
		key := p.mintKey
		if k != p.mint {
			if key, err = s.walletKey(ctx, o, k); err != nil {
				return wire.SignedTx{}, err
			}
		}
		tx.Signatures[i] = sol.SignatureFromBytes(ed25519.Sign(key, msg))
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return wire.SignedTx{}, fmt.Errorf("encode transaction: %w", err)
	}
	if len(raw) > maxTxSize {
		return wire.SignedTx{}, apierr.Wrap(fmt.Errorf("deploy transaction is %d bytes, the limit is %d", len(raw), maxTxSize), "internal error")
	}
	return wire.SignedTx{
		Wallet: payer.String(), Private: true, Signature: tx.Signatures[0].String(), Raw: raw,
		LastValidBlockHeight: lastValid, Kind: t.actions[0].kind, Dex: p.dex, Mint: p.mint.String(),
		FeeLamports: txFee(n, microLamportsPerCU(t.fee(), cu), cu),
	}, nil
}

// walletKey returns a wallet's key from the key source, once per job.
func (s *Signer) walletKey(ctx context.Context, o *deployOrder, wallet sol.PublicKey) (ed25519.PrivateKey, error) {
	if k, ok := o.keys[wallet]; ok {
		return k, nil
	}
	key, err := s.keys.PrivateKey(ctx, wire.FamilySol, wallet.String())
	if err != nil {
		return nil, fmt.Errorf("get key: %w", err)
	}
	if len(key) != ed25519.PrivateKeySize || !bytes.Equal(key[32:], wallet[:]) {
		return nil, apierr.Wrap(fmt.Errorf("key source returned a key that is not wallet %s's", wallet), "internal error")
	}
	o.keys[wallet] = ed25519.PrivateKey(key)
	return o.keys[wallet], nil
}

// checkDeployBalances refuses the deploy when a wallet holds less than its
// parts need and its rent-exempt minimum, naming the first such wallet: the
// creator, then the buyers in order. The chain leaves a wallet no lamports
// or at least that minimum, and what a part takes is an upper bound (a
// buy's most at its slippage, a mint's rent at its metadata's longest):
// a wallet left between the two by the estimate may be left there on chain
// too, and its transaction fails for rent after the order was charged and
// a coin perhaps made without it.
func (s *Signer) checkDeployBalances(ctx context.Context, o *deployOrder, need map[sol.PublicKey]uint64) error {
	wallets := append([]sol.PublicKey{o.creator}, o.buyers...)
	accounts, err := s.getAccounts(ctx, wallets)
	if err != nil {
		return err
	}
	for i, w := range wallets {
		var have uint64
		if accounts[i] != nil {
			have = accounts[i].Lamports
		}
		if n := add(need[w], rentExempt(0)); have < n {
			field := "wallet_address"
			if i > 0 {
				field = fmt.Sprintf("buys[%d].wallet_address", i-1)
			}
			return apierr.Newf(apierr.InsufficientBalance, w.String(),
				"%s %s holds %s; its part of this deploy needs %s (amounts, rent of new accounts, fees and tips, and the rent-exempt minimum it keeps)", field, w, solAmount(have), solNeeded(n))
		}
	}
	return nil
}

// launchVenue is the venue a launch's coins are made on, when they share
// one; "" when they do not.
func launchVenue(job *wire.DeployJob) string {
	var venue string
	for i, l := range job.Launches {
		v, ok := venues.OfDex(l.Dex)
		if !ok || (i > 0 && v != venue) {
			return ""
		}
		venue = v
	}
	return venue
}
