// Compiles the contracts in the parent folder with the pinned solc (see
// package.json) and writes <Name>.abi, <Name>.bin and, for contracts that are
// placed by state override rather than deployed, <Name>.runtime.bin.
// Run through `go generate ./shared/evm/contracts`.
'use strict';

const fs = require('fs');
const path = require('path');
const solc = require('solc');

const dir = path.resolve(__dirname, '..');
const contracts = ['ERC20', 'WrappedNative', 'Stable', 'TaxToken', 'TaxProbe'];
const runtime = ['TaxProbe'];

const sources = {};
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.sol')).sort()) {
  sources[f] = { content: fs.readFileSync(path.join(dir, f), 'utf8') };
}

const input = {
  language: 'Solidity',
  sources,
  settings: {
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
  },
};

const out = JSON.parse(solc.compile(JSON.stringify(input)));
let failed = false;
for (const e of out.errors || []) {
  console.error(e.formattedMessage);
  if (e.severity === 'error') failed = true;
}
if (failed) process.exit(1);

for (const name of contracts) {
  const c = out.contracts[`${name}.sol`] && out.contracts[`${name}.sol`][name];
  if (!c) {
    console.error(`contract ${name} not found in ${name}.sol`);
    process.exit(1);
  }
  fs.writeFileSync(path.join(dir, `${name}.abi`), JSON.stringify(c.abi) + '\n', { mode: 0o644 });
  if (c.evm.bytecode.object) {
    fs.writeFileSync(path.join(dir, `${name}.bin`), c.evm.bytecode.object + '\n', { mode: 0o644 });
  }
  if (runtime.includes(name)) {
    fs.writeFileSync(path.join(dir, `${name}.runtime.bin`), c.evm.deployedBytecode.object + '\n', { mode: 0o644 });
  }
}
console.log(`solc ${solc.version()}: compiled ${contracts.length} contracts (evm ${input.settings.evmVersion})`);
