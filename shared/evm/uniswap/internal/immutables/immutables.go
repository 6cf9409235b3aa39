// Package immutables finds where a contract's creation code writes its
// immutable variables into the runtime code it returns.
//
// solc (0.6.5 and later) compiles an immutable into the runtime code as a
// PUSH32 whose 32 bytes the artifact leaves zero; the creation code copies
// the runtime code into memory with CODECOPY, overwrites each of those
// placeholders with an MSTORE of the value, and RETURNs the memory. solc's
// standard JSON output lists the placeholders (immutableReferences), but
// Hardhat artifacts drop that list. Find recovers it exactly by running the
// creation code in go-ethereum's EVM and recording those MSTOREs, so the
// ranges do not depend on the values written (a zero value is still
// stored) nor on guessing at PUSH32 0 patterns.
package immutables

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"sort"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
)

// Range is the byte range [Start, Start+Length) of runtime code.
type Range struct {
	Start, Length int
}

// Step is one message of the setup that leads to the creation traced: a
// deployment of Data when Create is set, else a call with Data to the
// contract deployed by step Target.
type Step struct {
	Create bool
	Target int
	Data   []byte
}

// Find runs steps, in order, from a funded account on an empty in-memory
// chain, traces the first contract creation whose init code starts with
// creation, and returns the runtime code that creation returned and the
// ranges its creation code wrote after copying the runtime code into
// memory: the immutables.
func Find(creation []byte, steps []Step) ([]byte, []Range, error) {
	t := &tracer{creation: creation}
	db, err := state.New(types.EmptyRootHash, state.NewDatabaseForTesting())
	if err != nil {
		return nil, nil, err
	}
	// runtime's default chain rules are Cancun's: EIP-170's 24576-byte
	// code limit applies, as on the chains the contracts run on.
	cfg := &runtime.Config{
		Origin:    common.HexToAddress("0x00000000000000000000000000000000000d3b10"),
		State:     db,
		EVMConfig: vm.Config{Tracer: t.hooks()},
	}
	var created []common.Address
	for i, s := range steps {
		if s.Create {
			var addr common.Address
			_, addr, _, err = runtime.Create(s.Data, cfg)
			created = append(created, addr)
		} else {
			if s.Target < 0 || s.Target >= len(created) || created[s.Target] == (common.Address{}) {
				return nil, nil, fmt.Errorf("step %d: target step %d deployed nothing", i, s.Target)
			}
			created = append(created, common.Address{})
			_, _, err = runtime.Call(created[s.Target], s.Data, cfg)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("step %d: %w", i, err)
		}
		if t.err != nil {
			return nil, nil, t.err
		}
		if t.done {
			return t.code, t.ranges, nil
		}
	}
	return nil, nil, errors.New("no step created a contract with that creation code")
}

// Check verifies ranges against the official runtime code: the placeholders
// are zero in it, and code, the runtime code a creation returned, equals it
// outside the ranges.
func Check(official, code []byte, ranges []Range) error {
	if len(code) != len(official) {
		return fmt.Errorf("created runtime code is %d bytes, the official one %d", len(code), len(official))
	}
	masked := bytes.Clone(code)
	for _, r := range ranges {
		if r.Start < 0 || r.Length <= 0 || r.Start+r.Length > len(official) {
			return fmt.Errorf("range %d+%d outside the code", r.Start, r.Length)
		}
		for i := r.Start; i < r.Start+r.Length; i++ {
			if official[i] != 0 {
				return fmt.Errorf("range %d+%d covers a non-zero byte of the official code at %d", r.Start, r.Length, i)
			}
			masked[i] = 0
		}
	}
	if !bytes.Equal(masked, official) {
		for i := range masked {
			if masked[i] != official[i] {
				return fmt.Errorf("created runtime code differs from the official one at byte %d outside the immutables", i)
			}
		}
	}
	return nil
}

