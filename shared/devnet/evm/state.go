package evm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradeapi/tradeapi/shared/atomicfile"
)

// A chain with ChainConfig.Dir keeps its state in that folder:
//
//	devnet-evm.json  what the folder holds (stateMarker), written once
//	geth/            go-ethereum's instance folder: chaindata (pebble),
//	                 its ancient store, the node database and the lock
//
// The marker is checked before go-ethereum opens anything, so that a folder
// of another chain, of another genesis or of a format this build cannot
// read is refused with an error naming the file instead of being opened,
// rewound or overwritten.
const (
	stateMarkerName = "devnet-evm.json"
	// stateFormat is the version of the folder's layout, of the way the
	// chain uses go-ethereum's database (hash-keyed state, every block's
	// state kept) and of the deployment the deployer's first transactions
	// make (plan). A change to any needs a new number, but for a
	// deployment that only gains transactions at its end on one chain,
	// which checkDeployed tells from an older one (arc's native token).
	// Version 2 runs the official Uniswap contracts where version 1 ran
	// the project's own exchange.
	stateFormat = 2
	// gethDirName is go-ethereum's instance folder (node.Config.Name).
	gethDirName = "geth"
)

// ErrStateDir is wrapped by the error of NewChain for a state folder that
// holds something else than this chain's state: files without a marker, a
// marker of another format version, chain or genesis, or a database
// go-ethereum refuses.
var ErrStateDir = errors.New("not a usable local evm chain folder")

// stateMarker is the content of devnet-evm.json.
type stateMarker struct {
	Format  int         `json:"format"`
	Chain   string      `json:"chain"`
	ChainID int64       `json:"chainId"`
	Genesis common.Hash `json:"genesis"`
	// NonceBase is the deployer's genesis nonce the chain was made with;
	// a marker written before chains had one has none: 0.
	NonceBase uint64 `json:"nonceBase,omitempty"`
}

// markedNonceBase returns the deployer's genesis nonce of the chain kept
// in dir, and false when dir holds no marker that tells (a new folder).
func markedNonceBase(dir string) (uint64, bool) {
	if dir == "" {
		return 0, false // a chain in memory
	}
	b, err := os.ReadFile(filepath.Join(dir, stateMarkerName))
	if err != nil {
		return 0, false
	}
	var m stateMarker
	if json.Unmarshal(b, &m) != nil {
		return 0, false
	}
	return m.NonceBase, true
}

// openStateDir checks that dir is this chain's state folder, creating the
// folder and its marker when it does not exist yet or is empty.
func openStateDir(dir string, want stateMarker) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create state folder %s: %w", dir, err)
	}
	path := filepath.Join(dir, stateMarkerName)
	removeStaleTemps(path)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createStateDir(dir, path, want)
	case err != nil:
		return fmt.Errorf("read %s: %w", path, err)
	}
	var got stateMarker
	if err := json.Unmarshal(b, &got); err != nil {
		return fmt.Errorf("%w: %s does not parse: %v", ErrStateDir, path, err)
	}
	if got.Format != stateFormat {
		return fmt.Errorf("%w: %s has format version %d, this build reads version %d; move %s away to start the chain fresh",
			ErrStateDir, path, got.Format, stateFormat, dir)
	}
	if got.Chain != want.Chain || got.ChainID != want.ChainID {
		return fmt.Errorf("%w: %s holds chain %s (id %d), not %s (id %d)",
			ErrStateDir, path, got.Chain, got.ChainID, want.Chain, want.ChainID)
	}
	if got.Genesis != want.Genesis {
		return fmt.Errorf("%w: %s was written for genesis %s, this build makes genesis %s "+
			"(the chain's rules or its genesis allocations changed); move %s away to start the chain fresh",
			ErrStateDir, path, got.Genesis, want.Genesis, dir)
	}
	return nil
}

// createStateDir writes the marker of a new state folder. A folder that
// already holds files without a marker is someone else's, and is left
// alone.
func createStateDir(dir, path string, m stateMarker) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read state folder %s: %w", dir, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("%w: %s has no %s but is not empty (%s, ...)", ErrStateDir, dir, stateMarkerName, entries[0].Name())
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := atomicfile.Write(path, append(b, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// removeStaleTemps deletes the temporary files a crash left next to path.
func removeStaleTemps(path string) {
	entries, _ := os.ReadDir(filepath.Dir(path))
	prefix := filepath.Base(path) + ".tmp-"
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			_ = os.Remove(filepath.Join(filepath.Dir(path), e.Name()))
		}
	}
}
