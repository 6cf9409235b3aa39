package ingress

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Deploy limits. Name, symbol and uri lengths are those the pump.fun
// program accepts for create_v2 metadata.
const (
	maxNameLen        = 32
	maxSymbolLen      = 10
	maxDescriptionLen = 1000
	maxURLLen         = 200
	maxDeployConfigs  = 4
	maxDeployBuys     = 20
)

// deployDecoder decodes one deploy body field by field, like swapDecoder:
// fixed steps, the first fault ends the decoding.
type deployDecoder struct {
	f          fields
	defaultPct float64
	job        *wire.DeployJob
	// past are the fees given past what a u64 of lamports holds, by
	// field, in lamports: above any account's cap, and refused naming it
	// once the account is known (feeCaps.checkDeploy).
	past map[string]string
}

// deploySteps are the decoding steps, in order.
var deploySteps = []func(*deployDecoder) *apierr.Error{
	(*deployDecoder).creator,
	(*deployDecoder).metadata,
	(*deployDecoder).configs,
	(*deployDecoder).creatorBuy,
	(*deployDecoder).buys,
	(*deployDecoder).bundleMode,
	(*deployDecoder).jitoTip,
	(*deployDecoder).slippage,
}

// decodeDeploy decodes and validates a deploy body. It checks everything
// that does not need the account; past holds the fees too large for the
// job's fields, by field, in lamports, which the account's caps refuse.
func decodeDeploy(body []byte, defaultSlippagePct float64) (job *wire.DeployJob, past map[string]string, aerr *apierr.Error) {
	f, aerr := decodeObject(body, "")
	if aerr != nil {
		return nil, nil, aerr
	}
	d := &deployDecoder{f: f, defaultPct: defaultSlippagePct, job: &wire.DeployJob{}}
	for _, step := range deploySteps {
		if aerr := step(d); aerr != nil {
			return nil, nil, aerr
		}
	}
	return d.job, d.past, nil
}

// pastHold notes a fee given past what a u64 of lamports holds.
func (d *deployDecoder) pastHold(field, lamports string) {
	if d.past == nil {
		d.past = map[string]string{}
	}
	d.past[field] = lamports
}

// creator is the wallet that signs and pays the create.
func (d *deployDecoder) creator() *apierr.Error {
	w, ok, aerr := d.f.str("wallet_address")
	if aerr != nil {
		return aerr
	}
	if !ok || w == "" {
		return apierr.Invalid("wallet_address", "wallet_address is required and must be a Solana address")
	}
	if aerr := walletAddress(wire.FamilySol, "wallet_address", w); aerr != nil {
		return aerr
	}
	d.job.Wallet = w
	return nil
}

// metadata is what the token's uri will point to, bounded by what the
// venues' programs accept.
func (d *deployDecoder) metadata() *apierr.Error {
	if !d.f.present("metadata") {
		return apierr.Invalid("metadata", "metadata is required")
	}
	mf, aerr := decodeObject(d.f["metadata"], "metadata")
	if aerr != nil {
		return aerr
	}
	md := &d.job.Metadata
	for _, m := range []struct {
		name     string
		dst      *string
		required bool
		max      int
	}{
		{"name", &md.Name, true, maxNameLen},
		{"symbol", &md.Symbol, true, maxSymbolLen},
		{"description", &md.Description, false, maxDescriptionLen},
		{"image_url", &md.ImageURL, false, maxURLLen},
		{"twitter", &md.Twitter, false, maxURLLen},
		{"website", &md.Website, false, maxURLLen},
	} {
		at := "metadata." + m.name
		v, ok, aerr := mf.str(m.name)
		if aerr != nil {
			return renamed(aerr, m.name, at)
		}
		if m.required && (!ok || v == "") {
			return apierr.Invalid(at, "%s is required", at)
		}
		if !utf8.ValidString(v) || len(v) > m.max {
			return apierr.Invalid(at, "%s must be at most %d bytes of UTF-8", at, m.max)
		}
		// A coin's name and symbol are what wallets and explorers show,
		// written on chain for good; its links and description are shown
		// beside them, and are stored as given or not at all.
		problem := wire.LinkProblem
		switch {
		case m.required:
			problem = wire.DisplayProblem
		case m.name == "description":
			problem = wire.ProseProblem
		}
		if p := problem(v); p != "" {
			return apierr.Invalid(at, "%s %s", at, p)
		}
		*m.dst = v
	}
	return nil
}

