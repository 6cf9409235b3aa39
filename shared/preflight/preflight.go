// Package preflight verifies, before the first order, that every chain the
// configuration serves looks as the service expects: on Solana the
// programs (executable, owned by the expected loader, their deploy slot),
// the venues' configuration accounts (owner, Anchor discriminator, size,
// layout), the Jito tip accounts, the quote mints and the SOL/USD pool, and
// each venue as the service's venue watcher checks it (its simulated trade
// included); on each EVM chain its chain id, the code of the Uniswap
// factories, routers and quoter against the official runtime code, and the
// decimals of the wrapped native token and the stables; and that the
// relays and the metadata upload endpoint answer.
//
// A Check reports one Line per item, with what it found, and never an
// endpoint's URL: endpoints are named ("solana rpc", "base relay"). Every
// call is bounded by a timeout, and a chain whose RPC does not answer
// reports that once and its items as not checked, so a check against
// unreachable endpoints ends within about one timeout.
//
// `tradeapi check` prints the lines. The workers' own checks while they run
// live in package venues; the Solana venues' lines run those same checks,
// so that a venue the watcher would pause fails here with its pause's
// reason. The EVM venues' checks are the contract items themselves.
package preflight

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Status is the verdict of one item.
type Status string

// The verdicts.
const (
	// Pass: the item is as the service expects.
	Pass Status = "PASS"
	// Fail: the item is not as expected, or could not be checked.
	Fail Status = "FAIL"
	// Skip: the configuration leaves the item out (an optional endpoint,
	// a contract the chain does not have); nothing relies on it.
	Skip Status = "SKIP"
)

// Line is the outcome of one item.
type Line struct {
	Status Status
	// Chain is the chain the item is on: solana, eth, bsc, ...
	Chain string
	// Item says what was checked: "program pump.fun", "rpc", "router".
	Item string
	// Addr is the address checked; empty for an endpoint.
	Addr string
	// Detail says what was found.
	Detail string
}

// String is the line as `tradeapi check` prints it:
//
//	PASS solana program pump.fun 6EF8... executable, owner BPFLoaderUpgradeab1e..., deployed at slot 123
func (l Line) String() string {
	parts := []string{string(l.Status), l.Chain, l.Item}
	if l.Addr != "" {
		parts = append(parts, l.Addr)
	}
	if l.Detail != "" {
		parts = append(parts, l.Detail)
	}
	return strings.Join(parts, " ")
}

// Passed reports whether no line failed (skipped items do not fail).
func Passed(lines []Line) bool {
	for _, l := range lines {
		if l.Status == Fail {
			return false
		}
	}
	return len(lines) > 0
}

// AllPassed reports whether every line passed: none failed and none was
// skipped (an item not checked is not known to hold).
func AllPassed(lines []Line) bool {
	for _, l := range lines {
		if l.Status != Pass {
			return false
		}
	}
	return len(lines) > 0
}

// Print writes the lines, one per line, and a summary.
func Print(w io.Writer, lines []Line) error {
	var pass, fail, skip int
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l.String()); err != nil {
			return err
		}
		switch l.Status {
		case Pass:
			pass++
		case Fail:
			fail++
		case Skip:
			skip++
		}
	}
	_, err := fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", pass, fail, skip)
	return err
}

// Options tune a Check.
type Options struct {
	// Timeout bounds every call to an endpoint (10s).
	Timeout time.Duration
}

// DefaultTimeout bounds each call when Options.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// chainCheck checks one chain.
type chainCheck interface {
	run(ctx context.Context) []Line
}

// Check is the check of every chain a configuration serves.
type Check struct {
	// first are lines of the configuration itself, before the chains'.
	first  []Line
	chains []chainCheck
}

// New builds the check of every chain cfg serves: a configured chain at its
// endpoints and addresses, a local chain (devnet.enabled, not configured)
// at the local chains' address with what the local chain deployed.
func New(cfg config.Config, opts Options) (*Check, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	served := cfg.ServedChains()
	if len(served) == 0 {
		return nil, cfg.RequireChains()
	}
	c := &Check{}
	if local, configured := cfg.MixedChains(); local != nil {
		keys := make([]string, len(local))
		for i, name := range local {
			keys[i] = config.ChainKey(name)
		}
		c.first = append(c.first, Line{Status: Fail, Chain: "devnet", Item: "local chains",
			Detail: fmt.Sprintf("the local chains, test doubles, serve %s beside the configured %s: their orders would trade on no public network; "+
				"set devnet.enabled: false, or %s", strings.Join(local, ", "), strings.Join(configured, ", "), strings.Join(keys, ", "))})
	}
	for _, name := range served {
		if name == wire.ChainSolana {
			c.chains = append(c.chains, newSolana(SolanaFromConfig(cfg), opts))
			continue
		}
		ch, err := EVMFromConfig(cfg, name)
		if err != nil {
			return nil, err
		}
		c.chains = append(c.chains, newEVM(ch, opts))
	}
	return c, nil
}

