package evm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"

	"golang.org/x/sync/errgroup"
)

// Config configures a set of local chains.
type Config struct {
	// Names are the chains to run; empty runs all five (Names()).
	Names []string
	// Chain is the configuration every chain gets; its Name and Dir are
	// ignored.
	Chain ChainConfig
	// Dir keeps each chain in its own folder under it, named after the
	// chain (Dir/eth, Dir/bsc, ...), so that New on the same Dir reopens
	// the chains as they were. Empty keeps them in memory.
	Dir string
}

// Chains is a set of local chains, one per name.
type Chains struct {
	chains map[string]*Chain
	names  []string
}

// New starts the configured chains in parallel. Close releases them.
func New(cfg Config) (*Chains, error) {
	names := cfg.Names
	if len(names) == 0 {
		names = Names()
	}
	cs := &Chains{chains: make(map[string]*Chain, len(names))}
	started := make([]*Chain, len(names))
	var g errgroup.Group
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			return nil, fmt.Errorf("local evm chain %q configured twice", name)
		}
		if _, err := specOf(name); err != nil {
			return nil, err
		}
		g.Go(func() error {
			cc := cfg.Chain
			cc.Name = name
			cc.Dir = ""
			if cfg.Dir != "" {
				cc.Dir = filepath.Join(cfg.Dir, name)
			}
			c, err := NewChain(cc)
			started[i] = c
			return err
		})
	}
	err := g.Wait()
	for i, c := range started {
		if c != nil {
			cs.chains[names[i]] = c
			cs.names = append(cs.names, names[i])
		}
	}
	if err != nil {
		return nil, errors.Join(err, cs.Close())
	}
	return cs, nil
}

// Chain returns a chain by name.
func (cs *Chains) Chain(name string) (*Chain, bool) {
	c, ok := cs.chains[name]
	return c, ok
}

// Names lists the running chains in the configured order.
func (cs *Chains) Names() []string { return append([]string(nil), cs.names...) }

// Handler serves every chain's JSON-RPC at /evm/<chain> and its private
// relay at /evm/<chain>/relay; mount it on a server's mux at "/evm/".
func (cs *Chains) Handler() http.Handler {
	mux := http.NewServeMux()
	for name, c := range cs.chains {
		mux.Handle("/evm/"+name, c.Handler())
		mux.Handle("/evm/"+name+"/relay", c.RelayHandler())
	}
	return mux
}

// Close stops every chain.
func (cs *Chains) Close() error {
	var errs []error
	for _, c := range cs.chains {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// Run blocks until ctx ends, then closes every chain.
func (cs *Chains) Run(ctx context.Context) error {
	<-ctx.Done()
	return cs.Close()
}
