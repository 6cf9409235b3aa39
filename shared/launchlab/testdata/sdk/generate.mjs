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
// beside this script.
//
// Raydium.launchpad's own methods read the chain; this calls the
// instruction builders they end in (instrument.ts) with the addresses
// those methods derive (pda.ts), as createLaunchpad and buyToken pass
// them. The SDK is GPL-3.0: it only produces these fixtures and nothing of
// it is part of the project.
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
