package main

import (
	"fmt"
	"net/http"
	"sort"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// evidence is everything reconciliation compares, gathered once the
// pipeline has settled.
type evidence struct {
	// orders are the logical orders the load sent.
	orders []*logical
	// views are the order records as GET /api/v1/orders/{id} answered,
	// by id, for every id an answer named; a 404 is absent.
	views map[string]order
	// store holds every order record of the account, read from the bucket,
	// including orders no answer named.
	store map[string]wire.Order
	// idem is the idempotency record of each Idempotency-Key sent.
	idem map[string]idemRecord
	// sent are the transactions on chain paid for by the account's
	// wallets, by signature, over every chain.
	sent map[string]onChain
	// landed tells, for every signature a 200 answered, whether it is on
	// chain.
	landed map[string]onChain
	// launches are the token launches the side load sent (the buys with
	// auto-orders are swaps, in orders).
	launches []*logical
	// creates are, for every mint a launch named, the creates in the
	// mint's own history.
	creates map[string][]string
	// positions are the account's positions, read after the order store,
	// so that every exit sell in the store has its claim here.
	positions map[string]wire.Position
}

// figures are the run's results. The two invariants are Doubled and Lost.
type figures struct {
	Requests     int            // HTTP attempts
	ByAnswer     map[string]int // HTTP attempts by status and code
	Logical      int            // logical orders (Idempotency-Keys)
	Retried      int            // logical orders sent more than once
	ByFinal      map[string]int // logical orders by their last answer
	NoOrderID    []string       // logical orders that ended in a 5xx or no answer, naming no order
	SwapsLanded  int            // transactions on chain paid by the account's wallets, approvals included
	SwapsFailed  int            // of which landed with an error
	GapFills     int            // of which an EVM wallet's nonce gap filled: no order's
	StoreOrders  int            // order records of the account
	UnknownOrder []string       // order records no answer named
	IdemRecords  int            // Idempotency-Keys with a record

	// Doubled lists every order whose trade landed more than once: two
	// landed transactions of one order and wallet, two orders of one
	// Idempotency-Key that both traded, a signature claimed by two
	// orders, or a landed swap that no order record accounts for.
	Doubled []string
	// Lost lists every order answered 200 with a signature that is not on
	// chain and that the order record does not show as failed or expired.
	Lost []string
	// ClaimedNotLanded lists 200-answered signatures not on chain whose
	// record shows them failed or expired: told success, never traded.
	ClaimedNotLanded []string
	// NotFinal lists answered orders with no final state in the store.
	NotFinal []string
	// StuckKeys lists Idempotency-Keys whose last answer was a replayed
	// 503: an answer that says "try again" but that every retry with the
	// key gets again, so the order can never run.
	StuckKeys []string
	// ErrorButTraded counts logical orders whose last answer was an error
	// although their order traded, by code.
	ErrorButTraded map[string]int

	// Launches and Exits are the token launches' and the auto-order
	// exits' own figures.
	Launches launchFigures
	Exits    exitFigures
}

// answerKey names an answer for the counts.
func answerKey(a answer) string {
	switch {
	case a.Status == 0:
		return a.Code
	case a.Status == http.StatusOK:
		return "200"
	}
	return fmt.Sprintf("%d %s", a.Status, a.Code)
}

func isFinal(state string) bool { return wire.FinalState(state) }

// reconcile computes the figures from the evidence.
func reconcile(ev evidence) figures {
	f := figures{ByAnswer: map[string]int{}, ByFinal: map[string]int{}, ErrorButTraded: map[string]int{},
		Logical: len(ev.orders), StoreOrders: len(ev.store), IdemRecords: len(ev.idem)}

	// Which order each signature belongs to, by the order records.
	owners := map[string][]string{}
	for id, o := range ev.store {
		for _, s := range o.Signatures {
			owners[s.Signature] = append(owners[s.Signature], id)
		}
	}
	for sig, ids := range owners {
		if len(ids) > 1 {
			sort.Strings(ids)
			f.Doubled = append(f.Doubled, fmt.Sprintf("signature %s is claimed by orders %v", sig, ids))
		}
	}
	// Landed trades per order and wallet; a landed swap with no order.
	traded := map[string]map[string]int{}
	for sig, tx := range ev.sent {
		f.SwapsLanded++
		if tx.Failed {
			f.SwapsFailed++
			continue
		}
		ids := owners[sig]
		if len(ids) == 0 && tx.GapFill {
			f.GapFills++
			continue
		}
		if len(ids) == 0 {
			f.Doubled = append(f.Doubled, fmt.Sprintf("landed transaction %s of wallet %s belongs to no order", sig, tx.Payer))
			continue
		}
		if tx.Aux {
			continue // an approval: the trade is the swap after it
		}
		for _, id := range ids {
			if ev.store[id].Kind == wire.KindDeploy {
				continue // a launch pays several transactions per wallet; reconcileLaunches counts its mints
			}
			if traded[id] == nil {
				traded[id] = map[string]int{}
			}
			traded[id][tx.Payer]++
		}
	}
	for id, byWallet := range traded {
		for w, n := range byWallet {
			if n > 1 {
				f.Doubled = append(f.Doubled, fmt.Sprintf("order %s traded %d times from wallet %s", id, n, w))
			}
		}
	}

	named := map[string]bool{}
	for _, o := range ev.orders {
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
		if r, ok := ev.idem[o.key]; ok && r.OrderID != "" && !contains(ids, r.OrderID) {
			ids = append(ids, r.OrderID)
		}
		for _, id := range ids {
			named[id] = true
		}
		if last.Replayed && last.Status == http.StatusServiceUnavailable {
			f.StuckKeys = append(f.StuckKeys, fmt.Sprintf("%s: %s %q (order %s)", o.key, last.Code, last.Message, last.OrderID))
		}
		if (last.Status == 0 || last.Status >= 500) && len(ids) == 0 {
			f.NoOrderID = append(f.NoOrderID, o.key)
		}

		// One key, one trade.
		var tradedIDs []string
		for _, id := range ids {
			if len(traded[id]) > 0 {
				tradedIDs = append(tradedIDs, id)
			}
		}
		if len(tradedIDs) > 1 {
			f.Doubled = append(f.Doubled, fmt.Sprintf("Idempotency-Key %s traded as orders %v", o.key, tradedIDs))
		}
		if last.Status != http.StatusOK && len(tradedIDs) > 0 {
			f.ErrorButTraded[answerKey(last)]++
		}

		// Every signature a 200 named is on chain, or its record says why not.
		for _, a := range o.attempts {
			if a.Status != http.StatusOK || a.Skipped {
				continue
			}
			if len(a.Sigs) == 0 {
				f.ClaimedNotLanded = append(f.ClaimedNotLanded, fmt.Sprintf("order %s: 200 with no signature", a.OrderID))
			}
			for _, sig := range a.Sigs {
				if _, ok := ev.landed[sig]; ok {
					continue
				}
				state := sigState(ev.store[a.OrderID], sig)
				if state == wire.StateFailed || state == wire.StateExpired {
					f.ClaimedNotLanded = append(f.ClaimedNotLanded, fmt.Sprintf("order %s: %s is %s", a.OrderID, sig, state))
					continue
				}
				f.Lost = append(f.Lost, fmt.Sprintf("order %s (key %s): %s answered 200, not on chain, record state %q", a.OrderID, o.key, sig, state))
			}
		}
	}
	var launchIDs, sellIDs map[string]bool
	f.Launches, launchIDs = reconcileLaunches(ev)
	f.Exits, sellIDs = reconcileExits(ev, traded)
	for id := range ev.store {
		if !named[id] && !launchIDs[id] && !sellIDs[id] {
			f.UnknownOrder = append(f.UnknownOrder, id)
		}
	}
	for id := range named {
		v, ok := ev.views[id]
		switch {
		case !ok:
			f.NotFinal = append(f.NotFinal, id+": not found")
		case !isFinal(v.State):
			f.NotFinal = append(f.NotFinal, id+": "+v.State)
		}
	}
	for _, l := range [][]string{f.Doubled, f.Lost, f.ClaimedNotLanded, f.NotFinal, f.StuckKeys, f.NoOrderID, f.UnknownOrder} {
		sort.Strings(l)
	}
	return f
}

// sigState is sig's state in o, or "" when o does not list it.
func sigState(o wire.Order, sig string) string {
	for _, s := range o.Signatures {
		if s.Signature == sig {
			return s.State
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
