// What the venue packages' testdata/sdk/generate.mjs scripts share: the
// packages loaded from the folder the script runs in (where the pinned
// SDK is installed), the pinned version checked, fixed keys, and the
// fixture files that Load reads.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// fixtures returns, for the SDK package sdk pinned at version and the
// script at scriptURL (its import.meta.url):
//   require: loads a package from the current folder;
//   key(name): the public key of a fixed seed, the same on every run;
//   write(name, builder, inputs, ixs): writes <name>.json beside the
//   script with the instructions ixs the SDK's builder made from inputs.
export function fixtures(sdk, version, scriptURL) {
  const require = createRequire(pathToFileURL(join(process.cwd(), "/")).href);
  const installed = JSON.parse(readFileSync(join(process.cwd(), "node_modules", sdk, "package.json"), "utf8")).version;
  if (installed !== version) throw new Error(`${sdk} ${installed} installed, ${version} pinned`);
  const { Keypair, PublicKey } = require("@solana/web3.js");
  const BN = require("bn.js");

  const key = (name) =>
    Keypair.fromSeed(createHash("sha256").update(`sdk-golden/${name}`).digest()).publicKey;

  const ixJSON = (ix) => ({
    programId: ix.programId.toBase58(),
    accounts: ix.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })),
    data: Buffer.from(ix.data).toString("hex"),
  });

  const here = dirname(fileURLToPath(scriptURL));
  const write = (name, builder, inputs, ixs) => {
    const str = (v) => (v instanceof PublicKey ? v.toBase58() : BN.isBN(v) ? v.toString() : v);
    const out = { sdk, version, builder,
      inputs: Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, str(v)])), instructions: ixs.map(ixJSON) };
    writeFileSync(join(here, `${name}.json`), JSON.stringify(out, null, 2) + "\n");
  };
  return { require, key, write };
}