// configs are the launches, one token each.
func (d *deployDecoder) configs() *apierr.Error {
	if !d.f.present("configs") {
		return apierr.Invalid("configs", "configs is required and must be an array")
	}
	cfgs, more, ok := wire.ArrayHead(d.f["configs"], maxDeployConfigs)
	if !ok {
		return apierr.Invalid("configs", "configs is required and must be an array")
	}
	if len(cfgs) == 0 || more {
		return apierr.Invalid("configs", "configs must have 1 to %d entries", maxDeployConfigs)
	}
	for i, raw := range cfgs {
		at := fmt.Sprintf("configs[%d]", i)
		cf, aerr := decodeObject(raw, at)
		if aerr != nil {
			return aerr
		}
		dex, _, aerr := cf.str("dex")
		if aerr != nil {
			return renamed(aerr, "dex", at+".dex")
		}
		launch, aerr := decodeLaunch(dex, cf, at)
		if aerr != nil {
			return aerr
		}
		d.job.Launches = append(d.job.Launches, launch)
	}
	return nil
}

// creatorBuy is the creator's first buy in lamports, 0 for none.
func (d *deployDecoder) creatorBuy() *apierr.Error {
	var aerr *apierr.Error
	d.job.CreatorBuy, aerr = lamports(d.f, "creator_buy_sol_amount")
	return aerr
}

// buys are the bundled buys of other wallets of the account.
func (d *deployDecoder) buys() *apierr.Error {
	if !d.f.present("buys") {
		return nil
	}
	buys, more, ok := wire.ArrayHead(d.f["buys"], maxDeployBuys)
	if !ok {
		return apierr.Invalid("buys", "buys must be an array")
	}
	if more {
		return apierr.Invalid("buys", "at most %d buys", maxDeployBuys)
	}
	for i, raw := range buys {
		at := fmt.Sprintf("buys[%d]", i)
		b, past, aerr := decodeBuy(at, raw)
		if aerr != nil {
			return aerr
		}
		if past != "" {
			d.pastHold(at+".priority_fee_sol", past)
		}
		d.job.Buys = append(d.job.Buys, b)
	}
	return nil
}

// decodeBuy decodes buys[i] at the path at: a wallet, lamports above 0, and
// a priority fee in SOL turned into lamports; a fee past what a u64 holds
// is left out of the buy and returned as past, in lamports.
func decodeBuy(at string, raw json.RawMessage) (b wire.DeployBuy, past string, aerr *apierr.Error) {
	bf, aerr := decodeObject(raw, at)
	if aerr != nil {
		return wire.DeployBuy{}, "", aerr
	}
	bw, ok, aerr := bf.str("wallet_address")
	if aerr != nil || !ok || bw == "" {
		return wire.DeployBuy{}, "", apierr.Invalid(at+".wallet_address", "%s.wallet_address is required and must be a Solana address", at)
	}
	if aerr := walletAddress(wire.FamilySol, at+".wallet_address", bw); aerr != nil {
		return wire.DeployBuy{}, "", aerr
	}
	amt, given, aerr := bf.whole("sol_amount", 64, "sol_amount must be a whole number of lamports above 0")
	if aerr != nil {
		return wire.DeployBuy{}, "", renamed(aerr, "sol_amount", at+".sol_amount")
	}
	if !given {
		return wire.DeployBuy{}, "", apierr.Invalid(at+".sol_amount", "%s.sol_amount is required", at)
	}
	if amt == 0 {
		return wire.DeployBuy{}, "", apierr.Invalid(at+".sol_amount", "%s.sol_amount must be above 0", at)
	}
	fee, aerr := feeUnits(bf, "priority_fee_sol", 9, "0")
	if aerr != nil {
		return wire.DeployBuy{}, "", renamed(aerr, "priority_fee_sol", at+".priority_fee_sol")
	}
	feeLamports, err := strconv.ParseUint(fee, 10, 64)
	if err != nil {
		past = fee
	}
	return wire.DeployBuy{Wallet: bw, Lamports: amt, PriorityFee: feeLamports}, past, nil
}

