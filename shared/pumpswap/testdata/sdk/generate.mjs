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
// beside this script. Besides the instruction fixtures it writes
// quotes.json (sdk_quotes_test.go): the amounts the SDK's own quote
// functions give for a set of pools, see the end of this script.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
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

// ---------------------------------------------------------------------------
// quotes.json: what the SDK's quote functions (buy.ts, sell.ts, fees.ts)
// give for fixed pools. The instruction fixtures above pin encodings; these
// pin amounts:
//
//   buy_base    buyBaseInput: the swap's quote cost and the total.
//   buy_quote   buyQuoteInput: the base a buy for a quote amount (fees
//               included) gets; buyBaseInput prices that base.
//   sell_base   sellBaseInput: the swap's quote out and the net; its
//               minQuote at 1% and 12.34% slippage.
//
// Each fee part is the same function's difference with the pool's rates
// (computeFeesBps) put one at a time in a GlobalConfig and no FeeConfig. A
// case the SDK refuses records its error.
//
// The FeeConfig is the live mainnet account the SDK's own tests decode
// (src/__tests__/feeConfigMainnetFixture.ts): SOL tiers by market cap,
// USDC tiers, no exotic schedule (so other quotes pay the flat fees). Pools:
// a pool right after migration, low, mid and high market caps, a supply
// below a billion (a mayhem pool's market cap uses a billion), negative and
// positive virtual quote reserves, USDC and USD1 quotes; canonical pump pools
// with and without a coin creator, a mayhem one, a pool someone else created
// (flat fees), one under GlobalConfig's rates alone and one with its own
// creator rate.
{
  const bn = (v) => new BN(v.toString());
  const str = (v) => (v instanceof PublicKey ? v.toBase58() : BN.isBN(v) || typeof v === "bigint" ? v.toString() : v);
  const fixture = readFileSync(join(process.cwd(), "node_modules", SDK, "src/__tests__/feeConfigMainnetFixture.ts"), "utf8");
  const feeConfigData = [...fixture.match(/MAINNET_FEE_CONFIG_DATA_BASE64 = \[([\s\S]*?)\]/)[1].matchAll(/"([^"]+)"/g)]
    .map((m) => m[1]).join("");
  const mainnetFeeConfig = sdk.decodeFeeConfig({ data: Buffer.from(feeConfigData, "base64") });
  const USDC = amm.USDC_MINT;
  const USD1 = new PublicKey("USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB");
  const SOL = 1_000_000_000n;
  const USD = 1_000_000n;
  const BILLION = 1_000_000_000_000_000n;
  const gc = { lpFeeBasisPoints: bn(20), protocolFeeBasisPoints: bn(5), coinCreatorFeeBasisPoints: bn(5), creatorFeeConfigurable: false };
  const only = (lp, protocol, creator) =>
    ({ lpFeeBasisPoints: bn(lp), protocolFeeBasisPoints: bn(protocol), coinCreatorFeeBasisPoints: bn(creator), creatorFeeConfigurable: false });

  const pools = {};
  const cases = [];
  const addPool = (name, { quoteMint = NATIVE_MINT, base, quote, virtual = 0n, supply = BILLION, canonical = true, coinCreator = creator,
    mayhem = false, feeConfig = mainnetFeeConfig, configurable = false, creatorFeeBps = 0 }) => {
    const poolCreator = canonical ? amm.pumpPoolAuthorityPda(mint) : key("pool-creator");
    const globalConfig = { ...gc, creatorFeeConfigurable: configurable };
    const common = { baseReserve: bn(base), quoteReserve: bn(quote), virtualQuoteReserves: bn(virtual), globalConfig,
      baseMintAccount: { supply }, baseMint: mint, coinCreator, creator: poolCreator, feeConfig, quoteMint, isMayhemMode: mayhem,
      creatorFeeBps: bn(creatorFeeBps) };
    const rates = amm.computeFeesBps({ globalConfig, feeConfig, creator: poolCreator, baseMintSupply: bn(supply), baseMint: mint,
      baseReserve: common.baseReserve, quoteReserve: common.quoteReserve.add(common.virtualQuoteReserves), quoteMint,
      isMayhemMode: mayhem, creatorFeeBps: common.creatorFeeBps });
    pools[name] = { quoteMint: str(quoteMint), baseReserve: String(base), quoteReserve: String(quote), virtualQuoteReserves: String(virtual),
      baseMintSupply: String(supply), creator: str(poolCreator), coinCreator: str(coinCreator), mayhem,
      feeConfig: feeConfig ? "mainnet" : "none", creatorFeeConfigurable: configurable, poolCreatorFeeBps: String(creatorFeeBps),
      lpFeeBps: str(rates.lpFeeBps), protocolFeeBps: str(rates.protocolFeeBps), creatorFeeBps: str(rates.creatorFeeBps) };
    // parts runs f (the SDK function) with each rate alone and returns the
    // difference it makes to what pick reads.
    const parts = (f, args, pick) => {
      const none = pick(f({ ...args, feeConfig: null, globalConfig: only(0, 0, 0) }));
      const part = (g) => pick(f({ ...args, feeConfig: null, globalConfig: g })).sub(none).abs();
      return { lpFee: part(only(rates.lpFeeBps, 0, 0)), protocolFee: part(only(0, rates.protocolFeeBps, 0)),
        creatorFee: part(only(0, 0, rates.creatorFeeBps)) };
    };
    const record = (c, run) => {
      try {
        Object.assign(c, run());
      } catch (e) {
        c.error = String(e.message ?? e);
      }
      cases.push(c);
    };
    const check = (ok, what) => { if (!ok) throw new Error(`${name}: ${what}`); };
    const strs = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, str(v)]));

    for (const b of [1_000_000_000n, 10_000_000_000_000n, 50_000_000_000_000n]) {
      record({ name: `${name}/buy_base ${b}`, pool: name, op: "buy_base", amount: String(b) }, () => {
        const args = { ...common, base: bn(b), slippage: 0 };
        const r = amm.buyBaseInput(args);
        const f = parts(amm.buyBaseInput, args, (x) => x.uiQuote);
        check(r.internalQuoteAmount.add(f.lpFee).add(f.protocolFee).add(f.creatorFee).eq(r.uiQuote), `buy_base ${b}: parts`);
        return strs({ baseOut: b, quoteIn: r.internalQuoteAmount, ...f, total: r.uiQuote });
      });
    }
    const spends = quoteMint.equals(NATIVE_MINT) ? [SOL / 100n, SOL, 20n * SOL] : [USD, 100n * USD, 5_000n * USD];
    for (const q of spends) {
      record({ name: `${name}/buy_quote ${q}`, pool: name, op: "buy_quote", amount: String(q) }, () => {
        const r = amm.buyQuoteInput({ ...common, quote: bn(q), slippage: 0 });
        const args = { ...common, base: r.base, slippage: 0 };
        const c = amm.buyBaseInput(args);
        const f = parts(amm.buyBaseInput, args, (x) => x.uiQuote);
        return strs({ baseOut: r.base, quoteIn: c.internalQuoteAmount, ...f, total: c.uiQuote });
      });
    }
    for (const b of [1_000_000_000n, 10_000_000_000_000n, 100_000_000_000_000n]) {
      record({ name: `${name}/sell_base ${b}`, pool: name, op: "sell_base", amount: String(b) }, () => {
        const args = { ...common, base: bn(b), slippage: 0 };
        const r = amm.sellBaseInput(args);
        const f = parts(amm.sellBaseInput, args, (x) => x.uiQuote);
        check(r.internalQuoteAmountOut.sub(f.lpFee).sub(f.protocolFee).sub(f.creatorFee).eq(r.uiQuote), `sell_base ${b}: parts`);
        const minQuote = {};
        for (const slippage of [1, 12.34]) minQuote[slippage] = str(amm.sellBaseInput({ ...args, slippage }).minQuote);
        return { ...strs({ quoteOut: r.internalQuoteAmountOut, ...f, net: r.uiQuote }), minQuote };
      });
    }
  };

  const reserves = {
    "sol/migrated": { base: 206_900_000_000_000n, quote: 84_990_359_679n },
    "sol/lowcap": { base: 900_000_000_000_000n, quote: 3n * SOL },
    "sol/midcap": { base: 100_000_000_000_000n, quote: 300n * SOL },
    "sol/highcap": { base: 20_000_000_000_000n, quote: 900n * SOL },
    "sol/burnt-supply": { base: 150_000_000_000_000n, quote: 120n * SOL, supply: 980_000_000_000_000n },
    "sol/negative-virtual": { base: 150_000_000_000_000n, quote: 120n * SOL, virtual: -35_000_000n },
    "sol/boosted": { base: 150_000_000_000_000n, quote: 120n * SOL, virtual: 20n * SOL },
    "usdc/migrated": { quoteMint: USDC, base: 206_900_000_000_000n, quote: 12_750n * USD },
    "usdc/highcap": { quoteMint: USDC, base: 30_000_000_000_000n, quote: 400_000n * USD },
    "usd1/migrated": { quoteMint: USD1, base: 206_900_000_000_000n, quote: 12_750n * USD },
  };
  for (const [name, r] of Object.entries(reserves)) {
    addPool(`${name}/creator`, r);
    addPool(`${name}/no-creator`, { ...r, coinCreator: PublicKey.default });
    addPool(`${name}/not-canonical`, { ...r, canonical: false });
  }
  addPool("sol/burnt-supply/creator/mayhem", { ...reserves["sol/burnt-supply"], mayhem: true });
  // 1.2 billion tokens: a higher market cap, but a mayhem pool's is on a
  // billion.
  addPool("sol/highcap/creator/supply-1.2B", { ...reserves["sol/highcap"], supply: 1_200_000_000_000_000n });
  addPool("sol/highcap/creator/supply-1.2B/mayhem", { ...reserves["sol/highcap"], mayhem: true, supply: 1_200_000_000_000_000n });
  addPool("sol/migrated/creator/global-config", { ...reserves["sol/migrated"], feeConfig: null });
  addPool("sol/midcap/creator/own-rate", { ...reserves["sol/midcap"], configurable: true, creatorFeeBps: 50 });

  const header = {
    sdk: SDK, version: VERSION, functions: "buyBaseInput, buyQuoteInput, sellBaseInput, computeFeesBps",
    globalConfig: { lpFeeBasisPoints: str(gc.lpFeeBasisPoints), protocolFeeBasisPoints: str(gc.protocolFeeBasisPoints),
      coinCreatorFeeBasisPoints: str(gc.coinCreatorFeeBasisPoints) },
    baseMint: str(mint), mainnetFeeConfig: feeConfigData, pools,
  };
  writeQuotes(join(dirname(fileURLToPath(import.meta.url)), "quotes.json"), header, "pools", cases);
}

// writeQuotes writes header and cases as JSON: header[table] one entry a
// line, then the cases one a line.
function writeQuotes(path, header, table, cases) {
  const { [table]: rows, ...rest } = header;
  const head = JSON.stringify(rest, null, 2).slice(0, -2);
  const entries = Object.entries(rows).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n");
  const lines = cases.map((c) => "    " + JSON.stringify(c)).join(",\n");
  writeFileSync(path, `${head},\n  ${JSON.stringify(table)}: {\n${entries}\n  },\n  "cases": [\n${lines}\n  ]\n}\n`);
}