// Run checks every chain at once and returns the lines chain by chain, in
// the order of config.ServedChains: Solana first, then the EVM chains.
func (c *Check) Run(ctx context.Context) []Line {
	out := make([][]Line, len(c.chains))
	var wg sync.WaitGroup
	for i, ch := range c.chains {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = ch.run(ctx)
		}()
	}
	wg.Wait()
	lines := append([]Line(nil), c.first...)
	for _, l := range out {
		lines = append(lines, l...)
	}
	return lines
}

// lines collects the lines of one chain, taking every endpoint's URL out of
// what they say as a last line of defence.
type lines struct {
	chain     string
	endpoints []endpoint.Endpoint
	out       []Line
}

func (ls *lines) add(status Status, item, addr, format string, args ...any) {
	// What came from outside (an answer's text, an error) is scrubbed of
	// every endpoint's URL; the line's own wording, and the words it names
	// as the service's (said), are not: scrubbed whole, a check's advice
	// named "solana.[redacted]_upload_url".
	clean := make([]any, len(args))
	for i, a := range args {
		var text string
		switch v := a.(type) {
		case said:
			clean[i] = string(v)
			continue
		case string:
			text = v
		case error:
			text = v.Error()
		default:
			clean[i] = a
			continue
		}
		for _, ep := range ls.endpoints {
			text = ep.Scrub(text)
		}
		clean[i] = text
	}
	ls.out = append(ls.out, Line{Status: status, Chain: ls.chain, Item: item, Addr: addr, Detail: fmt.Sprintf(format, clean...)})
}

// said is a text of the service's own (a configuration key's name), which
// a line shows as it is.
type said string

func (ls *lines) pass(item, addr, format string, args ...any) {
	ls.add(Pass, item, addr, format, args...)
}

func (ls *lines) fail(item, addr, format string, args ...any) {
	ls.add(Fail, item, addr, format, args...)
}

func (ls *lines) skip(item, addr, format string, args ...any) {
	ls.add(Skip, item, addr, format, args...)
}

// calls bounds a chain check's calls to its RPC: each by the timeout, and
// every one after the first that took its whole timeout by nothing at all.
// An endpoint that answered the probe and then hangs (overloaded, or a
// proxy whose node went away) costs the check one timeout, not one per
// item: the calls after it are not made, and their items say so
// (stoppedReason).
type calls struct {
	timeout time.Duration
	stopped atomic.Bool
}

// bounded returns one call's context, under ctx, and its end, to be
// deferred: a call that ended with its whole timeout spent stops the
// calls after it; once stopped, the context is ended before it is used.
func (c *calls) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.stopped.Load() {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		return cctx, cancel
	}
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	return cctx, func() {
		if errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			c.stopped.Store(true)
		}
		cancel()
	}
}

// heavy is bounded's context of a call whose slowness says nothing of
// the endpoint's other answers (getProgramAccounts scans a whole program,
// which a healthy node may take longer than the timeout for): it is not
// made once the calls are stopped, and does not stop them.
func (c *calls) heavy(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.stopped.Load() {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		return cctx, cancel
	}
	return context.WithTimeout(ctx, c.timeout)
}

// stoppedReason is why a call was not made: one before it spent its whole
// timeout. A check's calls are cancelled by nothing else (an interrupted
// `tradeapi check` prints no line).
const stoppedReason = "not asked: the rpc stopped answering (a call before this one timed out)"

// reason says why a call failed without naming where the endpoint is: the
// endpoint's own account of it ("connection refused", "timeout", "HTTP 503
// Service Unavailable"), or the error made fit to be said.
func reason(ep endpoint.Endpoint, err error) string {
	if errors.Is(err, context.Canceled) {
		return stoppedReason
	}
	var ee *endpoint.Error
	if errors.As(err, &ee) {
		return ee.Reason
	}
	// A Solana node's refusal prints itself as a multi-line dump; one line
	// is what a check's item has.
	var rerr *jsonrpc.RPCError
	if errors.As(err, &rerr) {
		return fmt.Sprintf("refused, code %d: %s", rerr.Code, ep.Scrub(rerr.Message))
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timeout"
	}
	return ep.Clean(err).Error()
}
