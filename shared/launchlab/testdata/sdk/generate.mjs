// Writes the LaunchLab fixtures of sdk_golden_test.go: the instructions
// @raydium-io/raydium-sdk-v2 builds for a letsbonk launch and its trades,
// offline (no RPC: the pool and config values the builders take are made
// here by hand).
//
// Run it from a scratch folder holding the pinned packages, installed
// without their install scripts:
//
//   npm install --ignore-scripts @raydium-io/raydium-sdk-v2@0.2.73-alpha \
//     @solana/web3.js@1.99.0 @solana/spl-token@0.4.14 bn.js@5.2.5
//   node <repo>/shared/launchlab/testdata/sdk/generate.mjs
//
// The packages load from the current folder; the fixtures are written
// beside this script. Besides the instruction fixtures it writes
// quotes.json (sdk_quotes_test.go): the amounts the SDK's own curve math
// gives for a set of pools, and transfer_fee.json
// (sdk_transfer_fee_test.go): what the SDK does when the pool's base mint
// is a Token-2022 mint with a transfer fee; see the end of this script.
//
// Raydium.launchpad's own methods read the chain; this calls the
// instruction builders they end in (instrument.ts) with the addresses
// those methods derive (pda.ts), as createLaunchpad and buyToken pass
// them. The SDK is GPL-3.0: it only produces these fixtures and nothing of
// it is part of the project.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fixtures } from "../../../anchor/anchortest/sdkfixture.mjs";

const SDK = "@raydium-io/raydium-sdk-v2";
const VERSION = "0.2.73-alpha";
const { require, key, write } = fixtures(SDK, VERSION, import.meta.url);
const ray = require(SDK);
const { PublicKey, SystemProgram } = require("@solana/web3.js");
const {
  NATIVE_MINT, TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync,
  createAssociatedTokenAccountIdempotentInstruction, createSyncNativeInstruction,
} = require("@solana/spl-token");
const BN = require("bn.js");

const programId = ray.LAUNCHPAD_PROGRAM;
const creator = key("creator");
const user = key("user");
const mintA = key("mint");
const mintB = NATIVE_MINT;
// letsbonk: its admin's platform config, under the SOL constant-curve
// global config (index 0).
const platformId = ray.getPdaPlatformId(programId, new PublicKey("2P56vRWDrCBGkqYXxgSWAnuZQZrJPySRQGToTJThpmkN")).publicKey;
const configId = ray.getPdaLaunchpadConfigId(programId, mintB, 0, 0).publicKey;
const auth = ray.getPdaLaunchpadAuth(programId).publicKey;
const poolId = ray.getPdaLaunchpadPoolId(programId, mintA, mintB).publicKey;
const vaultA = ray.getPdaLaunchpadVaultId(programId, poolId, mintA).publicKey;
const vaultB = ray.getPdaLaunchpadVaultId(programId, poolId, mintB).publicKey;
const metaId = ray.getPdaMetadataKey(mintA).publicKey;

// letsbonk's SOL launch: 6 decimals, 1e9 tokens, 793.1M sold on the curve,
// 85 SOL raised.
const supply = new BN("1000000000000000");
const totalSellA = new BN("793100000000000");
const totalFundRaisingB = new BN("85000000000");

for (const [name, migrateType, creatorFeeOn, restrict] of [
  ["initialize_v2", "cpmm", ray.CpmmCreatorFeeOn.OnlyTokenB, false],
  ["initialize_v2_curve_rule", "amm", ray.CpmmCreatorFeeOn.BothToken, true],
]) {
  // As createLaunchpad passes it: the curve rule only for a platform that
  // restricts curve parameters.
  const curveRule = restrict ? ray.getPdaPlatformCurveRule(programId, platformId, configId).publicKey : undefined;
  const inputs = { payer: creator, creator, mintA, mintB, globalConfig: configId, platformConfig: platformId,
    decimals: 6, name: "Bonk Golden", symbol: "BGLD", uri: "https://example.com/bonk.json",
    supply, totalSellA, totalFundRaisingB, migrateType, creatorFeeOn, platformCurveRule: curveRule ?? null };
  const ix = ray.initializeV2(programId, creator, creator, configId, platformId, auth, poolId, mintA, mintB,
    vaultA, vaultB, metaId, TOKEN_PROGRAM_ID, 6, inputs.name, inputs.symbol, inputs.uri,
    { type: "ConstantCurve", totalSellA, migrateType, supply, totalFundRaisingB },
    new BN(0), new BN(0), new BN(0), creatorFeeOn, undefined, curveRule);
  write(name, "initializeV2 (instrument.ts), as Raydium.launchpad.createLaunchpad calls it", inputs, [ix]);
}

