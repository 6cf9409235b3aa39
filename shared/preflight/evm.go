package preflight

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/chains"
	"github.com/tradeapi/tradeapi/shared/config"
	evmdevnet "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// EVM is what the check needs of one EVM chain: where it and its relay
// answer, its chain id and genesis hash, and the contracts the service
// trades through. A zero address is a contract the chain does not have:
// the venue or token is not available there, and its item is skipped.
type EVM struct {
	// Name is the chain's name: eth, bsc, base, rbh, arc.
	Name string
	// RPC is the chain's JSON-RPC, Relay its private relay (empty URL:
	// none).
	RPC, Relay endpoint.Endpoint
	ChainID    uint64
	// GenesisHash is the hash of the chain's block 0 the RPC must serve
	// (evm.chains.<name>.genesis_hash): the local chains, and any chain
	// reusing the chain id, answer the configured chain id. Zero compares
	// nothing; a local chain is never compared.
	GenesisHash common.Hash
	// Router is the official UniswapV2Router02 over Factory, the official
	// UniswapV2Factory; SwapRouter02 and QuoterV2 the official V3
	// periphery over V3Factory, the official UniswapV3Factory.
	Router, Factory, V3Factory, SwapRouter02, QuoterV2 common.Address
	// WrappedNative wraps the native coin for the routers.
	WrappedNative common.Address
	// NativeToken is the native coin's own ERC-20 interface, through which
	// a chain without a wrapped native token trades it (arc's USDC).
	NativeToken common.Address
	// Quotes are the stable quote tokens by symbol.
	Quotes map[string]common.Address
	// Local: the addresses are asked of the local chain when the check
	// runs (devnet_deployment), as the service does.
	Local bool
}

// EVMFromConfig resolves an EVM chain of cfg as the service does: the
// chain's evm.chains entry, or, for a chain the local chains serve, the
// local chain's endpoints (its addresses are read when the check runs).
func EVMFromConfig(cfg config.Config, name string) (EVM, error) {
	c, listed := cfg.EVM.Chains[name]
	if !listed {
		base := "http://" + cfg.Devnet.Addr + "/evm/" + name
		id, _ := evmdevnet.ChainID(name)
		return EVM{Name: name, RPC: endpoint.New(name+" rpc", base), Relay: endpoint.New(name+" relay", base+"/relay"),
			ChainID: id, Local: true}, nil
	}
	out := EVM{Name: name, RPC: endpoint.New(name+" rpc", c.RPCURL), Relay: endpoint.New(name+" relay", c.RelayURL),
		ChainID: c.ChainID, Quotes: map[string]common.Address{}}
	prefix := "evm.chains." + name + "."
	if c.GenesisHash != "" {
		h, ok := config.ParseGenesisHash(c.GenesisHash)
		if !ok || h == (common.Hash{}) {
			return EVM{}, fmt.Errorf("%sgenesis_hash: %q is not 0x and the 64 hex digits of a block hash", prefix, c.GenesisHash)
		}
		out.GenesisHash = h
	}
	for key, dst := range map[string]*common.Address{"router": &out.Router, "factory": &out.Factory,
		"v3_factory": &out.V3Factory, "swap_router02": &out.SwapRouter02, "quoter_v2": &out.QuoterV2,
		"wrapped_native": &out.WrappedNative, "native_token": &out.NativeToken} {
		v := yamlKey(c, key)
		if v == "" {
			continue
		}
		if !common.IsHexAddress(v) {
			return EVM{}, fmt.Errorf("%s%s: %q is not an address", prefix, key, v)
		}
		*dst = common.HexToAddress(v)
	}
	for sym, a := range c.Quotes {
		if !common.IsHexAddress(a) {
			return EVM{}, fmt.Errorf("%squotes.%s: %q is not an address", prefix, sym, a)
		}
		out.Quotes[strings.ToUpper(sym)] = common.HexToAddress(a)
	}
	return out, nil
}

