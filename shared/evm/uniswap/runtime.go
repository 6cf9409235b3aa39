package uniswap

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// The names of the official contracts, as their artifacts, their .bin files
// and their bindings name them; Runtime, Creation, Immutables and
// MatchesRuntime take them.
const (
	// NameUniswapV2Factory names UniswapV2Factory (@uniswap/v2-core).
	NameUniswapV2Factory = "UniswapV2Factory"
	// NameUniswapV2Pair names UniswapV2Pair (@uniswap/v2-core).
	NameUniswapV2Pair = "UniswapV2Pair"
	// NameUniswapV2Router02 names UniswapV2Router02 (@uniswap/v2-periphery).
	NameUniswapV2Router02 = "UniswapV2Router02"
	// NameWETH9 names the WETH9 build of @uniswap/v2-periphery.
	NameWETH9 = "WETH9"
	// NameUniswapV3Factory names UniswapV3Factory (@uniswap/v3-core).
	NameUniswapV3Factory = "UniswapV3Factory"
	// NameUniswapV3Pool names UniswapV3Pool (@uniswap/v3-core).
	NameUniswapV3Pool = "UniswapV3Pool"
	// NameNonfungiblePositionManager names NonfungiblePositionManager
	// (@uniswap/v3-periphery).
	NameNonfungiblePositionManager = "NonfungiblePositionManager"
	// NameSwapRouter02 names SwapRouter02 (@uniswap/swap-router-contracts).
	NameSwapRouter02 = "SwapRouter02"
	// NameQuoterV2 names QuoterV2 (@uniswap/swap-router-contracts).
	NameQuoterV2 = "QuoterV2"
)

// Range is the byte range [Start, Start+Length) of runtime code.
type Range struct {
	Start, Length int
}

//go:embed *.runtime.bin immutables.json
var artifactFiles embed.FS

// artifact is one contract's official code.
type artifact struct {
	creation []byte
	runtime  []byte
	// body is runtime short of the compiler's metadata, which
	// MatchesRuntime leaves out.
	body       []byte
	immutables []Range
}

var artifacts = mustLoadArtifacts()

func mustLoadArtifacts() map[string]artifact {
	arts, err := loadArtifacts()
	if err != nil {
		// The files are generated and embedded: a failure is a broken
		// build, not a runtime condition.
		panic("uniswap: " + err.Error())
	}
	return arts
}

func loadArtifacts() (map[string]artifact, error) {
	raw, err := artifactFiles.ReadFile("immutables.json")
	if err != nil {
		return nil, err
	}
	var refs map[string]struct {
		Ranges [][2]int `json:"ranges"`
	}
	if err := json.Unmarshal(raw, &refs); err != nil {
		return nil, fmt.Errorf("immutables.json: %w", err)
	}
	creation := map[string]string{
		NameUniswapV2Factory:           UniswapV2FactoryMetaData.Bin,
		NameUniswapV2Pair:              UniswapV2PairMetaData.Bin,
		NameUniswapV2Router02:          UniswapV2Router02MetaData.Bin,
		NameWETH9:                      WETH9MetaData.Bin,
		NameUniswapV3Factory:           UniswapV3FactoryMetaData.Bin,
		NameUniswapV3Pool:              UniswapV3PoolMetaData.Bin,
		NameNonfungiblePositionManager: NonfungiblePositionManagerMetaData.Bin,
		NameSwapRouter02:               SwapRouter02MetaData.Bin,
		NameQuoterV2:                   QuoterV2MetaData.Bin,
	}
	arts := make(map[string]artifact, len(creation))
	for name, bin := range creation {
		hex, err := artifactFiles.ReadFile(name + ".runtime.bin")
		if err != nil {
			return nil, err
		}
		a := artifact{creation: common.FromHex(bin), runtime: common.FromHex(strings.TrimSpace(string(hex)))}
		r, ok := refs[name]
		if !ok {
			return nil, fmt.Errorf("immutables.json has no entry for %s", name)
		}
		if a.body, ok = withoutMetadata(a.runtime); !ok {
			return nil, fmt.Errorf("%s: the runtime code ends in no compiler metadata", name)
		}
		for _, p := range r.Ranges {
			if p[0] < 0 || p[1] <= 0 || p[0]+p[1] > len(a.body) {
				return nil, fmt.Errorf("%s: immutable range %v outside the code", name, p)
			}
			a.immutables = append(a.immutables, Range{Start: p[0], Length: p[1]})
		}
		arts[name] = a
	}
	return arts, nil
}

