// Command immutables completes immutables.json in the folder given as its
// argument: for every contract with creation code it derives the byte
// ranges the official constructor writes immutables into, by running the
// creation code in the EVM, and checks them against the immutable
// references solc recorded where the artifact kept them. Run by
// extract.sh after extract.js.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/evm/uniswap/internal/immutables"
)

// entry is one contract in immutables.json: its ranges as [start, length]
// pairs and where they come from, "solc" (the compiler's
// immutableReferences, confirmed by the trace) or "trace".
type entry struct {
	From   string   `json:"from"`
	Ranges [][2]int `json:"ranges"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: immutables <folder of the artifacts>")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "immutables:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	file := filepath.Join(dir, "immutables.json")
	raw, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	entries := map[string]entry{}
	if err := json.Unmarshal(raw, &entries); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	arts, err := load(dir)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(arts))
	for name := range arts {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		ranges, err := immutables.Derive(name, arts)
		if err != nil {
			return err
		}
		pairs := make([][2]int, 0, len(ranges))
		for _, r := range ranges {
			pairs = append(pairs, [2]int{r.Start, r.Length})
		}
		if solc, ok := entries[name]; ok {
			if !slices.Equal(solc.Ranges, pairs) {
				return fmt.Errorf("%s: the traced immutables %v differ from solc's %v", name, pairs, solc.Ranges)
			}
			continue
		}
		entries[name] = entry{From: "trace", Ranges: pairs}
	}
	// One contract per line, in name order, for readable diffs.
	var out strings.Builder
	out.WriteString("{\n")
	for i, name := range names {
		line, err := json.Marshal(entries[name])
		if err != nil {
			return err
		}
		sep := ","
		if i == len(names)-1 {
			sep = ""
		}
		fmt.Fprintf(&out, "\t%q: %s%s\n", name, line, sep)
	}
	out.WriteString("}\n")
	if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
		return err
	}
	for _, name := range names {
		fmt.Printf("%s: %d immutable references (%s)\n", name, len(entries[name].Ranges), entries[name].From)
	}
	return nil
}

// load reads every <Name>.bin of dir with its .abi and .runtime.bin.
func load(dir string) (map[string]immutables.Artifact, error) {
	bins, err := filepath.Glob(filepath.Join(dir, "*.bin"))
	if err != nil {
		return nil, err
	}
	arts := map[string]immutables.Artifact{}
	for _, bin := range bins {
		if strings.HasSuffix(bin, ".runtime.bin") {
			continue
		}
		base := strings.TrimSuffix(bin, ".bin")
		name := filepath.Base(base)
		creation, err := readHex(bin)
		if err != nil {
			return nil, err
		}
		code, err := readHex(base + ".runtime.bin")
		if err != nil {
			return nil, err
		}
		f, err := os.Open(base + ".abi")
		if err != nil {
			return nil, err
		}
		parsed, err := abi.JSON(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s.abi: %w", name, err)
		}
		arts[name] = immutables.Artifact{ABI: parsed, Creation: creation, Runtime: code}
	}
	return arts, nil
}

func readHex(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return common.FromHex(strings.TrimSpace(string(raw))), nil
}
