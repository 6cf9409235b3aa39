#!/bin/sh
# Extracts the official Uniswap artifacts from the pinned npm packages and
# regenerates the Go bindings. Run it through `go generate
# ./shared/evm/uniswap` from the repository root; it needs node, npm and
# access to the npm registry. `npm pack` only downloads a package's tarball:
# nothing is installed and no package script runs.
set -eu

tools=$(cd "$(dirname "$0")" && pwd)
dir=$(dirname "$tools")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each pinned package with the integrity the registry publishes for it
# (`npm view NAME@VERSION dist.integrity`). A tarball that does not hash to
# it stops the extraction, so a republished or tampered version cannot slip
# into the committed bytecode.
pinned='
@uniswap/v2-core 1.0.1 sha512-MtybtkUPSyysqLY2U210NBDeCHX+ltHt3oADGdjqoThZaFRDKwM6k1Nb3F0A3hk5hwuQvytFWhrWHOEq6nVJ8Q==
@uniswap/v2-periphery 1.1.0-beta.0 sha512-6dkwAMKza8nzqYiXEr2D86dgW3TTavUvCR0w2Tu33bAbM8Ah43LKAzH7oKKPRT5VJQaMi1jtkGs1E8JPor1n5g==
@uniswap/v3-core 1.0.1 sha512-7pVk4hEm00j9tc71Y9+ssYpO6ytkeI0y7WE9P6UcmNzhxPePwyAxImuhVsTqWK9YFvzgtvzJHi64pBl4jUzKMQ==
@uniswap/v3-periphery 1.4.4 sha512-S4+m+wh8HbWSO3DKk4LwUCPZJTpCugIsHrWR86m/OrUyvSqGDTXKFfc2sMuGXCZrD1ZqO3rhQsKgdWg3Hbb2Kw==
@uniswap/swap-router-contracts 1.3.1 sha512-mh/YNbwKb7Mut96VuEtL+Z5bRe0xVIbjjiryn+iMMrK2sFKhR4duk/86mEz0UO5gSx4pQIw9G5276P5heY/7Rg==
'

echo "$pinned" | while read -r name version integrity; do
	[ -n "$name" ] || continue
	tgz=$(cd "$work" && npm pack "$name@$version" --loglevel=error --silent)
	got=$(node -e 'const c = require("crypto"), fs = require("fs");
process.stdout.write("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"));' "$work/$tgz")
	if [ "$got" != "$integrity" ]; then
		echo "$name@$version: integrity $got, want $integrity" >&2
		exit 1
	fi
	# One folder per package, named like the package (@uniswap/v2-core ->
	# v2-core), for extract.js.
	pkg="$work/${name#@uniswap/}"
	mkdir -p "$pkg"
	tar -xzf "$work/$tgz" -C "$pkg" --strip-components=1
	echo "$name@$version: $integrity"
done

node "$tools/extract.js" "$work" "$dir"

# The byte ranges the official constructors write immutables into, which
# MatchesRuntime masks; derived by running the creation code in the EVM.
(cd "$dir" && go run ./tools/immutables .)

# abigen v1 bindings from the pinned tools module of shared/evm/contracts,
# one file per contract; interfaces get no bytecode (and no Deploy
# function).
abigen() { go -C "$dir/../contracts/tools" tool abigen "$@"; }
for c in UniswapV2Factory UniswapV2Pair UniswapV2Router02 WETH9 IERC20 \
	UniswapV3Factory UniswapV3Pool NonfungiblePositionManager SwapRouter02 QuoterV2; do
	lower=$(echo "$c" | tr 'A-Z' 'a-z')
	if [ -f "$dir/$c.bin" ]; then
		abigen --abi "$dir/$c.abi" --bin "$dir/$c.bin" --pkg uniswap --type "$c" --out "$dir/$lower.go"
	else
		abigen --abi "$dir/$c.abi" --pkg uniswap --type "$c" --out "$dir/$lower.go"
	fi
done
# abigen writes 0600; the bindings are committed like any source file.
chmod 644 "$dir"/*.go "$dir"/*.abi "$dir"/*.bin "$dir"/immutables.json
echo "artifacts and bindings written to $dir"
