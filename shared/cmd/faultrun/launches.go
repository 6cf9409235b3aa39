package main

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// launchFigures are the token launches' results. A launch's bundles land
// whole or not at all, and a redelivered batch is the same signed bundles,
// so each mint is created once by one order: DoubleMint, Missing and
// NotFinal must be empty.
type launchFigures struct {
	Logical   int            // launches sent (Idempotency-Keys)
	Requests  int            // HTTP attempts
	Retried   int            // launches sent more than once
	ByAnswer  map[string]int // HTTP attempts by status and code
	ByFinal   map[string]int // launches by their last answer
	Orders    int            // launch orders named by an answer or an idempotency record
	Mints     int            // mints the 200 answers named
	Creates   int            // creates on chain among the account's transactions and the mints' histories
	LandedTxs int            // transactions the 200 answers listed as landed

	// DoubleMint lists a mint created more than once, a mint created that
	// no launch order lists, an order that created more mints than it had
	// configs, and an Idempotency-Key whose launch ran as two orders that
	// both created mints.
	DoubleMint []string
	// Missing lists what a 200 claimed and the chain or the record does
	// not show: a mint with no create, a landed transaction not on chain,
	// a record whose mints differ from the answer's.
	Missing []string
	// NotFinal lists named launch orders with no final state.
	NotFinal []string
}

// reconcileLaunches checks the launches against the chain and the order
// store, and returns the figures and the ids of every launch order named.
func reconcileLaunches(ev evidence) (launchFigures, map[string]bool) {
	f := launchFigures{ByAnswer: map[string]int{}, ByFinal: map[string]int{}, Logical: len(ev.launches)}
	created := createsByMint(ev)

	// Which launch orders list each mint, and the mints each order made:
	// those it lists or whose create is one of its transactions.
	listedBy := map[string][]string{}
	orderMints := map[string]map[string]bool{}
	for id, o := range ev.store {
		if o.Kind != wire.KindDeploy {
			continue
		}
		made := map[string]bool{}
		if o.Deploy != nil {
			for _, m := range o.Deploy.MintAddresses {
				listedBy[m] = append(listedBy[m], id)
				if len(created[m]) > 0 {
					made[m] = true
				}
			}
		}
		for _, s := range o.Signatures {
			for m, sigs := range created {
				if sigs[s.Signature] {
					made[m] = true
				}
			}
		}
		orderMints[id] = made
	}
	for m, sigs := range created {
		f.Creates += len(sigs)
		if len(sigs) > 1 {
			f.DoubleMint = append(f.DoubleMint, fmt.Sprintf("mint %s created %d times: %v", m, len(sigs), sortedKeys(sigs)))
		}
		switch ids := listedBy[m]; {
		case len(ids) == 0:
			f.DoubleMint = append(f.DoubleMint, fmt.Sprintf("mint %s was created (%v) but no launch order lists it", m, sortedKeys(sigs)))
		case len(ids) > 1:
			sort.Strings(ids)
			f.DoubleMint = append(f.DoubleMint, fmt.Sprintf("mint %s is listed by launch orders %v", m, ids))
		}
	}

	named := map[string]bool{}
	configs := map[string]int{} // launch order -> configs its request asked for
	for _, o := range ev.launches {
		f.Requests += len(o.attempts)
		if len(o.attempts) > 1 {
			f.Retried++
		}
		for _, a := range o.attempts {
			f.ByAnswer[answerKey(a.answer)]++
		}
		last := o.final()
		f.ByFinal[answerKey(last)]++
		ids := o.orderIDs()
		rec, hasRec := ev.idem[o.key]
		if hasRec && rec.OrderID != "" && !contains(ids, rec.OrderID) {
			ids = append(ids, rec.OrderID)
		}
		var launched []string
		for _, id := range ids {
			named[id] = true
			configs[id] = o.configs
			if len(orderMints[id]) > 0 {
				launched = append(launched, id)
			}
		}
		if len(launched) > 1 {
			f.DoubleMint = append(f.DoubleMint, fmt.Sprintf("Idempotency-Key %s launched as orders %v", o.key, launched))
		}
		if last.Status != http.StatusOK {
			continue
		}
		id := last.OrderID
		if id == "" && hasRec {
			id = rec.OrderID // a replayed answer carries no X-Order-Id
		}
		f.Mints += len(last.Mints)
		f.LandedTxs += len(last.Landed)
		f.Missing = append(f.Missing, checkLaunchAnswer(ev, o, id, last, created)...)
	}
	for id, made := range orderMints {
		want := configs[id]
		if o := ev.store[id]; o.Deploy != nil && len(o.Deploy.MintAddresses) > 0 {
			want = len(o.Deploy.MintAddresses)
		}
		if named[id] && len(made) > want {
			f.DoubleMint = append(f.DoubleMint, fmt.Sprintf("order %s created %d mints for %d configs: %v", id, len(made), want, sortedKeys(made)))
		}
		if !named[id] && len(made) > 0 {
			f.DoubleMint = append(f.DoubleMint, fmt.Sprintf("launch order %s created mints %v but no launch named it", id, sortedKeys(made)))
		}
	}
	f.Orders = len(named)
	for id := range named {
		v, ok := ev.views[id]
		switch {
		case !ok:
			f.NotFinal = append(f.NotFinal, id+": not found")
		case !isFinal(v.State):
			f.NotFinal = append(f.NotFinal, id+": "+v.State)
		}
	}
	for _, l := range [][]string{f.DoubleMint, f.Missing, f.NotFinal} {
		sort.Strings(l)
	}
	return f, named
}

