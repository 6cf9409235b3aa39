package service

import (
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// handed are the ports freeAddrs gave out in this test process: never
// twice.
var handed = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

// freeAddrs returns n distinct 127.0.0.1 addresses nothing listens on now,
// for a service the test starts on them. The ports are picked below the
// kernel's ephemeral range: one freed there may be taken by any outgoing
// connection of the machine (the other packages' tests make thousands)
// before the service binds it, which stopped a test with "address already
// in use". Below it only a listener that picks the same port at random can
// (startUpLog tries again on that).
func freeAddrs(t testing.TB, n int) []string {
	t.Helper()
	handed.Lock()
	defer handed.Unlock()
	lo, hi := 20000, ephemeralLow()
	out := make([]string, 0, n)
	for tries := 0; len(out) < n; tries++ {
		if tries > 10000 {
			t.Fatalf("no free port below %d after %d tries", hi, tries)
		}
		p := lo + rand.IntN(hi-lo)
		if handed.ports[p] {
			continue
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(p))
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			continue
		}
		_ = ln.Close()
		handed.ports[p] = true
		out = append(out, addr)
	}
	return out
}

// freeAddr is one of freeAddrs.
func freeAddr(t testing.TB) string {
	t.Helper()
	return freeAddrs(t, 1)[0]
}

// ephemeralLow is where the kernel's range of ports for outgoing
// connections begins (Linux's default when it cannot be read).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 32768
	}
	lo, err := strconv.Atoi(f[0])
	if err != nil || lo <= 21000 {
		return 32768
	}
	return lo
}
