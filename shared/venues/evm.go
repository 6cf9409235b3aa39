package venues

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// EVMRPC is the part of an EVM JSON-RPC client the checks use: one batch
// reads every contract's code. *rpc.Client and *endpoint.EVMClient
// implement it; the latter's errors never carry the RPC's URL.
type EVMRPC interface {
	BatchCallContext(ctx context.Context, b []rpc.BatchElem) error
}

// EVMContracts are the official Uniswap contracts a chain's orders go
// through, as the chain's configuration names them. A zero address is a
// contract the configuration does not name: it is not checked, and no
// other contract is required to be built over it.
type EVMContracts struct {
	// Router is the UniswapV2Router02 over Factory, the UniswapV2Factory.
	Router, Factory common.Address
	// SwapRouter02 and QuoterV2 are the V3 periphery over V3Factory, the
	// UniswapV3Factory (SwapRouter02 over Factory too).
	V3Factory, SwapRouter02, QuoterV2 common.Address
	// WrappedNative is the routers' and the quoter's WETH.
	WrappedNative common.Address
	// ChainID is the chain id the orders are signed for; when set, the
	// RPC must serve it. An RPC of another chain (a wrong URL, or a wrong
	// chain_id) pauses every venue: what is signed for one chain is not
	// sent to another.
	ChainID *big.Int
	// GenesisHash is the hash of the chain's block 0
	// (evm.chains.<name>.genesis_hash); when set, the RPC's block 0 must
	// have it. The local chains, and any other chain reusing the chain id,
	// answer the configured chain id: an RPC of another genesis pauses
	// every venue as another chain id does. Zero compares nothing.
	GenesisHash common.Hash
}

// evmContract is one contract a venue's orders go through, with the
// addresses its constructor must have been given (they sit in its
// immutables), as `tradeapi check` checks it.
type evmContract struct {
	what string // as the reasons and fingerprints name it
	name string // the official contract (uniswap.Name...)
	addr common.Address
	over []evmNamed
}

// evmNamed is an address with what it is.
type evmNamed struct {
	what string
	addr common.Address
}

// of returns the contracts of venue: UniswapV2Router02 and
// UniswapV2Factory for uniswap_v2; UniswapV3Factory, SwapRouter02 and
// QuoterV2 for uniswap_v3.
func (c EVMContracts) of(venue string) []evmContract {
	weth := evmNamed{"wrapped native", c.WrappedNative}
	switch venue {
	case UniswapV2:
		return []evmContract{
			{"router", uniswap.NameUniswapV2Router02, c.Router, []evmNamed{{"factory", c.Factory}, weth}},
			{"factory", uniswap.NameUniswapV2Factory, c.Factory, nil},
		}
	case UniswapV3:
		return []evmContract{
			{"v3 factory", uniswap.NameUniswapV3Factory, c.V3Factory, nil},
			{"swap router02", uniswap.NameSwapRouter02, c.SwapRouter02, []evmNamed{{"factory", c.Factory}, {"v3 factory", c.V3Factory}, weth}},
			{"quoter v2", uniswap.NameQuoterV2, c.QuoterV2, []evmNamed{{"v3 factory", c.V3Factory}, weth}},
		}
	}
	return nil
}

// EVM checks the Uniswap venues of one EVM chain: that each contract the
// orders go through holds the official runtime code, and that the routers
// and the quoter were built over the configured factories and wrapped
// native token. Its fingerprints are the contracts' code hashes. The
// contracts are immutable, so a venue pauses only when the configuration
// names the wrong contract or a chain replaces one (a hard fork, a
// predeploy). It is safe for concurrent use.
type EVM struct {
	chain     string
	rpc       EVMRPC
	contracts EVMContracts
	log       *slog.Logger
}

// NewEVM returns the checker of chain's venues (uniswap_v2 and
// uniswap_v3) at contracts, reading through rpc.
func NewEVM(chain string, rpc EVMRPC, contracts EVMContracts, log *slog.Logger) *EVM {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &EVM{chain: chain, rpc: rpc, contracts: contracts, log: log.With("component", "venues", "chain", chain)}
}