// yamlKey returns the string field of a configuration struct that the file
// spells key, or "" when the struct has none. The check reads a chain by
// the file's key names, the schema's contract, rather than by the Go names
// of another package's struct, which may grow keys the check then reads
// without a change here.
func yamlKey(v any, key string) string {
	rv := reflect.ValueOf(v)
	rt := rv.Type()
	for i := range rt.NumField() {
		f := rt.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name == key && f.Type.Kind() == reflect.String {
			return rv.Field(i).String()
		}
	}
	return ""
}

// contract is one official contract the service calls, with the addresses
// its constructor must have been given (they sit in its immutables).
type contract struct {
	item, name string
	addr       common.Address
	key        string
	over       []named
}

// named is an address with what it is.
type named struct {
	what string
	addr common.Address
}

// contracts lists the contracts in the order they are reported.
func (e EVM) contracts() []contract {
	weth := named{"wrapped native", e.WrappedNative}
	return []contract{
		{"router", uniswap.NameUniswapV2Router02, e.Router, "router", []named{{"factory", e.Factory}, weth}},
		{"factory", uniswap.NameUniswapV2Factory, e.Factory, "factory", nil},
		{"v3 factory", uniswap.NameUniswapV3Factory, e.V3Factory, "v3_factory", nil},
		{"swap router02", uniswap.NameSwapRouter02, e.SwapRouter02, "swap_router02", []named{{"factory", e.Factory}, {"v3 factory", e.V3Factory}, weth}},
		{"quoter v2", uniswap.NameQuoterV2, e.QuoterV2, "quoter_v2", []named{{"v3 factory", e.V3Factory}, weth}},
	}
}

// token is an ERC-20 the service prices, with its expected decimals and
// the symbol its contract answers.
type token struct {
	symbol   string
	addr     common.Address
	decimals int
	key      string
	// want is the symbol() the token must answer: two tokens of the same
	// decimals (USDC and USDT, or WBNB given as bsc's USDC) are told apart
	// by it.
	want string
}

// tokens lists the wrapped native token (the native coin's 18 decimals),
// the native coin's own ERC-20 where the chain has one (arc's USDC, in the
// decimals of the chain's native asset), then the quotes in the order of
// shared/chains. A chain whose native coin has its own ERC-20 and no
// wrapped token (arc) trades the coin through that ERC-20: it has no
// wrapped native token to check, nor to skip.
func (e EVM) tokens() []token {
	ch, ok := chains.Get(e.Name)
	if !ok {
		return nil
	}
	var out []token
	if e.WrappedNative != (common.Address{}) || e.NativeToken == (common.Address{}) {
		out = append(out, token{"wrapped native", e.WrappedNative, chains.WeiDecimals, "wrapped_native", "W" + ch.Native})
	}
	if e.NativeToken != (common.Address{}) {
		out = append(out, token{"native " + ch.Native, e.NativeToken, ch.Assets[0].Decimals, "native_token", ch.Native})
	}
	for _, a := range ch.Assets {
		if addr, ok := e.Quotes[a.Symbol]; ok && !a.Native {
			out = append(out, token{a.Symbol, addr, a.Decimals, "quotes." + a.Symbol, a.Symbol})
		}
	}
	return out
}

// evmCheck runs the checks of one EVM chain.
type evmCheck struct {
	e       EVM
	timeout time.Duration
	// calls bounds the calls to the chain's RPC.
	calls *calls
}

func newEVM(e EVM, opts Options) *evmCheck {
	return &evmCheck{e: e, timeout: opts.Timeout, calls: &calls{timeout: opts.Timeout}}
}