// bundleMode lays the transactions out in bundles; packed by default.
func (d *deployDecoder) bundleMode() *apierr.Error {
	mode, given, aerr := d.f.str("bundle_mode")
	if aerr != nil {
		return aerr
	}
	switch {
	case mode == wire.BundlePacked || mode == wire.BundleNonPacked || mode == wire.BundleSniper:
		d.job.BundleMode = mode
	case !given:
		d.job.BundleMode = wire.BundlePacked
	default:
		// An empty string is an unknown mode as any other: a bot's blank
		// setting does not launch in a mode it did not choose.
		return apierr.Invalid("bundle_mode", "bundle_mode must be packed, non_packed or sniper")
	}
	return nil
}

// jitoTip is the relay tip in lamports, paid once per bundle; 0 leaves the
// relay's minimum to the worker.
func (d *deployDecoder) jitoTip() *apierr.Error {
	if d.f.present("jito_tip") {
		if r, err := money.ParseNumber(string(d.f["jito_tip"])); err == nil && r.IsInt() && r.Sign() > 0 && r.Num().BitLen() > 64 {
			d.pastHold("jito_tip", r.Num().String())
			return nil
		}
	}
	var aerr *apierr.Error
	d.job.JitoTip, aerr = lamports(d.f, "jito_tip")
	return aerr
}

// slippage bounds every buy of the launch; omitted, it is the service's
// default slippage, as a swap's.
func (d *deployDecoder) slippage() *apierr.Error {
	d.job.SlippageBps = uint32(math.Round(d.defaultPct * 100))
	const outside = "slippage_bps must be a whole number from 0 to 10000"
	v, ok, aerr := d.f.whole("slippage_bps", 32, outside)
	if aerr != nil || v > 10000 {
		// Past what 32 bits hold is out of the range all the same: the
		// answer names the range, not the field's width.
		return apierr.Invalid("slippage_bps", outside)
	}
	if !ok {
		return nil
	}
	d.job.SlippageBps = uint32(v)
	return nil
}

// lamports reads an optional non-negative integer field.
func lamports(f fields, name string) (uint64, *apierr.Error) {
	v, _, aerr := f.whole(name, 64, name+" must be a whole number of lamports, 0 or more")
	return v, aerr
}

// decodeLaunch reads configs[i]: the venue and its data. Unknown keys in
// the data are ignored like every unknown field, bonk's and bags' too:
// the specification does not show those variants, and clients written for
// the hosted service send the options it has there.
func decodeLaunch(dex string, cf fields, at string) (wire.Launch, *apierr.Error) {
	l := wire.Launch{Dex: dex}
	df := fields{}
	if cf.present("data") {
		var aerr *apierr.Error
		if df, aerr = decodeObject(cf["data"], at+".data"); aerr != nil {
			return l, aerr
		}
	}
	switch dex {
	case wire.DexPumpFun:
		mayhem, aerr := df.boolean("is_mayhem_mode")
		if aerr != nil {
			return l, renamed(aerr, "is_mayhem_mode", at+".data.is_mayhem_mode")
		}
		l.Mayhem = mayhem
		cashback, aerr := df.boolean("is_cashback_enabled")
		if aerr != nil {
			return l, renamed(aerr, "is_cashback_enabled", at+".data.is_cashback_enabled")
		}
		if cashback {
			return l, apierr.Invalid(at+".data.is_cashback_enabled", "is_cashback_enabled must be false: the pump.fun program no longer accepts cashback launches (CashbackDeprecated)")
		}
	case wire.DexBonk:
		var aerr *apierr.Error
		if l.MigrateType, aerr = enum(df, "migrate_type", at+".data", "cpmm", "cpmm", "amm_v4"); aerr != nil {
			return l, aerr
		}
		if l.CreatorFeeOn, aerr = enum(df, "creator_fee_on", at+".data", "quote_token", "quote_token", "both_tokens"); aerr != nil {
			return l, aerr
		}
	case wire.DexBags:
		v, ok, aerr := df.str("pool_config")
		if aerr != nil {
			return l, renamed(aerr, "pool_config", at+".data.pool_config")
		}
		if ok {
			if chains.CheckAddress(wire.FamilySol, v) != nil {
				return l, apierr.Invalid(at+".data.pool_config", "%s.data.pool_config must be a Solana address", at)
			}
			l.PoolConfig = v
		}
	default:
		return l, apierr.Invalid(at+".dex", "%s.dex must be pump_fun, bags or bonk", at)
	}
	return l, nil
}

