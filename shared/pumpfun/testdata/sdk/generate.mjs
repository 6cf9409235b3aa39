// Writes the pump.fun fixtures of sdk_golden_test.go: the instructions
// @pump-fun/pump-sdk builds for fixed inputs, offline (no RPC: the decoded
// state the builders take is made here by hand).
//
// Run it from a scratch folder holding the pinned packages, installed
// without their install scripts:
//
//   npm install --ignore-scripts @pump-fun/pump-sdk@2.0.0 \
//     @pump-fun/pump-swap-sdk@1.20.0 @solana/web3.js@1.99.0 \
//     @solana/spl-token@0.4.14 @coral-xyz/anchor@0.31.1 bn.js@5.2.5
//   node <repo>/shared/pumpfun/testdata/sdk/generate.mjs
//
// The packages load from the current folder; the fixtures are written
// beside this script. Besides the instruction fixtures it writes
// quotes.json (sdk_quotes_test.go): the amounts the SDK's own quote
// functions give for a set of curve states, see the end of this script.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fixtures } from "../../../anchor/anchortest/sdkfixture.mjs";

const SDK = "@pump-fun/pump-sdk";
const VERSION = "2.0.0";
const { require, key, write } = fixtures(SDK, VERSION, import.meta.url);
const pump = require(SDK);
const { PublicKey } = require("@solana/web3.js");
const { TOKEN_2022_PROGRAM_ID, getAssociatedTokenAddressSync } = require("@solana/spl-token");
const BN = require("bn.js");

// The builders pick fee recipients with Math.random; 0 picks the first of
// each list, so the fixtures do not change from run to run.
Math.random = () => 0;

const sdk = pump.PUMP_SDK;
const user = key("user");
const creator = key("creator");
const mint = key("mint");
// The first entries of the SDK's static lists, as Math.random picks them.
const feeRecipient = new PublicKey("62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV");
const buybackFeeRecipient = new PublicKey("5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD");
const tokenProgram = TOKEN_2022_PROGRAM_ID;
// The Global fields the builders read; getFeeRecipient picks feeRecipient.
const global = {
  feeRecipient, feeRecipients: Array(7).fill(feeRecipient),
  reservedFeeRecipient: key("reserved-fee-recipient"), reservedFeeRecipients: Array(7).fill(key("reserved-fee-recipient")),
  isHolderRewardEnabled: false, creatorFeeConfigurable: false, maxConfigurableCreatorFeeBps: new BN(0),
};

{
  const inputs = { user, mint, creator, feeRecipient, buybackFeeRecipient, tokenProgram,
    amount: new BN(1_234_567_890), solAmount: new BN(50_000_000) };
  write("buy", "PumpSdk.getBuyInstructionRaw", inputs, [await sdk.getBuyInstructionRaw(inputs)]);
}

// A buy by a wallet without a token account: its creation, then the buy
// with the SOL cost raised by the slippage (1%: floor(sol*10/1000)); and a
// sell with the SOL output lowered by it. A mayhem coin pays the reserved
// fee recipients.
for (const mayhemMode of [false, true]) {
  const suffix = mayhemMode ? "_mayhem" : "";
  const fee = mayhemMode ? global.reservedFeeRecipient : feeRecipient;
  const common = { user, mint, creator, feeRecipient: fee, buybackFeeRecipient, tokenProgram, mayhemMode, slippage: 1 };
  const bondingCurve = { creator, isMayhemMode: mayhemMode };
  const buy = { ...common, amount: new BN(1_234_567_890), solAmount: new BN(50_000_000) };
  write(`buy_instructions${suffix}`, "PumpSdk.buyInstructions", buy, await sdk.buyInstructions({ ...buy, global,
    bondingCurveAccountInfo: null, bondingCurve, associatedUserAccountInfo: null }));
  const sell = { ...common, amount: new BN(1_234_567_890), solAmount: new BN(30_000_000) };
  write(`sell_instructions${suffix}`, "PumpSdk.sellInstructions", sell, await sdk.sellInstructions({ ...sell, global,
    bondingCurveAccountInfo: null, bondingCurve }));
}