func (c *evmCheck) run(ctx context.Context) []Line {
	ls := &lines{chain: c.e.Name, endpoints: []endpoint.Endpoint{c.e.RPC, c.e.Relay}}
	client, ok := c.probe(ctx, ls)
	if ok {
		defer client.Close()
		code := &codeCache{r: client, code: map[common.Address][]byte{}}
		for _, k := range c.e.contracts() {
			c.contract(ctx, ls, code, k)
		}
		for _, t := range c.e.tokens() {
			c.token(ctx, ls, client, t)
		}
		c.simulate(ctx, ls, client)
		c.batch(ctx, ls, client)
		c.feeHistory(ctx, ls, client)
	}
	c.relay(ctx, ls)
	return ls.out
}

// probe dials the chain and compares its chain id, and off the local
// chains the hash of its block 0, with the configured ones; for a local
// chain it also reads the local chain's deployment.
func (c *evmCheck) probe(ctx context.Context, ls *lines) (*ethclient.Client, bool) {
	cctx, cancel := c.calls.bounded(ctx)
	defer cancel()
	rc, err := c.e.RPC.DialEVM(cctx, c.timeout)
	if err == nil {
		var id hexutil.Big
		if err = rc.CallContext(cctx, &id, "eth_chainId"); err == nil {
			if got := (*big.Int)(&id); !got.IsUint64() || got.Uint64() != c.e.ChainID {
				ls.fail("rpc", "", "answers chain id %s, want %d", got, c.e.ChainID)
				rc.Close()
				c.notChecked(ls, fmt.Sprintf("not checked: %s rpc is another chain", c.e.Name))
				return nil, false
			}
		}
	}
	var genesisUnread error
	if err == nil && !c.e.Local && c.e.GenesisHash != (common.Hash{}) {
		// Which chain: the local chains, and any chain reusing the chain
		// id, would pass every check after this one.
		genesis, gerr := genesisOf(cctx, rc)
		switch {
		case gerr != nil:
			// A node whose history before the merge is pruned may not
			// show block 0: not known, so not passed (below).
			genesisUnread = gerr
		case genesis != c.e.GenesisHash:
			rc.Close()
			ls.fail("rpc", "", "serves another chain: genesis %s, want %s (evm.chains.%s.genesis_hash)", genesis.Hex(), c.e.GenesisHash.Hex(), c.e.Name)
			c.notChecked(ls, fmt.Sprintf("not checked: %s rpc is another chain", c.e.Name))
			return nil, false
		}
	}
	if err == nil && c.e.Local {
		var d evmdevnet.Deployment
		if err = rc.CallContext(cctx, &d, "devnet_deployment"); err == nil {
			c.e.Router, c.e.Factory, c.e.V3Factory = d.Router02, d.Factory, d.V3Factory
			c.e.SwapRouter02, c.e.QuoterV2, c.e.WrappedNative = d.SwapRouter02, d.QuoterV2, d.WrappedNative
			c.e.NativeToken = d.NativeToken
			c.e.Quotes = d.Stables
		}
	}
	if err != nil {
		if rc != nil {
			rc.Close()
		}
		ls.fail("rpc", "", "does not answer: %s", reason(c.e.RPC, err))
		c.notChecked(ls, fmt.Sprintf("not checked: %s rpc does not answer", c.e.Name))
		return nil, false
	}
	switch {
	case c.e.Local:
		ls.pass("rpc", "", "answers, chain id %d (the local chain: a test double, not a public network)", c.e.ChainID)
	case c.e.GenesisHash != (common.Hash{}) && genesisUnread == nil:
		ls.pass("rpc", "", "answers, chain id %d, genesis %s", c.e.ChainID, c.e.GenesisHash.Hex())
	default:
		ls.pass("rpc", "", "answers, chain id %d", c.e.ChainID)
	}
	if genesisUnread != nil {
		ls.skip("genesis", "", "not compared: the rpc does not show block 0 (%s); the chain id alone was checked", reason(c.e.RPC, genesisUnread))
	}
	return ethclient.NewClient(rc.Client), true
}

