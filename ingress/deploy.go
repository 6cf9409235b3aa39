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
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/orders"
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

func decodeDeploy(body []byte, defaultSlippagePct float64) (*wire.DeployJob, *apierr.Error) {
	f, aerr := decodeObject(body, "")
	if aerr != nil {
		return nil, aerr
	}
	job := &wire.DeployJob{}
	w, ok, aerr := f.str("wallet_address")
	if aerr != nil {
		return nil, aerr
	}
	if !ok || checkAddress(wire.FamilySol, w) != nil {
		return nil, apierr.Invalid("wallet_address", "wallet_address is required and must be a Solana address")
	}
	job.Wallet = w

	if !f.present("metadata") {
		return nil, apierr.Invalid("metadata", "metadata is required")
	}
	mf, aerr := decodeObject(f["metadata"], "metadata")
	if aerr != nil {
		return nil, aerr
	}
	for _, m := range []struct {
		name     string
		dst      *string
		required bool
		max      int
	}{
		{"name", &job.Metadata.Name, true, maxNameLen},
		{"symbol", &job.Metadata.Symbol, true, maxSymbolLen},
		{"description", &job.Metadata.Description, false, maxDescriptionLen},
		{"image_url", &job.Metadata.ImageURL, false, maxURLLen},
		{"twitter", &job.Metadata.Twitter, false, maxURLLen},
		{"website", &job.Metadata.Website, false, maxURLLen},
	} {
		at := "metadata." + m.name
		v, ok, aerr := mf.str(m.name)
		if aerr != nil {
			aerr.Details = at
			return nil, aerr
		}
		if m.required && (!ok || v == "") {
			return nil, apierr.Invalid(at, "%s is required", at)
		}
		if !utf8.ValidString(v) || len(v) > m.max {
			return nil, apierr.Invalid(at, "%s must be at most %d bytes of UTF-8", at, m.max)
		}
		*m.dst = v
	}

	var cfgs []json.RawMessage
	if !f.present("configs") || json.Unmarshal(f["configs"], &cfgs) != nil {
		return nil, apierr.Invalid("configs", "configs is required and must be an array")
	}
	if len(cfgs) == 0 || len(cfgs) > maxDeployConfigs {
		return nil, apierr.Invalid("configs", "configs must have 1 to %d entries", maxDeployConfigs)
	}
	for i, raw := range cfgs {
		at := fmt.Sprintf("configs[%d]", i)
		cf, aerr := decodeObject(raw, at)
		if aerr != nil {
			return nil, aerr
		}
		dex, _, aerr := cf.str("dex")
		if aerr != nil {
			aerr.Details = at + ".dex"
			return nil, aerr
		}
		launch, aerr := decodeLaunch(dex, cf, at)
		if aerr != nil {
			return nil, aerr
		}
		job.Launches = append(job.Launches, launch)
	}

	if job.CreatorBuy, aerr = lamports(f, "creator_buy_sol_amount"); aerr != nil {
		return nil, aerr
	}
	if f.present("buys") {
		var buys []json.RawMessage
		if json.Unmarshal(f["buys"], &buys) != nil {
			return nil, apierr.Invalid("buys", "buys must be an array")
		}
		if len(buys) > maxDeployBuys {
			return nil, apierr.Invalid("buys", "at most %d buys", maxDeployBuys)
		}
		for i, raw := range buys {
			at := fmt.Sprintf("buys[%d]", i)
			bf, aerr := decodeObject(raw, at)
			if aerr != nil {
				return nil, aerr
			}
			bw, ok, aerr := bf.str("wallet_address")
			if aerr != nil || !ok || checkAddress(wire.FamilySol, bw) != nil {
				return nil, apierr.Invalid(at+".wallet_address", "%s.wallet_address is required and must be a Solana address", at)
			}
			amt, aerr := lamports(bf, "sol_amount")
			if aerr != nil {
				aerr.Details = at + ".sol_amount"
				return nil, aerr
			}
			if amt == 0 {
				return nil, apierr.Invalid(at+".sol_amount", "%s.sol_amount must be above 0", at)
			}
			fee, aerr := feeUnits(bf, "priority_fee_sol", 9)
			if aerr != nil {
				aerr.Details = at + ".priority_fee_sol"
				return nil, aerr
			}
			feeLamports, err := strconv.ParseUint(fee, 10, 64)
			if err != nil {
				return nil, apierr.Invalid(at+".priority_fee_sol", "%s.priority_fee_sol is too large", at)
			}
			job.Buys = append(job.Buys, wire.DeployBuy{Wallet: bw, Lamports: amt, PriorityFee: feeLamports})
		}
	}
	mode, _, aerr := f.str("bundle_mode")
	if aerr != nil {
		return nil, aerr
	}
	switch mode {
	case wire.BundlePacked, wire.BundleNonPacked, wire.BundleSniper:
		job.BundleMode = mode
	case "":
		job.BundleMode = wire.BundlePacked
	default:
		return nil, apierr.Invalid("bundle_mode", "bundle_mode must be packed, non_packed or sniper")
	}
	if job.JitoTip, aerr = lamports(f, "jito_tip"); aerr != nil {
		return nil, aerr
	}
	// Omitted, slippage_bps is the service's default slippage, as a swap's.
	job.SlippageBps = uint32(math.Round(defaultSlippagePct * 100))
	if f.present("slippage_bps") {
		v, err := strconv.ParseUint(string(f["slippage_bps"]), 10, 32)
		if err != nil || v > 10000 {
			return nil, apierr.Invalid("slippage_bps", "slippage_bps must be a whole number from 0 to 10000")
		}
		job.SlippageBps = uint32(v)
	}
	return job, nil
}