{
  // The SDK has no buy_exact_sol_in builder. This builds it with the SDK's
  // offline program (its pump.json) from exactly what getBuyInstructionRaw
  // passes to buy: the instruction takes the same accounts.
  const inputs = { user, mint, creator, feeRecipient, buybackFeeRecipient, tokenProgram,
    spendableSolIn: new BN(50_000_000), minTokensOut: new BN(1_000_000_000) };
  const program = pump.getPumpProgram(null);
  const ix = await program.methods
    .buyExactSolIn(inputs.spendableSolIn, inputs.minTokensOut, { 0: true })
    .accountsPartial({
      feeRecipient, mint, user, tokenProgram, creatorVault: pump.creatorVaultPda(creator),
      associatedUser: getAssociatedTokenAddressSync(mint, user, true, tokenProgram),
    })
    .remainingAccounts([
      { pubkey: pump.bondingCurveV2Pda(mint), isWritable: false, isSigner: false },
      { pubkey: buybackFeeRecipient, isWritable: true, isSigner: false },
    ])
    .instruction();
  write("buy_exact_sol_in", "getPumpProgram().methods.buyExactSolIn with the accounts of PumpSdk.getBuyInstructionRaw", inputs, [ix]);
}

for (const cashback of [false, true]) {
  const inputs = { user, mint, creator, feeRecipient, buybackFeeRecipient, tokenProgram, cashback,
    amount: new BN(1_234_567_890), solAmount: new BN(30_000_000) };
  write(cashback ? "sell_cashback" : "sell", "PumpSdk.getSellInstructionRaw", inputs, [await sdk.getSellInstructionRaw(inputs)]);
}

{
  // createV2AndBuyInstructions: create_v2, the buyer's Token-2022 account
  // (idempotent), then the creator's buy. slippage is fixed at 1% inside.
  const inputs = { mint, creator, user: creator, name: "Golden Coin", symbol: "GOLD",
    uri: "https://example.com/golden.json", mayhemMode: false, amount: new BN(35_000_000_000), solAmount: new BN(1_000_000_000),
    feeRecipient, buybackFeeRecipient };
  const ixs = await sdk.createV2AndBuyInstructions({ ...inputs, global });
  write("create_v2_and_buy", "PumpSdk.createV2AndBuyInstructions", inputs, ixs);
}

{
  const inputs = { mint, creator, user: creator, name: "Mayhem Coin", symbol: "MAYH",
    uri: "https://example.com/mayhem.json", mayhemMode: true };
  write("create_v2_mayhem", "PumpSdk.createV2Instruction", inputs, [await sdk.createV2Instruction(inputs)]);
}

{
  const inputs = { mint, creator, user: creator, name: "Legacy Coin", symbol: "LEG", uri: "https://example.com/legacy.json" };
  write("create", "PumpSdk.createInstruction", inputs, [await sdk.createInstruction(inputs)]);
}

{
  const inputs = { account: pump.bondingCurvePda(mint), user };
  write("extend_account", "PumpSdk.extendAccountInstruction", inputs, [await sdk.extendAccountInstruction(inputs)]);
}

