// Package freeport picks 127.0.0.1 ports nothing listens on, for processes
// and tests about to bind them: below the kernel's range of ephemeral
// ports where it can, since every outgoing connection of the machine takes
// its source port from that range, and one that took a port freed there
// kept the process meant for it from binding it ("bind: address already in
// use").
package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// ports are the ports handed out in this process: never twice.
var ports = struct {
	sync.Mutex
	handed map[int]bool
}{handed: map[int]bool{}}

// Lowest is where the ports handed out below the ephemeral range start.
const Lowest = 10000

// Port returns a 127.0.0.1 port nothing listens on right now, never the
// same one twice in a process. It is safe for concurrent use.
func Port() (int, error) {
	ports.Lock()
	defer ports.Unlock()
	if hi := EphemeralLow(); hi-Lowest >= 1000 {
		for range 200 {
			p := Lowest + rand.IntN(hi-Lowest)
			if ports.handed[p] {
				continue
			}
			ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
			if err != nil {
				continue
			}
			_ = ln.Close()
			ports.handed[p] = true
			return p, nil
		}
	}
	for range 200 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		p := ln.Addr().(*net.TCPAddr).Port
		_ = ln.Close()
		if !ports.handed[p] {
			ports.handed[p] = true
			return p, nil
		}
	}
	return 0, fmt.Errorf("no free port")
}

// Addrs returns n distinct 127.0.0.1 addresses (host:port) of Port.
func Addrs(n int) ([]string, error) {
	out := make([]string, n)
	for i := range out {
		p, err := Port()
		if err != nil {
			return nil, err
		}
		out[i] = net.JoinHostPort("127.0.0.1", strconv.Itoa(p))
	}
	return out, nil
}

// EphemeralLow is the first port of Linux's ephemeral range, or 0 where it
// cannot be read.
func EphemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0
	}
	lo, err := strconv.Atoi(f[0])
	if err != nil {
		return 0
	}
	return lo
}