// checkLaunchAnswer compares a launch's 200 with the chain and its record.
func checkLaunchAnswer(ev evidence, o *logical, id string, a answer, created map[string]map[string]bool) []string {
	var out []string
	if len(a.Mints) != o.configs {
		out = append(out, fmt.Sprintf("order %s (key %s): 200 names %d mints for %d configs", id, o.key, len(a.Mints), o.configs))
	}
	for _, m := range a.Mints {
		if len(created[m]) == 0 {
			out = append(out, fmt.Sprintf("order %s (key %s): mint %s answered 200, no create on chain", id, o.key, m))
		}
	}
	for _, t := range a.Landed {
		if tx, ok := ev.landed[t.Signature]; !ok || tx.Failed {
			out = append(out, fmt.Sprintf("order %s (key %s): %s %s of mint %s answered landed, not on chain", id, o.key, t.Kind, t.Signature, t.Mint))
		}
	}
	rec, ok := ev.store[id]
	switch {
	case !ok:
		out = append(out, fmt.Sprintf("order %s (key %s): answered 200, no record", id, o.key))
	case rec.Deploy == nil || !slices.Equal(rec.Deploy.MintAddresses, a.Mints):
		var listed []string
		if rec.Deploy != nil {
			listed = rec.Deploy.MintAddresses
		}
		out = append(out, fmt.Sprintf("order %s (key %s): record lists mints %v, the answer %v", id, o.key, listed, a.Mints))
	}
	return out
}

// createsByMint returns the creates on chain, by mint: the account's
// landed transactions a key other than its wallets signed (only a new mint
// does), and the transactions each named mint signed in its own history.
func createsByMint(ev evidence) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	add := func(mint, sig string) {
		if out[mint] == nil {
			out[mint] = map[string]bool{}
		}
		out[mint][sig] = true
	}
	for sig, tx := range ev.sent {
		if tx.Failed {
			continue
		}
		for _, m := range tx.Cosigners {
			add(m, sig)
		}
	}
	for m, sigs := range ev.creates {
		for _, s := range sigs {
			add(m, s)
		}
	}
	return out
}

// launchMints returns every mint the launches' answers and records name.
func launchMints(launches []*logical, views map[string]order) []string {
	seen := map[string]bool{}
	var out []string
	add := func(ms []string) {
		for _, m := range ms {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	for _, o := range launches {
		for _, a := range o.attempts {
			add(a.Mints)
		}
	}
	for _, v := range views {
		if v.Deploy != nil {
			add(v.Deploy.MintAddresses)
		}
	}
	return out
}

// sortedKeys returns a set's members in order, joined for a report line.
func sortedKeys(set map[string]bool) string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