// ---------------------------------------------------------------------------
// quotes.json: what the SDK's quote functions give for fixed curve states.
// The instruction fixtures above pin encodings; these pin amounts. Every
// expected amount comes from an SDK function (bondingCurve.ts, fees.ts):
//
//   buy (exact tokens)  getBuySolAmountFromTokenAmount: total; the same with
//                       all rates zero: the curve cost; getFee on that cost
//                       with the curve's creator and without it: the fee
//                       with and without the creator part.
//   sell                getSellSolAmountFromTokenAmount: net; with all rates
//                       zero: the SOL leaving the curve; fees as for a buy;
//                       and the min_sol_output sellInstructions sends for
//                       that net at 1% and 12.34% slippage.
//   buy_sol             getBuyTokenAmountFromSolAmount: the tokens a buy with
//                       max_sol_cost = spend asks for, and what
//                       getBuySolAmountFromTokenAmount charges for them.
//
// States are the Global's initial curve after one buy of `sold` tokens (the
// program moves the reserves by the curve cost, as the SDK prices it), in
// SOL, USDC (stable tiers) and another quote (exotic flat fees), with and
// without a creator, under Global's rates or a FeeConfig whose tiers the
// curve crosses as it fills, a mayhem coin (its market cap on the mint's
// supply) and a curve with its own creator rate.
{
  const bn = (v) => new BN(v.toString());
  const str = (v) => (v instanceof PublicKey ? v.toBase58() : BN.isBN(v) ? v.toString() : v);
  const SOL = 1_000_000_000n;
  const USD = 1_000_000n;
  const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
  const EXOTIC = key("exotic-quote-mint");
  const SUPPLY = bn(1_000_000_000_000_000n);
  // Global's curve and rates (the values the reference notes give).
  const vT0 = bn(1_073_000_000_000_000n), vSol0 = bn(30_000_000_000n), vUsd0 = bn(4_200_000_000n), realT0 = bn(793_100_000_000_000n);
  const qGlobal = { feeBasisPoints: bn(95), creatorFeeBasisPoints: bn(30), creatorFeeConfigurable: false, tokenTotalSupply: SUPPLY };
  const zeroGlobal = { ...qGlobal, feeBasisPoints: bn(0), creatorFeeBasisPoints: bn(0) };
  // A FeeConfig whose SOL tiers lie inside a curve's market caps (about 28
  // SOL fresh, 410 SOL at the end), the first above a fresh curve's.
  const fees = (lp, protocol, creator) => ({ lpFeeBps: bn(lp), protocolFeeBps: bn(protocol), creatorFeeBps: bn(creator) });
  const tier = (threshold, lp, protocol, creator) => ({ marketCapLamportsThreshold: bn(threshold), fees: fees(lp, protocol, creator) });
  const feeConfig = {
    admin: key("fee-config-admin"),
    flatFees: fees(0, 95, 30),
    feeTiers: [tier(30n * SOL, 0, 95, 30), tier(40n * SOL, 0, 93, 30), tier(100n * SOL, 0, 90, 25), tier(300n * SOL, 0, 85, 5)],
    stableFeeTiers: [tier(5_000n * USD, 0, 95, 30), tier(10_000n * USD, 0, 90, 25), tier(50_000n * USD, 0, 85, 5)],
    exoticFlatFees: fees(0, 100, 20),
  };

  const states = {};
  const cases = [];
  const addState = async (name, { sold, quoteMint = PublicKey.default, vQ0 = vSol0, creator = true, fc = feeConfig, mayhem = false,
    mintSupply = SUPPLY, creatorFeeBps = 0, configurable = false }) => {
    const qg = { ...qGlobal, creatorFeeConfigurable: configurable };
    const fresh = { virtualTokenReserves: vT0, virtualQuoteReserves: vQ0, realTokenReserves: realT0, realQuoteReserves: bn(0),
      tokenTotalSupply: SUPPLY, complete: false, creator: creator ? key("creator") : PublicKey.default, isMayhemMode: mayhem,
      isCashbackCoin: false, quoteMint, creatorFeeBps: bn(creatorFeeBps), canEditCreatorFee: false, isHolderReward: false };
    const cost = sold === 0n ? bn(0)
      : pump.getBuySolAmountFromTokenAmount({ global: zeroGlobal, feeConfig: null, mintSupply, bondingCurve: fresh, amount: bn(sold), quoteMint });
    const curve = { ...fresh, virtualTokenReserves: vT0.sub(bn(sold)), virtualQuoteReserves: vQ0.add(cost),
      realTokenReserves: realT0.sub(bn(sold)), realQuoteReserves: cost };
    // The rates getFee charges: the market cap on the mint's supply for a
    // mayhem coin, on a billion tokens otherwise.
    const rates = pump.computeFeesBps({ global: qg, feeConfig: fc, mintSupply: mayhem ? mintSupply : SUPPLY,
      virtualQuoteReserves: curve.virtualQuoteReserves, virtualTokenReserves: curve.virtualTokenReserves,
      quoteMint, creatorFeeBps: curve.creatorFeeBps });
    states[name] = {
      fees: fc ? "feeConfig" : "global", quoteMint: str(quoteMint), creator: str(curve.creator), mayhem, mintSupply: str(mintSupply),
      creatorFeeConfigurable: configurable, curveCreatorFeeBps: String(creatorFeeBps),
      virtualTokenReserves: str(curve.virtualTokenReserves), virtualQuoteReserves: str(curve.virtualQuoteReserves),
      realTokenReserves: str(curve.realTokenReserves), realQuoteReserves: str(curve.realQuoteReserves),
      protocolFeeBps: str(rates.protocolFeeBps), creatorFeeBps: str(rates.creatorFeeBps),
    };
    const ctx = { global: qg, feeConfig: fc, mintSupply, bondingCurve: curve };
    const zero = { ...ctx, global: zeroGlobal, feeConfig: null };
    const feesOn = (amount) => {
      const all = pump.getFee({ ...ctx, amount, isNewBondingCurve: false });
      const protocol = pump.getFee({ ...ctx, bondingCurve: { ...curve, creator: PublicKey.default }, amount, isNewBondingCurve: false });
      return { protocol, creator: all.sub(protocol) };
    };
    const check = (ok, what) => { if (!ok) throw new Error(`${name}: ${what}`); };
    const left = BigInt(curve.realTokenReserves.toString());

    // Buys of exact token amounts, the last past the curve's end by a
    // million tokens (the SDK and the program cap it at the real token
    // reserves); larger amounts than that one are left out.
    for (const tokens of [1_000_000n, 35_000_000_000_000n, 100_000_000_000_000n, left + 1_000_000_000_000n]) {
      if (tokens > left + 1_000_000_000_000n) continue;
      const amount = bn(tokens);
      const total = pump.getBuySolAmountFromTokenAmount({ ...ctx, amount, quoteMint });
      const cost = pump.getBuySolAmountFromTokenAmount({ ...zero, amount, quoteMint });
      const f = feesOn(cost);
      check(cost.add(f.protocol).add(f.creator).eq(total), `buy ${tokens}: parts do not add up`);
      cases.push({ name: `${name}/buy ${tokens}`, state: name, op: "buy", amount: str(amount),
        tokensOut: str(BN.min(amount, curve.realTokenReserves)), solCost: str(cost), protocolFee: str(f.protocol),
        creatorFee: str(f.creator), total: str(total) });
    }
    // Buys for a SOL (or quote) amount, fees included; the largest buys the
    // rest of any curve.
    const unit = quoteMint.equals(USDC) ? 140n * USD : SOL;
    for (const spend of [unit / 100n, unit, 10n * unit, 100n * unit]) {
      const amount = bn(spend);
      const tokens = pump.getBuyTokenAmountFromSolAmount({ ...ctx, amount, quoteMint });
      const cost = pump.getBuySolAmountFromTokenAmount({ ...ctx, amount: tokens, quoteMint });
      cases.push({ name: `${name}/buy_sol ${spend}`, state: name, op: "buy_sol", amount: str(amount),
        sdkTokens: str(tokens), sdkTokensCost: str(cost) });
    }
    // Sales of tokens the curve sold, up to all of them.
    for (const tokens of [1_000_000n, 35_000_000_000_000n, sold / 2n, sold]) {
      if (tokens === 0n || tokens > sold) continue;
      const amount = bn(tokens);
      const net = pump.getSellSolAmountFromTokenAmount({ ...ctx, amount });
      const out = pump.getSellSolAmountFromTokenAmount({ ...zero, amount });
      const f = feesOn(out);
      check(out.sub(f.protocol).sub(f.creator).eq(net), `sell ${tokens}: parts do not add up`);
      const minSolOutput = {};
      for (const slippage of [1, 12.34]) {
        const [ix] = await sdk.sellInstructions({ global, bondingCurveAccountInfo: null, bondingCurve: curve, mint, user,
          amount, solAmount: net, slippage, tokenProgram: TOKEN_2022_PROGRAM_ID, mayhemMode: mayhem });
        minSolOutput[slippage] = Buffer.from(ix.data).readBigUInt64LE(16).toString();
      }
      cases.push({ name: `${name}/sell ${tokens}`, state: name, op: "sell", amount: str(amount),
        solOut: str(out), protocolFee: str(f.protocol), creatorFee: str(f.creator), net: str(net), minSolOutput });
    }
  };

  const filled = [["fresh", 0n], ["quarter", 200_000_000_000_000n], ["half", 396_550_000_000_000n],
    ["late", 700_000_000_000_000n], ["nearly-complete", 792_100_000_000_000n], ["last-1000", 793_099_000_000_000n]];
  for (const [fcName, fc] of [["feeConfig", feeConfig], ["global", null]]) {
    for (const [state, sold] of filled) {
      for (const creator of [true, false]) {
        await addState(`sol/${fcName}/${state}/${creator ? "creator" : "no-creator"}`, { sold, fc, creator });
      }
    }
  }
  for (const [state, sold] of [["fresh", 0n], ["half", 396_550_000_000_000n], ["late", 700_000_000_000_000n],
    ["nearly-complete", 792_100_000_000_000n]]) {
    for (const creator of [true, false]) {
      await addState(`usdc/feeConfig/${state}/${creator ? "creator" : "no-creator"}`, { sold, quoteMint: USDC, vQ0: vUsd0, creator });
    }
  }
  await addState("exotic/feeConfig/half/creator", { sold: 396_550_000_000_000n, quoteMint: EXOTIC, vQ0: vUsd0 });
  // A mayhem coin's market cap is on its mint's supply: two billion tokens
  // put the half-full curve in a higher tier than a billion would.
  await addState("sol/feeConfig/half/creator/mayhem", { sold: 396_550_000_000_000n, mayhem: true, mintSupply: bn(2_000_000_000_000_000n) });
  await addState("sol/feeConfig/late/creator/mayhem", { sold: 700_000_000_000_000n, mayhem: true, mintSupply: bn(2_000_000_000_000_000n) });
  // A curve with its own creator rate, which Global lets replace the tier's.
  await addState("sol/feeConfig/half/creator/own-rate", { sold: 396_550_000_000_000n, creatorFeeBps: 50, configurable: true });

  const flat = (f) => ({ lpFeeBps: str(f.lpFeeBps), protocolFeeBps: str(f.protocolFeeBps), creatorFeeBps: str(f.creatorFeeBps) });
  const tiers = (ts) => ts.map((t) => ({ marketCapLamportsThreshold: str(t.marketCapLamportsThreshold), ...flat(t.fees) }));
  const header = {
    sdk: SDK, version: VERSION,
    functions: "getBuySolAmountFromTokenAmount, getSellSolAmountFromTokenAmount, getBuyTokenAmountFromSolAmount, getFee, computeFeesBps",
    global: { feeBasisPoints: str(qGlobal.feeBasisPoints), creatorFeeBasisPoints: str(qGlobal.creatorFeeBasisPoints) },
    feeConfig: { flatFees: flat(feeConfig.flatFees), feeTiers: tiers(feeConfig.feeTiers), stableFeeTiers: tiers(feeConfig.stableFeeTiers),
      exoticFlatFees: flat(feeConfig.exoticFlatFees) },
    states,
  };
  writeQuotes(join(dirname(fileURLToPath(import.meta.url)), "quotes.json"), header, cases);
}

// writeQuotes writes header and cases as JSON: header.states one state a
// line, then the cases one a line.
function writeQuotes(path, header, cases) {
  const { states, ...rest } = header;
  const head = JSON.stringify(rest, null, 2).slice(0, -2);
  const entries = Object.entries(states).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n");
  const lines = cases.map((c) => "    " + JSON.stringify(c)).join(",\n");
  writeFileSync(path, `${head},\n  "states": {\n${entries}\n  },\n  "cases": [\n${lines}\n  ]\n}\n`);
}
