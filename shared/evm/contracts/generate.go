// Package contracts holds the project's Solidity contracts for the EVM
// chains, their compiler output and their Go bindings (abigen v1):
//
//   - WrappedNative: the native coin as an ERC-20 (WETH9-style deposit and
//     withdraw).
//   - Stable: an ERC-20 with configurable decimals and an owner mint (the
//     local chains' USDC, USDT, USD1 and USDG).
//   - TaxToken: an 18-decimal ERC-20 with a buy and a sell tax in basis
//     points on transfers out of and into registered pairs.
//   - TaxProbe: measures a token's real buy and sell tax by a round trip
//     through any router with UniswapV2Router02's functions (probe), or
//     through the official SwapRouter02 in one V3 pool, quoted by QuoterV2
//     (probeV3), run by eth_call with state overrides (see ProbeTax).
//   - ERC20: the ABI of any ERC-20 token (no bytecode).
//
// The exchange itself is not here: the local chains run, and the EVM worker
// trades through, the official Uniswap contracts (package
// shared/evm/uniswap).
//
// The .sol files are the sources. The .abi, .bin and .runtime.bin files and
// the bindings (erc20.go, taxtoken.go, ...) are generated and committed, so
// building and testing need neither node nor solc. To regenerate them after
// changing a contract, with node and npm installed, run from the repository
// root:
//
//	go generate ./shared/evm/contracts
//
// which runs tools/generate.sh: it installs the pinned solc (solc-js 0.8.37,
// tools/package-lock.json) into tools/node_modules, compiles with the
// optimizer (200 runs) for evmVersion cancun (tools/compile.js), and writes
// the bindings with abigen v1.17.10 from the tools module (tools/go.mod).
package contracts

//go:generate sh tools/generate.sh
