// Writes <Name>.abi, <Name>.bin and <Name>.runtime.bin for each official
// contract from the npm packages that extract.sh unpacked, byte for byte as
// the packages ship them, and immutables.json with the immutable references
// the compiler recorded (the rest are derived by tools/immutables).
// Usage: node extract.js <unpacked packages> <output folder>
'use strict';

const fs = require('fs');
const path = require('path');

const [src, out] = process.argv.slice(2);
if (!src || !out) {
  console.error('usage: node extract.js <unpacked packages> <output folder>');
  process.exit(2);
}

// Name -> artifact inside the unpacked packages. The v2 packages ship
// Waffle builds (solc standard JSON per contract), the v3 packages Hardhat
// artifacts.
const artifacts = {
  UniswapV2Factory: 'v2-core/build/UniswapV2Factory.json',
  UniswapV2Pair: 'v2-core/build/UniswapV2Pair.json',
  IERC20: 'v2-core/build/IERC20.json',
  UniswapV2Router02: 'v2-periphery/build/UniswapV2Router02.json',
  WETH9: 'v2-periphery/build/WETH9.json',
  UniswapV3Factory: 'v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  UniswapV3Pool: 'v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json',
  NonfungiblePositionManager:
    'v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  SwapRouter02: 'swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
  QuoterV2: 'swap-router-contracts/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
};

function hex(s) {
  return (s || '').replace(/^0x/, '').toLowerCase();
}

function fail(msg) {
  console.error(msg);
  process.exit(1);
}

const immutables = {};
for (const [name, rel] of Object.entries(artifacts)) {
  const a = JSON.parse(fs.readFileSync(path.join(src, rel), 'utf8'));
  const evm = a.evm || {};
  const bin = hex(evm.bytecode ? evm.bytecode.object : a.bytecode);
  const runtime = hex(evm.deployedBytecode ? evm.deployedBytecode.object : a.deployedBytecode);
  if (a.bytecode !== undefined && evm.bytecode && hex(a.bytecode) !== bin) {
    fail(`${name}: bytecode and evm.bytecode.object differ`);
  }
  // Unlinked library references would leave __$...$__ placeholders; the
  // contracts used here need no linking.
  for (const refs of [a.linkReferences, a.deployedLinkReferences,
    evm.bytecode && evm.bytecode.linkReferences, evm.deployedBytecode && evm.deployedBytecode.linkReferences]) {
    if (refs && Object.keys(refs).length > 0) fail(`${name}: needs library linking`);
  }
  if (!/^[0-9a-f]*$/.test(bin) || !/^[0-9a-f]*$/.test(runtime)) fail(`${name}: bytecode is not plain hex`);

  fs.writeFileSync(path.join(out, `${name}.abi`), JSON.stringify(a.abi) + '\n', { mode: 0o644 });
  if (bin) {
    if (!runtime) fail(`${name}: creation code without runtime code`);
    fs.writeFileSync(path.join(out, `${name}.bin`), bin + '\n', { mode: 0o644 });
    fs.writeFileSync(path.join(out, `${name}.runtime.bin`), runtime + '\n', { mode: 0o644 });
    console.log(`${name}: creation ${bin.length / 2} bytes, runtime ${runtime.length / 2} bytes`);
  } else {
    console.log(`${name}: interface (abi only)`);
  }
  const refs = evm.deployedBytecode && evm.deployedBytecode.immutableReferences;
  if (refs) {
    const ranges = [];
    for (const list of Object.values(refs)) {
      for (const r of list) ranges.push([r.start, r.length]);
    }
    ranges.sort((x, y) => x[0] - y[0]);
    immutables[name] = { from: 'solc', ranges };
  }
}
fs.writeFileSync(path.join(out, 'immutables.json'), JSON.stringify(immutables) + '\n', { mode: 0o644 });
