#!/bin/sh
# Regenerates the contracts' ABI, bytecode and Go bindings. Run it through
# `go generate ./shared/evm/contracts` from the repository root; it needs
# node and npm (solc is pinned in package.json and package-lock.json) and
# builds abigen from the pinned tools module beside this script.
set -eu

tools=$(cd "$(dirname "$0")" && pwd)
dir=$(dirname "$tools")

cd "$tools"
npm ci --no-audit --no-fund --loglevel=error
node compile.js

# abigen v1 bindings, one file per contract; only deployable contracts get
# their bytecode (and a Deploy function).
for c in ERC20 WrappedNative Stable TaxToken TaxProbe; do
	lower=$(echo "$c" | tr 'A-Z' 'a-z')
	if [ -f "$dir/$c.bin" ]; then
		go tool abigen --abi "$dir/$c.abi" --bin "$dir/$c.bin" --pkg contracts --type "$c" --out "$dir/$lower.go"
	else
		go tool abigen --abi "$dir/$c.abi" --pkg contracts --type "$c" --out "$dir/$lower.go"
	fi
done
# abigen writes 0600; the bindings are committed like any source file.
chmod 644 "$dir"/*.go "$dir"/*.abi "$dir"/*.bin
echo "bindings written to $dir"