// genesisOf reads the hash of the chain's block 0.
func genesisOf(ctx context.Context, rc *endpoint.EVMClient) (common.Hash, error) {
	var b *struct {
		Hash common.Hash `json:"hash"`
	}
	if err := rc.CallContext(ctx, &b, "eth_getBlockByNumber", "0x0", false); err != nil {
		return common.Hash{}, err
	}
	if b == nil || b.Hash == (common.Hash{}) {
		return common.Hash{}, errors.New("it has no block 0")
	}
	return b.Hash, nil
}

// simulate asks the node for eth_simulateV1, which a swap behind its
// wallet's approval is simulated with. A node that does not serve it is a
// SKIP: such swaps are then sent unsimulated.
func (c *evmCheck) simulate(ctx context.Context, ls *lines, client *ethclient.Client) {
	const item = "eth_simulateV1"
	cctx, cancel := c.calls.bounded(ctx)
	defer cancel()
	latest := rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)
	to := common.Address{}
	res, err := client.SimulateV1(cctx, ethclient.SimulateOptions{BlockStateCalls: []ethclient.SimulateBlock{{
		Calls: []ethereum.CallMsg{{To: &to}}}}}, &latest)
	switch {
	case err == nil && len(res) == 1 && len(res[0].Calls) == 1 && res[0].Calls[0].Status == 1:
		ls.pass(item, "", "served: a swap behind its wallet's approval is simulated after it")
	case err == nil:
		ls.fail(item, "", "answered a plain transfer with %d blocks that did not run it", len(res))
	case endpoint.Unsupported(err):
		ls.skip(item, "", "not served (%s): a swap behind its wallet's approval is sent unsimulated", reason(c.e.RPC, err))
	default:
		ls.fail(item, "", "failed: %s", reason(c.e.RPC, err))
	}
}

// batch asks the node two calls in one JSON-RPC batch, as every order
// reads a token's pools, its wallets' balances and nonces, and the venue
// checks the contracts' code: a node (or a plan of a provider) that
// refuses batches fails every order on the chain.
func (c *evmCheck) batch(ctx context.Context, ls *lines, client *ethclient.Client) {
	const item = "batch requests"
	cctx, cancel := c.calls.bounded(ctx)
	defer cancel()
	var id, height hexutil.Big
	elems := []rpc.BatchElem{{Method: "eth_chainId", Result: &id}, {Method: "eth_blockNumber", Result: &height}}
	err := client.Client().BatchCallContext(cctx, elems)
	for _, e := range elems {
		if err == nil {
			err = e.Error
		}
	}
	switch {
	case err != nil:
		ls.fail(item, "", "refused (%s): every order on %s reads the chain in JSON-RPC batches, and would fail", reason(c.e.RPC, err), c.e.Name)
	case !(*big.Int)(&id).IsUint64() || (*big.Int)(&id).Uint64() != c.e.ChainID:
		ls.fail(item, "", "answered chain id %s in a batch, want %d", (*big.Int)(&id), c.e.ChainID)
	default:
		ls.pass(item, "", "served: an order's reads go in one round trip")
	}
}

// feeHistory asks the node for eth_feeHistory, which an order with
// auto_tip prices its tip from: a node that does not serve it fails every
// such order.
func (c *evmCheck) feeHistory(ctx context.Context, ls *lines, client *ethclient.Client) {
	const item = "eth_feeHistory"
	cctx, cancel := c.calls.bounded(ctx)
	defer cancel()
	_, err := client.FeeHistory(cctx, 1, nil, []float64{50})
	if err != nil {
		ls.fail(item, "", "failed (%s): every order with auto_tip on %s would fail", reason(c.e.RPC, err), c.e.Name)
		return
	}
	ls.pass(item, "", "served: auto_tip prices a tip from it")
}

