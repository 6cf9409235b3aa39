package main

// The CPU profile is split by role here rather than with the pprof module,
// which is not among the module's requirements: a Go CPU profile is a
// gzipped profile.proto message (github.com/google/pprof/proto/profile.proto),
// of which this reads the samples, their labels and their functions.

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"time"
)

// Profile labels of this program's own goroutines, beside the service's
// (service.LabelRole and its roles).
const (
	labelRole   = "role"
	roleLoadgen = "loadgen" // the load generator's client
	roleFloor   = "floor"   // the bare handler
	roleGC      = "gc"      // the garbage collector's own workers, whoever allocated
	roleRuntime = "runtime" // anything else without a label
)

// pipelineRoles are the roles of the service's own work on an order,
// apart from the local chains.
var pipelineRoles = []string{"ingress", "worker", "broadcaster", "exits", "registry", "nats", "metrics"}

// cpuSplit is the CPU time of a profile by role.
type cpuSplit struct {
	total  time.Duration
	byRole map[string]time.Duration
}

// splitProfile reads a CPU profile and adds up its samples' CPU time by
// role. The role label decides, except where it cannot: a sample labelled
// nats (the goroutines the composition root starts outside its components)
// whose stack runs through one of the service's role packages is that
// role's, since the local chains' clocks and the handlers subscribed at
// start-up begin there too; and a sample with no role label at all is
// classified by its stack, because the NATS server and pebble label their
// own goroutines afresh, dropping the label they were started with.
func splitProfile(r io.Reader) (*cpuSplit, error) {
	p, err := decodeProfile(r)
	if err != nil {
		return nil, err
	}
	vi := -1
	for i, t := range p.sampleTypes {
		if t == "cpu" {
			vi = i
		}
	}
	if vi < 0 {
		return nil, errors.New("not a CPU profile")
	}
	s := &cpuSplit{byRole: map[string]time.Duration{}}
	for _, smp := range p.samples {
		if vi >= len(smp.values) {
			continue
		}
		role := smp.labels[labelRole]
		if role == "" || role == "nats" {
			switch r := p.roleOfStack(smp.locations); {
			case r != "":
				role = r
			case role != "":
			case p.hasFunction(smp.locations, "runtime.gcBgMarkWorker"):
				role = roleGC
			default:
				role = roleRuntime
			}
		}
		d := time.Duration(smp.values[vi])
		s.byRole[role] += d
		s.total += d
	}
	return s, nil
}

// rolePackages maps packages to the role whose work they do; the first
// prefix that matches wins.
var rolePackages = []struct{ prefix, role string }{
	{"github.com/tradeapi/tradeapi/ingress", "ingress"},
	{"github.com/tradeapi/tradeapi/workers/exits", "exits"},
	{"github.com/tradeapi/tradeapi/workers", "worker"},
	{"github.com/tradeapi/tradeapi/broadcaster", "broadcaster"},
	{"github.com/tradeapi/tradeapi/shared/registry", "registry"},
	{"github.com/tradeapi/tradeapi/shared/devnet", "devnet"},
	// The local EVM chains are the only go-ethereum and pebble code whose
	// goroutines start outside a component.
	{"github.com/ethereum/go-ethereum", "devnet"},
	{"github.com/cockroachdb/pebble", "devnet"},
	{"github.com/nats-io/nats-server", "nats"},
}

// roleOfStack returns the role of the frame nearest the leaf that belongs
// to one of rolePackages, or "".
func (p *profile) roleOfStack(locs []uint64) string {
	for _, id := range locs {
		for _, fn := range p.locations[id] {
			name := p.functions[fn]
			for _, rp := range rolePackages {
				if strings.HasPrefix(name, rp.prefix) {
					return rp.role
				}
			}
		}
	}
	return ""
}

// hasFunction reports whether the stack runs through the function name.
func (p *profile) hasFunction(locs []uint64, name string) bool {
	for _, id := range locs {
		for _, fn := range p.locations[id] {
			if p.functions[fn] == name {
				return true
			}
		}
	}
	return false
}

// printSplit prints the CPU time of each role per 1,000 orders, and the
// pipeline's apart from the local chains and this program.
func printSplit(w io.Writer, s *cpuSplit, orders int, window time.Duration) {
	if orders == 0 {
		fmt.Fprintln(w, "cpu: no order answered 200 while profiling")
		return
	}
	per := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(orders) }
	fmt.Fprintf(w, "\nCPU by role while the order scenarios ran (%d orders answered 200 in %.1fs; %.2f CPU s of %.2f available)\n",
		orders, window.Seconds(), s.total.Seconds(), float64(runtime.NumCPU())*window.Seconds())
	fmt.Fprintf(w, "%-12s %10s %8s %14s\n", "role", "cpu s", "share", "cpu s / 1000")
	roles := make([]string, 0, len(s.byRole))
	for r := range s.byRole {
		roles = append(roles, r)
	}
	sort.Slice(roles, func(i, j int) bool { return s.byRole[roles[i]] > s.byRole[roles[j]] })
	for _, r := range roles {
		d := s.byRole[r]
		fmt.Fprintf(w, "%-12s %10.2f %7.1f%% %14.3f\n", r, d.Seconds(), 100*d.Seconds()/s.total.Seconds(), per(d))
	}
	var pipe time.Duration
	for _, r := range pipelineRoles {
		pipe += s.byRole[r]
	}
	fmt.Fprintf(w, "pipeline (%s): %.3f CPU s per 1000 orders (%.0f µs per order); local chains %.3f; garbage collector (whole process) %.3f; load generator %.3f\n",
		strings.Join(pipelineRoles, "+"), per(pipe), per(pipe)*1000, per(s.byRole["devnet"]), per(s.byRole[roleGC]), per(s.byRole[roleLoadgen]))
}

