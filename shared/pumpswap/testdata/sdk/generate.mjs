// Writes the PumpSwap fixtures of sdk_golden_test.go: the instructions
// @pump-fun/pump-swap-sdk builds for fixed inputs, offline (no RPC: the
// decoded state the builders take is made here by hand).
//
// Run it from a scratch folder holding the pinned packages, installed
// without their install scripts:
//
//   npm install --ignore-scripts @pump-fun/pump-swap-sdk@1.20.0 \
//     @solana/web3.js@1.99.0 @solana/spl-token@0.4.14 \
//     @coral-xyz/anchor@0.31.1 bn.js@5.2.5
//   node <repo>/shared/pumpswap/testdata/sdk/generate.mjs
//
// The packages load from the current folder; the fixtures are written
// beside this script.
import { fixtures } from "../../../anchor/anchortest/sdkfixture.mjs";

const SDK = "@pump-fun/pump-swap-sdk";
const VERSION = "1.20.0";
const { require, key, write } = fixtures(SDK, VERSION, import.meta.url);
const amm = require(SDK);
const { PublicKey } = require("@solana/web3.js");
const { NATIVE_MINT, TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, getAssociatedTokenAddressSync } = require("@solana/spl-token");
const BN = require("bn.js");

// The builders pick fee recipients with Math.random; 0 picks the first of
// each list, so the fixtures do not change from run to run.
Math.random = () => 0;

const sdk = amm.PUMP_AMM_SDK;
const user = key("user");
const mint = key("mint");
const creator = key("creator");
const protocolFeeRecipient = key("amm-protocol-fee-recipient");
const buybackFeeRecipient = key("amm-buyback-fee-recipient");
const globalConfig = {
  protocolFeeRecipients: Array(8).fill(protocolFeeRecipient),
  reservedFeeRecipient: key("amm-reserved-fee-recipient"),
  reservedFeeRecipients: Array(7).fill(key("amm-reserved-fee-recipient")),
  buybackFeeRecipients: Array(8).fill(buybackFeeRecipient),
};
// The canonical pool of a Token-2022 pump coin, quoted in WSOL.
const poolKey = amm.canonicalPumpPoolPda(mint);

// state returns the SwapSolanaState of user on the pool. poolSize is the
// pool account's length: shorter than POOL_ACCOUNT_NEW_SIZE makes the SDK
// prepend extend_account. userAccounts says whether the user's token
// accounts exist (the SDK creates the missing ones).
function state({ coinCreator, cashback, poolSize, userAccounts, mayhem = false }) {
  const baseTokenProgram = TOKEN_2022_PROGRAM_ID;
  const quoteTokenProgram = TOKEN_PROGRAM_ID;
  const pool = {
    baseMint: mint, quoteMint: NATIVE_MINT, coinCreator, isCashbackCoin: cashback, isMayhemMode: mayhem,
    creator: amm.pumpPoolAuthorityPda(mint),
    poolBaseTokenAccount: getAssociatedTokenAddressSync(mint, poolKey, true, baseTokenProgram),
    poolQuoteTokenAccount: getAssociatedTokenAddressSync(NATIVE_MINT, poolKey, true, quoteTokenProgram),
  };
  const account = (owner) => (userAccounts ? { owner, data: Buffer.alloc(165), lamports: 0, executable: false } : null);
  return {
    globalConfig, feeConfig: null, poolKey, pool, poolAccountInfo: { data: Buffer.alloc(poolSize) },
    baseTokenProgram, quoteTokenProgram, baseMint: mint, user,
    userBaseTokenAccount: getAssociatedTokenAddressSync(mint, user, true, baseTokenProgram),
    userQuoteTokenAccount: getAssociatedTokenAddressSync(NATIVE_MINT, user, true, quoteTokenProgram),
    userBaseAccountInfo: account(baseTokenProgram), userQuoteAccountInfo: account(quoteTokenProgram),
  };
}

