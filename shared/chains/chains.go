// Package chains holds the parameters of the supported chains: their
// family, native asset and the quote assets a swap may spend, with their
// decimals.
package chains

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// Asset is a quote asset on one chain.
type Asset struct {
	Symbol   string
	Decimals int
	Native   bool
}

// Chain describes one chain.
type Chain struct {
	Name   string
	Family wire.Family
	// Native is the symbol of the chain's native asset.
	Native string
	// Assets are the quote assets, native first.
	Assets []Asset
	// NativeToken says that the native coin has an ERC-20 interface of its
	// own, showing the native balance in the native asset's decimals (arc's
	// USDC), through which it trades, and no wrapped token.
	NativeToken bool
}

// CheckNativeRoute checks how an EVM chain's configuration trades its
// native coin: through a wrapped native token (wrapped_native), or, on a
// chain whose native coin has an ERC-20 of its own, through that token
// (native_token), which such a chain needs and no other may have. The
// error names the key to set or clear.
func (c *Chain) CheckNativeRoute(wrapped, token bool) error {
	switch {
	case c.NativeToken && !token:
		return fmt.Errorf("native_token: empty; %s's native coin %s trades through its own ERC-20, whose address it needs", c.Name, c.Native)
	case !c.NativeToken && token:
		return fmt.Errorf("native_token: set on %s, whose native coin %s has no ERC-20 of its own: it trades through wrapped_native", c.Name, c.Native)
	case !c.NativeToken && !wrapped:
		return fmt.Errorf("wrapped_native: empty; %s's trades in its native coin %s go through its wrapped native token", c.Name, c.Native)
	}
	return nil
}

// WeiDecimals are the decimals of an EVM chain's native coin as the chain
// keeps it (wei), whatever its asset's decimals in amounts: 18 on every EVM
// chain, arc's USDC included.
const WeiDecimals = 18

// WeiPerUnit is how many wei one base unit of the native asset is: 1, or
// on a chain whose native coin trades through an ERC-20 of fewer decimals
// (arc's USDC, 6) 10^(18-6).
func (c *Chain) WeiPerUnit() *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(WeiDecimals-c.Assets[0].Decimals)), nil)
}

// The supported chains. Stable-coin decimals are those of the tokens the
// service trades against on each chain (BSC's pegged stables have 18).
var all = []Chain{
	{Name: wire.ChainSolana, Family: wire.FamilySol, Native: "SOL", Assets: []Asset{
		{"SOL", 9, true}, {"USDC", 6, false}, {"USD1", 6, false}}},
	{Name: wire.ChainEth, Family: wire.FamilyEVM, Native: "ETH", Assets: []Asset{
		{"ETH", 18, true}, {"USDC", 6, false}, {"USDT", 6, false}}},
	{Name: wire.ChainBsc, Family: wire.FamilyEVM, Native: "BNB", Assets: []Asset{
		{"BNB", 18, true}, {"USD1", 18, false}, {"USDC", 18, false}, {"USDT", 18, false}}},
	{Name: wire.ChainBase, Family: wire.FamilyEVM, Native: "ETH", Assets: []Asset{
		{"ETH", 18, true}, {"USDC", 6, false}}},
	{Name: wire.ChainRbh, Family: wire.FamilyEVM, Native: "ETH", Assets: []Asset{
		{"ETH", 18, true}, {"USDG", 6, false}}},
	// Arc's native coin is USDC: the chain keeps its balance in 18
	// decimals, and its ERC-20 interface (the token trades go through)
	// shows the same balance in USDC's 6, which are an amount's.
	{Name: wire.ChainArc, Family: wire.FamilyEVM, Native: "USDC", Assets: []Asset{
		{"USDC", 6, true}}, NativeToken: true},
}

var byName = func() map[string]*Chain {
	m := make(map[string]*Chain, len(all))
	for i := range all {
		m[all[i].Name] = &all[i]
	}
	return m
}()

// Get returns a chain by its lower-case name.
func Get(name string) (*Chain, bool) {
	c, ok := byName[name]
	return c, ok
}

// Lookup matches a chain name case-insensitively.
func Lookup(name string) (*Chain, bool) { return Get(strings.ToLower(name)) }

// OfFamily returns the chains of a family in a stable order.
func OfFamily(f wire.Family) []*Chain {
	var out []*Chain
	for i := range all {
		if all[i].Family == f {
			out = append(out, &all[i])
		}
	}
	return out
}

// Asset returns the chain's quote asset by symbol (case-insensitive); an
// empty symbol is the native asset.
func (c *Chain) Asset(symbol string) (Asset, bool) {
	if symbol == "" {
		return c.Assets[0], true
	}
	symbol = strings.ToUpper(symbol)
	for _, a := range c.Assets {
		if a.Symbol == symbol {
			return a, true
		}
	}
	return Asset{}, false
}

// Symbols lists the chain's quote asset symbols.
func (c *Chain) Symbols() []string {
	out := make([]string, len(c.Assets))
	for i, a := range c.Assets {
		out[i] = a.Symbol
	}
	return out
}

// FamilySymbols lists every quote asset symbol of a family, sorted.
func FamilySymbols(f wire.Family) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range OfFamily(f) {
		for _, a := range c.Assets {
			if !seen[a.Symbol] {
				seen[a.Symbol] = true
				out = append(out, a.Symbol)
			}
		}
	}
	sort.Strings(out)
	return out
}

// MaxDecimals is the largest number of decimals a symbol has on any chain
// of the family, or -1 when no chain of the family has it.
func MaxDecimals(f wire.Family, symbol string) int {
	max := -1
	for _, c := range OfFamily(f) {
		if a, ok := c.Asset(symbol); ok && a.Decimals > max {
			max = a.Decimals
		}
	}
	return max
}

// JitoTipAccounts are the tip accounts Jito publishes: a processor tip on
// Solana goes to one of them, and a bundle must pay one of them.
var JitoTipAccounts = []solana.PublicKey{
	solana.MustPublicKeyFromBase58("96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5"),
	solana.MustPublicKeyFromBase58("HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe"),
	solana.MustPublicKeyFromBase58("Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY"),
	solana.MustPublicKeyFromBase58("ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49"),
	solana.MustPublicKeyFromBase58("DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh"),
	solana.MustPublicKeyFromBase58("ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt"),
	solana.MustPublicKeyFromBase58("DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL"),
	solana.MustPublicKeyFromBase58("3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT"),
}

// BundleID is a block-engine relay's id of a bundle of transactions whose
// first signatures are sigs, in bundle order: the hex SHA-256 of the
// signatures in base58 joined by commas, as Jito's block engine derives it
// (derive_bundle_id). A bundle whose send was never answered is known by it
// all the same.
func BundleID(sigs []solana.Signature) string {
	text := make([]string, len(sigs))
	for i, s := range sigs {
		text[i] = s.String()
	}
	h := sha256.Sum256([]byte(strings.Join(text, ",")))
	return hex.EncodeToString(h[:])
}
