package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"
)

// printFigures prints the report and returns whether the run passed.
func printFigures(w io.Writer, f figures, onChain uint64, perChain []string, notSent int, faults []faultEvent, after []map[string]int,
	sig syscall.Signal, stops []stopResult, exits []exit, listenOK bool) bool {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	counts := func(m map[string]int) {
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
		for _, k := range keys {
			p("    %-34s %6d", k, m[k])
		}
	}
	list := func(items []string) {
		for i, s := range items {
			if i == 20 {
				p("    ... and %d more", len(items)-20)
				break
			}
			p("    %s", s)
		}
	}
	p("")
	p("requests sent                        %6d", f.Requests)
	p("  answered 200                       %6d", f.ByAnswer["200"])
	p("  by answer")
	counts(f.ByAnswer)
	p("logical orders (Idempotency-Keys)    %6d   (%d retried, %d not started: client bound)", f.Logical, f.Retried, notSent)
	p("  by last answer")
	counts(f.ByFinal)
	p("transactions on chain                %6d   (Solana getTransactionCount, EVM transactions in every block)", onChain)
	p("  sent by the account's wallets      %6d   (%d landed with an error, %d filled an EVM nonce gap: no order's)", f.SwapsLanded, f.SwapsFailed, f.GapFills)
	p("  by chain")
	for _, l := range perChain {
		p("%s", l)
	}
	p("order records of the account         %6d   (%d named by no answer)", f.StoreOrders, len(f.UnknownOrder))
	p("idempotency records found            %6d", f.IdemRecords)
	p("orders landed more than once         %6d   must be 0", len(f.Doubled))
	list(f.Doubled)
	p("accepted orders lost                 %6d   must be 0", len(f.Lost))
	list(f.Lost)
	p("200 signatures not on chain          %6d   must be 0 (the record says failed or expired)", len(f.ClaimedNotLanded))
	list(f.ClaimedNotLanded)
	p("named orders not final               %6d   must be 0", len(f.NotFinal))
	list(f.NotFinal)
	p("keys stuck on a replayed 503         %6d", len(f.StuckKeys))
	list(f.StuckKeys)
	p("keys ending in 5xx with no order id  %6d", len(f.NoOrderID))
	list(f.NoOrderID)
	if len(f.ErrorButTraded) > 0 {
		p("keys answered an error that traded")
		counts(f.ErrorButTraded)
	}
	ok := len(f.Doubled) == 0 && len(f.Lost) == 0 && len(f.ClaimedNotLanded) == 0 && len(f.NotFinal) == 0 && listenOK
	ok = printLaunches(p, counts, list, f.Launches) && ok
	ok = printExits(p, counts, list, f.Exits) && ok
	p("faults (exit and ready again: time after the signal; [answers other than 200 it caused, replays left out])")
	for i, e := range faults {
		s := fmt.Sprintf("    t+%5.1fs %-16s exit %7s  ready %7s", e.at.Seconds(), e.target,
			e.stopped.Round(time.Millisecond), e.back.Round(time.Millisecond))
		if sig == syscall.SIGTERM && (!e.inTime || e.stopped > stopLimit) && !strings.HasPrefix(e.target, "nats-") {
			s += "  TOO SLOW"
			ok = false
		}
		if e.err != nil {
			s += "  FAILED: " + e.err.Error()
			ok = false
		}
		var parts []string
		for k, n := range after[i] {
			parts = append(parts, fmt.Sprintf("%s: %d", k, n))
		}
		sort.Strings(parts)
		if len(parts) > 0 {
			s += "  [" + strings.Join(parts, ", ") + "]"
		}
		p("%s", s)
	}
	p("graceful stop (SIGTERM to exit, limit %s for roles)", stopLimit)
	for _, s := range stops {
		mark := ""
		if !s.inTime {
			mark = "  TOO SLOW"
			if !strings.HasPrefix(s.name, "nats-") {
				ok = false
			}
		}
		p("    %-20s %8s%s", s.name, s.took.Round(time.Millisecond), mark)
	}
	p("processes that exited on their own   %6d", len(exits))
	for _, e := range exits {
		p("    %s at %s: %s", e.name, e.at.Format(time.TimeOnly), e.state)
		ok = false
	}
	if ok {
		p("PASS")
	} else {
		p("FAIL")
	}
	return ok
}