// inputsOf lists what the Go test needs to build the same instructions;
// getFeeRecipient picks the first protocol (or, for a mayhem pool,
// reserved) fee recipient.
function inputsOf(s, extra) {
  return { user, pool: poolKey, baseMint: mint, quoteMint: NATIVE_MINT, coinCreator: s.pool.coinCreator,
    cashback: s.pool.isCashbackCoin, mayhem: s.pool.isMayhemMode, poolBaseTokenAccount: s.pool.poolBaseTokenAccount,
    poolQuoteTokenAccount: s.pool.poolQuoteTokenAccount, baseTokenProgram: s.baseTokenProgram,
    quoteTokenProgram: s.quoteTokenProgram,
    protocolFeeRecipient: s.pool.isMayhemMode ? globalConfig.reservedFeeRecipient : protocolFeeRecipient,
    buybackFeeRecipient, ...extra };
}

const baseOut = new BN(2_500_000_000);
const maxQuoteIn = new BN(120_000_000);
const baseIn = new BN(2_500_000_000);
const minQuoteOut = new BN(90_000_000);

// buy on a short pool without the user's accounts: extend_account, the
// WSOL account created and funded, the base account created, buy, and the
// WSOL account closed.
{
  const s = state({ coinCreator: creator, cashback: false, poolSize: 244, userAccounts: false });
  write("buy", "PumpAmmSdk.buyInstructions", inputsOf(s, { baseAmountOut: baseOut, maxQuoteAmountIn: maxQuoteIn }),
    await sdk.buyInstructions(s, baseOut, maxQuoteIn));
}
{
  const s = state({ coinCreator: creator, cashback: true, poolSize: 300, userAccounts: true });
  write("buy_cashback", "PumpAmmSdk.buyInstructions", inputsOf(s, { baseAmountOut: baseOut, maxQuoteAmountIn: maxQuoteIn }),
    await sdk.buyInstructions(s, baseOut, maxQuoteIn));
}

// The SDK has no buy_exact_quote_in builder. These build it with the SDK's
// offline program (its pump_amm.json) from exactly the accounts and the
// remaining accounts buyInstructions passes to buy: the instruction takes
// the same accounts.
for (const [name, cashback, coinCreator] of [
  ["buy_exact_quote_in", false, creator],
  ["buy_exact_quote_in_cashback", true, creator],
  ["buy_exact_quote_in_no_creator", false, PublicKey.default],
]) {
  const s = state({ coinCreator, cashback, poolSize: 300, userAccounts: true });
  const [buy] = (await sdk.buyInstructionsNoPool(s, baseOut, maxQuoteIn)).filter((ix) => ix.programId.equals(amm.PUMP_AMM_PROGRAM_ID));
  const fixed = amm.pumpAmmJson.instructions.find((i) => i.name === "buy").accounts.length;
  const spendableQuoteIn = new BN(100_000_000);
  const minBaseAmountOut = new BN(2_000_000_000);
  const ix = await amm.OFFLINE_PUMP_AMM_PROGRAM.methods
    .buyExactQuoteIn(spendableQuoteIn, minBaseAmountOut, { 0: true })
    .accounts(sdk.swapAccounts(s))
    .remainingAccounts(buy.keys.slice(fixed))
    .instruction();
  write(name, "OFFLINE_PUMP_AMM_PROGRAM.methods.buyExactQuoteIn with the accounts of PumpAmmSdk.buyInstructions",
    inputsOf(s, { spendableQuoteIn, minBaseAmountOut }), [ix]);
}

for (const [name, cashback, coinCreator, mayhem] of [
  ["sell", false, creator, false],
  ["sell_cashback", true, creator, false],
  ["sell_no_creator", false, PublicKey.default, false],
  ["sell_mayhem", false, creator, true],
]) {
  const s = state({ coinCreator, cashback, poolSize: 300, userAccounts: false, mayhem });
  write(name, "PumpAmmSdk.sellInstructions", inputsOf(s, { baseAmountIn: baseIn, minQuoteAmountOut: minQuoteOut }),
    await sdk.sellInstructions(s, baseIn, minQuoteOut));
}
