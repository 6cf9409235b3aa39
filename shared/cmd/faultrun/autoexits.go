package main

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// exitFigures are the auto-order exits' results. Each exit claims its sell
// with a compare-and-set and names the sell's order after the position,
// the exit and the attempt, so however often the engine dies, an exit has
// one sell order per claim and sells at most once: Doubled, Missing and
// NotFinal must be empty.
type exitFigures struct {
	Buys        int            // buys with auto_orders sent
	Buys200     int            // of which answered 200
	Positions   int            // positions of the account
	Exits       int            // exits of those positions
	ByState     map[string]int // exits by state
	Fired       map[string]int // exits that published a sell, by type
	SellOrders  int            // exit sell orders in the store
	SellsTraded int            // of which traded on chain

	// Doubled lists an exit whose sells traded more than once and an exit
	// with more sell orders than claims.
	Doubled []string
	// Missing lists a fired exit whose sell order is not in the store, and
	// a confirmed buy with auto_orders that opened no position.
	Missing []string
	// NotFinal lists exit sells with no final state, exits left firing,
	// and time exits of open positions that never fired.
	NotFinal []string
}

// reconcileExits checks the positions' exits against the order store and
// the trades on chain (traded: order id -> wallet -> landed trades), and
// returns the figures and the ids of the exit sell orders.
func reconcileExits(ev evidence, traded map[string]map[string]int) (exitFigures, map[string]bool) {
	f := exitFigures{ByState: map[string]int{}, Fired: map[string]int{}, Positions: len(ev.positions)}

	// The exit sells in the store, by position and exit.
	sells := map[string][]string{}
	named := map[string]bool{}
	for id := range ev.store {
		pos, exit, _, ok := parseExitSell(id)
		if !ok {
			continue
		}
		if _, known := ev.positions[pos]; !known {
			continue // not an exit sell after all, or another account's
		}
		named[id] = true
		f.SellOrders++
		if len(traded[id]) > 0 {
			f.SellsTraded++
		}
		sells[exitKey(pos, exit)] = append(sells[exitKey(pos, exit)], id)
	}

	opened := map[string]bool{} // buy order ids with a position
	for _, p := range ev.positions {
		opened[p.OrderID] = true
		for i, x := range p.Exits {
			f.Exits++
			f.ByState[x.State]++
			where := fmt.Sprintf("exit %d (%s) of position %s", i, x.Type, p.ID)
			if x.Attempts > 0 {
				f.Fired[x.Type]++
			}
			mine := sells[exitKey(p.ID, i)]
			sort.Strings(mine)
			if len(mine) > x.Attempts {
				f.Doubled = append(f.Doubled, fmt.Sprintf("%s: %d sell orders for %d claims: %v", where, len(mine), x.Attempts, mine))
			}
			var sold []string
			for _, id := range mine {
				if len(traded[id]) > 0 {
					sold = append(sold, id)
				}
				if o := ev.store[id]; !isFinal(o.State) {
					f.NotFinal = append(f.NotFinal, fmt.Sprintf("%s: sell %s is %s", where, id, o.State))
				}
			}
			if len(sold) > 1 {
				f.Doubled = append(f.Doubled, fmt.Sprintf("%s sold %d times: %v", where, len(sold), sold))
			}
			// Every claim but one still being published has its order.
			for r := 0; r < x.Attempts; r++ {
				id := p.ID + "-x" + strconv.Itoa(i) + "r" + strconv.Itoa(r)
				if _, ok := ev.store[id]; !ok && (x.State != wire.ExitFiring || r < x.Attempts-1) {
					f.Missing = append(f.Missing, fmt.Sprintf("%s (%s): sell order %s is not in the store", where, x.State, id))
				}
			}
			switch {
			case x.State == wire.ExitFiring:
				f.NotFinal = append(f.NotFinal, fmt.Sprintf("%s left firing (sell %s)", where, x.SellOrderID))
			case x.Type == wire.ExitTime && x.State == wire.ExitArmed && p.State == wire.PositionOpen && p.PendingSell == "":
				f.NotFinal = append(f.NotFinal, fmt.Sprintf("%s still armed after the run", where))
			}
		}
	}

	for _, o := range ev.orders {
		if !o.auto {
			continue
		}
		f.Buys++
		last := o.final()
		if last.Status == http.StatusOK {
			f.Buys200++
		}
		ids := o.orderIDs()
		if r, ok := ev.idem[o.key]; ok && r.OrderID != "" && !contains(ids, r.OrderID) {
			ids = append(ids, r.OrderID)
		}
		for _, id := range ids {
			rec, ok := ev.store[id]
			if ok && rec.State == wire.StateConfirmed && !rec.Skipped && !opened[id] {
				f.Missing = append(f.Missing, fmt.Sprintf("buy %s (key %s) with auto_orders confirmed, no position opened", id, o.key))
			}
		}
	}
	for _, l := range [][]string{f.Doubled, f.Missing, f.NotFinal} {
		sort.Strings(l)
	}
	return f, named
}

func exitKey(position string, exit int) string { return position + "/" + strconv.Itoa(exit) }

// parseExitSell splits an exit sell's order id, <position id>-x<exit>r<attempt>.
func parseExitSell(id string) (position string, exit, attempt int, ok bool) {
	i := strings.LastIndex(id, "-x")
	if i <= 0 {
		return "", 0, 0, false
	}
	e, a, found := strings.Cut(id[i+2:], "r")
	if !found {
		return "", 0, 0, false
	}
	exit, err1 := strconv.Atoi(e)
	attempt, err2 := strconv.Atoi(a)
	if err1 != nil || err2 != nil || exit < 0 || attempt < 0 {
		return "", 0, 0, false
	}
	return id[:i], exit, attempt, true
}

// exitSells returns the sell order ids the order lookup of each buy with
// auto-orders names, every claim of every exit, and how many things are
// still due: an exit firing, a time exit armed on an open position, a
// confirmed buy whose positions are not open yet.
func exitSells(autos []*logical, views map[string]order, idem map[string]idemRecord) (sells []orderRef, due int) {
	for _, o := range autos {
		buyIDs := o.orderIDs()
		if r, ok := idem[o.key]; ok && r.OrderID != "" && !contains(buyIDs, r.OrderID) {
			buyIDs = append(buyIDs, r.OrderID)
		}
		for _, b := range buyIDs {
			v := views[b]
			if v.State == wire.StateConfirmed && !v.Skipped && len(v.Positions) == 0 {
				due++ // its positions open once the engine reads the fill
			}
			for _, p := range v.Positions {
				for i, x := range p.Exits {
					for r := 0; r < x.Attempts; r++ {
						sells = append(sells, orderRef{p.ID + "-x" + strconv.Itoa(i) + "r" + strconv.Itoa(r), o.chain})
					}
					if x.State == wire.ExitFiring ||
						x.Type == wire.ExitTime && x.State == wire.ExitArmed && p.State == wire.PositionOpen {
						due++
					}
				}
			}
		}
	}
	return sells, due
}