const userA = getAssociatedTokenAddressSync(mintA, user, true, TOKEN_PROGRAM_ID);
const userB = getAssociatedTokenAddressSync(mintB, user, true, TOKEN_PROGRAM_ID);
const platformVault = ray.getPdaPlatformVault(programId, platformId, mintB).publicKey;
const creatorVault = ray.getPdaCreatorVault(programId, creator, mintB).publicKey;
const common = { user, creator, mintA, mintB, globalConfig: configId, platformConfig: platformId };

{
  // buyToken on a new pool (fromCreate): the base account and the WSOL
  // account created idempotently, the WSOL funded and synced, then the buy.
  const amountB = new BN(500_000_000);
  const minAmountA = new BN(17_000_000_000_000);
  const inputs = { ...common, amountIn: amountB, minimumAmountOut: minAmountA };
  write("buy_exact_in", "buyExactInInstruction (instrument.ts), as Raydium.launchpad.buyToken calls it on a new pool", inputs, [
    createAssociatedTokenAccountIdempotentInstruction(user, userA, user, mintA, TOKEN_PROGRAM_ID),
    createAssociatedTokenAccountIdempotentInstruction(user, userB, user, mintB, TOKEN_PROGRAM_ID),
    SystemProgram.transfer({ fromPubkey: user, toPubkey: userB, lamports: BigInt(amountB.toString()) }),
    createSyncNativeInstruction(userB),
    ray.buyExactInInstruction(programId, user, auth, configId, platformId, poolId, userA, userB, vaultA, vaultB,
      mintA, mintB, TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID, platformVault, creatorVault, amountB, minAmountA, new BN(0)),
  ]);
}

{
  const amountA = new BN(17_000_000_000_000);
  const minAmountB = new BN(450_000_000);
  const inputs = { ...common, amountIn: amountA, minimumAmountOut: minAmountB };
  write("sell_exact_in", "sellExactInInstruction (instrument.ts), as Raydium.launchpad.sellToken calls it", inputs, [
    ray.sellExactInInstruction(programId, user, auth, configId, platformId, poolId, userA, userB, vaultA, vaultB,
      mintA, mintB, TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID, platformVault, creatorVault, amountA, minAmountB, new BN(0)),
  ]);
}

{
  // The compute budget txBuilder.addCustomComputeBudget puts before a
  // trade: the unit price, then the unit limit.
  const inputs = { microLamports: 25_000, units: 200_000 };
  write("compute_budget", "addComputeBudget (txUtils.ts), as TxBuilder.addCustomComputeBudget calls it", inputs,
    ray.addComputeBudget(inputs).instructions);
}

