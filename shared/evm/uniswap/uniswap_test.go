package uniswap_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/json"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap/internal/immutables"
)

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// The init code hashes Ethereum mainnet's routers hard-code.
var (
	mainnetV2PairInitCodeHash = common.HexToHash("0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f")
	mainnetV3PoolInitCodeHash = common.HexToHash("0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54")
)

// push32 is the PUSH32 instruction that loads word.
func push32(word common.Hash) []byte { return append([]byte{0x7f}, word[:]...) }

func TestInitCodeHashes(t *testing.T) {
	if uniswap.V2PairInitCodeHash != mainnetV2PairInitCodeHash {
		t.Errorf("V2 pair init code hash %s, want %s", uniswap.V2PairInitCodeHash, mainnetV2PairInitCodeHash)
	}
	if uniswap.V3PoolInitCodeHash != mainnetV3PoolInitCodeHash {
		t.Errorf("V3 pool init code hash %s, want %s", uniswap.V3PoolInitCodeHash, mainnetV3PoolInitCodeHash)
	}
	// The routers compute pair and pool addresses with these hashes as
	// constants in their code.
	for name, hashes := range map[string][]common.Hash{
		uniswap.NameUniswapV2Router02:          {uniswap.V2PairInitCodeHash},
		uniswap.NameSwapRouter02:               {uniswap.V2PairInitCodeHash, uniswap.V3PoolInitCodeHash},
		uniswap.NameQuoterV2:                   {uniswap.V3PoolInitCodeHash},
		uniswap.NameNonfungiblePositionManager: {uniswap.V3PoolInitCodeHash},
	} {
		for _, h := range hashes {
			if !bytes.Contains(uniswap.Runtime(name), push32(h)) {
				t.Errorf("%s does not hard-code %s", name, h)
			}
		}
	}
}

func TestSizes(t *testing.T) {
	for _, name := range uniswap.Names() {
		creation, runtime := len(uniswap.Creation(name)), len(uniswap.Runtime(name))
		t.Logf("%-27s creation %5d bytes, runtime %5d bytes, %2d immutable references",
			name, creation, runtime, len(uniswap.Immutables(name)))
		if runtime == 0 || runtime > params.MaxCodeSize {
			t.Errorf("%s: runtime code of %d bytes, EIP-170 allows %d", name, runtime, params.MaxCodeSize)
		}
		if creation > params.MaxInitCodeSize {
			t.Errorf("%s: creation code of %d bytes, EIP-3860 allows %d", name, creation, params.MaxInitCodeSize)
		}
	}
}

// TestImmutables derives every contract's immutables again and compares
// them with the committed ones; for UniswapV2Router02, whose artifact kept
// solc's immutableReferences, the committed ranges are solc's, so the
// derivation is checked against the compiler too.
func TestImmutables(t *testing.T) {
	metas := map[string]*bind.MetaData{
		uniswap.NameUniswapV2Factory:           uniswap.UniswapV2FactoryMetaData,
		uniswap.NameUniswapV2Pair:              uniswap.UniswapV2PairMetaData,
		uniswap.NameUniswapV2Router02:          uniswap.UniswapV2Router02MetaData,
		uniswap.NameWETH9:                      uniswap.WETH9MetaData,
		uniswap.NameUniswapV3Factory:           uniswap.UniswapV3FactoryMetaData,
		uniswap.NameUniswapV3Pool:              uniswap.UniswapV3PoolMetaData,
		uniswap.NameNonfungiblePositionManager: uniswap.NonfungiblePositionManagerMetaData,
		uniswap.NameSwapRouter02:               uniswap.SwapRouter02MetaData,
		uniswap.NameQuoterV2:                   uniswap.QuoterV2MetaData,
	}
	if names := slices.Sorted(func(yield func(string) bool) {
		for n := range metas {
			if !yield(n) {
				return
			}
		}
	}); !slices.Equal(names, uniswap.Names()) {
		t.Fatalf("contracts %v, want %v", uniswap.Names(), names)
	}
	arts := map[string]immutables.Artifact{}
	for name, meta := range metas {
		parsed, err := meta.GetAbi()
		if err != nil {
			t.Fatal(err)
		}
		arts[name] = immutables.Artifact{ABI: *parsed, Creation: uniswap.Creation(name), Runtime: uniswap.Runtime(name)}
	}
	for _, name := range uniswap.Names() {
		derived, err := immutables.Derive(name, arts)
		if err != nil {
			t.Fatal(err)
		}
		var got []uniswap.Range
		for _, r := range derived {
			got = append(got, uniswap.Range{Start: r.Start, Length: r.Length})
		}
		if want := uniswap.Immutables(name); !slices.Equal(got, want) {
			t.Errorf("%s: derived immutables %v, committed %v", name, got, want)
		}
	}

	raw, err := os.ReadFile("immutables.json")
	if err != nil {
		t.Fatal(err)
	}
	var committed map[string]struct {
		From string `json:"from"`
	}
	if err := json.Unmarshal(raw, &committed); err != nil {
		t.Fatal(err)
	}
	if from := committed[uniswap.NameUniswapV2Router02].From; from != "solc" {
		t.Errorf("UniswapV2Router02's immutables come from %q, want solc's", from)
	}
	// Contracts that must have immutables (factory, WETH9, tokens, ...).
	for _, name := range []string{uniswap.NameUniswapV2Router02, uniswap.NameUniswapV3Factory, uniswap.NameUniswapV3Pool,
		uniswap.NameNonfungiblePositionManager, uniswap.NameSwapRouter02, uniswap.NameQuoterV2} {
		if len(uniswap.Immutables(name)) == 0 {
			t.Errorf("%s: no immutables", name)
		}
	}
}

