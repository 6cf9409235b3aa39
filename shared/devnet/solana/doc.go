// Package solana is a local Solana chain for development and tests: a test
// double of a chain, never a production path. It keeps an in-memory ledger
// (optionally saved to a file, see Persistence), advances slots on a clock,
// hands out recent blockhashes that expire, and serves the Solana JSON-RPC
// 2.0 API over HTTP so that unmodified clients (solana-go's rpc.Client
// among them) can send real signed transactions to it.
//
// # What it executes
//
// Every transaction is decoded with solana-go, every ed25519 signature is
// verified (outside the execution lock), the recent blockhash must be known
// and unexpired (BlockhashNotFound), a signature may land only once
// (AlreadyProcessed), and the fee payer must pay 5000 lamports per signature
// plus the priority fee ceil(limit*price/1e6) (InsufficientFundsForFee).
// Instructions run atomically against copies of the accounts; a transaction
// that fails after its fee was charged lands with its error, like on the
// real chain. New accounts must be rent exempt (InsufficientFundsForRent).
//
// Programs: System (CreateAccount, Assign, Transfer, Allocate,
// CreateAccountWithSeed), Compute Budget, SPL Token and Token-2022
// (InitializeMint/2, InitializeAccount/2/3, Transfer, TransferChecked,
// MintTo/Checked, Burn/Checked, CloseAccount, SetAuthority, SyncNative,
// InitializeImmutableOwner, the metadata pointer and token metadata
// extensions, and a mint's transfer fee: withheld in the destination of a
// checked transfer at the Clock sysvar's epoch, which the chain does not
// advance), Associated Token Account (Create, CreateIdempotent), Memo,
// pump.fun (create_v2, buy, buy_exact_sol_in, sell) and the PumpSwap AMM
// (create_pool, buy, buy_exact_quote_in, sell, extend_account) with the
// account checks, remaining accounts, Anchor errors and program errors of
// the published IDLs. Layouts and math come from packages pumpfun and
// pumpswap, so clients and chain agree. Genesis seeds the pump.fun Global,
// FeeConfig (GenesisFeeTiers), global volume accumulator, event authority
// and rent-exempt fee and buyback recipients; the AMM's GlobalConfig and
// FeeConfig (GenesisAMMFeeTiers, GenesisAMMStableFeeTiers,
// GenesisAMMFlatFees); USDC and USD1 mints at their mainnet addresses
// (6 decimals, SPL Token); the buyback recipients' WSOL, USDC and USD1
// accounts; rent-exempt tip accounts; and the stable/SOL pool StableSOLPool
// (WSOL base, USDC quote, 150 USD per SOL), the chain's SOL/USD price source,
// at the same address on every local chain.
//
// The launch programs of letsbonk.fun and bags.fm run too, with layouts and
// math from packages launchlab and dbc: Raydium LaunchLab (initialize_v2,
// buy_exact_in, sell_exact_in with the fee-vault remaining accounts), Meteora's
// Dynamic Bonding Curve (initialize_virtual_pool_with_spl_token, swap exact
// in both ways, a rate-limited base fee with the program's single-swap
// check) and the Metaplex CreateMetadataAccountV3 both call, so a
// launched mint has metadata at its Metaplex PDA. Genesis seeds letsbonk's
// PlatformConfig and the WSOL constant-curve GlobalConfig at their mainnet
// addresses, and the bags PoolConfig dbc.LocalBagsPoolConfig; a chain loaded
// from an older file gets them at Open. Not executed there: LaunchLab's
// exact-out trades, Token-2022 launches (CreateLetsBonkCoinWithTransferFee
// writes such a pool, whose trades do run) and migration; DBC's exact-out
// swap2, Token-2022 pools and migration.
//
// A pump.fun coin graduates into its canonical PumpSwap pool (index 0,
// created by the coin's pump.fun pool authority, quoted in WSOL for a SOL
// curve): a curve a buy completes migrates at the next slot, as pump.fun's
// migration does on mainnet (the curve's tokens and its SOL less
// Global.pool_migration_fee become the pool's reserves), unless
// Config.ManualMigration leaves it to GraduateCoin; CreatePumpSwapCoin
// creates a coin and graduates it at once in WSOL, USDC or USD1. Migrations
// due when the process stops are not kept; GraduateCoin does them later.
//
// Not executed: the deprecated pump.fun create (it needs Metaplex), pump.fun
// migrate as an instruction (the chain migrates by itself), mayhem mode (Global keeps it
// disabled), pump.fun curves in a non-SOL quote, AMM deposits and
// withdrawals, address lookup tables and durable nonces.
//
// # RPC methods
//
// getHealth, getVersion, getSlot, getBlockHeight, getEpochInfo,
// getGenesisHash, getLatestBlockhash, isBlockhashValid, getBalance,
// getAccountInfo, getMultipleAccounts (base64 or base58 data),
// getTokenAccountBalance, getTokenAccountsByOwner, getTokenSupply,
// getMinimumBalanceForRentExemption, requestAirdrop, sendTransaction,
// simulateTransaction, getSignatureStatuses, getTransaction (json, base64,
// base58), getSignaturesForAddress, getTransactionCount,
// getRecentPrioritizationFees and getFeeForMessage, single or batched. An
// unknown method answers -32601. sendTransaction answers like a validator:
// -32003 for a bad signature, -32002 "Transaction simulation failed: ..."
// with data.err and data.logs when preflight refuses the transaction. With
// skipPreflight a transaction that executes and fails lands with its error;
// one that cannot be charged (stale blockhash, duplicate, poor fee payer) is
// accepted and never lands. Unlike a validator, the chain refuses a bad
// signature even with skipPreflight.
//
// Custom methods for the devnet admin endpoints (params as one object, or as
// that object inside an array):
//
//	devnet_createPumpCoin {creator, name, symbol} → {mint, bondingCurve, signature}
//	devnet_createPumpSwapCoin {creator, name, symbol, quoteMint?, liquidity?} → {mint, bondingCurve, pool, quoteMint, signature}
//	devnet_graduate {mint} → {pool}
//	devnet_quoteAssets → {mints: {SOL, USDC, USD1}, stableSolPool, tipAccounts}
//	devnet_createMint {decimals, tokenProgram?, authority?} → {mint}
//	devnet_mintTo {mint, owner, amount} → {tokenAccount}
//	devnet_fund {address, lamports} → {lamports}
//	devnet_expireBlockhashes → true
//	devnet_upgradeProgram {program, breaking?, revert?} → {program, programId, programData, deploySlot, revision, breaking, requiredAccount}
//
// The venue programs (pump_fun, pumpswap, launchlab, dbc) are deployed
// through the BPF upgradeable loader: the program account names its
// program-data account, whose header holds the deploy slot.
// devnet_upgradeProgram (UpgradeProgram) redeploys one in a new slot; a
// breaking build requires its trade config account (TradeConfigAddress),
// read-only, at the end of every trade instruction, and refuses a trade
// without it with Anchor's AccountNotEnoughKeys naming it (upgrade.go).
//
// Amounts are integers in base units (lamports, token base units), as JSON
// numbers or decimal strings. requestAirdrop pays from the faucet with a
// signed transfer that lands like any transaction.
//
// # Bundle relay
//
// BundleHandler serves the JSON-RPC of a Jito block engine: sendBundle (1 to
// 5 signed transactions, base58 or base64, at least one paying a tip account
// Config.MinBundleTip or more through a System transfer), getBundleStatuses,
// getInflightBundleStatuses and getTipAccounts. A bundle that passes the
// checks executes at once, in order and all or nothing; its id is the hex
// SHA-256 of its signatures, and a bundle that could not land has the
// in-flight status Failed. RPCCalls tells how many requests of each method
// the chain answered, so a test can tell a bundle from a sendTransaction.
//
// # Persistence
//
// With Config.StateFile set, Open loads the chain from that file and Close
// writes it back; while the chain changes it is also written every
// Config.SaveInterval (2s), so a crash loses at most that much. The first
// save of a process writes the whole state to a temporary file (mode 0600)
// that is synced and renamed over the old one; later saves append what
// changed since the save before (the accounts written or closed, the
// transactions landed) and sync it, so that a save under load costs what
// the last seconds changed, not the whole ledger; once the changes
// outweigh the whole state, the next save rewrites it. A save that a crash
// cut short is the end of the file and is left out on loading. A file that
// is not a state file, is damaged (CRC-32C) anywhere but in its last save,
// has a newer format version or was written with another Seed makes Open
// fail with an error naming the file; Open never starts empty over it. New
// panics where Open would fail, so use Open for a file-backed chain.
//
// A restart keeps every account (lamports, owner, data, executable), hence
// balances, mints, token accounts, pump.fun curves, Global and FeeConfig;
// the landed count; the recent blockhashes and prioritization fees; the
// newest Config.StateTransactions transactions in full (getTransaction,
// getSignaturesForAddress, getSignatureStatuses); and, for older ones whose
// blockhash may still be valid, the signature, slot and error, so that a
// replay is refused as AlreadyProcessed and its status is still known.
// The slots that would have passed while the chain was down pass at once
// (at least one): a transaction signed before a short restart still lands,
// one signed before a downtime longer than a blockhash lives fails with
// BlockhashNotFound, as on a cluster the client was away from. Program
// accounts come from the code, not the file, except the venue programs'
// program-data, which keeps their last deploy. A restart drops the full
// records of older transactions, the latency and pause settings, and
// whatever changed after the last write when the process died.
//
// # Use in tests
//
//	chain := solana.New(solana.Config{SlotDuration: 50 * time.Millisecond})
//	defer chain.Close()
//	srv := httptest.NewServer(chain.Handler())
//	client := rpc.New(srv.URL)
//
// or chain.Start("127.0.0.1:0") / chain.Run(ctx, addr) to serve it, and the
// helpers Airdrop, CreatePumpCoin, CreatePumpSwapCoin, GraduateCoin,
// CreateMint, MintTo, Balance, TokenBalance,
// ExpireBlockhashes, SetLatency, Pause/Resume and LandedCount to set up and
// inspect a scene. A chain that outlives the process is opened with
//
//	chain, err := solana.Open(solana.Config{StateFile: filepath.Join(dataDir, "solana.state")})
package solana