// ---------------------------------------------------------------------------
// quotes.json: what the SDK's curve math (curve/curve.ts,
// curve/constantProductCurve.ts) gives for fixed pools. The instruction
// fixtures above pin encodings; these pin amounts:
//
//   init   LaunchConstantProductCurve.getInitParam: the virtual reserves
//          initialize_v2 gives a constant-product curve.
//   buy    Curve.buyExactIn: base out, quote paid (less than asked when the
//          buy sells the curve out) and the fee split (splitFee).
//   sell   Curve.sellExactIn: quote out (fees taken) and the fee split.
//
// Pools are letsbonk's curve as getInitParam makes it, after buys of a
// quote amount without fees (as the SDK's own getPoolCurvePointByInit
// walks a curve), and the mainnet pool of a public trade; rates are
// letsbonk's (0.25% protocol, 1% platform, 0.05% creator), with a share
// fee, and without a creator fee.
{
  const str = (v) => (BN.isBN(v) || typeof v === "bigint" ? v.toString() : v);
  const SOL = 1_000_000_000n;
  const cp = ray.Curve.getCurve(0);
  const cases = [];
  const pools = {};

  const inits = [
    ["letsbonk", { supply, totalSell: totalSellA, totalFundRaising: totalFundRaisingB, totalLockedAmount: new BN(0), migrateFee: new BN(0) }],
    ["letsbonk/migrate-fee", { supply, totalSell: totalSellA, totalFundRaising: totalFundRaisingB, totalLockedAmount: new BN(0),
      migrateFee: new BN(2_000_000_000) }],
    ["50sol/vesting", { supply, totalSell: new BN("700000000000000"), totalFundRaising: new BN(50_000_000_000),
      totalLockedAmount: new BN("100000000000000"), migrateFee: new BN(500_000_000) }],
    ["usd1/12500", { supply, totalSell: totalSellA, totalFundRaising: new BN(12_500_000_000), totalLockedAmount: new BN(0),
      migrateFee: new BN(0) }],
  ];
  for (const [name, p] of inits) {
    const { a, b } = cp.getInitParam(p);
    cases.push({ name: `init/${name}`, op: "init", supply: str(p.supply), totalSell: str(p.totalSell),
      totalFundRaising: str(p.totalFundRaising), totalLocked: str(p.totalLockedAmount), migrateFee: str(p.migrateFee),
      virtualA: str(a), virtualB: str(b) });
  }

  const { a: virtualA, b: virtualB } = cp.getInitParam({ supply, totalSell: totalSellA, totalFundRaising: totalFundRaisingB,
    totalLockedAmount: new BN(0), migrateFee: new BN(0) });
  const zero = new BN(0);
  const poolAfter = (spent) => {
    const pool = { virtualA, virtualB, realA: zero, realB: zero, totalSellA, totalFundRaisingB };
    if (spent === 0n) return pool;
    const r = ray.Curve.buyExactIn({ poolInfo: pool, amountB: new BN(spent.toString()), protocolFeeRate: zero, platformFeeRate: zero,
      curveType: 0, shareFeeRate: zero, creatorFeeRate: zero, transferFeeConfigA: undefined, transferFeeConfigB: undefined, slot: 0 });
    return { ...pool, realA: r.amountA.amount, realB: r.amountB };
  };
  const states = {
    fresh: poolAfter(0n),
    "10sol": poolAfter(10n * SOL),
    // The mainnet pool TestMainnetTrade replays a buy on.
    "mainnet-mid": { virtualA, virtualB, realA: new BN("602241254286758"), realB: new BN(38_377_977_720), totalSellA, totalFundRaisingB },
    "80sol": poolAfter(80n * SOL),
    "nearly-complete": poolAfter(84_900_000_000n),
  };
  const rateSets = {
    letsbonk: { protocolFeeRate: new BN(2500), platformFeeRate: new BN(10_000), creatorFeeRate: new BN(500), shareFeeRate: zero },
    "letsbonk/share": { protocolFeeRate: new BN(2500), platformFeeRate: new BN(10_000), creatorFeeRate: new BN(500), shareFeeRate: new BN(1000) },
    "no-creator": { protocolFeeRate: new BN(2500), platformFeeRate: new BN(10_000), creatorFeeRate: zero, shareFeeRate: zero },
  };
  const split = (f) => ({ protocol: str(f.protocolFee), platform: str(f.platformFee), creator: str(f.creatorFee), share: str(f.shareFee) });
  for (const [stateName, pool] of Object.entries(states)) {
    for (const [ratesName, rates] of Object.entries(rateSets)) {
      const name = `${stateName}/${ratesName}`;
      pools[name] = { virtualA: str(pool.virtualA), virtualB: str(pool.virtualB), realA: str(pool.realA), realB: str(pool.realB),
        totalSellA: str(pool.totalSellA), totalFundRaisingB: str(pool.totalFundRaisingB),
        protocolFeeRate: str(rates.protocolFeeRate), platformFeeRate: str(rates.platformFeeRate),
        creatorFeeRate: str(rates.creatorFeeRate), shareFeeRate: str(rates.shareFeeRate) };
      const common = { poolInfo: pool, ...rates, curveType: 0, transferFeeConfigA: undefined, transferFeeConfigB: undefined, slot: 0 };
      // The last buy sells out any of these curves: it pays for the rest
      // only.
      for (const spend of [SOL / 100n, SOL, 10n * SOL, 100n * SOL]) {
        const r = ray.Curve.buyExactIn({ ...common, amountB: new BN(spend.toString()) });
        cases.push({ name: `${name}/buy ${spend}`, pool: name, op: "buy", amount: String(spend),
          amountOut: str(r.amountA.amount), amountIn: str(r.amountB), fees: split(r.splitFee) });
      }
      const sold = BigInt(pool.realA.toString());
      for (const tokens of [1_000_000_000n, 10_000_000_000_000n, sold / 2n, sold]) {
        if (tokens === 0n || tokens > sold) continue;
        const r = ray.Curve.sellExactIn({ ...common, amountA: new BN(tokens.toString()) });
        cases.push({ name: `${name}/sell ${tokens}`, pool: name, op: "sell", amount: String(tokens),
          amountOut: str(r.amountB), fees: split(r.splitFee) });
      }
    }
  }
  writeQuotes(join(dirname(fileURLToPath(import.meta.url)), "quotes.json"),
    { sdk: SDK, version: VERSION, functions: "LaunchConstantProductCurve.getInitParam, Curve.buyExactIn, Curve.sellExactIn", pools }, ["pools"], cases);

  // -------------------------------------------------------------------------
  // transfer_fee.json: a pool whose base mint is a Token-2022 mint with a
  // transfer fee. Raydium.launchpad.buyToken and sellToken read the mint's
  // config with getTransferFeeConfig(unpackMint(...)) and pass it to the
  // curve functions, which take the fee with getTransferAmountFeeFromPre
  // (common/transfer.ts); the slippage bound is then taken from what is
  // left. The cases:
  //
  //   mints  mint accounts with a TransferFeeConfig (and one without),
  //          laid out with @solana/spl-token's layouts and read back with
  //          unpackMint and getTransferFeeConfig as the SDK reads them;
  //          accountLen is getAccountLen of the extensions a wallet's
  //          associated account of the mint carries.
  //   fee    getTransferAmountFeeFromPre's fee, beside spl-token's
  //          calculateEpochFee at the same epoch.
  //   buy    Curve.buyExactIn with the config: amountA, its transfer fee,
  //          the quote paid, and minMintAAmount as buyToken computes it
  //          (launchpad.ts) for each slippage.
  //   sell   Curve.sellExactIn with the config: the fee taken off amountA
  //          before the curve prices it, amountB, and minAmountB as
  //          sellToken computes it for each slippage.
  //
  // The SDK picks a config's fee schedule by floor(slot / 432000), the
  // epoch of a slot on mainnet; each case names its slot.
  const {
    TOKEN_2022_PROGRAM_ID, MintLayout, ACCOUNT_SIZE, AccountType, ExtensionType, TransferFeeConfigLayout,
    MetadataPointerLayout, getMintLen, getAccountLen, getAccountTypeOfMintType, getExtensionTypes, unpackMint,
    getTransferFeeConfig, calculateEpochFee,
  } = require("@solana/spl-token");
  const Decimal = require("decimal.js");
  const SLOTS_PER_EPOCH = 432_000;
  const U64_MAX = (1n << 64n) - 1n;
  const mintAccount = (extensions) => {
    const data = Buffer.alloc(getMintLen(extensions.map(([type]) => type)));
    MintLayout.encode({ mintAuthorityOption: 0, mintAuthority: PublicKey.default, supply: BigInt(supply.toString()), decimals: 6,
      isInitialized: true, freezeAuthorityOption: 0, freezeAuthority: PublicKey.default }, data);
    data[ACCOUNT_SIZE] = AccountType.Mint;
    let off = ACCOUNT_SIZE + 1;
    for (const [type, layout, value] of extensions) {
      data.writeUInt16LE(type, off);
      data.writeUInt16LE(layout.span, off + 2);
      layout.encode(value, data, off + 4);
      off += 4 + layout.span;
    }
    return data;
  };
  const feeConfig = (older, newer, { authority = key("fee-authority"), withdraw = PublicKey.default, withheld = 0n } = {}) => [
    ExtensionType.TransferFeeConfig, TransferFeeConfigLayout,
    { transferFeeConfigAuthority: authority, withdrawWithheldAuthority: withdraw, withheldAmount: withheld,
      olderTransferFee: older, newerTransferFee: newer }];
  const schedule = (epoch, bps, maximumFee) => ({ epoch: BigInt(epoch), transferFeeBasisPoints: bps, maximumFee: BigInt(maximumFee) });
  const pointer = [ExtensionType.MetadataPointer, MetadataPointerLayout, { authority: creator, metadataAddress: mintA }];
  const mintDefs = {
    // LaunchLab's initialize_with_token_2022 takes a rate and a maximum.
    "one-percent": [pointer, feeConfig(schedule(0, 100, U64_MAX), schedule(0, 100, U64_MAX), { withdraw: key("withdraw-authority") })],
    capped: [feeConfig(schedule(0, 500, 20_000_000_000), schedule(0, 500, 20_000_000_000), { authority: PublicKey.default, withheld: 123_456n })],
    // A new fee set in epoch 898 takes effect in epoch 900.
    changing: [feeConfig(schedule(0, 100, U64_MAX), schedule(900, 300, 5_000_000_000_000))],
    zero: [feeConfig(schedule(0, 0, 0), schedule(0, 0, 0))],
    "no-fee": [pointer],
  };
  const mints = {};
  const configs = {};
  for (const [name, extensions] of Object.entries(mintDefs)) {
    const data = mintAccount(extensions);
    const m = unpackMint(mintA, { data, owner: TOKEN_2022_PROGRAM_ID, lamports: 0, executable: false }, TOKEN_2022_PROGRAM_ID);
    const c = getTransferFeeConfig(m);
    const accountTypes = [...getExtensionTypes(m.tlvData).map(getAccountTypeOfMintType), ExtensionType.ImmutableOwner];
    const fee = (f) => ({ epoch: str(f.epoch), maximumFee: str(f.maximumFee), basisPoints: f.transferFeeBasisPoints });
    mints[name] = { data: data.toString("hex"), accountLen: getAccountLen(accountTypes.filter((t) => t !== ExtensionType.Uninitialized)),
      transferFeeConfig: c && { configAuthority: c.transferFeeConfigAuthority.toBase58(), withdrawWithheldAuthority: c.withdrawWithheldAuthority.toBase58(),
        withheldAmount: str(c.withheldAmount), older: fee(c.olderTransferFee), newer: fee(c.newerTransferFee) } };
    configs[name] = c ?? undefined;
  }

  const tfCases = [];
  const at = { "one-percent": [0], capped: [0], changing: [899 * SLOTS_PER_EPOCH + 431_999, 900 * SLOTS_PER_EPOCH, 1000 * SLOTS_PER_EPOCH], zero: [0] };
  for (const [mint, slots] of Object.entries(at)) {
    for (const slot of slots) {
      for (const amount of [0n, 1n, 99n, 10_000n, 1_000_001n, 10_000_000_000_000n, 793_100_000_000_000n, U64_MAX]) {
        const r = ray.getTransferAmountFeeFromPre(new BN(amount.toString()), configs[mint], slot);
        tfCases.push({ name: `fee/${mint}@${slot}/${amount}`, op: "fee", mint, slot, amount: String(amount), fee: str(r.fee),
          splFee: str(calculateEpochFee(configs[mint], BigInt(Math.floor(slot / SLOTS_PER_EPOCH)), amount)) });
      }
    }
  }
  const slippages = [50, 1000];
  const SLIPPAGE_UNIT = new BN(10000);
  // buyToken and sellToken: the bound is the amount times (1 - slippage),
  // the multiplier a float made a Decimal, rounded by toFixed(0).
  const bound = (amount, slippage) => {
    const multiplier = new Decimal(SLIPPAGE_UNIT.sub(new BN(slippage)).toNumber() / SLIPPAGE_UNIT.toNumber()).clampedTo(0, 1);
    return new BN(amount.mul(multiplier).toFixed(0)).toString();
  };
  const rates = rateSets.letsbonk;
  const tfPools = {};
  const usePool = (name) => {
    const pool = states[name];
    tfPools[name] = { virtualA: str(pool.virtualA), virtualB: str(pool.virtualB), realA: str(pool.realA), realB: str(pool.realB),
      totalSellA: str(pool.totalSellA), totalFundRaisingB: str(pool.totalFundRaisingB), protocolFeeRate: str(rates.protocolFeeRate),
      platformFeeRate: str(rates.platformFeeRate), creatorFeeRate: str(rates.creatorFeeRate), shareFeeRate: str(rates.shareFeeRate) };
    return pool;
  };
  const mintSlots = Object.entries(at).flatMap(([mint, slots]) => (mint === "changing" ? slots.slice(0, 2) : slots).map((slot) => [mint, slot]));
  for (const poolName of ["fresh", "10sol", "nearly-complete"]) {
    const pool = usePool(poolName);
    for (const [mint, slot] of mintSlots) {
      for (const spend of [SOL / 100n, SOL, 10n * SOL, 100n * SOL]) {
        const r = ray.Curve.buyExactIn({ poolInfo: pool, amountB: new BN(spend.toString()), ...rates, curveType: 0,
          transferFeeConfigA: configs[mint], transferFeeConfigB: undefined, slot });
        const decimalAmountA = new Decimal(r.amountA.amount.toString()).sub(r.amountA.fee?.toString() ?? 0);
        tfCases.push({ name: `buy/${poolName}/${mint}@${slot}/${spend}`, op: "buy", pool: poolName, mint, slot, amount: String(spend),
          amountOut: str(r.amountA.amount), transferFee: str(r.amountA.fee), amountIn: str(r.amountB),
          minAmountOut: Object.fromEntries(slippages.map((s) => [s, bound(decimalAmountA, s)])) });
      }
    }
  }
  for (const poolName of ["10sol", "mainnet-mid", "80sol"]) {
    const pool = usePool(poolName);
    const sold = BigInt(pool.realA.toString());
    for (const [mint, slot] of mintSlots) {
      for (const tokens of [1_000_000_000n, 10_000_000_000_000n, sold / 2n, sold]) {
        const r = ray.Curve.sellExactIn({ poolInfo: pool, amountA: new BN(tokens.toString()), ...rates, curveType: 0,
          transferFeeConfigA: configs[mint], transferFeeConfigB: undefined, slot });
        tfCases.push({ name: `sell/${poolName}/${mint}@${slot}/${tokens}`, op: "sell", pool: poolName, mint, slot, amount: String(tokens),
          transferFee: str(r.amountA.fee), amountOut: str(r.amountB),
          minAmountOut: Object.fromEntries(slippages.map((s) => [s, bound(new Decimal(r.amountB.toString()), s)])) });
      }
    }
  }
  writeQuotes(join(dirname(fileURLToPath(import.meta.url)), "transfer_fee.json"),
    { sdk: SDK, version: VERSION, functions: "unpackMint, getTransferFeeConfig, getTransferAmountFeeFromPre, Curve.buyExactIn, Curve.sellExactIn; buyToken and sellToken's bounds",
      slotsPerEpoch: SLOTS_PER_EPOCH, mints, pools: tfPools }, ["mints", "pools"], tfCases);
}

// writeQuotes writes header and cases as JSON: each of header's tables one
// entry a line, then the cases one a line.
function writeQuotes(path, header, tables, cases) {
  const rest = Object.fromEntries(Object.entries(header).filter(([k]) => !tables.includes(k)));
  const head = JSON.stringify(rest, null, 2).slice(0, -2);
  const blocks = tables.map((table) => {
    const entries = Object.entries(header[table]).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n");
    return `  ${JSON.stringify(table)}: {\n${entries}\n  },\n`;
  });
  const lines = cases.map((c) => "    " + JSON.stringify(c)).join(",\n");
  writeFileSync(path, `${head},\n${blocks.join("")}  "cases": [\n${lines}\n  ]\n}\n`);
}
