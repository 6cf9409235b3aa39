package ingress

import (
	"strings"
	"sync"
	"time"

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

// pausedTokens remembers, per chain and token as requests name it, the
// venue a worker refused its order on as paused.
type pausedTokens struct {
	mu sync.Mutex
	m  map[pausedKey]pausedVenue
}

type pausedKey struct{ chain, token string }

type pausedVenue struct {
	venue string
	until time.Time
}

func tokenKey(chain, token string) pausedKey {
	if chain != wire.ChainSolana {
		token = strings.ToLower(token) // an EVM address in any case
	}
	return pausedKey{chain: chain, token: token}
}

// note remembers that an order of token on chain was refused because
// venue is paused. An order whose chain was left to the worker (EVM,
// chain omitted) is not remembered: its venue's chain is not known here.
func (p *pausedTokens) note(chain, token, venue string, now time.Time) {
	if chain == "" || chain == wire.ChainAnyEVM || token == "" || venue == "" {
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
	p.m[tokenKey(chain, token)] = pausedVenue{venue: venue, until: now.Add(pausedMemory)}
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

// venue returns the venue a recent order of token on chain was refused
// on as paused.
func (p *pausedTokens) venue(chain, token string, now time.Time) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.m[tokenKey(chain, token)]
	if !ok {
		return "", false
	}
	if !now.Before(v.until) {
		delete(p.m, tokenKey(chain, token))
		return "", false
	}
	return v.venue, true
}

// stillPaused refuses at once, free, an order of a token whose last order
// its worker refused VENUE_PAUSED a moment ago when that venue is still
// paused: the answer the worker would give, without holding a unit of the
// account's budget meanwhile. Its answer is the venue's pause as this
// process sees it now.
func (h *handler) stillPaused(chain, token string) *apierr.Error {
	if h.s.deps.Venues == nil {
		return nil
	}
	venue, ok := h.s.paused.venue(chain, token, time.Now())
	if !ok {
		return nil
	}
	err := h.s.deps.Venues.Open(chain, venue)
	if err == nil {
		return nil
	}
	return apierr.From(err)
}
