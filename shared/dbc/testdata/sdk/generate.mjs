// Writes the Meteora DBC fixtures of sdk_golden_test.go: the instructions
// @meteora-ag/dynamic-bonding-curve-sdk builds for fixed inputs, offline.
// The SDK's builders read the pool and its config through its state
// service and ask the connection whether token accounts exist; here the
// state service returns decoded accounts made by hand and the connection
// is a stub that knows the two mints and no token account, so no request
// leaves the process.
//
// Run it from a scratch folder holding the pinned packages, installed
// without their install scripts:
//
//   npm install --ignore-scripts @meteora-ag/dynamic-bonding-curve-sdk@1.5.12 \
//     @solana/web3.js@1.99.0 @solana/spl-token@0.4.14 \
//     @coral-xyz/anchor@0.31.1 bn.js@5.2.5
//   node <repo>/shared/dbc/testdata/sdk/generate.mjs
//
// The packages load from the current folder; the fixtures are written
// beside this script.
import { fixtures } from "../../../anchor/anchortest/sdkfixture.mjs";

const SDK = "@meteora-ag/dynamic-bonding-curve-sdk";
const VERSION = "1.5.12";
const { require, key, write } = fixtures(SDK, VERSION, import.meta.url);
const dbc = require(SDK);
const { NATIVE_MINT, TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } = require("@solana/spl-token");
const BN = require("bn.js");

const creator = key("creator");
const user = key("user");
const baseMint = key("mint");
const config = key("dbc-config");
const quoteMint = NATIVE_MINT;

// Both mints are SPL Token mints; every other account is missing, so the
// SDK creates the user's token accounts.
const mints = new Map([baseMint, quoteMint].map((m) => [m.toBase58(), m]));
const connection = {
  getAccountInfo: async (k) =>
    mints.has(k.toBase58()) ? { owner: TOKEN_PROGRAM_ID, data: Buffer.alloc(82), lamports: 0, executable: false } : null,
};

const client = new dbc.DynamicBondingCurveClient(connection, "confirmed");
const pool = dbc.deriveDbcPoolAddress(quoteMint, baseMint, config);
// A bags-like config: SPL base and quote, a linear fee scheduler, DAMM v2
// migration. enableFirstSwapWithMinFee is what makes the SDK pass the
// instructions sysvar to a swap.
const poolConfig = (firstSwapWithMinFee) => ({
  quoteMint, tokenType: 0, quoteTokenFlag: 0, activationType: 1, migrationOption: 1,
  enableFirstSwapWithMinFee: firstSwapWithMinFee,
  poolFees: { baseFee: { baseFeeMode: 0, firstFactor: 0, secondFactor: new BN(0), thirdFactor: new BN(0) } },
});
let firstSwapWithMinFee = false;
const getPoolConfig = async (k) => (k.equals(config) ? poolConfig(firstSwapWithMinFee) : null);
const getPool = async (k) =>
  k.equals(pool)
    ? { poolState: { config, baseMint, poolType: 0, activationPoint: new BN(0),
        baseVault: dbc.deriveDbcTokenVaultAddress(pool, baseMint), quoteVault: dbc.deriveDbcTokenVaultAddress(pool, quoteMint) } }
    : null;
for (const service of [client.pool, client.creator]) Object.assign(service.state, { getPoolConfig, getPool });

const createParams = { baseMint, config, name: "Bags Golden", symbol: "BAGG", uri: "https://example.com/bags.json",
  payer: creator, poolCreator: creator };
const createInputs = { ...createParams, quoteMint };
delete createInputs.poolCreator;
createInputs.creator = creator;

write("initialize_virtual_pool_with_spl_token", "CreatorService.createPool", createInputs,
  (await client.creator.createPool(createParams)).instructions);

{
  // The first buy bundled with the create: the SDK always passes the
  // instructions sysvar to it.
  const buyAmount = new BN(1_000_000_000);
  const minimumAmountOut = new BN(30_000_000_000_000);
  const tx = await client.creator.createPoolWithFirstBuy({
    createPoolParam: createParams,
    firstBuyParam: { buyer: creator, buyAmount, minimumAmountOut, referralTokenAccount: null },
  });
  write("create_pool_with_first_buy", "CreatorService.createPoolWithFirstBuy",
    { ...createInputs, user: creator, amountIn: buyAmount, minimumAmountOut }, tx.instructions);
}

for (const [name, buy, referral, minFee] of [
  ["swap_buy", true, null, false],
  ["swap_sell", false, null, false],
  ["swap_buy_referral", true, getAssociatedTokenAddressSync(quoteMint, key("referrer"), true, TOKEN_PROGRAM_ID), false],
  ["swap_buy_first_min_fee", true, null, true],
]) {
  firstSwapWithMinFee = minFee;
  const amountIn = buy ? new BN(250_000_000) : new BN(9_000_000_000_000);
  const minimumAmountOut = buy ? new BN(8_000_000_000_000) : new BN(200_000_000);
  const tx = await client.pool.swap({ amountIn, minimumAmountOut, swapBaseForQuote: !buy, owner: user, pool,
    referralTokenAccount: referral });
  write(name, "PoolService.swap", { user, config, baseMint, quoteMint, buy, referral, instructionsSysvar: minFee,
    amountIn, minimumAmountOut }, tx.instructions);
}