// enum reads an optional string that must be one of values; absent, it is def.
func enum(f fields, name, at, def string, values ...string) (string, *apierr.Error) {
	v, ok, aerr := f.str(name)
	if aerr != nil {
		return "", renamed(aerr, name, at+"."+name)
	}
	if !ok {
		return def, nil
	}
	if !slices.Contains(values, v) {
		return "", apierr.Invalid(at+"."+name, "%s.%s must be one of %s", at, name, strings.Join(values, ", "))
	}
	return v, nil
}

// deployResult is the data of a deploy's answer.
type deployResult struct {
	MintAddresses []string        `json:"mint_addresses"`
	LandedTxs     []wire.LandedTx `json:"landed_txs"`
}

// newDeployResult is the answer of a launch's result, with empty lists
// rather than nulls.
func newDeployResult(r *wire.DeployResult) deployResult {
	res := deployResult{MintAddresses: r.MintAddresses, LandedTxs: r.LandedTxs}
	if res.MintAddresses == nil {
		res.MintAddresses = []string{}
	}
	if res.LandedTxs == nil {
		res.LandedTxs = []wire.LandedTx{}
	}
	return res
}

// deploy answers POST /api/v1/deploy: the same order path as a swap (see
// swap and admit), with a launch's own checks.
func (h *handler) deploy(c *gin.Context) {
	account := c.GetString(ctxAccount)
	// The body alone decides most refusals; nothing is read or written
	// for a request that fails here.
	job, past, aerr := decodeDeploy(envelope.ReadBody(c), h.s.cfg.DefaultSlippagePct)
	if aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	// The buys' priority fees and the relay tip are bounded per account
	// before anything is signed.
	if aerr := h.feeCaps(account).checkDeploy(job, past); aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	// Only the account's own wallets create and buy.
	if aerr := h.resolveDeployWallets(account, job); aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	chain := wire.ChainSolana
	// Refused at once and free when no worker can take it, or when a venue
	// it launches on is paused: ingress knows a launch's venues from its
	// configs, so it need not charge and then give the charge back.
	if !h.accepting(c, chain, wire.Side(wire.KindDeploy), launchVenues(job)...) {
		return
	}
	orderID, ok := h.admit(c, account)
	if !ok {
		return
	}
	job.OrderID, job.AccountID, job.CreatedAt = orderID, account, time.Now().UTC()
	log := h.s.log.With("order_id", job.OrderID, "chain", chain, "kind", wire.KindDeploy,
		"request_id", c.Writer.Header().Get(envelope.RequestIDHeader))
	log.Debug("deploy accepted", "listener", h.name, "launches", len(job.Launches), "buys", len(job.Buys), "bundle_mode", job.BundleMode)
	defer logAnswer(log, c)

	side := wire.Side(wire.KindDeploy)
	reply := h.submit(c, chain, side, job.OrderID, job, deployOrder(job), log)
	if reply == nil {
		return
	}
	if reply.Deploy == nil {
		log.Error("deploy answered without a result")
		h.countOrder(chain, side, string(apierr.Internal))
		envelope.Fail(c, apierr.New(apierr.Internal, "the deploy was answered without its result; look it up by order_id").WithOrder(job.OrderID))
		return
	}
	h.countOrder(chain, side, "ok")
	envelope.OK(c, http.StatusOK, newDeployResult(reply.Deploy))
}

// launchVenues are the venues of a launch's configs, each once.
func launchVenues(job *wire.DeployJob) []string {
	var out []string
	for _, l := range job.Launches {
		if v, ok := venues.OfDex(l.Dex); ok && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// resolveDeployWallets checks that the creator and every buyer are wallets
// of the account, and spells them canonically.
func (h *handler) resolveDeployWallets(account string, job *wire.DeployJob) *apierr.Error {
	dir := h.s.deps.Directory
	canon, ok := dir.Wallet(account, wire.FamilySol, job.Wallet)
	if !ok {
		return apierr.Newf(apierr.WalletNotOwned, job.Wallet, "wallet_address is not a wallet of this account")
	}
	job.Wallet = canon
	for i, b := range job.Buys {
		canon, ok := dir.Wallet(account, wire.FamilySol, b.Wallet)
		if !ok {
			return apierr.Newf(apierr.WalletNotOwned, b.Wallet, "buys[%d].wallet_address is not a wallet of this account", i)
		}
		job.Buys[i].Wallet = canon
	}
	return nil
}

// deployOrder is the pending record of a deploy.
func deployOrder(job *wire.DeployJob) *wire.Order {
	return orders.New(orders.OfDeploy(job))
}