// printLaunches prints the launches' figures and returns whether their
// invariants held.
func printLaunches(p func(string, ...any), counts func(map[string]int), list func([]string), l launchFigures) bool {
	p("token launches (Idempotency-Keys)    %6d   (%d requests, %d retried)", l.Logical, l.Requests, l.Retried)
	p("  by answer")
	counts(l.ByAnswer)
	p("  by last answer")
	counts(l.ByFinal)
	p("  launch orders named                %6d", l.Orders)
	p("  mints answered 200                 %6d   (%d landed transactions listed)", l.Mints, l.LandedTxs)
	p("  mint creates on chain              %6d   (the account's transactions and each mint's history)", l.Creates)
	p("  mints created twice or astray      %6d   must be 0", len(l.DoubleMint))
	list(l.DoubleMint)
	p("  200 launches not on chain as told  %6d   must be 0", len(l.Missing))
	list(l.Missing)
	p("  launch orders not final            %6d   must be 0", len(l.NotFinal))
	list(l.NotFinal)
	return len(l.DoubleMint) == 0 && len(l.Missing) == 0 && len(l.NotFinal) == 0
}

// printExits prints the auto-order exits' figures and returns whether
// their invariants held.
func printExits(p func(string, ...any), counts func(map[string]int), list func([]string), x exitFigures) bool {
	fired := 0
	for _, n := range x.Fired {
		fired += n
	}
	p("buys with auto-order exits           %6d   (%d answered 200)", x.Buys, x.Buys200)
	p("  positions                          %6d   (%d exits)", x.Positions, x.Exits)
	p("  exits by state")
	counts(x.ByState)
	p("  exits that fired                   %6d", fired)
	counts(x.Fired)
	p("  exit sell orders                   %6d   (%d traded on chain)", x.SellOrders, x.SellsTraded)
	p("  exits sold twice                   %6d   must be 0", len(x.Doubled))
	list(x.Doubled)
	p("  sells or positions missing         %6d   must be 0", len(x.Missing))
	list(x.Missing)
	p("  exits or exit sells not final      %6d   must be 0", len(x.NotFinal))
	list(x.NotFinal)
	return len(x.Doubled) == 0 && len(x.Missing) == 0 && len(x.NotFinal) == 0
}

// writeOrders keeps every logical order and its attempts, one JSON object a
// line, as the evidence behind the figures.
func writeOrders(path string, orders []*logical) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, o := range orders {
		type row struct {
			At       string   `json:"at"`
			Host     string   `json:"host"`
			Status   int      `json:"status"`
			Code     string   `json:"code"`
			Message  string   `json:"message,omitempty"`
			OrderID  string   `json:"order_id,omitempty"`
			Replayed bool     `json:"replayed,omitempty"`
			Sigs     []string `json:"signatures,omitempty"`
		}
		var rows []row
		for _, a := range o.attempts {
			rows = append(rows, row{At: a.at.Round(time.Millisecond).String(), Host: a.host, Status: a.Status, Code: a.Code,
				Message: a.Message, OrderID: a.OrderID, Replayed: a.Replayed, Sigs: a.Sigs})
		}
		_ = enc.Encode(map[string]any{"key": o.key, "chain": o.chain.Name, "side": o.side, "wallets": o.wallets,
			"auto_orders": o.auto, "attempts": rows})
	}
	return f.Close()
}

// writeFigures keeps the figures with every list in full.
func writeFigures(path string, f figures) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}
