// Package anchortest reads the instruction fixtures the venues' official
// TypeScript SDKs produce (each venue package's testdata/sdk/generate.mjs
// writes them) and compares the project's instructions with them, account
// by account and byte by byte. Tests only: it needs neither node nor the
// network.
package anchortest

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gagliardetto/solana-go"
)

// Fixture is what an SDK built for fixed inputs.
type Fixture struct {
	SDK          string         `json:"sdk"`     // npm package
	Version      string         `json:"version"` // its exact version
	Builder      string         `json:"builder"` // the SDK function that built Instructions
	Inputs       map[string]any `json:"inputs"`
	Instructions []Instruction  `json:"instructions"`

	t testing.TB
}

// Instruction is one instruction as the SDK built it.
type Instruction struct {
	ProgramID string    `json:"programId"`
	Accounts  []Account `json:"accounts"`
	Data      string    `json:"data"` // hex
}

// Account is one account meta of an Instruction.
type Account struct {
	Pubkey     string `json:"pubkey"`
	IsSigner   bool   `json:"isSigner"`
	IsWritable bool   `json:"isWritable"`
}

// Dir is where a venue package keeps its fixtures, beside the script that
// makes them (generate.mjs, with sdkfixture.mjs of this package).
const Dir = "testdata/sdk"

// Quotes reads the package's quotes.json in Dir into v: the amounts an
// SDK's own quote functions gave for a set of states (generate.mjs). A
// file of another SDK or version, or without cases, fails the test.
func Quotes(t testing.TB, sdk, version string, v any) {
	t.Helper()
	QuotesFile(t, "quotes.json", sdk, version, v)
}

// QuotesFile is Quotes of another file of amounts in Dir, name.
func QuotesFile(t testing.TB, name, sdk, version string, v any) {
	t.Helper()
	path := filepath.Join(Dir, name)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		SDK     string            `json:"sdk"`
		Version string            `json:"version"`
		Cases   []json.RawMessage `json:"cases"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if head.SDK != sdk || head.Version != version || len(head.Cases) == 0 {
		t.Fatalf("%s is of %s@%s with %d cases, want %s@%s", path, head.SDK, head.Version, len(head.Cases), sdk, version)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// Num parses a fixture's decimal u64.
func Num(t testing.TB, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("fixture number %q: %v", s, err)
	}
	return v
}

// SDK reads the package's fixture name, in Dir.
func SDK(t testing.TB, name string) *Fixture {
	t.Helper()
	return Load(t, filepath.Join(Dir, name+".json"))
}

// Load reads the fixture at path; a fixture that does not name its SDK and
// version fails the test, since it could not be regenerated.
func Load(t testing.TB, path string) *Fixture {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := &Fixture{t: t}
	if err := json.Unmarshal(b, f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if f.SDK == "" || f.Version == "" || len(f.Instructions) == 0 {
		t.Fatalf("%s: no SDK, version or instruction", path)
	}
	return f
}

func (f *Fixture) input(name string) any {
	f.t.Helper()
	v, ok := f.Inputs[name]
	if !ok {
		f.t.Fatalf("fixture has no input %q", name)
	}
	return v
}

// Key returns the input name, a base58 public key; null is the zero key.
func (f *Fixture) Key(name string) solana.PublicKey {
	f.t.Helper()
	v := f.input(name)
	if v == nil {
		return solana.PublicKey{}
	}
	s, _ := v.(string)
	k, err := solana.PublicKeyFromBase58(s)
	if err != nil {
		f.t.Fatalf("input %s: %v", name, err)
	}
	return k
}

// U64 returns the input name, written as a decimal string or a number.
func (f *Fixture) U64(name string) uint64 {
	f.t.Helper()
	switch v := f.input(name).(type) {
	case string:
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			f.t.Fatalf("input %s: %v", name, err)
		}
		return n
	case float64:
		return uint64(v)
	}
	f.t.Fatalf("input %s is not a number", name)
	return 0
}

// Str returns the input name, a string.
func (f *Fixture) Str(name string) string {
	f.t.Helper()
	s, ok := f.input(name).(string)
	if !ok {
		f.t.Fatalf("input %s is not a string", name)
	}
	return s
}

// Bool returns the input name, a boolean.
func (f *Fixture) Bool(name string) bool {
	f.t.Helper()
	b, ok := f.input(name).(bool)
	if !ok {
		f.t.Fatalf("input %s is not a boolean", name)
	}
	return b
}

// Of returns the fixture's instructions of program, in order: a venue's
// own instructions without the token-account and compute-budget ones the
// SDK puts around them.
func (f *Fixture) Of(program solana.PublicKey) []Instruction {
	var out []Instruction
	for _, ix := range f.Instructions {
		if ix.ProgramID == program.String() {
			out = append(out, ix)
		}
	}
	return out
}

// Compare reports every way got differs from want: program, each account
// (address, signer, writable) by position, and the data.
func Compare(t testing.TB, want Instruction, got solana.Instruction) {
	t.Helper()
	if p := got.ProgramID().String(); p != want.ProgramID {
		t.Errorf("program %s, SDK %s", p, want.ProgramID)
	}
	metas := got.Accounts()
	for i := range max(len(metas), len(want.Accounts)) {
		switch {
		case i >= len(metas):
			t.Errorf("account %d missing, SDK %+v", i, want.Accounts[i])
		case i >= len(want.Accounts):
			t.Errorf("account %d %s extra: the SDK has %d accounts", i, metas[i].PublicKey, len(want.Accounts))
		default:
			g := Account{metas[i].PublicKey.String(), metas[i].IsSigner, metas[i].IsWritable}
			if g != want.Accounts[i] {
				t.Errorf("account %d %+v, SDK %+v", i, g, want.Accounts[i])
			}
		}
	}
	data, err := got.Data()
	if err != nil {
		t.Fatal(err)
	}
	if h := hex.EncodeToString(data); h != want.Data {
		t.Errorf("data\n %s\nSDK\n %s", h, want.Data)
	}
}

// CompareAll compares got with want in order, and their counts.
func CompareAll(t testing.TB, want []Instruction, got []solana.Instruction) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d instructions, SDK %d", len(got), len(want))
	}
	for i := range want {
		Compare(t, want[i], got[i])
	}
}
