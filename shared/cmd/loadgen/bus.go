package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/tradeapi/tradeapi/shared/bus"
)

// busCounts is what JetStream has stored and delivered so far: per stream
// its last sequence, which every write advances whatever was deleted
// since, and per consumer its delivery sequence, which every delivery
// (redeliveries too) advances. Differences between two counts are exact,
// unlike times on a shared machine: they show what one order costs the
// bus, and what a change saves.
type busCounts struct {
	writes     map[string]uint64 // stream -> last sequence
	deliveries map[string]uint64 // stream/consumer -> delivered
}

// busProbe reads the counts over a NATS connection of its own.
type busProbe struct {
	nc *nats.Conn
	js jetstream.JetStream
}

// dialBus connects to the service's NATS as the admin, with the
// credentials the service keeps under its data folder.
func dialBus(url, dataDir string) (*busProbe, error) {
	creds, err := bus.LoadCredentials(dataDir, bus.Credentials{})
	if err != nil {
		return nil, err
	}
	nc, err := bus.Dial(url, "loadgen", nil, bus.ConnectOptions(bus.RoleAdmin, creds)...)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &busProbe{nc: nc, js: js}, nil
}

func (p *busProbe) close() { p.nc.Close() }

// counts reads every stream's and every consumer's sequences. Ordered
// consumers (the KV watches) come and go with their watchers and are
// counted while they exist.
func (p *busProbe) counts() (*busCounts, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := &busCounts{writes: map[string]uint64{}, deliveries: map[string]uint64{}}
	streams := p.js.ListStreams(ctx)
	for si := range streams.Info() {
		c.writes[si.Config.Name] = si.State.LastSeq
		s, err := p.js.Stream(ctx, si.Config.Name)
		if err != nil {
			return nil, err
		}
		cons := s.ListConsumers(ctx)
		for ci := range cons.Info() {
			c.deliveries[consumerName(si.Config.Name, ci)] = ci.Delivered.Consumer
		}
		if err := cons.Err(); err != nil {
			return nil, err
		}
	}
	return c, streams.Err()
}

// consumerName names a durable consumer by its name and an ephemeral one
// (a KV watch) as a watch, so that watches of one stream add up.
func consumerName(stream string, ci *jetstream.ConsumerInfo) string {
	if ci.Config.Durable != "" {
		return stream + "/" + ci.Config.Durable
	}
	return stream + "/(watch)"
}

// perOrder is the difference of two counts divided by orders.
type perOrder struct {
	writes, deliveries map[string]float64
}

func (b *busCounts) since(a *busCounts, orders int) perOrder {
	p := perOrder{writes: map[string]float64{}, deliveries: map[string]float64{}}
	if orders == 0 {
		return p
	}
	for k, v := range b.writes {
		if v > a.writes[k] {
			p.writes[k] = float64(v-a.writes[k]) / float64(orders)
		}
	}
	// A watch that ended between the two counts takes its deliveries with
	// it; counting only growth keeps the figure a lower bound.
	for k, v := range b.deliveries {
		if v > a.deliveries[k] {
			p.deliveries[k] = float64(v-a.deliveries[k]) / float64(orders)
		}
	}
	return p
}

func sum(m map[string]float64) float64 {
	t := 0.0
	for _, v := range m {
		t += v
	}
	return t
}

// printBus prints JetStream's writes and deliveries per order of each order
// scenario, by stream and by consumer.
func printBus(w io.Writer, names []string, per []perOrder) {
	if len(per) == 0 {
		return
	}
	keys := func(pick func(perOrder) map[string]float64) []string {
		seen := map[string]bool{}
		for _, p := range per {
			for k, v := range pick(p) {
				seen[k] = seen[k] || v >= 0.005
			}
		}
		var out []string
		for k, ok := range seen {
			if ok {
				out = append(out, k)
			}
		}
		sort.Strings(out)
		return out
	}
	fmt.Fprintf(w, "\nJetStream per order (writes: stream sequences; deliveries: consumer sequences; counted after each scenario's pause)\n")
	fmt.Fprintf(w, "%-34s", "")
	for _, n := range names {
		fmt.Fprintf(w, " %9s", n)
	}
	fmt.Fprintln(w)
	row := func(label string, f func(perOrder) float64) {
		fmt.Fprintf(w, "%-34s", label)
		for _, p := range per {
			fmt.Fprintf(w, " %9.2f", f(p))
		}
		fmt.Fprintln(w)
	}
	row("writes", func(p perOrder) float64 { return sum(p.writes) })
	for _, k := range keys(func(p perOrder) map[string]float64 { return p.writes }) {
		row("  "+k, func(p perOrder) float64 { return p.writes[k] })
	}
	row("deliveries", func(p perOrder) float64 { return sum(p.deliveries) })
	for _, k := range keys(func(p perOrder) map[string]float64 { return p.deliveries }) {
		row("  "+k, func(p perOrder) float64 { return p.deliveries[k] })
	}
}
