// Package uniswap holds the official Uniswap V2 and V3 contracts for the EVM
// chains, exactly as Uniswap Labs published them on npm, their Go bindings
// (abigen v1), and functions to deploy them, seed liquidity and recognise
// their code on a chain:
//
//   - @uniswap/v2-core 1.0.1: UniswapV2Factory, UniswapV2Pair, and the
//     IERC20 interface (ABI only).
//   - @uniswap/v2-periphery 1.1.0-beta.0: UniswapV2Router02 and WETH9 (the
//     package's build of WETH9, see Deploy).
//   - @uniswap/v3-core 1.0.1: UniswapV3Factory, UniswapV3Pool.
//   - @uniswap/v3-periphery 1.4.4: NonfungiblePositionManager.
//   - @uniswap/swap-router-contracts 1.3.1: SwapRouter02, QuoterV2.
//
// Nothing here is compiled from source. For each contract <Name>.abi is the
// artifact's ABI, <Name>.bin its creation code and <Name>.runtime.bin its
// deployed code; immutables.json lists the byte ranges of the deployed code
// that the constructor fills with immutables (see MatchesRuntime). These
// files and the bindings (uniswapv2factory.go, swaprouter02.go, ...) are
// generated and committed, so building and testing need neither node nor
// the network. To regenerate them, with node and npm installed and the npm
// registry reachable, run from the repository root:
//
//	go generate ./shared/evm/uniswap
//
// which runs tools/extract.sh: it downloads each pinned package with
// `npm pack` (no install, no package scripts) into a temporary folder,
// checks the tarball against the sha512 integrity pinned in the script,
// copies the artifacts out with tools/extract.js, derives the immutables
// with tools/immutables, and writes the bindings with the abigen of
// shared/evm/contracts/tools (go-ethereum v1.17.10).
package uniswap

//go:generate sh tools/extract.sh
