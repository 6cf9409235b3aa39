package freeport

import (
	"net"
	"strconv"
	"testing"
)

// TestFreePortsOutsideTheEphemeralRange: the planned ports are distinct,
// free, and below the ephemeral range, from which the run's own outgoing
// connections would otherwise take one before its process binds it.
func TestFreePortsOutsideTheEphemeralRange(t *testing.T) {
	lo := EphemeralLow()
	seen := map[int]bool{}
	for range 50 {
		p, err := Port()
		if err != nil {
			t.Fatal(err)
		}
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
		if lo-Lowest >= 1000 && (p < Lowest || p >= lo) {
			t.Fatalf("port %d in the ephemeral range from %d", p, lo)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			t.Fatalf("port %d is not free: %v", p, err)
		}
		_ = ln.Close()
	}
}
