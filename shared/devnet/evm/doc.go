// Package evm runs local EVM chains for development and tests: test doubles
// of the eth, bsc, base, rbh and arc chains, never a production path. Each
// Chain is a go-ethereum node (the real EVM, state trie, transaction pool,
// EIP-1559 fee market and JSON-RPC API) whose blocks are built by its miner
// and imported as the simulated beacon has them built and imported, so
// that a block is sealed as soon as transactions are pending.
//
// # Chains
//
// Chain ids are the real ones: eth 1, bsc 56, base 8453, and the public
// testnets' ids for the chains whose mainnets were not live when this was
// written: rbh 46630 (Robinhood Chain testnet) and arc 5042002 (Arc
// testnet). Every chain runs Ethereum mainnet's rules through the Osaka fork
// (contracts compiled for cancun run unchanged), starts at a base fee of 1 gwei that then moves with block usage as EIP-1559
// says, and has a 60M gas limit. The fee recipient of every block
// (block.coinbase) is BuilderAddress, so a tip paid to the builder can be
// seen there.
//
// Blocks are sealed when transactions are pending, right after they arrive.
// Block timestamps are whole seconds and must grow by at least one per
// block, so during a burst of blocks the chain's clock runs ahead of the wall
// clock (one second per block); when the chain is idle the wall clock
// catches up. The lead is capped at ChainConfig.MaxClockDrift (24 h by
// default), beyond which blocks are sealed once a second, each still taking
// every pending transaction. A swap deadline is therefore best computed from
// the latest block's timestamp, as on any chain whose clock may differ from
// the caller's.
//
// # Contracts
//
// At start each chain deploys, from DeployerKey, the official Uniswap V2 and
// V3 contracts (package shared/evm/uniswap: the runtime code Uniswap
// published, as on Ethereum mainnet) with the project's wrapped native coin
// as their WETH9, and the project's own test tokens (package
// shared/evm/contracts), at nonces fixed by the deployment order, so every
// address is the same on every start of a chain. Each chain counts these
// nonces from a base of its own (its place among Names times 2^20), so
// that no two chains share an address:
//
//	nonce 0     WrappedNative (WETH, WBNB, WUSDC on arc)
//	nonce 1     UniswapV2Factory
//	nonce 2     UniswapV2Router02(V2 factory, WrappedNative)
//	nonce 3     UniswapV3Factory, with fee tiers 500, 3000 and 10000
//	nonce 4     UniswapV3Factory.enableFeeAmount(100, 1)
//	nonce 5     NonfungiblePositionManager(V3 factory, WrappedNative)
//	nonce 6     SwapRouter02(V2 factory, V3 factory, position manager, WrappedNative)
//	nonce 7     QuoterV2(V3 factory, WrappedNative)
//	nonce 8     on arc: NativeToken, a Stable "USD Coin" (USDC, 6 decimals)
//	nonce 8+    elsewhere: one Stable per quote asset of the chain
//	            (shared/chains), in order
//
// Then each stable gets a V2 pair with the wrapped native coin and
// liquidity at the chain's reference price (ETH 3000 USD, BNB 600 USD),
// which prices the native coin in USD. Deployment describes the result
// (its Router is Router02); devnet_deployment answers it.
//
// # Arc
//
// On the real Arc chain the native coin is USDC: the chain keeps native
// balances in 18 decimals, and an ERC-20 interface (a system contract, 6
// decimals) shows and moves the very same balance. Arc has no wrapped
// native token, and its pools trade against that ERC-20. The local arc
// chain stands for the interface by an ordinary Stable, NativeToken
// (Deployment.NativeToken, devnet_deployment's nativeToken; zero on the
// other chains), and pools every token it creates against it, on v2 and
// v3 alike. Arc has no other quote asset, so its Stables are empty and it
// has no USD pair. It still deploys WrappedNative (WUSDC), only because
// Router02 and the V3 periphery take a WETH9; no pool of arc's is against
// it.
//
// One balance in two places is more than a test double of plain EVM
// contracts can be, so the local arc chain funds both: Fund (devnet_fund's
// amount, in wei) also mints amount / 10^12 of NativeToken, and FundToken
// of "USDC" (or of NativeToken's address) credits units of NativeToken and
// units × 10^12 wei of the native coin, so that a funded wallet holds the
// same USDC in both. After that the chain keeps the two apart: a spend of
// one (gas and transfers in the native coin, swaps and transfers of
// NativeToken) does not reduce the other. The service's checks do not rely
// on them being one. Balance of "USDC" on arc is NativeToken's, in 6
// decimals; Balance of "" is the native coin's, in wei.
//
// # Tokens
//
// CreateToken deploys a TaxToken and pools it on venue v2 (its pair on the
// official V2 factory, which the token taxes, filled through Router02) or
// v3 (its pool of a fee tier on the official V3 factory, over the full
// range, through the position manager; no taxes, since a V3 pool refuses
// a token that arrives short). Its quote is the wrapped native coin for
// the native coin (NativeToken on arc), or a stable.
//
// On a chain reopened from its folder the deployment is already there: the
// deployer's nonce says so, and NewChain only checks that every contract
// has code, the official ones their official runtime code, and on arc that
// NativeToken is a 6-decimal USDC. An arc folder made before arc had a
// native token holds something else at that nonce (its first created
// token, or nothing) and is refused with ErrStateDir, saying to remove the
// chain's folder; one whose deployer never sent anything after the
// official contracts gets NativeToken deployed then. A deployment the
// process died in the middle of is finished from the deployer's nonce on.
// Nothing is deployed twice.
//
// # State
//
// With ChainConfig.Dir (Config.Dir for a set of chains, one folder per
// chain) a chain keeps its go-ethereum database on disk (pebble, in
// Dir/geth), so that NewChain on the same folder reopens the chain at its
// last block: balances, contracts and their storage (tokens, pools and
// their reserves), nonces, blocks, transactions and receipts. Every
// block's state is written with the block (hash-keyed state, never
// pruned), and the database is synced to disk before a sealed block is
// visible to anyone, so a process that dies, even in the middle of a
// write, reopens at the last block a client could have seen. This costs
// about a millisecond per block and 7 to 13 KiB of disk per block (see
// BENCHMARKS.md). What a restart does not keep: transactions still in the
// pool (Close seals them first), and the record of which transactions came
// through the relay.
//
// Dir/devnet-evm.json says what the folder holds (format version, chain,
// chain id, genesis hash) and is checked before the database is opened: a
// folder of another format version, another chain or another genesis (the
// chain's rules or ChainConfig.Alloc changed), a non-empty folder without
// it, or a database go-ethereum refuses makes NewChain fail with
// ErrStateDir and the folder's name; the folder is left untouched, never
// started over, because what else the data folder holds (accounts,
// wallets, nonces, orders) refers to that chain. Moving the folder away
// starts the chain fresh. Two processes cannot open one folder at once.
//
// # JSON-RPC
//
// Handler serves the standard eth_ methods of a go-ethereum node (eth_chainId,
// eth_blockNumber, eth_getBalance, eth_call with state and block overrides,
// eth_estimateGas, eth_getTransactionCount with "pending",
// eth_sendRawTransaction, eth_getTransactionReceipt, eth_getTransactionByHash,
// eth_feeHistory, eth_maxPriorityFeePerGas, eth_gasPrice, eth_getBlockByNumber,
// eth_getLogs, eth_getCode, eth_getStorageAt, eth_simulateV1, ...), net_ and
// txpool_ methods, web3_clientVersion, and the chain's own devnet_ methods
// (see API).
//
// RelayHandler is a private relay. It accepts eth_sendRawTransaction and
// eth_sendPrivateTransaction, which submit one transaction to the same
// pool, and eth_sendBundle (the Flashbots shape: {txs: [raw hex, ...],
// blockNumber, revertingTxHashes}), which lands a bundle all or nothing:
// its transactions alone in the next block, in their order, only if every
// one succeeds (see Chain.SendBundle); it answers {bundleHash, blockNumber,
// blockHash} once that block is the head, or error -32000 with data {index,
// hash} naming the transaction that kept the bundle out, and then none of
// them is on the chain. A bundle's tip is a plain transfer of the native
// coin to the relay's tip address (relay_tipAddress, and relayTipAddress
// in devnet_deployment), not a contract call. The relay records every
// transaction it landed (Relayed, RelayedCount, devnet_relayed), so tests
// can tell which transactions came through it.
package evm