// tracer records the memory writes of one creation frame.
type tracer struct {
	creation []byte

	active bool
	depth  int // the frame's depth in OnEnter and OnExit terms
	copied bool
	copyTo uint64
	stores []uint64 // MSTORE offsets since the frame's last CODECOPY
	retOff uint64
	retLen uint64

	done   bool
	code   []byte
	ranges []Range
	err    error
}

func (t *tracer) hooks() *tracing.Hooks {
	return &tracing.Hooks{
		OnEnter:  t.onEnter,
		OnExit:   t.onExit,
		OnOpcode: t.onOpcode,
	}
}

func (t *tracer) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

func (t *tracer) onEnter(depth int, typ byte, _, _ common.Address, input []byte, _ uint64, _ *big.Int) {
	if t.done || t.active {
		return
	}
	if op := vm.OpCode(typ); (op == vm.CREATE || op == vm.CREATE2) && bytes.HasPrefix(input, t.creation) {
		t.active, t.depth = true, depth
	}
}

func (t *tracer) onOpcode(_ uint64, op byte, _, _ uint64, scope tracing.OpContext, _ []byte, depth int, _ error) {
	// The EVM reports a frame's opcodes one level deeper than its entry.
	if !t.active || depth != t.depth+1 {
		return
	}
	stack := scope.StackData()
	arg := func(i int) (uint64, bool) {
		v := &stack[len(stack)-1-i]
		return v.Uint64(), v.IsUint64()
	}
	switch vm.OpCode(op) {
	case vm.CODECOPY:
		to, ok := arg(0)
		if !ok {
			t.fail(errors.New("CODECOPY to an offset beyond 64 bits"))
			return
		}
		t.copied, t.copyTo, t.stores = true, to, nil
	case vm.MSTORE:
		if !t.copied {
			return
		}
		off, ok := arg(0)
		if !ok {
			t.fail(errors.New("MSTORE to an offset beyond 64 bits"))
			return
		}
		t.stores = append(t.stores, off)
	case vm.MSTORE8:
		if t.copied {
			// solc never writes an immutable byte by byte; one would fall
			// outside what this tracer understands.
			t.fail(errors.New("MSTORE8 after the runtime code was copied"))
		}
	case vm.RETURN:
		off, ok1 := arg(0)
		n, ok2 := arg(1)
		if !ok1 || !ok2 {
			t.fail(errors.New("RETURN beyond 64 bits"))
			return
		}
		t.retOff, t.retLen = off, n
	}
}

func (t *tracer) onExit(depth int, output []byte, _ uint64, err error, reverted bool) {
	if !t.active || depth != t.depth {
		return
	}
	t.active, t.done = false, true
	if err != nil || reverted {
		t.fail(fmt.Errorf("the traced creation failed: %v", err))
		return
	}
	if !t.copied || t.copyTo != t.retOff {
		t.fail(errors.New("the traced creation did not return the code it copied"))
		return
	}
	t.code = bytes.Clone(output)
	seen := map[uint64]bool{}
	for _, s := range t.stores {
		end := t.retOff + t.retLen
		switch {
		case s+32 <= t.retOff || s >= end:
			// Scratch memory outside the returned code.
		case s < t.retOff || s+32 > end:
			t.fail(fmt.Errorf("MSTORE at %d straddles the returned code [%d, %d)", s, t.retOff, end))
			return
		case !seen[s]:
			seen[s] = true
			t.ranges = append(t.ranges, Range{Start: int(s - t.retOff), Length: 32})
		}
	}
	sort.Slice(t.ranges, func(i, j int) bool { return t.ranges[i].Start < t.ranges[j].Start })
	for i := 1; i < len(t.ranges); i++ {
		if t.ranges[i-1].Start+t.ranges[i-1].Length > t.ranges[i].Start {
			t.fail(fmt.Errorf("overlapping immutables at %d and %d", t.ranges[i-1].Start, t.ranges[i].Start))
			return
		}
	}
}