// Chain is the chain's name: eth, bsc, base, rbh or arc.
func (e *EVM) Chain() string { return e.chain }

// Venues are uniswap_v2 and uniswap_v3.
func (e *EVM) Venues() []string { return EVMVenues }

// reads are what one batch of the checks read: the contracts' code, the
// latest block number, and the chain id and the hash of block 0 the RPC
// serves.
type reads struct {
	code    map[common.Address][]byte
	block   uint64
	chainID *big.Int    // nil when not asked (EVMContracts.ChainID unset)
	genesis common.Hash // zero when not asked (EVMContracts.GenesisHash unset)
}

// genesisBlock is the part of block 0 the checks read.
type genesisBlock struct {
	Hash common.Hash `json:"hash"`
}

// codes reads the code of every contract of venues, the latest block
// number, the RPC's chain id and the hash of its block 0, in one JSON-RPC
// batch.
func (e *EVM) codes(ctx context.Context, venues ...string) (reads, error) {
	var addrs []common.Address
	for _, v := range venues {
		for _, k := range e.contracts.of(v) {
			if k.addr != (common.Address{}) && !slices.Contains(addrs, k.addr) {
				addrs = append(addrs, k.addr)
			}
		}
	}
	var block hexutil.Uint64
	out := make([]hexutil.Bytes, len(addrs))
	elems := make([]rpc.BatchElem, 0, len(addrs)+1)
	elems = append(elems, rpc.BatchElem{Method: "eth_blockNumber", Result: &block})
	for i, a := range addrs {
		elems = append(elems, rpc.BatchElem{Method: "eth_getCode", Args: []any{a, "latest"}, Result: &out[i]})
	}
	var id hexutil.Big
	idAt := -1
	if e.contracts.ChainID != nil {
		idAt = len(elems)
		elems = append(elems, rpc.BatchElem{Method: "eth_chainId", Result: &id})
	}
	var genesis *genesisBlock
	genesisAt := -1
	if e.contracts.GenesisHash != (common.Hash{}) {
		genesisAt = len(elems)
		elems = append(elems, rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{"0x0", false}, Result: &genesis})
	}
	if err := e.rpc.BatchCallContext(ctx, elems); err != nil {
		return reads{}, fmt.Errorf("read the venues' contract code on %s: %w", e.chain, err)
	}
	if err := elems[0].Error; err != nil {
		return reads{}, fmt.Errorf("%s block number: %w", e.chain, err)
	}
	r := reads{code: make(map[common.Address][]byte, len(addrs)), block: uint64(block)}
	for i, a := range addrs {
		if err := elems[i+1].Error; err != nil {
			return reads{}, fmt.Errorf("%s code of %s: %w", e.chain, a.Hex(), err)
		}
		r.code[a] = out[i]
	}
	if idAt >= 0 {
		if err := elems[idAt].Error; err != nil {
			return reads{}, fmt.Errorf("%s chain id: %w", e.chain, err)
		}
		r.chainID = id.ToInt()
	}
	// A node that does not show block 0 (one whose history before the
	// merge is pruned) compares nothing: the chain id still holds, and the
	// contracts' checks are not given up for it.
	if genesisAt >= 0 && elems[genesisAt].Error == nil && genesis != nil {
		r.genesis = genesis.Hash
	}
	return r, nil
}

// wrongChain says how the RPC's chain differs from the configured one, by
// its chain id or else by its block 0; "" when it does not (or was not
// asked).
func (e *EVM) wrongChain(r reads) string {
	switch {
	case r.chainID != nil && r.chainID.Cmp(e.contracts.ChainID) != 0:
		return fmt.Sprintf("the RPC serves chain id %s, not the configured chain_id %s: nothing is signed for one chain and sent to another",
			r.chainID, e.contracts.ChainID)
	case r.genesis != (common.Hash{}) && r.genesis != e.contracts.GenesisHash:
		return fmt.Sprintf("the RPC serves the chain of genesis %s, not the configured genesis_hash %s: nothing is signed for one chain and sent to another",
			r.genesis.Hex(), e.contracts.GenesisHash.Hex())
	}
	return ""
}

