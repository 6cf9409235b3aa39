package config

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/gagliardetto/solana-go"
	"github.com/goccy/go-yaml/ast"
)

// The keys whose values are addresses, as patterns of dotted keys: * is
// any one key, [] any list item. The Solana ones are every key of the
// PublicKey type; the EVM ones are strings, named by EVMChain.
var (
	solanaAddressKeys = keysOfType(reflect.TypeFor[Config](), "", reflect.TypeFor[solana.PublicKey]())
	evmAddressKeys    = evmChainAddressKeys()
	isSolanaAddress   = keyMatcher(solanaAddressKeys)
	isEVMAddress      = keyMatcher(evmAddressKeys)
)

// evmChainAddressKeys lists the address keys of every evm.chains entry.
func evmChainAddressKeys() []string {
	var out []string
	for _, f := range (&EVMChain{}).contracts() {
		out = append(out, "evm.chains.*."+f.key)
	}
	return append(out, "evm.chains.*.wrapped_native", "evm.chains.*.native_token", "evm.chains.*.tip_address", "evm.chains.*.quotes.*")
}

// keyMatcher compiles key patterns into one matcher of dotted keys.
func keyMatcher(patterns []string) *regexp.Regexp {
	alts := make([]string, len(patterns))
	for i, p := range patterns {
		q := regexp.QuoteMeta(p)
		q = strings.ReplaceAll(q, `\*`, `[^.\[]+`)
		alts[i] = strings.ReplaceAll(q, `\[\]`, `\[[0-9]+\]`)
	}
	return regexp.MustCompile(`^(?:` + strings.Join(alts, "|") + `)$`)
}

// checkAddresses reads every address of the file as written, before the
// document is decoded, so that a bad one is reported by its key (a decoder
// of the key's type sees only the value). An EVM address whose digits fit
// in 64 bits (0x000000000000000000000000000000000000dEaD) is a number to
// YAML unless quoted, and would arrive as its decimal digits ("57005"):
// such an address of either family is refused with the advice to quote
// it. The Solana addresses are checked for base58 here too; the EVM ones
// by EVM.Validate.
func checkAddresses(body ast.Node) error {
	var errs []error
	eachValue(body, "", func(key string, _ ast.MapKeyNode, v ast.Node) {
		sol := isSolanaAddress.MatchString(key)
		if !sol && !isEVMAddress.MatchString(key) {
			return
		}
		if a, ok := v.(*ast.AnchorNode); ok {
			v = a.Value
		}
		switch v := v.(type) {
		case *ast.IntegerNode, *ast.FloatNode:
			lit := v.GetToken().Value
			errs = append(errs, fmt.Errorf("%s: %s is read by YAML as a number; quote it: %q", key, lit, lit))
		case *ast.StringNode:
			if !sol || v.Value == "" {
				return
			}
			switch k, err := solana.PublicKeyFromBase58(v.Value); {
			case err != nil:
				errs = append(errs, fmt.Errorf("%s: %s is not a Solana address", key, shownAddress(v.Value, 44)))
			case k.IsZero():
				// It decodes as the key left empty: an optional key would
				// quietly fall back to its default, a tip account take
				// no tip.
				errs = append(errs, fmt.Errorf("%s: %s is the all-zero key (the System Program's id), no account to name here", key, v.Value))
			}
		}
	})
	return errors.Join(errs...)
}

// shownAddress quotes v for an error about an address that is not one,
// when it is no longer than an address (max characters): a longer value
// may be a private key pasted at the wrong key, or come from the
// environment, and is only measured.
func shownAddress(v string, max int) string {
	if len(v) > max {
		return fmt.Sprintf("a value of %d characters (not shown; an address has at most %d)", len(v), max)
	}
	return fmt.Sprintf("%q", v)
}

// keysOfType lists, as key patterns, the dotted keys of the settings of
// type want under t: a map's keys are *, a list's items [].
func keysOfType(t reflect.Type, prefix string, want reflect.Type) []string {
	return keysWhere(t, prefix, func(t reflect.Type) bool { return t == want })
}

// keysWhere lists, as key patterns, the dotted keys of the settings under
// t whose type is, as match says, one looked for.
func keysWhere(t reflect.Type, prefix string, match func(reflect.Type) bool) []string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case match(t):
		return []string{prefix}
	case t.Kind() == reflect.Map:
		return keysWhere(t.Elem(), joinKey(prefix, "*"), match)
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		return keysWhere(t.Elem(), prefix+"[]", match)
	case t.Kind() != reflect.Struct:
		return nil
	}
	var out []string
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		key := prefix
		if opts != "inline" {
			if name == "" {
				continue
			}
			key = joinKey(prefix, name)
		}
		out = append(out, keysWhere(f.Type, key, match)...)
	}
	return out
}
