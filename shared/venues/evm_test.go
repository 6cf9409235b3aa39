package venues

import (
	"context"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	evmdevnet "github.com/tradeapi/tradeapi/shared/devnet/evm"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

// localEVM starts a local EVM chain, which runs the official Uniswap
// contracts, and returns its RPC and the contracts as the service
// configures them, with the chain's id and the hash of its block 0.
func localEVM(t *testing.T, name string) (*rpc.Client, EVMContracts) {
	t.Helper()
	c, err := evmdevnet.NewChain(evmdevnet.ChainConfig{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	d := c.Deployment()
	var id hexutil.Big
	if err := c.RPC().CallContext(ctxT(t), &id, "eth_chainId"); err != nil {
		t.Fatal(err)
	}
	var genesis genesisBlock
	if err := c.RPC().CallContext(ctxT(t), &genesis, "eth_getBlockByNumber", "0x0", false); err != nil || genesis.Hash == (common.Hash{}) {
		t.Fatalf("block 0 %s: %v", genesis.Hash.Hex(), err)
	}
	return c.RPC(), EVMContracts{Router: d.Router02, Factory: d.Factory, V3Factory: d.V3Factory,
		SwapRouter02: d.SwapRouter02, QuoterV2: d.QuoterV2, WrappedNative: d.WrappedNative, ChainID: id.ToInt(),
		GenesisHash: genesis.Hash}
}

// codeSwap answers eth_getCode of the addresses in code with that code
// instead of the chain's, as a chain that replaced a contract would.
type codeSwap struct {
	EVMRPC
	code map[common.Address][]byte
}

func (s codeSwap) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	if err := s.EVMRPC.BatchCallContext(ctx, b); err != nil {
		return err
	}
	for _, e := range b {
		if e.Method != "eth_getCode" {
			continue
		}
		if code, ok := s.code[e.Args[0].(common.Address)]; ok {
			*e.Result.(*hexutil.Bytes) = code
		}
	}
	return nil
}

// TestEVMVerdicts: on the local chain both venues pass with the
// fingerprints the poll reads; a contract whose code is not the official
// runtime, an address without code, or a router built over another WETH
// pauses its venue only, the reason naming the contract and what changed;
// an RPC of another chain id or another genesis pauses both, naming both
// ids or both hashes.
func TestEVMVerdicts(t *testing.T) {
	client, k := localEVM(t, "base")
	official := NewEVM("base", client, k, nil)
	fp, err := official.Fingerprints(ctxT(t))
	if err != nil || fp.Height == 0 || len(fp.Of) != 2 {
		t.Fatalf("fingerprints %+v %v", fp, err)
	}
	if got := fp.Of[UniswapV2]; !strings.HasPrefix(got, "router 0x") || !strings.Contains(got, ", factory 0x") {
		t.Fatalf("uniswap_v2 fingerprint %q", got)
	}
	if got := fp.Of[UniswapV3]; !strings.HasPrefix(got, "v3 factory 0x") || !strings.Contains(got, "swap router02 0x") ||
		!strings.Contains(got, "quoter v2 0x") || strings.Contains(got, "none") {
		t.Fatalf("uniswap_v3 fingerprint %q", got)
	}
	for _, v := range EVMVenues {
		if want := ", chain id " + k.ChainID.String() + ", genesis " + k.GenesisHash.Hex(); !strings.HasSuffix(fp.Of[v], want) {
			t.Fatalf("%s fingerprint %q does not end in %q", v, fp.Of[v], want)
		}
	}

	// The chain's code, one byte outside the immutables changed: the
	// length matches, the code does not.
	var altered hexutil.Bytes
	if err := client.CallContext(ctxT(t), &altered, "eth_getCode", k.SwapRouter02, "latest"); err != nil {
		t.Fatal(err)
	}
	altered[1] ^= 0xff
	otherWETH := k
	otherWETH.WrappedNative = common.HexToAddress("0x00000000000000000000000000000000000000a1")
	noRouter := k
	noRouter.Router = common.HexToAddress("0x00000000000000000000000000000000000000b2")
	otherChain := k
	otherChain.ChainID = new(big.Int).Add(k.ChainID, big.NewInt(1))
	wrongChain := "the RPC serves chain id " + k.ChainID.String() + ", not the configured chain_id " + otherChain.ChainID.String()
	// The local chain answers Base's chain id; Base mainnet's block 0 is
	// not the local chain's.
	otherGenesis := k
	otherGenesis.GenesisHash = common.HexToHash("0xf712aa9241cc24369b143cf6dce85f0902a9731e70d66818a3a5845b296c73dd")
	wrongGenesis := "the RPC serves the chain of genesis " + k.GenesisHash.Hex() + ", not the configured genesis_hash " + otherGenesis.GenesisHash.Hex()

	tests := []struct {
		name    string
		checker *EVM
		// paused maps each venue paused to what its reason must say.
		paused map[string][]string
		// moved: the paused venues' fingerprints differ from the official.
		moved bool
	}{
		{"official", official, nil, false},
		{"swap router02 code changed", NewEVM("base", codeSwap{client, map[common.Address][]byte{k.SwapRouter02: altered}}, k, nil),
			map[string][]string{UniswapV3: {"uniswap_v3 on base", "swap router02 " + k.SwapRouter02.Hex(), "code other than the official SwapRouter02"}}, true},
		{"quoter replaced by the factory's code", NewEVM("base", codeSwap{client, map[common.Address][]byte{k.QuoterV2: uniswap.Runtime(uniswap.NameUniswapV3Factory)}}, k, nil),
			map[string][]string{UniswapV3: {"quoter v2 " + k.QuoterV2.Hex(), "QuoterV2"}}, true},
		{"router without code", NewEVM("base", client, noRouter, nil),
			map[string][]string{UniswapV2: {"uniswap_v2 on base", "router " + noRouter.Router.Hex() + " holds no code: not UniswapV2Router02"}}, true},
		{"an RPC of another chain", NewEVM("base", client, otherChain, nil),
			map[string][]string{UniswapV2: {"uniswap_v2 on base", wrongChain}, UniswapV3: {"uniswap_v3 on base", wrongChain}}, false},
		{"an RPC of another genesis", NewEVM("base", client, otherGenesis, nil),
			map[string][]string{UniswapV2: {"uniswap_v2 on base", wrongGenesis}, UniswapV3: {"uniswap_v3 on base", wrongGenesis}}, false},
		{"another wrapped native", NewEVM("base", client, otherWETH, nil), map[string][]string{
			UniswapV2: {"router " + k.Router.Hex() + " is the official UniswapV2Router02, but not built over the configured wrapped native " +
				otherWETH.WrappedNative.Hex(), k.WrappedNative.Hex()},
			UniswapV3: {"swap router02 " + k.SwapRouter02.Hex() + " is the official SwapRouter02, but not built over the configured wrapped native"},
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, venue := range EVMVenues {
				v, err := tt.checker.Check(ctxT(t), venue)
				if err != nil {
					t.Fatalf("%s: %v", venue, err)
				}
				if v.Height == 0 {
					t.Fatalf("%s: no height", venue)
				}
				reason, paused := tt.paused[venue]
				if !paused {
					if !v.OK || v.Reason != "" || v.Fingerprint != fp.Of[venue] {
						t.Fatalf("%s: %+v, want active at %q", venue, v, fp.Of[venue])
					}
					continue
				}
				if v.OK {
					t.Fatalf("%s passes: %+v", venue, v)
				}
				for _, part := range reason {
					if !strings.Contains(v.Reason, part) {
						t.Fatalf("%s reason %q lacks %q", venue, v.Reason, part)
					}
				}
				if strings.Contains(v.Reason, "http") {
					t.Fatalf("reason names a URL: %q", v.Reason)
				}
				if moved := v.Fingerprint != fp.Of[venue]; moved != tt.moved {
					t.Fatalf("%s fingerprint %q, official %q", venue, v.Fingerprint, fp.Of[venue])
				}
				got, err := tt.checker.Fingerprints(ctxT(t))
				if err != nil || got.Of[venue] != v.Fingerprint {
					t.Fatalf("poll's fingerprint %q, the check's %q (%v)", got.Of[venue], v.Fingerprint, err)
				}
			}
		})
	}
	if _, err := official.Check(ctxT(t), PumpFun); err == nil {
		t.Fatal("pump_fun checked on base")
	}
}

// noGenesis answers eth_getBlockByNumber with null, as an RPC that does
// not show block 0 would.
type noGenesis struct{ EVMRPC }

func (n noGenesis) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	if err := n.EVMRPC.BatchCallContext(ctx, b); err != nil {
		return err
	}
	for _, e := range b {
		if e.Method == "eth_getBlockByNumber" {
			*e.Result.(**genesisBlock) = nil
		}
	}
	return nil
}

// TestEVMGenesisUnread: an RPC that does not show its block 0 while a
// genesis hash is configured (a node whose history before the merge is
// pruned) compares nothing: the chain id still holds, and the contracts'
// checks go on rather than fail every poll.
func TestEVMGenesisUnread(t *testing.T) {
	client, k := localEVM(t, "base")
	e := NewEVM("base", noGenesis{client}, k, nil)
	fp, err := e.Fingerprints(ctxT(t))
	if err != nil || strings.Contains(fp.Of[UniswapV2], "genesis") {
		t.Fatalf("fingerprints without block 0: %+v %v", fp, err)
	}
	if v, err := e.Check(ctxT(t), UniswapV2); err != nil || !v.OK {
		t.Fatalf("checked without block 0: %+v %v", v, err)
	}
	// Without a genesis hash configured block 0 is not asked.
	k.GenesisHash = common.Hash{}
	fp, err = NewEVM("base", noGenesis{client}, k, nil).Fingerprints(ctxT(t))
	if err != nil || strings.Contains(fp.Of[UniswapV2], "genesis") {
		t.Fatalf("fingerprints without a genesis hash: %+v %v", fp, err)
	}
}

// TestAdminResumeOnSeveralChains: a venue checked on several chains is
// resumed on the chain the request names, or without one on each, still
// failing where its checks fail.
func TestAdminResumeOnSeveralChains(t *testing.T) {
	client, k := localEVM(t, "base")
	store := NewStore(bucket(t))
	broken := k
	broken.Router = common.HexToAddress("0x00000000000000000000000000000000000000b2")
	// Two chains' checkers over one local chain, the second configured
	// with a router that is not there.
	a := NewAdmin(store, nil, NewEVM("base", client, k, nil), NewEVM("bsc", client, broken, nil))
	tests := []struct {
		name, chain, venue string
		code               apierr.Code
		status             int
		details, message   string
	}{
		{"no chain, failing on bsc", "", UniswapV2, apierr.VenueStillFailing, http.StatusConflict, UniswapV2, "uniswap_v2 on bsc: the router"},
		{"unwatched chain", "eth", UniswapV3, apierr.NotFound, http.StatusNotFound, "chain", `uniswap_v3 is not watched on "eth" by this service, only on base, bsc`},
		{"solana venue", "", PumpFun, apierr.NotFound, http.StatusNotFound, "venue", "pump_fun is not watched by this service"},
		{"still failing", "bsc", UniswapV2, apierr.VenueStillFailing, http.StatusConflict, UniswapV2, "holds no code"},
		{"passes", "Base", UniswapV2, "", http.StatusOK, "", ""},
		{"v3 on bsc passes", "bsc", UniswapV3, "", http.StatusOK, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := a.Resume(ctxT(t), tt.chain, tt.venue)
			if tt.code != "" {
				ae := apierr.From(err)
				if ae == nil || ae.Code != tt.code || ae.Status() != tt.status || ae.Details != tt.details || !strings.Contains(ae.Message, tt.message) {
					t.Fatalf("got %+v", ae)
				}
				return
			}
			if err != nil || st.State != Active || st.Venue != tt.venue || st.Chain != strings.ToLower(tt.chain) {
				t.Fatalf("resume: %+v %v", st, err)
			}
		})
	}
	// Without a chain, v3 passes on both: the answer is the first chain's.
	if st, err := a.Resume(ctxT(t), "", UniswapV3); err != nil || st.State != Active || st.Chain != "base" {
		t.Fatalf("resume v3 everywhere: %+v %v", st, err)
	}
	list, err := a.List(ctxT(t))
	if err != nil || len(list) != 4 {
		t.Fatalf("list %+v %v", list, err)
	}
	for _, st := range list {
		if want := st.Chain == "bsc" && st.Venue == UniswapV2; st.IsPaused() != want {
			t.Fatalf("stored %+v", st)
		}
	}
}