// lamports reads an optional non-negative integer field.
func lamports(f fields, name string) (uint64, *apierr.Error) {
	if !f.present(name) {
		return 0, nil
	}
	v, err := strconv.ParseUint(string(f[name]), 10, 64)
	if err != nil {
		return 0, apierr.Invalid(name, "%s must be a whole number of lamports, 0 or more", name)
	}
	return v, nil
}

// decodeLaunch reads configs[i]: the venue and its data. pump_fun's data is
// the spec's; unknown keys there are ignored like every unknown field. The
// data of bonk and bags is this service's own design: unknown keys there are
// refused, so that a misspelt option is never silently dropped.
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
			aerr.Details = at + ".data.is_mayhem_mode"
			return l, aerr
		}
		l.Mayhem = mayhem
		cashback, aerr := df.boolean("is_cashback_enabled")
		if aerr != nil {
			aerr.Details = at + ".data.is_cashback_enabled"
			return l, aerr
		}
		if cashback {
			return l, apierr.Invalid(at+".data.is_cashback_enabled", "the pump.fun program no longer accepts cashback launches (CashbackDeprecated); send false")
		}
	case wire.DexBonk:
		if aerr := onlyKeys(df, at+".data", "migrate_type", "creator_fee_on"); aerr != nil {
			return l, aerr
		}
		var aerr *apierr.Error
		if l.MigrateType, aerr = enum(df, "migrate_type", at+".data", "cpmm", "cpmm", "amm_v4"); aerr != nil {
			return l, aerr
		}
		if l.CreatorFeeOn, aerr = enum(df, "creator_fee_on", at+".data", "quote_token", "quote_token", "both_tokens"); aerr != nil {
			return l, aerr
		}
	case wire.DexBags:
		if aerr := onlyKeys(df, at+".data", "pool_config"); aerr != nil {
			return l, aerr
		}
		v, ok, aerr := df.str("pool_config")
		if aerr != nil {
			aerr.Details = at + ".data.pool_config"
			return l, aerr
		}
		if ok {
			if checkAddress(wire.FamilySol, v) != nil {
				return l, apierr.Invalid(at+".data.pool_config", "%s.data.pool_config must be a Solana address", at)
			}
			l.PoolConfig = v
		}
	default:
		return l, apierr.Invalid(at+".dex", "%s.dex must be pump_fun, bags or bonk", at)
	}
	return l, nil
}

// onlyKeys refuses a key of f not in allowed, naming it.
func onlyKeys(f fields, at string, allowed ...string) *apierr.Error {
	for k := range f {
		if !slices.Contains(allowed, k) {
			return apierr.Invalid(at+"."+k, "%s.%s is not an option here; the options are %s", at, k, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// enum reads an optional string that must be one of values; absent, it is def.
func enum(f fields, name, at, def string, values ...string) (string, *apierr.Error) {
	v, ok, aerr := f.str(name)
	if aerr != nil {
		aerr.Details = at + "." + name
		return "", aerr
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

func (h *handler) deploy(c *gin.Context) {
	account := c.GetString(ctxAccount)
	job, aerr := decodeDeploy(envelope.ReadBody(c), h.s.cfg.DefaultSlippagePct)
	if aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	dir := h.s.deps.Directory
	canon, ok := dir.Wallet(account, wire.FamilySol, job.Wallet)
	if !ok {
		envelope.Fail(c, apierr.Newf(apierr.WalletNotOwned, job.Wallet, "wallet_address is not a wallet of this account"))
		return
	}
	job.Wallet = canon
	for i, b := range job.Buys {
		canon, ok := dir.Wallet(account, wire.FamilySol, b.Wallet)
		if !ok {
			envelope.Fail(c, apierr.Newf(apierr.WalletNotOwned, b.Wallet, "buys[%d].wallet_address is not a wallet of this account", i))
			return
		}
		job.Buys[i].Wallet = canon
	}
	chain := wire.ChainSolana
	if !h.accepting(c, chain) || !h.charge(c, account) {
		return
	}

	job.OrderID = newOrderID(h.l.orderPrefix())
	h.noteOrder(c, job.OrderID)
	job.AccountID = account
	job.CreatedAt = time.Now().UTC()
	log := h.s.log.With("order_id", job.OrderID, "chain", chain, "kind", wire.KindDeploy,
		"request_id", c.Writer.Header().Get("X-Request-Id"))
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
	res := deployResult{MintAddresses: reply.Deploy.MintAddresses, LandedTxs: reply.Deploy.LandedTxs}
	if res.MintAddresses == nil {
		res.MintAddresses = []string{}
	}
	if res.LandedTxs == nil {
		res.LandedTxs = []wire.LandedTx{}
	}
	envelope.OK(c, http.StatusOK, res)
}

// deployOrder is the pending record of a deploy.
func deployOrder(job *wire.DeployJob) *wire.Order {
	return orders.New(orders.OfDeploy(job))
}