// notChecked lists the items an unreachable RPC leaves unchecked; those
// the configuration leaves out are skipped as always. A local chain's
// addresses are unknown until it answers.
func (c *evmCheck) notChecked(ls *lines, why string) {
	for _, k := range c.e.contracts() {
		switch {
		case c.e.Local:
			ls.fail(k.item, "", "%s", why)
		case k.addr == (common.Address{}):
			c.skipContract(ls, k)
		default:
			ls.fail(k.item, k.addr.Hex(), "%s", why)
		}
	}
	if !c.e.Local {
		for _, t := range c.e.tokens() {
			if t.addr == (common.Address{}) {
				c.skipToken(ls, t)
			} else {
				ls.fail("token "+t.symbol, t.addr.Hex(), "%s", why)
			}
		}
	}
	ls.fail("eth_simulateV1", "", "%s", why)
	ls.fail("batch requests", "", "%s", why)
	ls.fail("eth_feeHistory", "", "%s", why)
}

// skipContract and skipToken report what the chain does not have.
func (c *evmCheck) skipContract(ls *lines, k contract) {
	ls.skip(k.item, "", "evm.chains.%s.%s is empty: %s is not available on %s", c.e.Name, k.key, k.name, c.e.Name)
}

func (c *evmCheck) skipToken(ls *lines, t token) {
	ls.skip("token "+t.symbol, "", "evm.chains.%s.%s is empty: not available on %s", c.e.Name, t.key, c.e.Name)
}

// codeCache reads each address's code once, for CheckCode and then for the
// immutables.
type codeCache struct {
	r    uniswap.CodeReader
	code map[common.Address][]byte
}

func (cc *codeCache) CodeAt(ctx context.Context, a common.Address, block *big.Int) ([]byte, error) {
	if b, ok := cc.code[a]; ok {
		return b, nil
	}
	b, err := cc.r.CodeAt(ctx, a, block)
	if err == nil {
		cc.code[a] = b
	}
	return b, err
}

// contract checks that a contract holds the official runtime code and that
// its immutables name the configured factories and wrapped native token.
func (c *evmCheck) contract(ctx context.Context, ls *lines, code *codeCache, k contract) {
	if k.addr == (common.Address{}) {
		c.skipContract(ls, k)
		return
	}
	cctx, cancel := c.calls.bounded(ctx)
	defer cancel()
	if err := uniswap.CheckCode(cctx, code, k.name, k.addr); err != nil {
		if b, ok := code.code[k.addr]; ok {
			if len(b) == 0 {
				ls.fail(k.item, k.addr.Hex(), "no code: not %s", k.name)
			} else {
				ls.fail(k.item, k.addr.Hex(), "code differs from %s (%d bytes)", k.name, len(b))
			}
			return
		}
		ls.fail(k.item, k.addr.Hex(), "code not read: %s", reason(c.e.RPC, err))
		return
	}
	holds := uniswap.ImmutableAddresses(k.name, code.code[k.addr])
	var over []string
	for _, n := range k.over {
		switch {
		case n.addr == (common.Address{}):
			// Not configured: say what the contract was built over instead.
		case !slices.Contains(holds, n.addr):
			ls.fail(k.item, k.addr.Hex(), "official %s code, but not built over the configured %s %s (its immutables hold %s)",
				k.name, n.what, n.addr.Hex(), hexList(holds))
			return
		default:
			over = append(over, n.what+" "+n.addr.Hex())
		}
	}
	detail := "official " + k.name + " code"
	if n := len(over); n > 0 {
		detail += ", built over " + strings.Join(over[:n-1], ", ")
		if n > 1 {
			detail += " and "
		}
		detail += over[n-1]
	}
	if len(over) < len(k.over) {
		detail += fmt.Sprintf(" (its immutables hold %s)", hexList(holds))
	}
	ls.pass(k.item, k.addr.Hex(), "%s", detail)
}

func hexList(as []common.Address) string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Hex()
	}
	return strings.Join(out, ", ")
}

// decimalsSelector and symbolSelector are the selectors of ERC-20
// decimals() and symbol().
var (
	decimalsSelector = []byte{0x31, 0x3c, 0xe5, 0x67}
	symbolSelector   = []byte{0x95, 0xd8, 0x9b, 0x41}
)