func TestMatchesRuntime(t *testing.T) {
	name := uniswap.NameSwapRouter02
	code := uniswap.Runtime(name)
	if !uniswap.MatchesRuntime(name, code) {
		t.Fatal("the official code does not match itself")
	}
	filled := bytes.Clone(code)
	for _, r := range uniswap.Immutables(name) {
		for i := r.Start; i < r.Start+r.Length; i++ {
			filled[i] = byte(i)
		}
	}
	if !uniswap.MatchesRuntime(name, filled) {
		t.Error("code with immutables filled in does not match")
	}
	words, ok := uniswap.ImmutableWords(name, filled)
	if !ok || len(words) != len(uniswap.Immutables(name)) {
		t.Errorf("ImmutableWords: %d words, %v", len(words), ok)
	}
	r := uniswap.Immutables(name)[0]
	for _, at := range []int{r.Start - 1, r.Start + r.Length, len(code) - 1} {
		bad := bytes.Clone(filled)
		bad[at] ^= 1
		if uniswap.MatchesRuntime(name, bad) {
			t.Errorf("code changed at byte %d outside the immutables matches", at)
		}
	}
	if uniswap.MatchesRuntime(name, filled[:len(filled)-1]) || uniswap.MatchesRuntime(name, append(filled, 0)) {
		t.Error("code of another length matches")
	}
	if uniswap.MatchesRuntime(uniswap.NameQuoterV2, filled) || uniswap.MatchesRuntime("Unknown", filled) {
		t.Error("code matches another contract")
	}
}

// TestMatchesRuntimeOtherMetadata: Uniswap deployed the UniswapV2Router02
// of Robinhood Chain and Arc with its own deploy tool, whose solc builds
// leave the metadata hash out (bytecode_hash "none"): the artifact's
// instructions byte for byte, ending in a 12-byte metadata map where the
// artifact's 52-byte one has an IPFS hash, 21,902 bytes of code in all.
// That is the official router; a change to any instruction is not.
func TestMatchesRuntimeOtherMetadata(t *testing.T) {
	name := uniswap.NameUniswapV2Router02
	code := uniswap.Runtime(name)
	trailer := int(binary.BigEndian.Uint16(code[len(code)-2:])) + 2
	body := code[:len(code)-trailer]
	noHash := append(bytes.Clone(body), common.FromHex("a164736f6c6343000606000a")...) // {"solc": 0.6.6}
	if len(noHash) != 21902 {
		t.Fatalf("%d bytes, want the 21,902 deployed on Robinhood Chain and Arc", len(noHash))
	}
	if !uniswap.MatchesRuntime(name, noHash) {
		t.Error("the router built without a metadata hash does not match")
	}
	changed := bytes.Clone(noHash)
	changed[len(body)-1] ^= 1
	if uniswap.MatchesRuntime(name, changed) {
		t.Error("a change to the last instruction byte matches")
	}
	if uniswap.MatchesRuntime(name, append(bytes.Clone(body), 0x00, 0x0a)) {
		t.Error("code ending in no metadata map matches")
	}
	if uniswap.MatchesRuntime(name, append(bytes.Clone(body[:len(body)-1]), common.FromHex("a164736f6c6343000606000a")...)) {
		t.Error("code one byte short matches")
	}
}

func TestPoolMath(t *testing.T) {
	for fee, want := range map[uint32][2]int32{100: {-887272, 887272}, 500: {-887270, 887270}, 3000: {-887220, 887220}, 10000: {-887200, 887200}} {
		spacing, ok := uniswap.TickSpacing(fee)
		if !ok {
			t.Fatalf("fee %d has no spacing", fee)
		}
		if lo, hi := uniswap.FullRangeTicks(spacing); lo != want[0] || hi != want[1] {
			t.Errorf("fee %d: full range [%d, %d], want %v", fee, lo, hi, want)
		}
	}
	// A price of 1 is 2^96 exactly, 4 is 2^97, and 2 rounds sqrt(2)*2^96
	// down.
	q96 := new(big.Int).Lsh(big.NewInt(1), 96)
	if got := uniswap.SqrtPriceX96(ether(5), ether(5)); got.Cmp(q96) != 0 {
		t.Errorf("price 1: %s", got)
	}
	if got := uniswap.SqrtPriceX96(big.NewInt(1), big.NewInt(4)); got.Cmp(new(big.Int).Lsh(q96, 1)) != 0 {
		t.Errorf("price 4: %s", got)
	}
	two := uniswap.SqrtPriceX96(big.NewInt(1), big.NewInt(2))
	sq := new(big.Int).Mul(two, two)
	next := new(big.Int).Add(two, big.NewInt(1))
	next.Mul(next, next)
	limit := new(big.Int).Lsh(big.NewInt(2), 192)
	if sq.Cmp(limit) > 0 || next.Cmp(limit) <= 0 {
		t.Errorf("price 2: %s is not floor(sqrt(2) * 2^96)", two)
	}
}

// chain is a simulated go-ethereum chain with the official contracts.
type chain struct {
	t        *testing.T
	ctx      context.Context
	sim      *simulated.Backend
	client   autoCommit
	deployer *bind.TransactOpts
	trader   *bind.TransactOpts
	a        uniswap.Addresses
}

// autoCommit seals a block after each transaction, so that the package's
// functions, which wait for receipts, work on the simulated chain as on a
// live one.
type autoCommit struct {
	simulated.Client
	sim *simulated.Backend
}

func (c autoCommit) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if err := c.Client.SendTransaction(ctx, tx); err != nil {
		return err
	}
	c.sim.Commit()
	return nil
}

