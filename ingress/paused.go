package ingress

import (
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// pausedMemory is how long ingress remembers the venue a worker found a
// token's orders on when it refused one VENUE_PAUSED. A swap's venue is
// known only to the signer (curve or pool), so the first order of a token
// on a paused venue is charged, refused by its worker and given its unit
// back; while it holds the unit, the account's other orders may be turned
// away with 429. A bot that retries the paused token would hold units all
// the time and starve its own orders of other venues: its retries within
// this time are refused before the charge. It is short, as where an
// address leads can change (a curve that completed trades on its pool).
const pausedMemory = 5 * time.Second

// pausedTokensMax bounds the memory: every entry came from a charged
// order, so an account's budget bounds what it adds; past the bound the
// oldest entries go first.
const pausedTokensMax = 4096

// pausedTokens remembers, per account and order kind (chain, token as
// named, side, quote asset: what decides the venue a signer finds), the
// venue a worker refused such an order on as paused.
type pausedTokens struct {
	mu sync.Mutex
	m  map[pausedKey]pausedVenue
}

// pausedKey is what an order's venue follows from. The account is in it
// too: an account's own retries are what the memory is for, and one
// account's refusals never refuse another's orders.
type pausedKey struct {
	account, chain, token, quote string
	side                         wire.Side
}

type pausedVenue struct {
	venue string
	until time.Time
}

// pausedKeyOf is job's key; ok false for an order whose chain was left to
// the worker (EVM, chain omitted), whose venue's chain is not known here.
func pausedKeyOf(account string, job *wire.SwapJob) (pausedKey, bool) {
	if job.Chain == "" || job.Chain == wire.ChainAnyEVM || job.Token == "" {
		return pausedKey{}, false
	}
	token := job.Token
	if job.Chain != wire.ChainSolana {
		token = strings.ToLower(token) // an EVM address in any case
	}
	return pausedKey{account: account, chain: job.Chain, token: token, quote: strings.ToUpper(job.QuoteAsset), side: job.Side}, true
}

const ctxPausedKey = "tapi.pausedkey"

// note remembers that the order of k was refused because venue is paused.
func (p *pausedTokens) note(k pausedKey, venue string, now time.Time) {
	if venue == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[pausedKey]pausedVenue{}
	}
	if len(p.m) >= pausedTokensMax {
		p.prune(now)
	}
	p.m[k] = pausedVenue{venue: venue, until: now.Add(pausedMemory)}
}

// prune drops the expired entries, and the oldest ones while the memory
// is still full. It runs with p.mu held.
func (p *pausedTokens) prune(now time.Time) {
	for k, v := range p.m {
		if !now.Before(v.until) {
			delete(p.m, k)
		}
	}
	for len(p.m) >= pausedTokensMax {
		var oldest pausedKey
		first := true
		for k, v := range p.m {
			if first || v.until.Before(p.m[oldest].until) {
				oldest, first = k, false
			}
		}
		delete(p.m, oldest)
	}
}

// venue returns the venue a recent order of k was refused on as paused.
func (p *pausedTokens) venue(k pausedKey, now time.Time) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.m[k]
	if !ok {
		return "", false
	}
	if !now.Before(v.until) {
		delete(p.m, k)
		return "", false
	}
	return v.venue, true
}

// stillPaused refuses at once, free, an order like one its worker refused
// VENUE_PAUSED a moment ago when that venue is still paused: the answer
// the worker would give, without holding a unit of the account's budget
// meanwhile. Its answer is the venue's pause as this process sees it now.
// It marks the request so that a worker's VENUE_PAUSED is remembered.
func (h *handler) stillPaused(c *gin.Context, account string, job *wire.SwapJob) *apierr.Error {
	k, ok := pausedKeyOf(account, job)
	if !ok || h.s.deps.Venues == nil {
		return nil
	}
	c.Set(ctxPausedKey, k)
	venue, ok := h.s.paused.venue(k, time.Now())
	if !ok {
		return nil
	}
	if err := h.s.deps.Venues.Open(job.Chain, venue); err != nil {
		return apierr.From(err)
	}
	return nil
}

// notePaused remembers the request's order as refused because venue is
// paused, when stillPaused marked it.
func (h *handler) notePaused(c *gin.Context, venue string) {
	if v, ok := c.Get(ctxPausedKey); ok {
		if k, ok := v.(pausedKey); ok {
			h.s.paused.note(k, venue, time.Now())
		}
	}
}