// symbolOf decodes symbol()'s answer: an ABI string, or the bytes32 of the
// earliest ERC-20s, its trailing zeros cut.
func symbolOf(out []byte) (string, bool) {
	if len(out) == 32 {
		return string(bytes.TrimRight(out, "\x00")), true
	}
	v, err := abi.Arguments{{Type: stringType}}.Unpack(out)
	if err != nil || len(v) != 1 {
		return "", false
	}
	s, ok := v[0].(string)
	return s, ok
}

var stringType, _ = abi.NewType("string", "", nil)

// token checks an ERC-20's decimals against those the service prices it
// at, and its symbol against the one the service takes it for.
func (c *evmCheck) token(ctx context.Context, ls *lines, client *ethclient.Client, t token) {
	item := "token " + t.symbol
	if t.addr == (common.Address{}) {
		c.skipToken(ls, t)
		return
	}
	cctx, cancel := c.calls.bounded(ctx)
	defer cancel()
	out, err := client.CallContract(cctx, ethereum.CallMsg{To: &t.addr, Data: decimalsSelector}, nil)
	switch {
	case err != nil:
		ls.fail(item, t.addr.Hex(), "decimals() failed: %s", reason(c.e.RPC, err))
	case len(out) != 32 || new(big.Int).SetBytes(out).Cmp(big.NewInt(255)) > 0:
		ls.fail(item, t.addr.Hex(), "decimals() answered %d bytes: not an ERC-20", len(out))
	case int(out[31]) != t.decimals:
		ls.fail(item, t.addr.Hex(), "%d decimals, want %d", out[31], t.decimals)
	default:
		c.symbol(cctx, ls, client, t)
	}
}

// symbol finishes token's line with the token's symbol().
func (c *evmCheck) symbol(ctx context.Context, ls *lines, client *ethclient.Client, t token) {
	item := "token " + t.symbol
	out, err := client.CallContract(ctx, ethereum.CallMsg{To: &t.addr, Data: symbolSelector}, nil)
	if err != nil {
		ls.fail(item, t.addr.Hex(), "%d decimals, but symbol() failed: %s", t.decimals, reason(c.e.RPC, err))
		return
	}
	got, ok := symbolOf(out)
	switch {
	case !ok:
		ls.fail(item, t.addr.Hex(), "%d decimals, but symbol() answered %d bytes that are no string", t.decimals, len(out))
	case !strings.EqualFold(got, t.want):
		ls.fail(item, t.addr.Hex(), "%d decimals, but symbol() is %q, want %q: another token? (evm.chains.%s.%s)",
			t.decimals, capped(got), t.want, c.e.Name, t.key)
	default:
		ls.pass(item, t.addr.Hex(), "%d decimals, symbol %s", t.decimals, got)
	}
}

// capped bounds a string a contract answered before it is printed.
func capped(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// relay asks the private relay for its chain id, which must be the
// chain's.
func (c *evmCheck) relay(ctx context.Context, ls *lines) {
	if c.e.Relay.URL == "" {
		ls.skip("relay", "", "evm.chains.%s.relay_url is empty: anti_mev is refused on %s", c.e.Name, c.e.Name)
		return
	}
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	rc, err := c.e.Relay.DialEVM(cctx, c.timeout)
	if err != nil {
		ls.fail("relay", "", "does not answer: %s", reason(c.e.Relay, err))
		return
	}
	defer rc.Close()
	var id hexutil.Big
	if err := rc.CallContext(cctx, &id, "eth_chainId"); err != nil {
		ls.fail("relay", "", "does not answer eth_chainId: %s", reason(c.e.Relay, err))
		return
	}
	if got := (*big.Int)(&id); !got.IsUint64() || got.Uint64() != c.e.ChainID {
		ls.fail("relay", "", "answers chain id %s, want %d", got, c.e.ChainID)
		return
	}
	ls.pass("relay", "", "answers eth_chainId %d", c.e.ChainID)
}