// mainnetRules gives the simulated chain Ethereum mainnet's forks through
// Osaka, as the local chains have (shared/devnet/evm): go-ethereum's dev
// config also enables the draft Bogota fork, whose rules no live chain
// runs. Amsterdam, which would raise EIP-170's 24576-byte code size limit,
// stays off too, so the official code must fit mainnet's limit.
func mainnetRules(_ *node.Config, ethConf *ethconfig.Config) {
	cfg := *params.AllDevChainProtocolChanges
	cfg.BogotaTime = nil
	cfg.AmsterdamTime = nil
	ethConf.Genesis.Config = &cfg
}

func newChain(t *testing.T) (*chain, *ecdsa.PrivateKey) {
	t.Helper()
	deployerKey, _ := crypto.GenerateKey()
	traderKey, _ := crypto.GenerateKey()
	alloc := types.GenesisAlloc{
		crypto.PubkeyToAddress(deployerKey.PublicKey): {Balance: ether(1_000_000)},
		crypto.PubkeyToAddress(traderKey.PublicKey):   {Balance: ether(1_000)},
	}
	sim := simulated.NewBackend(alloc, mainnetRules)
	t.Cleanup(func() { sim.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	c := &chain{t: t, ctx: ctx, sim: sim, client: autoCommit{Client: sim.Client(), sim: sim}}
	chainID, err := c.client.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c.deployer, err = bind.NewKeyedTransactorWithChainID(deployerKey, chainID); err != nil {
		t.Fatal(err)
	}
	if c.trader, err = bind.NewKeyedTransactorWithChainID(traderKey, chainID); err != nil {
		t.Fatal(err)
	}
	return c, deployerKey
}

// mine waits for tx and fails the test unless it succeeded.
func (c *chain) mine(tx *types.Transaction, err error) *types.Receipt {
	c.t.Helper()
	if err != nil {
		c.t.Fatalf("send: %v", err)
	}
	r, err := bind.WaitMined(c.ctx, c.client, tx)
	if err != nil {
		c.t.Fatalf("mine: %v", err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		// Replay it on the state before its block for the revert reason.
		from, _ := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
		_, callErr := c.client.CallContract(c.ctx, ethereum.CallMsg{From: from, To: tx.To(), Gas: tx.Gas(),
			Value: tx.Value(), Data: tx.Data()}, new(big.Int).Sub(r.BlockNumber, common.Big1))
		c.t.Fatalf("transaction %s reverted (gas %d of %d): %v", tx.Hash(), r.GasUsed, tx.Gas(), callErr)
	}
	return r
}

func gasCost(r *types.Receipt) *big.Int {
	return new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
}

func (c *chain) balance(token, holder common.Address) *big.Int {
	c.t.Helper()
	if token == (common.Address{}) {
		b, err := c.client.BalanceAt(c.ctx, holder, nil)
		if err != nil {
			c.t.Fatal(err)
		}
		return b
	}
	erc20, err := uniswap.NewIERC20(token, c.client)
	if err != nil {
		c.t.Fatal(err)
	}
	b, err := erc20.BalanceOf(nil, holder)
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}

func (c *chain) deadline() *big.Int {
	c.t.Helper()
	h, err := c.client.HeaderByNumber(c.ctx, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	return new(big.Int).SetUint64(h.Time + 600)
}

// stable deploys a mintable 18-decimal token and mints supply to the
// deployer.
func (c *chain) stable(symbol string, supply *big.Int) common.Address {
	c.t.Helper()
	addr, tx, tok, err := contracts.DeployStable(c.deployer, c.client, symbol, symbol, 18)
	c.mine(tx, err)
	c.mine(tok.Mint(c.deployer, c.deployer.From, supply))
	return addr
}

// approve approves spender for all of the trader's token.
func (c *chain) approve(token, spender common.Address) {
	c.t.Helper()
	erc20, err := uniswap.NewIERC20(token, c.client)
	if err != nil {
		c.t.Fatal(err)
	}
	c.mine(erc20.Approve(c.trader, spender, new(big.Int).Lsh(big.NewInt(1), 255)))
}

// transfer sends amount of token from the deployer to the trader.
func (c *chain) transfer(token common.Address, amount *big.Int) {
	c.t.Helper()
	erc20, err := uniswap.NewIERC20(token, c.client)
	if err != nil {
		c.t.Fatal(err)
	}
	c.mine(erc20.Transfer(c.deployer, c.trader.From, amount))
}

// reserves returns a V2 pair's reserves of tokenIn and tokenOut.
func (c *chain) reserves(tokenIn, tokenOut common.Address) (in, out *big.Int) {
	c.t.Helper()
	pair, err := uniswap.NewUniswapV2Pair(uniswap.V2PairAddress(c.a.V2Factory, tokenIn, tokenOut), c.client)
	if err != nil {
		c.t.Fatal(err)
	}
	r, err := pair.GetReserves(nil)
	if err != nil {
		c.t.Fatal(err)
	}
	if t0, _ := uniswap.SortTokens(tokenIn, tokenOut); t0 == tokenIn {
		return r.Reserve0, r.Reserve1
	}
	return r.Reserve1, r.Reserve0
}

var swapRouterABI = mustABI(uniswap.SwapRouter02MetaData)

func mustABI(meta *bind.MetaData) *abi.ABI {
	parsed, err := meta.GetAbi()
	if err != nil {
		panic(err)
	}
	return parsed
}

// pack packs a call of the method with the signature sig, which tells
// SwapRouter02's overloads apart (multicall, unwrapWETH9).
func pack(t *testing.T, parsed *abi.ABI, sig string, args ...any) []byte {
	t.Helper()
	for _, m := range parsed.Methods {
		if m.Sig == sig {
			in, err := m.Inputs.Pack(args...)
			if err != nil {
				t.Fatalf("pack %s: %v", sig, err)
			}
			return append(slices.Clone(m.ID), in...)
		}
	}
	t.Fatalf("no method %s", sig)
	return nil
}

// multicall sends SwapRouter02.multicall(deadline, calls) from the trader
// with value, and returns its receipt.
func (c *chain) multicall(value *big.Int, calls ...[]byte) *types.Receipt {
	c.t.Helper()
	data := pack(c.t, swapRouterABI, "multicall(uint256,bytes[])", c.deadline(), calls)
	return c.mine(bind.NewBoundContract(c.a.SwapRouter02, *swapRouterABI, c.client, c.client, c.client).RawTransact(c.with(value), data))
}

func (c *chain) v2Swap(amountIn, amountOutMin *big.Int, path []common.Address, to common.Address) []byte {
	return pack(c.t, swapRouterABI, "swapExactTokensForTokens(uint256,uint256,address[],address)", amountIn, amountOutMin, path, to)
}

func (c *chain) unwrap(amountMin *big.Int) []byte {
	return pack(c.t, swapRouterABI, "unwrapWETH9(uint256,address)", amountMin, c.trader.From)
}

func (c *chain) router02() *uniswap.UniswapV2Router02 {
	r, err := uniswap.NewUniswapV2Router02(c.a.V2Router02, c.client)
	if err != nil {
		c.t.Fatal(err)
	}
	return r
}

// swapGas is the gas limit of the trader's swaps. An estimate would run on
// the latest block, where a pair or pool updated in that block's second
// writes less (its price accumulators, its oracle) than in the next block,
// which the swap lands in: the bare estimate runs out of gas.
const swapGas = 1_000_000

// with returns the trader's options for a swap that sends value.
func (c *chain) with(value *big.Int) *bind.TransactOpts {
	o := *c.trader
	o.Value = value
	o.GasLimit = swapGas
	return &o
}

func (c *chain) checkCode(name string, addr common.Address) {
	c.t.Helper()
	if err := uniswap.CheckCode(c.ctx, c.client, name, addr); err != nil {
		c.t.Error(err)
	}
}

func (c *chain) expectEqual(what string, got, want *big.Int) {
	c.t.Helper()
	if got.Cmp(want) != 0 {
		c.t.Errorf("%s: got %s, want %s", what, got, want)
	}
}

// deployed is a chain with the official set deployed by Deploy, its own
// WETH9 included.
func deployed(t *testing.T) *chain {
	t.Helper()
	c, _ := newChain(t)
	nonce, err := c.client.PendingNonceAt(c.ctx, c.deployer.From)
	if err != nil {
		t.Fatal(err)
	}
	_, planned, err := uniswap.DeploymentTxs(c.deployer.From, nonce, common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	if c.a, err = uniswap.Deploy(c.ctx, c.client, c.deployer, common.Address{}); err != nil {
		t.Fatal(err)
	}
	if c.a != planned {
		t.Errorf("deployed %+v, planned %+v", c.a, planned)
	}
	if err := uniswap.CheckDeployment(c.ctx, c.client, c.a); err != nil {
		t.Fatal(err)
	}
	c.checkCode(uniswap.NameWETH9, c.a.WETH9)
	return c
}

func TestDeploy(t *testing.T) {
	c := deployed(t)
	v3, err := uniswap.NewUniswapV3Factory(c.a.V3Factory, c.client)
	if err != nil {
		t.Fatal(err)
	}
	for _, fee := range uniswap.FeeTiers() {
		spacing, _ := uniswap.TickSpacing(fee)
		got, err := v3.FeeAmountTickSpacing(nil, new(big.Int).SetUint64(uint64(fee)))
		if err != nil {
			t.Fatal(err)
		}
		c.expectEqual("tick spacing", got, big.NewInt(int64(spacing)))
	}
	v2, err := uniswap.NewUniswapV2Factory(c.a.V2Factory, c.client)
	if err != nil {
		t.Fatal(err)
	}
	if setter, err := v2.FeeToSetter(nil); err != nil || setter != c.deployer.From {
		t.Errorf("feeToSetter %s (%v), want the deployer", setter, err)
	}
	// The immutables hold the deployment's addresses, which is what a
	// preflight can read back through ImmutableWords.
	code, err := c.client.CodeAt(c.ctx, c.a.SwapRouter02, nil)
	if err != nil {
		t.Fatal(err)
	}
	words, _ := uniswap.ImmutableWords(uniswap.NameSwapRouter02, code)
	for _, want := range []common.Address{c.a.V2Factory, c.a.V3Factory, c.a.PositionManager, c.a.WETH9} {
		if !slices.Contains(words, common.BytesToHash(want[:])) {
			t.Errorf("SwapRouter02's immutables lack %s", want)
		}
	}
	// Code at an address other than the contract's is rejected.
	if err := uniswap.CheckCode(c.ctx, c.client, uniswap.NameSwapRouter02, c.a.QuoterV2); err == nil {
		t.Error("QuoterV2's code passes as SwapRouter02's")
	}
}

// TestDeploymentTxsBatch sends the deployment as one batch with the fixed
// gas limits, the way the local chains send their deployment, against the
// project's own wrapped native token, and checks that each transaction
// fits its limit.
func TestDeploymentTxsBatch(t *testing.T) {
	c, key := newChain(t)
	weth, tx, _, err := contracts.DeployWrappedNative(c.deployer, c.client, "Wrapped Ether", "WETH")
	c.mine(tx, err)
	nonce, err := c.client.PendingNonceAt(c.ctx, c.deployer.From)
	if err != nil {
		t.Fatal(err)
	}
	txs, a, err := uniswap.DeploymentTxs(c.deployer.From, nonce, weth)
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 7 || a.WETH9 != weth {
		t.Fatalf("%d transactions with WETH9 %s", len(txs), a.WETH9)
	}
	head, err := c.client.HeaderByNumber(c.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	chainID, _ := c.client.ChainID(c.ctx)
	signer := types.LatestSignerForChainID(chainID)
	var hashes []common.Hash
	for i, d := range txs {
		signed, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID: chainID, Nonce: nonce + uint64(i), To: d.To, Data: d.Data, Gas: d.Gas,
			GasTipCap: big.NewInt(params.GWei), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(params.GWei)),
		})
		if err != nil {
			t.Fatal(err)
		}
		// Sent to the backend directly: the whole batch before a block.
		if err := c.sim.Client().SendTransaction(c.ctx, signed); err != nil {
			t.Fatalf("%s: %v", d.What, err)
		}
		hashes = append(hashes, signed.Hash())
	}
	for range txs {
		c.sim.Commit()
	}
	for i, h := range hashes {
		r, err := c.client.TransactionReceipt(c.ctx, h)
		if err != nil {
			t.Fatalf("%s: %v", txs[i].What, err)
		}
		t.Logf("%-45s gas %8d of %8d", txs[i].What, r.GasUsed, txs[i].Gas)
		if r.Status != types.ReceiptStatusSuccessful {
			t.Errorf("%s reverted (gas %d of %d)", txs[i].What, r.GasUsed, txs[i].Gas)
		}
		if r.GasUsed*115/100 > txs[i].Gas {
			t.Errorf("%s: gas limit %d leaves less than 15%% over the %d used", txs[i].What, txs[i].Gas, r.GasUsed)
		}
	}
	c.a = a
	if err := uniswap.CheckDeployment(c.ctx, c.client, a); err != nil {
		t.Fatal(err)
	}
	// The package's WETH9, deployed the same way, for its gas limit.
	nonce += uint64(len(txs))
	withWETH9, _, err := uniswap.DeploymentTxs(c.deployer.From, nonce, common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	d := withWETH9[0]
	signed, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{ChainID: chainID, Nonce: nonce, Data: d.Data, Gas: d.Gas,
		GasTipCap: big.NewInt(params.GWei), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(params.GWei))})
	if err != nil {
		t.Fatal(err)
	}
	r := c.mine(signed, c.client.SendTransaction(c.ctx, signed))
	t.Logf("%-45s gas %8d of %8d", d.What, r.GasUsed, d.Gas)
	if r.GasUsed*115/100 > d.Gas {
		t.Errorf("%s: gas limit %d leaves less than 15%% over the %d used", d.What, d.Gas, r.GasUsed)
	}
	c.checkCode(uniswap.NameWETH9, r.ContractAddress)

	// Round trip through both routers with the project's wrapped native
	// token, which SwapRouter02 unwraps.
	tok := c.stable("TKN", ether(10_000_000))
	if _, err := uniswap.AddLiquidityETHV2(c.ctx, c.client, c.deployer, a, tok, ether(300_000), ether(100), c.deployer.From); err != nil {
		t.Fatal(err)
	}
	rIn, rOut := c.reserves(weth, tok)
	want := uniswap.V2AmountOut(ether(1), rIn, rOut)
	before := c.balance(tok, c.trader.From)
	c.mine(c.router02().SwapExactETHForTokens(c.with(ether(1)), want, []common.Address{weth, tok}, c.trader.From, c.deadline()))
	c.expectEqual("Router02 buy", new(big.Int).Sub(c.balance(tok, c.trader.From), before), want)

	c.approve(tok, a.SwapRouter02)
	sell := ether(1000)
	rIn, rOut = c.reserves(tok, weth)
	want = uniswap.V2AmountOut(sell, rIn, rOut)
	eth := c.balance(common.Address{}, c.trader.From)
	r = c.multicall(nil, c.v2Swap(sell, want, []common.Address{tok, weth}, uniswap.RecipientThis), c.unwrap(want))
	got := new(big.Int).Sub(c.balance(common.Address{}, c.trader.From), eth)
	c.expectEqual("SwapRouter02 sell for native", got.Add(got, gasCost(r)), want)
}

func TestV2Swaps(t *testing.T) {
	c := deployed(t)
	tok := c.stable("TKN", ether(10_000_000))
	pair, err := uniswap.AddLiquidityETHV2(c.ctx, c.client, c.deployer, c.a, tok, ether(300_000), ether(100), c.deployer.From)
	if err != nil {
		t.Fatal(err)
	}
	factory, err := uniswap.NewUniswapV2Factory(c.a.V2Factory, c.client)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := factory.GetPair(nil, tok, c.a.WETH9); err != nil || got != pair {
		t.Fatalf("factory's pair %s (%v), pairFor %s", got, err, pair)
	}
	c.checkCode(uniswap.NameUniswapV2Pair, pair)
	weth := c.a.WETH9

	t.Run("Router02 swapExactETHForTokens", func(t *testing.T) {
		c.t = t
		rIn, rOut := c.reserves(weth, tok)
		want := uniswap.V2AmountOut(ether(1), rIn, rOut)
		before := c.balance(tok, c.trader.From)
		c.mine(c.router02().SwapExactETHForTokens(c.with(ether(1)), want, []common.Address{weth, tok}, c.trader.From, c.deadline()))
		c.expectEqual("tokens", new(big.Int).Sub(c.balance(tok, c.trader.From), before), want)
		in, out := c.reserves(weth, tok)
		c.expectEqual("pair's WETH", in, new(big.Int).Add(rIn, ether(1)))
		c.expectEqual("pair's tokens", out, new(big.Int).Sub(rOut, want))
	})
	t.Run("SwapRouter02 V2 buy with native", func(t *testing.T) {
		c.t = t
		rIn, rOut := c.reserves(weth, tok)
		want := uniswap.V2AmountOut(ether(2), rIn, rOut)
		before := c.balance(tok, c.trader.From)
		// The router wraps msg.value when it pays the pair WETH.
		c.multicall(ether(2), c.v2Swap(ether(2), want, []common.Address{weth, tok}, uniswap.RecipientMsgSender))
		c.expectEqual("tokens", new(big.Int).Sub(c.balance(tok, c.trader.From), before), want)
	})
	t.Run("SwapRouter02 V2 sell for native", func(t *testing.T) {
		c.t = t
		c.approve(tok, c.a.SwapRouter02)
		sell := ether(1500)
		rIn, rOut := c.reserves(tok, weth)
		want := uniswap.V2AmountOut(sell, rIn, rOut)
		eth, toks := c.balance(common.Address{}, c.trader.From), c.balance(tok, c.trader.From)
		r := c.multicall(nil, c.v2Swap(sell, want, []common.Address{tok, weth}, uniswap.RecipientThis), c.unwrap(want))
		got := new(big.Int).Sub(c.balance(common.Address{}, c.trader.From), eth)
		c.expectEqual("native coin", got.Add(got, gasCost(r)), want)
		c.expectEqual("tokens sold", new(big.Int).Sub(toks, c.balance(tok, c.trader.From)), sell)
		c.expectEqual("router's WETH", c.balance(weth, c.a.SwapRouter02), common.Big0)
		c.expectEqual("router's native coin", c.balance(common.Address{}, c.a.SwapRouter02), common.Big0)
	})
	t.Run("Router02 swapExactTokensForETH", func(t *testing.T) {
		c.t = t
		c.approve(tok, c.a.V2Router02)
		sell := ether(700)
		rIn, rOut := c.reserves(tok, weth)
		want := uniswap.V2AmountOut(sell, rIn, rOut)
		eth := c.balance(common.Address{}, c.trader.From)
		r := c.mine(c.router02().SwapExactTokensForETH(c.with(nil), sell, want, []common.Address{tok, weth}, c.trader.From, c.deadline()))
		got := new(big.Int).Sub(c.balance(common.Address{}, c.trader.From), eth)
		c.expectEqual("native coin", got.Add(got, gasCost(r)), want)
	})
	t.Run("slippage limit", func(t *testing.T) {
		c.t = t
		rIn, rOut := c.reserves(weth, tok)
		tooMuch := new(big.Int).Add(uniswap.V2AmountOut(ether(1), rIn, rOut), common.Big1)
		o := c.with(ether(1))
		o.GasLimit = 0 // estimated: the estimate fails with the revert
		_, err := c.router02().SwapExactETHForTokens(o, tooMuch, []common.Address{weth, tok}, c.trader.From, c.deadline())
		if err == nil || !strings.Contains(err.Error(), "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT") {
			t.Errorf("a swap asking one unit more than x*y=k gives: %v", err)
		}
	})
}

func TestV3Swaps(t *testing.T) {
	c := deployed(t)
	weth := c.a.WETH9
	tok := c.stable("TKN", ether(10_000_000))
	w, err := uniswap.NewWETH9(weth, c.client)
	if err != nil {
		t.Fatal(err)
	}
	o := *c.deployer
	o.Value = ether(1000)
	c.mine(w.Deposit(&o))
	c.approve(tok, c.a.SwapRouter02)
	c.transfer(tok, ether(100_000))
	v3, err := uniswap.NewUniswapV3Factory(c.a.V3Factory, c.client)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := uniswap.NewNonfungiblePositionManager(c.a.PositionManager, c.client)
	if err != nil {
		t.Fatal(err)
	}

	const wethIn, tokenIn = 100, 300_000 // 3000 tokens per WETH
	for _, fee := range uniswap.FeeTiers() {
		t.Run(big.NewInt(int64(fee)).String(), func(t *testing.T) {
			c.t = t
			pos, err := uniswap.AddLiquidityV3(c.ctx, c.client, c.deployer, c.a, weth, tok, fee, ether(wethIn), ether(tokenIn), c.deployer.From)
			if err != nil {
				t.Fatal(err)
			}
			feeBig := big.NewInt(int64(fee))
			if got, err := v3.GetPool(nil, weth, tok, feeBig); err != nil || got != pos.Pool {
				t.Fatalf("factory's pool %s (%v), computeAddress %s", got, err, pos.Pool)
			}
			c.checkCode(uniswap.NameUniswapV3Pool, pos.Pool)
			pool, err := uniswap.NewUniswapV3Pool(pos.Pool, c.client)
			if err != nil {
				t.Fatal(err)
			}
			slot0, err := pool.Slot0(nil)
			if err != nil {
				t.Fatal(err)
			}
			amount0, amount1 := ether(wethIn), ether(tokenIn)
			if t0, _ := uniswap.SortTokens(weth, tok); t0 != weth {
				amount0, amount1 = amount1, amount0
			}
			c.expectEqual("sqrtPriceX96", slot0.SqrtPriceX96, uniswap.SqrtPriceX96(amount0, amount1))
			liquidity, err := pool.Liquidity(nil)
			if err != nil {
				t.Fatal(err)
			}
			c.expectEqual("pool liquidity", liquidity, pos.Liquidity)
			p, err := pm.Positions(nil, pos.TokenID)
			if err != nil {
				t.Fatal(err)
			}
			spacing, _ := uniswap.TickSpacing(fee)
			lo, hi := uniswap.FullRangeTicks(spacing)
			if p.TickLower.Int64() != int64(lo) || p.TickUpper.Int64() != int64(hi) {
				t.Errorf("position ticks [%s, %s], want [%d, %d]", p.TickLower, p.TickUpper, lo, hi)
			}

			// Buy with the native coin: the quote is what arrives.
			buy := ether(1)
			quote, err := uniswap.QuoteExactInputSingle(c.ctx, c.client, c.a.QuoterV2, nil, weth, tok, fee, buy)
			if err != nil {
				t.Fatal(err)
			}
			// Below the fee-less spot price by the fee and a little price
			// impact (1 WETH against 100).
			spot := new(big.Int).Mul(buy, big.NewInt(tokenIn/wethIn))
			afterFee := new(big.Int).Div(new(big.Int).Mul(spot, big.NewInt(1_000_000-int64(fee))), big.NewInt(1_000_000))
			floor := new(big.Int).Div(new(big.Int).Mul(afterFee, big.NewInt(98)), big.NewInt(100))
			if quote.Cmp(afterFee) > 0 || quote.Cmp(floor) < 0 {
				t.Errorf("quote %s for 1 WETH outside [%s, %s]", quote, floor, afterFee)
			}
			before := c.balance(tok, c.trader.From)
			c.multicall(buy, pack(t, swapRouterABI, "exactInputSingle((address,address,uint24,address,uint256,uint256,uint160))",
				uniswap.IV3SwapRouterExactInputSingleParams{TokenIn: weth, TokenOut: tok, Fee: feeBig,
					Recipient: c.trader.From, AmountIn: buy, AmountOutMinimum: quote, SqrtPriceLimitX96: common.Big0}))
			c.expectEqual("tokens bought", new(big.Int).Sub(c.balance(tok, c.trader.From), before), quote)

			// Sell for the native coin: swap to the router, unwrap to the
			// trader.
			sell := ether(2500)
			quote, err = uniswap.QuoteExactInputSingle(c.ctx, c.client, c.a.QuoterV2, nil, tok, weth, fee, sell)
			if err != nil {
				t.Fatal(err)
			}
			eth := c.balance(common.Address{}, c.trader.From)
			r := c.multicall(nil,
				pack(t, swapRouterABI, "exactInputSingle((address,address,uint24,address,uint256,uint256,uint160))",
					uniswap.IV3SwapRouterExactInputSingleParams{TokenIn: tok, TokenOut: weth, Fee: feeBig,
						Recipient: uniswap.RecipientThis, AmountIn: sell, AmountOutMinimum: quote, SqrtPriceLimitX96: common.Big0}),
				c.unwrap(quote))
			got := new(big.Int).Sub(c.balance(common.Address{}, c.trader.From), eth)
			c.expectEqual("native coin for the sale", got.Add(got, gasCost(r)), quote)
		})
	}
}

// TestFeeOnTransferV2 trades the project's TaxToken (5% buy tax, 10% sell
// tax on transfers out of and into its registered pair) on the official V2
// pair through both routers.
func TestFeeOnTransferV2(t *testing.T) {
	c := deployed(t)
	weth := c.a.WETH9
	taxWallet := common.HexToAddress("0x7a70000000000000000000000000000000000007")
	const buyBps, sellBps = 500, 1000
	// The token creates its pair on the official factory and registers it
	// as taxed.
	tok, tx, taxToken, err := contracts.DeployTaxToken(c.deployer, c.client, "Taxed", "TAX", ether(10_000_000),
		big.NewInt(buyBps), big.NewInt(sellBps), taxWallet, c.a.V2Factory, weth)
	c.mine(tx, err)
	pair := uniswap.V2PairAddress(c.a.V2Factory, tok, weth)
	if registered, err := taxToken.Pair(nil); err != nil || registered != pair {
		t.Fatalf("token's pair %s (%v), pairFor %s", registered, err, pair)
	}
	// The deployer owns the token and is exempt: the liquidity is untaxed.
	if _, err := uniswap.AddLiquidityETHV2(c.ctx, c.client, c.deployer, c.a, tok, ether(300_000), ether(100), c.deployer.From); err != nil {
		t.Fatal(err)
	}
	// The deployer's transfer to the trader is untaxed too (no pair).
	c.transfer(tok, ether(10_000))
	tax := func(amount *big.Int, bps int64) *big.Int {
		return new(big.Int).Div(new(big.Int).Mul(amount, big.NewInt(bps)), big.NewInt(10_000))
	}
	// buy checks a buy of 1 WETH: the pair pays x*y=k's amount, the trader
	// gets it less the buy tax.
	buy := func(send func(want *big.Int)) {
		c.t.Helper()
		rIn, rOut := c.reserves(weth, tok)
		gross := uniswap.V2AmountOut(ether(1), rIn, rOut)
		want := new(big.Int).Sub(gross, tax(gross, buyBps))
		before, taxes := c.balance(tok, c.trader.From), c.balance(tok, taxWallet)
		send(want)
		c.expectEqual("tokens received", new(big.Int).Sub(c.balance(tok, c.trader.From), before), want)
		c.expectEqual("buy tax", new(big.Int).Sub(c.balance(tok, taxWallet), taxes), tax(gross, buyBps))
	}
	// sell checks a sale of amount: the pair gets it less the sell tax and
	// pays x*y=k's amount for that, in the native coin.
	sell := func(amount *big.Int, send func(want *big.Int) *types.Receipt) {
		c.t.Helper()
		rIn, rOut := c.reserves(tok, weth)
		want := uniswap.V2AmountOut(new(big.Int).Sub(amount, tax(amount, sellBps)), rIn, rOut)
		eth, taxes := c.balance(common.Address{}, c.trader.From), c.balance(tok, taxWallet)
		r := send(want)
		got := new(big.Int).Sub(c.balance(common.Address{}, c.trader.From), eth)
		c.expectEqual("native coin received", got.Add(got, gasCost(r)), want)
		c.expectEqual("sell tax", new(big.Int).Sub(c.balance(tok, taxWallet), taxes), tax(amount, sellBps))
	}
	path := []common.Address{weth, tok}
	back := []common.Address{tok, weth}

	t.Run("Router02 supporting-fee buy", func(t *testing.T) {
		c.t = t
		buy(func(want *big.Int) {
			c.mine(c.router02().SwapExactETHForTokensSupportingFeeOnTransferTokens(c.with(ether(1)), want, path, c.trader.From, c.deadline()))
		})
	})
	t.Run("Router02 supporting-fee sell", func(t *testing.T) {
		c.t = t
		c.approve(tok, c.a.V2Router02)
		sell(ether(2000), func(want *big.Int) *types.Receipt {
			return c.mine(c.router02().SwapExactTokensForETHSupportingFeeOnTransferTokens(c.with(nil), ether(2000), want, back, c.trader.From, c.deadline()))
		})
	})
	t.Run("Router02 plain sell fails", func(t *testing.T) {
		c.t = t
		// swapExactTokensForETH asks the pair for the output of the full
		// amount, which the taxed input does not cover: the pair's K check
		// reverts.
		_, err := c.router02().SwapExactTokensForETH(c.trader, ether(2000), common.Big0, back, c.trader.From, c.deadline())
		if err == nil || !strings.Contains(err.Error(), "UniswapV2: K") {
			t.Errorf("a plain sell of a taxed token: %v, want the pair's K check to fail", err)
		}
	})
	t.Run("SwapRouter02 V2 buy", func(t *testing.T) {
		c.t = t
		buy(func(want *big.Int) {
			c.multicall(ether(1), c.v2Swap(ether(1), want, path, uniswap.RecipientMsgSender))
		})
	})
	t.Run("SwapRouter02 V2 sell", func(t *testing.T) {
		c.t = t
		c.approve(tok, c.a.SwapRouter02)
		sell(ether(2000), func(want *big.Int) *types.Receipt {
			return c.multicall(nil, c.v2Swap(ether(2000), want, back, uniswap.RecipientThis), c.unwrap(want))
		})
	})
}

// TestAddLiquidityV3TxsBatch sends AddLiquidityV3Txs as one batch with its
// fixed gas limits, the way the local chains seed their V3 pools, on every
// fee tier: first into a new pool, then into the same pool again. Each
// transaction must succeed with at least 15% of its limit to spare, and
// the position must be the full range the pool reports.
func TestAddLiquidityV3TxsBatch(t *testing.T) {
	c, key := newChain(t)
	c.a = deployedWith(t, c)
	weth, err := uniswap.NewWETH9(c.a.WETH9, c.client)
	if err != nil {
		t.Fatal(err)
	}
	o := *c.deployer
	o.Value = ether(10_000)
	c.mine(weth.Deposit(&o))
	tok := c.stable("TKN", ether(100_000_000))
	chainID, _ := c.client.ChainID(c.ctx)
	signer := types.LatestSignerForChainID(chainID)
	send := func(t *testing.T, txs []uniswap.Tx) []*types.Receipt {
		t.Helper()
		nonce, err := c.client.PendingNonceAt(c.ctx, c.deployer.From)
		if err != nil {
			t.Fatal(err)
		}
		head, err := c.client.HeaderByNumber(c.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var hashes []common.Hash
		for i, d := range txs {
			signed, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{
				ChainID: chainID, Nonce: nonce + uint64(i), To: d.To, Data: d.Data, Gas: d.Gas,
				GasTipCap: big.NewInt(params.GWei), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(params.GWei)),
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.sim.Client().SendTransaction(c.ctx, signed); err != nil {
				t.Fatalf("%s: %v", d.What, err)
			}
			hashes = append(hashes, signed.Hash())
		}
		// A block per transaction at most: the pool may not offer all of a
		// batch to the first block.
		for range txs {
			c.sim.Commit()
		}
		var rs []*types.Receipt
		for i, h := range hashes {
			r, err := c.client.TransactionReceipt(c.ctx, h)
			if err != nil {
				t.Fatalf("%s: %v", txs[i].What, err)
			}
			t.Logf("%-45s gas %8d of %8d", txs[i].What, r.GasUsed, txs[i].Gas)
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("%s reverted (gas %d of %d)", txs[i].What, r.GasUsed, txs[i].Gas)
			}
			if r.GasUsed*115/100 > txs[i].Gas {
				t.Errorf("%s: gas limit %d leaves less than 15%% over the %d used", txs[i].What, txs[i].Gas, r.GasUsed)
			}
			rs = append(rs, r)
		}
		return rs
	}
	for _, fee := range uniswap.FeeTiers() {
		t.Run(big.NewInt(int64(fee)).String(), func(t *testing.T) {
			c.t = t
			for _, round := range []string{"new pool", "existing pool"} {
				txs, pool, err := uniswap.AddLiquidityV3Txs(c.a, tok, c.a.WETH9, fee, ether(300_000), ether(100), c.deployer.From)
				if err != nil {
					t.Fatal(err)
				}
				if len(txs) != 3 || pool != uniswap.V3PoolAddress(c.a.V3Factory, c.a.WETH9, tok, fee) {
					t.Fatalf("%s: %d transactions for pool %s", round, len(txs), pool)
				}
				before := c.balance(tok, pool)
				send(t, txs)
				c.checkCode(uniswap.NameUniswapV3Pool, pool)
				// The price is the amounts' ratio, so the pool takes all
				// of the token but for the rounding of the liquidity.
				got := new(big.Int).Sub(c.balance(tok, pool), before)
				if got.Cmp(ether(300_000)) > 0 || new(big.Int).Sub(ether(300_000), got).Cmp(big.NewInt(1e9)) > 0 {
					t.Errorf("%s: the pool took %s of 300000e18 tokens", round, got)
				}
			}
		})
	}
	if _, _, err := uniswap.AddLiquidityV3Txs(c.a, tok, c.a.WETH9, 2500, ether(1), ether(1), c.deployer.From); err == nil {
		t.Error("a fee tier that is not enabled was accepted")
	}
}

// deployedWith deploys the official set on c with Deploy and the package's
// WETH9, and returns the addresses.
func deployedWith(t *testing.T, c *chain) uniswap.Addresses {
	t.Helper()
	a, err := uniswap.Deploy(c.ctx, c.client, c.deployer, common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}