// Names lists the official contracts with code, sorted.
func Names() []string {
	names := make([]string, 0, len(artifacts))
	for name := range artifacts {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Runtime returns a copy of the named contract's official runtime code as
// its artifact ships it (deployedBytecode), or nil for an unknown name. The
// bytes in the Immutables ranges are zero there: the constructor fills
// them, so code on a chain differs from it exactly in those ranges.
func Runtime(name string) []byte {
	a, ok := artifacts[name]
	if !ok {
		return nil
	}
	return bytes.Clone(a.runtime)
}

// Creation returns a copy of the named contract's official creation code
// (the bindings' Bin), or nil for an unknown name.
func Creation(name string) []byte {
	a, ok := artifacts[name]
	if !ok {
		return nil
	}
	return bytes.Clone(a.creation)
}

// Immutables returns the byte ranges of the named contract's runtime code
// that its constructor fills with immutable variables (factory, WETH9,
// token0, fee, ...), sorted; none for a contract without immutables or an
// unknown name.
//
// solc records these ranges as immutableReferences, which the v2 artifacts
// keep (UniswapV2Router02's match) but Hardhat's v3 artifacts drop; the
// generator recovers them exactly for every contract by running its
// official creation code in the EVM and recording where it writes into the
// runtime code after copying it to memory (see immutables.json).
func Immutables(name string) []Range {
	return slices.Clone(artifacts[name].immutables)
}

// MatchesRuntime reports whether onchain, the code at an address, is the
// named contract's official runtime code: the same instructions and data,
// byte for byte and of the same length, everywhere outside the Immutables
// ranges, whose 32-byte words hold whatever the constructor was given.
//
// The compiler's metadata at the end of the code (a CBOR map, its length
// in the last two bytes) is left out of the comparison, and only its shape
// is checked: it is never executed and no official contract reads it, and
// Uniswap's own deployments differ in it alone: Robinhood Chain's and
// Arc's UniswapV2Router02 were built with the metadata hash turned off
// (solc's bytecode_hash "none", Uniswap's deploy tool's setting), so their
// code ends without the IPFS hash the published artifact carries. A
// rebuild with other settings that changes any instruction does not match.
func MatchesRuntime(name string, onchain []byte) bool {
	a, ok := artifacts[name]
	if !ok {
		return false
	}
	body, ok := withoutMetadata(onchain)
	if !ok || len(body) != len(a.body) {
		return false
	}
	at := 0
	for _, r := range a.immutables {
		if !bytes.Equal(body[at:r.Start], a.body[at:r.Start]) {
			return false
		}
		at = r.Start + r.Length
	}
	return bytes.Equal(body[at:], a.body[at:])
}

// withoutMetadata returns code short of the metadata solc appends to it: a
// CBOR map whose length the code's last two bytes give (big-endian). False
// when code does not end in one.
func withoutMetadata(code []byte) ([]byte, bool) {
	if len(code) < 2 {
		return nil, false
	}
	n := int(code[len(code)-2])<<8 | int(code[len(code)-1])
	end := len(code) - 2 - n
	// A CBOR map of up to 23 pairs opens with 0xa0 | pairs; solc's holds
	// one to three (ipfs or bzzr, experimental, solc).
	if n == 0 || end < 0 || code[end] < 0xa1 || code[end] > 0xb7 {
		return nil, false
	}
	return code[:end], true
}

// ImmutableWords returns the 32-byte words that onchain, code that
// MatchesRuntime the named contract, holds in its Immutables ranges, in
// order; false when it does not match. Several ranges hold the same
// immutable, once per place the code reads it.
func ImmutableWords(name string, onchain []byte) ([]common.Hash, bool) {
	if !MatchesRuntime(name, onchain) {
		return nil, false
	}
	ranges := artifacts[name].immutables
	words := make([]common.Hash, len(ranges))
	for i, r := range ranges {
		words[i] = common.BytesToHash(onchain[r.Start : r.Start+r.Length])
	}
	return words, true
}

// ImmutableAddresses returns the addresses the named contract's code holds
// in its immutables (the factories and WETH its constructor was given),
// each once, in the order the code first reads them; nil when the code is
// not the contract's.
func ImmutableAddresses(name string, onchain []byte) []common.Address {
	words, _ := ImmutableWords(name, onchain)
	var out []common.Address
	for _, w := range words {
		if a := common.BytesToAddress(w[:]); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// CodeReader reads the code at an address; *ethclient.Client and every
// bind.ContractBackend implement it.
type CodeReader interface {
	CodeAt(ctx context.Context, account common.Address, blockNumber *big.Int) ([]byte, error)
}

// ErrNotOfficial is wrapped by CheckCode when an address holds code other
// than the official contract's, or none.
var ErrNotOfficial = errors.New("not the official Uniswap runtime code")

// CheckCode reads the code at addr and checks that it MatchesRuntime the
// named contract.
func CheckCode(ctx context.Context, chain CodeReader, name string, addr common.Address) error {
	if _, ok := artifacts[name]; !ok {
		return fmt.Errorf("unknown contract %q", name)
	}
	code, err := chain.CodeAt(ctx, addr, nil)
	if err != nil {
		return fmt.Errorf("code of %s at %s: %w", name, addr, err)
	}
	if !MatchesRuntime(name, code) {
		return fmt.Errorf("%s at %s: %w (%d bytes of code)", name, addr, ErrNotOfficial, len(code))
	}
	return nil
}

// CheckDeployment checks that each Uniswap contract of a (the factories,
// the routers, the position manager and the quoter) holds its official
// runtime code; a zero address is skipped. a.WETH9 is not checked, as a
// chain may use its own wrapped native token: check the package's build
// with CheckCode and NameWETH9.
func CheckDeployment(ctx context.Context, chain CodeReader, a Addresses) error {
	var errs []error
	for _, c := range a.contracts() {
		if c.addr == (common.Address{}) {
			continue
		}
		errs = append(errs, CheckCode(ctx, chain, c.name, c.addr))
	}
	return errors.Join(errs...)
}
