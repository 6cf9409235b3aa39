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
// beside this script. Besides the instruction fixtures it writes
// quotes.json (sdk_quotes_test.go): the amounts the SDK's own swap quote
// gives for a set of configs and pools, see the end of this script.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
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

{
  // swap2 in its partial-fill mode: a buy that may pass the curve's end
  // takes what completes it and pays for that alone.
  firstSwapWithMinFee = false;
  const amountIn = new BN(90_000_000_000);
  const minimumAmountOut = new BN(1_000_000_000_000);
  const tx = await client.pool.swap2({ amountIn, minimumAmountOut, swapMode: dbc.SwapMode.PartialFill, swapBaseForQuote: false,
    owner: user, pool, referralTokenAccount: null });
  write("swap2_buy_partial_fill", "PoolService.swap2", { user, config, baseMint, quoteMint, buy: true, referral: null,
    instructionsSysvar: false, amountIn, minimumAmountOut, swapMode: dbc.SwapMode.PartialFill }, tx.instructions);
}

// ---------------------------------------------------------------------------
// quotes.json: what the SDK's swap quote (swapQuote, math/swapQuote.ts)
// gives for fixed configs and pools. The instruction fixtures above pin
// encodings; these pin amounts: the input that moves the curve, the output,
// the next square-root price, the trading, protocol and referral fees, the
// minimum out at 1% slippage, and the fee numerator
// (getTotalFeeNumeratorFromIncludedFeeAmount); and for each buy, what
// swap2's partial fill of it gives (swapQuotePartialFill): the input left
// over, the input with and without its fee, the output, the next price and
// the fee parts. A swap the SDK refuses records its error.
//
// Configs are made by the SDK's own builders (buildCurve: a bags-like
// curve, a billion tokens, 20% left for migration, 85 SOL raised; and
// buildCurveWithTwoSegments), with its fee parameters (getFeeSchedulerParams
// through the builders, getRateLimiterParams): a constant 2% fee, taken in
// the quote or in the output token; linear and exponential fee schedulers
// at points across their periods; a rate limiter inside and after its
// window; a dynamic fee with a volatility accumulator; a referral. Pools are
// fresh, and after one buy of 40 and of 84 SOL (79 for the two-segment
// curve, whose threshold is 80), as swapQuote moves them.
{
  const str = (v) => (BN.isBN(v) || typeof v === "bigint" ? v.toString() : v);
  const deep = (v) => (BN.isBN(v) ? v.toString() : Array.isArray(v) ? v.map(deep)
    : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)])) : v);
  const SOL = 1_000_000_000n;
  const ACTIVATION = 1_750_000_000n;
  const supplyTokens = 1_000_000_000;
  const params = (baseFeeParams, { collectFeeMode = 0, dynamicFeeEnabled = false } = {}) => ({
    token: { tokenType: 0, tokenBaseDecimal: 9, tokenQuoteDecimal: 9, tokenAuthorityOption: 1, totalTokenSupply: supplyTokens, leftover: 0 },
    fee: { baseFeeParams, dynamicFeeEnabled, collectFeeMode, creatorTradingFeePercentage: 0, poolCreationFee: 0,
      enableFirstSwapWithMinFee: false },
    migration: { migrationOption: 1, migrationFeeOption: 3, migrationFee: { feePercentage: 0, creatorFeePercentage: 0 } },
    liquidityDistribution: { partnerPermanentLockedLiquidityPercentage: 0, partnerLiquidityPercentage: 50,
      creatorPermanentLockedLiquidityPercentage: 0, creatorLiquidityPercentage: 50 },
    lockedVesting: { totalLockedVestingAmount: 0, numberOfVestingPeriod: 0, cliffUnlockAmount: 0, totalVestingDuration: 0,
      cliffDurationFromMigrationTime: 0 },
    activationType: 1, // timestamps
  });
  const scheduler = (start, end, mode, periods, duration) =>
    ({ baseFeeMode: mode, feeSchedulerParam: { startingFeeBps: start, endingFeeBps: end, numberOfPeriod: periods, totalDuration: duration } });
  const constant = (bps) => scheduler(bps, bps, 0, 0, 0);
  const bagsLike = (baseFeeParams, opts) => dbc.buildCurve({ ...params(baseFeeParams, opts), percentageSupplyOnMigration: 20,
    migrationQuoteThreshold: 85 });
  // The quote math's config: the builder's, with the migration price the
  // SDK derives from the threshold (getMigrationThresholdPrice, as its
  // PoolService.normalizeQuoteConfig does) and a dynamic fee switched on or
  // off.
  const quoteConfig = (c) => ({ ...c, migrationSqrtPrice: dbc.getMigrationThresholdPrice(c.migrationQuoteThreshold, c.sqrtStartPrice, c.curve),
    poolFees: { ...c.poolFees, dynamicFee: c.poolFees.dynamicFee ? { ...c.poolFees.dynamicFee, initialized: 1 }
      : { initialized: 0, binStep: 0, variableFeeControl: 0 } } });
  const rateLimited = bagsLike(constant(100));
  rateLimited.poolFees = { ...rateLimited.poolFees, baseFee: dbc.getRateLimiterParams(100, 10, 1, 60, 9, 1) };
  const twoSegments = dbc.buildCurveWithTwoSegments({ ...params(constant(100)), token: { ...params(constant(100)).token, leftover: 1000 },
    initialMarketCap: 30, migrationMarketCap: 400, percentageSupplyOnMigration: 20 });
  const configs = {
    "constant-2pct": { config: bagsLike(constant(200)), dts: [0n] },
    "constant-2pct/output-fee": { config: bagsLike(constant(200), { collectFeeMode: 1 }), dts: [0n] },
    "linear-50-to-1pct-120s": { config: bagsLike(scheduler(5000, 100, 0, 120, 120)), dts: [0n, 59n, 120n, 86_400n] },
    "exponential-90-to-2pct-150s": { config: bagsLike(scheduler(9000, 200, 1, 150, 150)), dts: [0n, 1n, 75n, 86_400n] },
    "exponential-50-to-1pct-600s": { config: bagsLike(scheduler(5000, 100, 1, 60, 600)), dts: [0n, 10n, 305n, 86_400n] },
    "rate-limiter-1pct-60s": { config: rateLimited, dts: [0n, 60n, 61n], spends: [SOL / 2n, SOL, 7n * SOL / 2n, 20n * SOL, 90n * SOL] },
    "dynamic-fee-1pct": { config: bagsLike(constant(100), { dynamicFeeEnabled: true }), dts: [0n], volatility: 10_000_000n },
    "constant-2pct/referral": { config: bagsLike(constant(200)), dts: [0n], referral: true },
    "two-segments-1pct": { config: twoSegments, dts: [0n], fills: [0n, 40n * SOL, 79n * SOL] },
  };

  const out = { configs: {}, pools: {} };
  const cases = [];
  for (const [cfgName, { config: raw, dts, spends = [SOL / 100n, SOL, 5n * SOL, 20n * SOL], volatility = 0n, referral = false,
    fills = [0n, 40n * SOL, 84n * SOL] }] of Object.entries(configs)) {
    const config = quoteConfig(raw);
    out.configs[cfgName] = deep({ collectFeeMode: config.collectFeeMode, baseFee: config.poolFees.baseFee, dynamicFee: config.poolFees.dynamicFee,
      sqrtStartPrice: config.sqrtStartPrice, migrationSqrtPrice: config.migrationSqrtPrice, migrationQuoteThreshold: config.migrationQuoteThreshold,
      curve: config.curve });
    const fresh = { sqrtPrice: config.sqrtStartPrice, baseReserve: new BN(supplyTokens).mul(new BN(10).pow(new BN(9))), quoteReserve: new BN(0),
      activationPoint: new BN(ACTIVATION.toString()), volatilityTracker: { volatilityAccumulator: new BN(volatility.toString()) } };
    for (const fill of fills) {
      // The pool after one buy of fill, long after activation.
      let pool = fresh;
      if (fill > 0n) {
        const q = dbc.swapQuote({ poolState: fresh }, config, false, new BN(fill.toString()), 0, false,
          new BN((ACTIVATION + 86_400n).toString()), false);
        const baseOut = config.collectFeeMode === 1 ? q.outputAmount.add(q.tradingFee).add(q.protocolFee).add(q.referralFee) : q.outputAmount;
        pool = { ...fresh, sqrtPrice: q.nextSqrtPrice, quoteReserve: q.actualInputAmount, baseReserve: fresh.baseReserve.sub(baseOut) };
      }
      const poolName = `${cfgName}/${fill === 0n ? "fresh" : `after-${fill / SOL}sol`}`;
      out.pools[poolName] = deep({ config: cfgName, sqrtPrice: pool.sqrtPrice, baseReserve: pool.baseReserve, quoteReserve: pool.quoteReserve,
        activationPoint: pool.activationPoint, volatilityAccumulator: pool.volatilityTracker.volatilityAccumulator });
      const sold = BigInt(fresh.baseReserve.sub(pool.baseReserve).toString());
      for (const dt of dts) {
        const point = new BN((ACTIVATION + dt).toString());
        const swaps = spends.map((a) => [true, a]);
        // Sales of part of what the pool sold, and of more than it sold (past
        // the curve's start, which the SDK refuses).
        if (sold > 0n) swaps.push([false, 1_000_000_000_000n], [false, sold / 2n], [false, sold + sold / 10n]);
        for (const [buy, amount] of swaps) {
          const c = { name: `${poolName}/t+${dt}/${buy ? "buy" : "sell"} ${amount}`, pool: poolName, point: str(ACTIVATION + dt),
            buy, referral, amountIn: str(amount) };
          const amountIn = new BN(amount.toString());
          try {
            const q = dbc.swapQuote({ poolState: pool }, config, !buy, amountIn, 100, referral, point, false);
            Object.assign(c, deep({ actualInputAmount: q.actualInputAmount, outputAmount: q.outputAmount, nextSqrtPrice: q.nextSqrtPrice,
              tradingFee: q.tradingFee, protocolFee: q.protocolFee, referralFee: q.referralFee, minimumAmountOut: q.minimumAmountOut }));
          } catch (e) {
            c.error = String(e.message ?? e);
          }
          c.feeNumerator = str(dbc.getTotalFeeNumeratorFromIncludedFeeAmount(config.poolFees, pool.volatilityTracker, point,
            pool.activationPoint, amountIn, buy ? 1 : 0));
          if (buy) {
            // swap2's partial fill of the same buy (swapQuotePartialFill).
            try {
              const q = dbc.swapQuotePartialFill({ poolState: pool }, config, false, amountIn, 100, referral, point, false);
              c.partial = deep({ amountLeft: q.amountLeft, includedFeeInputAmount: q.includedFeeInputAmount,
                excludedFeeInputAmount: q.excludedFeeInputAmount, outputAmount: q.outputAmount, nextSqrtPrice: q.nextSqrtPrice,
                tradingFee: q.tradingFee, protocolFee: q.protocolFee, referralFee: q.referralFee });
            } catch (e) {
              c.partial = { error: String(e.message ?? e) };
            }
          }
          cases.push(c);
        }
      }
    }
  }
  writeQuotes(join(dirname(fileURLToPath(import.meta.url)), "quotes.json"),
    { sdk: SDK, version: VERSION, functions: "swapQuote, swapQuotePartialFill, getTotalFeeNumeratorFromIncludedFeeAmount, buildCurve, buildCurveWithTwoSegments, getRateLimiterParams, getMigrationThresholdPrice",
      ...out }, ["configs", "pools"], cases);
}

// writeQuotes writes header and cases as JSON: each of the header's tables
// one entry a line, then the cases one a line.
function writeQuotes(path, header, tables, cases) {
  const rest = { ...header };
  for (const t of tables) delete rest[t];
  const head = JSON.stringify(rest, null, 2).slice(0, -2);
  const table = (t) => `  ${JSON.stringify(t)}: {\n${Object.entries(header[t]).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n")}\n  }`;
  const lines = cases.map((c) => "    " + JSON.stringify(c)).join(",\n");
  writeFileSync(path, `${head},\n${tables.map(table).join(",\n")},\n  "cases": [\n${lines}\n  ]\n}\n`);
}
