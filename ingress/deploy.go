package ingress

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
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

// DeployJob is a validated token launch.
type DeployJob struct {
	OrderID       string         `json:"order_id"`
	AccountID     string         `json:"account_id"`
	Wallet        string         `json:"wallet_address"`
	Metadata      DeployMetadata `json:"metadata"`
	Configs       []DeployConfig `json:"configs"`
	CreatorBuy    uint64         `json:"creator_buy_sol_amount"`
	Buys          []DeployBuy    `json:"buys"`
	BundleMode    string         `json:"bundle_mode"`
	JitoTip       uint64         `json:"jito_tip"`
	SlippageBps   uint32         `json:"slippage_bps"`
	PriorityFeeLa string         `json:"priority_fee"`
}

// DeployMetadata is the token's metadata.
type DeployMetadata struct {
	Name, Symbol, Description, ImageURL, Twitter, Website string
}

// DeployConfig is one launch.
type DeployConfig struct {
	Dex  string          `json:"dex"`
	Data json.RawMessage `json:"data"`
}

// DeployBuy is a bundled buy.
type DeployBuy struct {
	Wallet      string `json:"wallet_address"`
	Lamports    uint64 `json:"sol_amount"`
	PriorityFee string `json:"priority_fee"` // lamports
}

func decodeDeploy(body []byte) (*DeployJob, *apierr.Error) {
	f, aerr := decodeObject(body, "")
	if aerr != nil {
		return nil, aerr
	}
	job := &DeployJob{}
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
		data := cf["data"]
		switch dex {
		case "pump_fun":
			df := fields{}
			if cf.present("data") {
				if df, aerr = decodeObject(data, at+".data"); aerr != nil {
					return nil, aerr
				}
			}
			for _, b := range []string{"is_mayhem_mode", "is_cashback_enabled"} {
				v, aerr := df.boolean(b)
				if aerr != nil {
					aerr.Details = at + ".data." + b
					return nil, aerr
				}
				if b == "is_cashback_enabled" && v {
					return nil, apierr.Invalid(at+".data.is_cashback_enabled", "the pump.fun program no longer accepts cashback launches (CashbackDeprecated)")
				}
			}
		case "bags", "bonk":
			if cf.present("data") {
				if _, aerr := decodeObject(data, at+".data"); aerr != nil {
					return nil, aerr
				}
			}
		default:
			return nil, apierr.Invalid(at+".dex", "%s.dex must be pump_fun, bags or bonk", at)
		}
		job.Configs = append(job.Configs, DeployConfig{Dex: dex, Data: data})
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
			job.Buys = append(job.Buys, DeployBuy{Wallet: bw, Lamports: amt, PriorityFee: fee})
		}
	}
	mode, _, aerr := f.str("bundle_mode")
	if aerr != nil {
		return nil, aerr
	}
	switch mode {
	case "packed", "non_packed", "sniper":
		job.BundleMode = mode
	case "":
		job.BundleMode = "packed"
	default:
		return nil, apierr.Invalid("bundle_mode", "bundle_mode must be packed, non_packed or sniper")
	}
	if job.JitoTip, aerr = lamports(f, "jito_tip"); aerr != nil {
		return nil, aerr
	}
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

func (h *handler) deploy(c *gin.Context) {
	account := c.GetString(ctxAccount)
	job, aerr := decodeDeploy(envelope.ReadBody(c))
	if aerr != nil {
		envelope.Fail(c, aerr)
		return
	}
	dir := h.s.deps.Directory
	if _, ok := dir.Wallet(account, wire.FamilySol, job.Wallet); !ok {
		envelope.Fail(c, apierr.Newf(apierr.WalletNotOwned, job.Wallet, "wallet_address is not a wallet of this account"))
		return
	}
	for i, b := range job.Buys {
		if _, ok := dir.Wallet(account, wire.FamilySol, b.Wallet); !ok {
			envelope.Fail(c, apierr.Newf(apierr.WalletNotOwned, b.Wallet, "buys[%d].wallet_address is not a wallet of this account", i))
			return
		}
	}
	// No process consumes launches yet: answer at once, charge nothing.
	envelope.Fail(c, apierr.Newf(apierr.ChainUnavailable, "deploy", "no worker is serving token launches right now; nothing was charged"))
}
