package venues

import (
	"context"
	"errors"
)

// Checker checks the venues of one chain against what the service builds
// for them. The Solana programs' checker is Solana; an EVM chain's is EVM,
// which compares the Uniswap routers, factories and quoter with the
// official runtime code.
type Checker interface {
	// Chain is the chain the venues are on.
	Chain() string
	// Venues are the venues checked.
	Venues() []string
	// Fingerprints returns, per venue, a cheap summary of what its checks
	// depend on (a program's deploy slot, a contract's code hash): when it
	// changes, the venue is checked again at once. It is called every
	// poll, so it costs one small read of the chain.
	Fingerprints(ctx context.Context) (Fingerprints, error)
	// Check runs every check of one venue. An error means the checks could
	// not tell (the chain did not answer, the simulation's payer has no
	// funds): the venue keeps its state and is checked again soon.
	Check(ctx context.Context, venue string) (Verdict, error)
}

// Fingerprints is what Checker.Fingerprints read.
type Fingerprints struct {
	// Height is the chain's slot or block the read saw.
	Height uint64
	// Of maps each venue to its fingerprint.
	Of map[string]string
}

// Verdict is the outcome of one venue's checks.
type Verdict struct {
	// OK is true when the venue accepts what the service builds.
	OK bool
	// Reason says, when not OK, what changed and what the venue refuses.
	Reason string
	// Fingerprint is the venue's fingerprint the checks ran against.
	Fingerprint string
	// Height is the chain's slot or block the checks read.
	Height uint64
	// Unsimulated says, when the venue's tiny trade was not simulated,
	// why (the configuration names nothing to trade on): the verdict then
	// rests on the deploy and the layouts alone, and an upgrade that keeps
	// both but breaks the trades would not pause the venue.
	Unsimulated string
	// AnotherChain: the RPC serves another chain or cluster than the
	// configured one. Its heights are that chain's, which a stored state's
	// cannot be compared with: the verdict is recorded whatever height the
	// stored state names.
	AnotherChain bool
}

// ErrUnknownVenue is returned for a venue a checker does not check.
var ErrUnknownVenue = errors.New("venues: unknown venue")
