package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"time"
)

// faultEvent is one kill and restart.
type faultEvent struct {
	target  string
	at      time.Duration // since the load started
	stopped time.Duration // signal to exit
	inTime  bool          // exited within stopLimit (SIGTERM)
	back    time.Duration // signal to ready again
	err     error
}

// runFaults stops and restarts, in turn and spread over the load, a worker of
// each group, the broadcaster, the exits engine, an ingress, the registry
// and the NATS node leading the ORDERS stream.
func runFaults(ctx context.Context, d *deployment, nv *natsView, o options, start time.Time, say func(string, ...any)) []faultEvent {
	var targets []string
	for _, g := range workerGroups(d.chains) {
		targets = append(targets, fmt.Sprintf("worker-%s-1", g.name))
	}
	targets = append(targets, procBroadcaster, procExits, procIngressEU, procRegistry, "nats")
	var out []faultEvent
	for i, target := range targets {
		due := start.Add(o.duration * time.Duration(i+1) / time.Duration(len(targets)+2))
		select {
		case <-ctx.Done():
			return out
		case <-time.After(time.Until(due)):
		}
		if target == "nats" {
			target = "nats-2"
			lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			if leader, err := nv.leader(lctx, "ORDERS"); err == nil {
				target = "nats-" + strings.TrimPrefix(leader, "tradeapi-")
			}
			cancel()
		}
		p := d.proc(target)
		ev := faultEvent{target: target, at: time.Since(start)}
		t0 := time.Now()
		ev.stopped, ev.inTime = d.sup.stop(p, o.signal, 20*time.Second)
		select {
		case <-ctx.Done():
			return append(out, ev)
		case <-time.After(o.down):
		}
		if ev.err = d.sup.start(p); ev.err == nil {
			ev.err = d.sup.waitReady(ctx, p, 90*time.Second)
		}
		ev.back = time.Since(t0)
		line := fmt.Sprintf("faultrun: t+%5.1fs %s %s: exited in %s, ready again after %s",
			ev.at.Seconds(), map[syscall.Signal]string{syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM"}[o.signal],
			target, ev.stopped.Round(time.Millisecond), ev.back.Round(time.Millisecond))
		if ev.err != nil {
			line += ": " + ev.err.Error()
		}
		say("%s", line)
		out = append(out, ev)
	}
	return out
}

// stopResult is one process's graceful stop.
type stopResult struct {
	name   string
	took   time.Duration
	inTime bool
}

// stopAll sends SIGTERM to every process, roles first (ingress, then the
// pipeline, then the registry and the local chain) and the NATS nodes
// last, one at a time, and times each exit.
func stopAll(d *deployment) []stopResult {
	var order []*proc
	for _, name := range []string{procIngressEU, procIngressUS, procBroadcaster, procExits} {
		order = append(order, d.proc(name))
	}
	for _, p := range d.roles {
		if strings.HasPrefix(p.name, "worker-") {
			order = append(order, p)
		}
	}
	order = append(order, d.proc(procRegistry), d.proc(procDevnet))
	order = append(order, d.nats...)
	var out []stopResult
	for _, p := range order {
		took, inTime := d.sup.stop(p, syscall.SIGTERM, 30*time.Second)
		out = append(out, stopResult{name: p.name, took: took, inTime: inTime && took <= stopLimit})
	}
	return out
}

// byFault counts the answers other than 200, replays left out, by the
// fault they followed, so that each fault shows what it cost. An attempt
// belongs to the first fault that happened while it was in flight (or up
// to a second before it was sent), else to the last fault before it.
// Attempts before the first fault are not counted.
func byFault(orders []*logical, faults []faultEvent) []map[string]int {
	out := make([]map[string]int, len(faults))
	for i := range out {
		out[i] = map[string]int{}
	}
	for _, o := range orders {
		for _, a := range o.attempts {
			if a.Status == http.StatusOK || a.Replayed {
				continue
			}
			idx := -1
			for i, f := range faults {
				if f.at >= a.at-time.Second && f.at <= a.at+a.took {
					idx = i
					break
				}
				if f.at <= a.at {
					idx = i
				}
			}
			if idx >= 0 {
				out[idx][answerKey(a.answer)]++
			}
		}
	}
	return out
}