// profile is the part of a decoded profile.proto that the split needs.
type profile struct {
	sampleTypes []string
	samples     []sample
	locations   map[uint64][]uint64 // location id -> function ids, leaf first
	functions   map[uint64]string   // function id -> name
}

type sample struct {
	locations []uint64 // leaf first
	values    []int64
	labels    map[string]string
}

// decodeProfile decodes a gzipped (or plain) profile.proto message.
func decodeProfile(r io.Reader) (*profile, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		if raw, err = io.ReadAll(zr); err != nil {
			return nil, err
		}
	}
	// Strings are indexes into the string table, which may come last: the
	// message is read once into indexes, then resolved.
	var (
		strs     []string
		types    []int64 // string index of each sample type
		rawSamps []rawSample
		funcs    = map[uint64]int64{} // function id -> name index
		p        = &profile{locations: map[uint64][]uint64{}, functions: map[uint64]string{}}
	)
	err = fields(raw, func(num int, wt int, v uint64, b []byte) error {
		switch num {
		case 1: // sample_type: ValueType{type=1}
			var t int64
			err := fields(b, func(n, _ int, v uint64, _ []byte) error {
				if n == 1 {
					t = int64(v)
				}
				return nil
			})
			types = append(types, t)
			return err
		case 2:
			s, err := decodeSample(b)
			rawSamps = append(rawSamps, s)
			return err
		case 4: // location: id=1, line=4{function_id=1}
			var id uint64
			var fns []uint64
			err := fields(b, func(n, _ int, v uint64, b []byte) error {
				switch n {
				case 1:
					id = v
				case 4:
					return fields(b, func(n, _ int, v uint64, _ []byte) error {
						if n == 1 {
							fns = append(fns, v)
						}
						return nil
					})
				}
				return nil
			})
			p.locations[id] = fns
			return err
		case 5: // function: id=1, name=2
			var id uint64
			var name int64
			err := fields(b, func(n, _ int, v uint64, _ []byte) error {
				switch n {
				case 1:
					id = v
				case 2:
					name = int64(v)
				}
				return nil
			})
			funcs[id] = name
			return err
		case 6:
			strs = append(strs, string(b))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("decode profile: %w", err)
	}
	str := func(i int64) string {
		if i < 0 || int(i) >= len(strs) {
			return ""
		}
		return strs[i]
	}
	for _, t := range types {
		p.sampleTypes = append(p.sampleTypes, str(t))
	}
	for id, n := range funcs {
		p.functions[id] = str(n)
	}
	for _, rs := range rawSamps {
		s := sample{locations: rs.locations, values: rs.values}
		if len(rs.labels) > 0 {
			s.labels = map[string]string{}
			for _, l := range rs.labels {
				s.labels[str(l[0])] = str(l[1])
			}
		}
		p.samples = append(p.samples, s)
	}
	return p, nil
}

type rawSample struct {
	locations []uint64
	values    []int64
	labels    [][2]int64 // key, string value
}

// decodeSample reads a Sample: location_id=1 and value=2, packed or not,
// and label=3{key=1, str=2}.
func decodeSample(b []byte) (rawSample, error) {
	var s rawSample
	err := fields(b, func(n, wt int, v uint64, b []byte) error {
		switch n {
		case 1, 2:
			vals := []uint64{v}
			if wt == wireBytes {
				var err error
				if vals, err = packed(b); err != nil {
					return err
				}
			}
			for _, x := range vals {
				if n == 1 {
					s.locations = append(s.locations, x)
				} else {
					s.values = append(s.values, int64(x))
				}
			}
		case 3:
			var l [2]int64
			err := fields(b, func(n, _ int, v uint64, _ []byte) error {
				if n == 1 || n == 2 {
					l[n-1] = int64(v)
				}
				return nil
			})
			s.labels = append(s.labels, l)
			return err
		}
		return nil
	})
	return s, err
}

// Protocol buffer wire types.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// fields calls f for each field of a message: its number, wire type, and
// its value (varint) or bytes (length-delimited). Fixed-size fields are
// skipped; the profile has none that the split reads.
func fields(b []byte, f func(num, wt int, v uint64, b []byte) error) error {
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return errors.New("bad field key")
		}
		b = b[n:]
		num, wt := int(key>>3), int(key&7)
		switch wt {
		case wireVarint:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return errors.New("bad varint")
			}
			b = b[n:]
			if err := f(num, wt, v, nil); err != nil {
				return err
			}
		case wireBytes:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return errors.New("bad length")
			}
			if err := f(num, wt, 0, b[n:n+int(l)]); err != nil {
				return err
			}
			b = b[n+int(l):]
		case wireFixed64:
			if len(b) < 8 {
				return errors.New("short fixed64")
			}
			b = b[8:]
		case wireFixed32:
			if len(b) < 4 {
				return errors.New("short fixed32")
			}
			b = b[4:]
		default:
			return fmt.Errorf("wire type %d", wt)
		}
	}
	return nil
}

// packed reads a packed run of varints.
func packed(b []byte) ([]uint64, error) {
	var out []uint64
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errors.New("bad packed varint")
		}
		out = append(out, v)
		b = b[n:]
	}
	return out, nil
}
