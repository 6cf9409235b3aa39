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
// beside this script.
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