// fingerprint summarises the code of venue's contracts: each one's keccak,
// shortened, or "none" where it holds no code; and the chain id and the
// genesis hash the RPC serves, when asked.
func (e *EVM) fingerprint(venue string, r reads) string {
	code := r.code
	var parts []string
	for _, k := range e.contracts.of(venue) {
		if k.addr == (common.Address{}) {
			continue
		}
		h := "none"
		if b := code[k.addr]; len(b) > 0 {
			h = hexutil.Encode(crypto.Keccak256(b)[:8])
		}
		parts = append(parts, k.what+" "+h)
	}
	if r.chainID != nil {
		parts = append(parts, "chain id "+r.chainID.String())
	}
	if r.genesis != (common.Hash{}) {
		parts = append(parts, "genesis "+r.genesis.Hex())
	}
	return strings.Join(parts, ", ")
}

// Fingerprints reads the code of every venue's contracts in one batch.
func (e *EVM) Fingerprints(ctx context.Context) (Fingerprints, error) {
	r, err := e.codes(ctx, EVMVenues...)
	if err != nil {
		return Fingerprints{}, err
	}
	fp := Fingerprints{Height: r.block, Of: make(map[string]string, len(EVMVenues))}
	for _, v := range EVMVenues {
		fp.Of[v] = e.fingerprint(v, r)
	}
	return fp, nil
}

// Check checks one venue: each of its contracts holds the official
// runtime code (uniswap.CheckCode, as `tradeapi check` compares it), and
// the immutables of the routers and the quoter name the configured
// factories and wrapped native token.
func (e *EVM) Check(ctx context.Context, venue string) (Verdict, error) {
	ks := e.contracts.of(venue)
	if ks == nil {
		return Verdict{}, fmt.Errorf("%w %q on %s", ErrUnknownVenue, venue, e.chain)
	}
	r, err := e.codes(ctx, venue)
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{OK: true, Fingerprint: e.fingerprint(venue, r), Height: r.block}
	if wrong := e.wrongChain(r); wrong != "" {
		v.AnotherChain = true
		return v.fail("%s on %s: %s", venue, e.chain, wrong), nil
	}
	for _, k := range ks {
		if k.addr == (common.Address{}) {
			continue
		}
		if problem := k.problem(ctx, r.code); problem != "" {
			return v.fail("%s on %s: %s", venue, e.chain, problem), nil
		}
	}
	return v, nil
}

// problem says what is wrong with the contract's code, "" when nothing.
func (k evmContract) problem(ctx context.Context, code map[common.Address][]byte) string {
	b := code[k.addr]
	if err := uniswap.CheckCode(ctx, codeOf(code), k.name, k.addr); err != nil {
		if len(b) == 0 {
			return fmt.Sprintf("the %s %s holds no code: not %s", k.what, k.addr.Hex(), k.name)
		}
		return fmt.Sprintf("the %s %s holds code other than the official %s (%d bytes, keccak %s)",
			k.what, k.addr.Hex(), k.name, len(b), hexutil.Encode(crypto.Keccak256(b)[:8]))
	}
	holds := uniswap.ImmutableAddresses(k.name, b)
	for _, n := range k.over {
		if n.addr != (common.Address{}) && !slices.Contains(holds, n.addr) {
			names := make([]string, len(holds))
			for i, a := range holds {
				names[i] = a.Hex()
			}
			return fmt.Sprintf("the %s %s is the official %s, but not built over the configured %s %s (its immutables hold %s)",
				k.what, k.addr.Hex(), k.name, n.what, n.addr.Hex(), strings.Join(names, ", "))
		}
	}
	return ""
}

// codeOf serves code already read to uniswap.CheckCode.
type codeOf map[common.Address][]byte

// CodeAt returns the code read of account.
func (c codeOf) CodeAt(_ context.Context, account common.Address, _ *big.Int) ([]byte, error) {
	return c[account], nil
}
