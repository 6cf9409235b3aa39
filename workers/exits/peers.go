package exits

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tradeapi/tradeapi/shared/bus"
)

// beat is an engine's announcement on bus.ExitsPresence: who it is and
// which chains it reads, or that it is leaving.
type beat struct {
	Engine  string   `json:"engine"`
	Chains  []string `json:"chains"`
	Leaving bool     `json:"leaving,omitempty"`
}

// peers is what an engine knows of the live engines, from their beats.
// Every engine derives the same owner of a token from the same beats (see
// owner), so the engines split the price reads without talking about
// tokens. Ownership only saves reads: claims stay compare-and-set, so two
// engines that briefly both think they own a token fire its exits once.
type peers struct {
	nc     *nats.Conn
	self   string
	chains []string
	every  time.Duration
	expiry time.Duration
	log    *slog.Logger
	now    func() time.Time

	mu   sync.Mutex
	seen map[string]peer // the other engines, by id
	gen  uint64          // counts changes of the live set
	// byChain is membership.byChain, rebuilt when gen moves past builtAt.
	byChain map[string][]string
	builtAt uint64
}

type peer struct {
	last   time.Time
	chains []string
}

func newPeers(nc *nats.Conn, self string, chains []string, every, expiry time.Duration, log *slog.Logger) *peers {
	chains = slices.Sorted(slices.Values(chains))
	return &peers{nc: nc, self: self, chains: chains, every: every, expiry: expiry, log: log, now: time.Now,
		seen: map[string]peer{}, gen: 1}
}

// announce listens to the other engines, asks them to announce themselves
// and sends this engine's beats until the returned function is called,
// which says goodbye so that the others take its tokens at once.
func (ps *peers) announce() (func(), error) {
	sub, err := ps.nc.Subscribe(bus.ExitsPresence, ps.heard)
	if err != nil {
		return nil, fmt.Errorf("exits: presence: %w", err)
	}
	probe, err := ps.nc.Subscribe(bus.ExitsProbe, func(*nats.Msg) { ps.send(false) })
	if err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("exits: presence probe: %w", err)
	}
	ps.send(false)
	if err := ps.nc.Publish(bus.ExitsProbe, nil); err != nil {
		_ = sub.Unsubscribe()
		_ = probe.Unsubscribe()
		return nil, fmt.Errorf("exits: probe presence: %w", err)
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(ps.every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				ps.send(false)
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		_ = probe.Unsubscribe()
		_ = sub.Unsubscribe()
		ps.send(true)
		// A connection that is down cannot say it: the others take this
		// engine's tokens when its beats expire, and stopping does not wait.
		if err := ps.nc.FlushTimeout(time.Second); err != nil {
			// The others take this engine's tokens when its beats expire.
			ps.log.Warn("exits engine goodbye not sent", "engine", ps.self, "err", err)
		}
	}, nil
}

// send publishes one beat. A lost beat is made good by the next one, and
// a lost goodbye by the expiry.
func (ps *peers) send(leaving bool) {
	b, err := json.Marshal(beat{Engine: ps.self, Chains: ps.chains, Leaving: leaving})
	if err == nil {
		err = ps.nc.Publish(bus.ExitsPresence, b)
	}
	if err != nil && !leaving {
		ps.log.Debug("exits engine beat not sent", "engine", ps.self, "err", err)
	}
}

// heard takes another engine's beat.
func (ps *peers) heard(m *nats.Msg) {
	var b beat
	if err := json.Unmarshal(m.Data, &b); err != nil || b.Engine == "" {
		ps.log.Warn("undecodable exits engine beat skipped", "err", err)
		return
	}
	if b.Engine == ps.self {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	old, known := ps.seen[b.Engine]
	if b.Leaving {
		if known {
			delete(ps.seen, b.Engine)
			ps.gen++
			ps.log.Info("exits engine left, its tokens are taken over", "engine", b.Engine, "live", len(ps.seen)+1)
		}
		return
	}
	chains := slices.Sorted(slices.Values(b.Chains))
	ps.seen[b.Engine] = peer{last: ps.now(), chains: chains}
	if !known || !slices.Equal(old.chains, chains) {
		ps.gen++
		if !known {
			ps.log.Info("exits engine joined, tokens are split again", "engine", b.Engine, "live", len(ps.seen)+1)
		}
	}
}

// membership is one view of the live engines.
type membership struct {
	// gen changes whenever the live engines do.
	gen uint64
	// byChain lists the live engines that read each chain, sorted ids,
	// this engine included for its own chains. Shared: only read it.
	byChain map[string][]string
	// live counts the live engines, this one included.
	live int
}

// view returns the live engines. Engines whose last beat is older than the
// expiry are dropped here.
func (ps *peers) view() membership {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	now := ps.now()
	for id, p := range ps.seen {
		if now.Sub(p.last) >= ps.expiry {
			delete(ps.seen, id)
			ps.gen++
			ps.log.Warn("exits engine silent past its expiry, its tokens are taken over", "engine", id,
				"silent", now.Sub(p.last).Round(time.Millisecond), "live", len(ps.seen)+1)
		}
	}
	if ps.builtAt != ps.gen {
		ps.byChain = map[string][]string{}
		for _, c := range ps.chains {
			ps.byChain[c] = append(ps.byChain[c], ps.self)
		}
		for id, p := range ps.seen {
			for _, c := range p.chains {
				ps.byChain[c] = append(ps.byChain[c], id)
			}
		}
		for c := range ps.byChain {
			slices.Sort(ps.byChain[c])
		}
		ps.builtAt = ps.gen
	}
	return membership{gen: ps.gen, byChain: ps.byChain, live: len(ps.seen) + 1}
}

// owner returns which of the engines ids reads token k: the one of highest
// weight for k (rendezvous hashing), so every engine that knows the same
// ids picks the same owner, and adding or removing one engine moves only
// the tokens it gains or held. It returns "" when ids is empty.
func owner(k tokenKey, ids []string) string {
	best, bestW := "", uint64(0)
	for _, id := range ids {
		w := weight(id, k)
		if best == "" || w > bestW || (w == bestW && id < best) {
			best, bestW = id, w
		}
	}
	return best
}

// weight hashes an engine id with a token. FNV-1a alone spreads keys that
// differ in their last bytes poorly, so its sum goes through the
// splitmix64 finaliser.
func weight(id string, k tokenKey) uint64 {
	h := fnv.New64a()
	var n [4]byte
	for _, s := range []string{id, k.chain, k.token} {
		// Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
		binary.BigEndian.PutUint32(n[:], uint32(len(s)))
		_, _ = h.Write(n[:])
		_, _ = h.Write([]byte(s))
	}
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
