package wire

import "time"

// Launch venues of POST /api/v1/deploy (configs[].dex).
const (
	DexPumpFun = "pump_fun"
	DexBonk    = "bonk"
	DexBags    = "bags"
)

// Bundle modes of a deploy.
const (
	// BundlePacked: the create and as many buys as fit, in as few
	// transactions as possible, in one bundle.
	BundlePacked = "packed"
	// BundleNonPacked: the create with the creator's buy, then one
	// transaction per buyer, in bundles of at most five.
	BundleNonPacked = "non_packed"
	// BundleSniper: the create lands alone first; the buys follow.
	BundleSniper = "sniper"
)

// Kinds of a landed deploy transaction: the first action it carries.
const (
	TxCreate = "create"
	TxDevBuy = "dev_buy"
	TxBuy    = "buy"
)

// DeployJob is a validated token launch, published by ingress on the
// Solana orders subject with the HeaderKind header set to KindDeploy.
type DeployJob struct {
	OrderID   string `json:"order_id"`
	AccountID string `json:"account_id"`
	// Wallet is the creator: it signs and pays the create and the
	// creator's buy.
	Wallet   string        `json:"wallet_address"`
	Metadata TokenMetadata `json:"metadata"`
	Launches []Launch      `json:"launches"`
	// CreatorBuy is the creator's first buy in lamports (0: none).
	CreatorBuy  uint64      `json:"creator_buy_sol_amount"`
	Buys        []DeployBuy `json:"buys"`
	BundleMode  string      `json:"bundle_mode"`
	JitoTip     uint64      `json:"jito_tip"`
	SlippageBps uint32      `json:"slippage_bps"`
	CreatedAt   time.Time   `json:"created_at"`
	// MaxJitoTip is the account's max_jito_tip in lamports, set by
	// ingress, so that the tip the worker chooses for a launch that sent
	// none stays under it too; empty (a job from an older ingress): no cap.
	MaxJitoTip string `json:"max_jito_tip,omitempty"`
}

// JobKind names the job on the orders subject.
func (*DeployJob) JobKind() string { return KindDeploy }

// TokenMetadata is what the token's uri points to. ImageURL and the links
// are written as given; the service never fetches them.
type TokenMetadata struct {
	Name        string `json:"name"`
	Symbol      string `json:"symbol"`
	Description string `json:"description,omitempty"`
	ImageURL    string `json:"image_url,omitempty"`
	Twitter     string `json:"twitter,omitempty"`
	Website     string `json:"website,omitempty"`
}

// Launch is one configs[] entry: one token on one venue.
type Launch struct {
	Dex string `json:"dex"`
	// pump_fun
	Mayhem bool `json:"is_mayhem_mode,omitempty"`
	// bonk (Raydium LaunchLab under the letsbonk platform)
	MigrateType  string `json:"migrate_type,omitempty"`   // amm_v4 or cpmm
	CreatorFeeOn string `json:"creator_fee_on,omitempty"` // quote_token or both_tokens
	// bags (Meteora Dynamic Bonding Curve): the pool config, empty for the
	// configured bags config.
	PoolConfig string `json:"pool_config,omitempty"`
}

// DeployBuy is one of the bundled buys.
type DeployBuy struct {
	Wallet   string `json:"wallet_address"`
	Lamports uint64 `json:"sol_amount"`
	// PriorityFee is the buy's priority fee in lamports.
	PriorityFee uint64 `json:"priority_fee"`
}

// LandedTx is one landed transaction of a deploy, as the response lists it.
type LandedTx struct {
	Kind      string `json:"kind"`
	Dex       string `json:"dex"`
	Mint      string `json:"mint"`
	Signature string `json:"signature"`
}

// DeployResult is what a deploy launched: every mint, and every landed
// transaction in the order it landed.
type DeployResult struct {
	MintAddresses []string   `json:"mint_addresses"`
	LandedTxs     []LandedTx `json:"landed_txs"`
}
