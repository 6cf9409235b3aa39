package main

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// The ports the plan hands out lie below the kernel's range of ephemeral
// ports where it can: every connection a process of the run opens takes
// its source port from that range, and one that took a planned port kept
// the process planned on it from binding it when it started or restarted
// ("bind: address already in use").
var ports = struct {
	sync.Mutex
	handed map[int]bool
}{handed: map[int]bool{}}

// lowestPlanned is where the ports handed out below the ephemeral range
// start.
const lowestPlanned = 10000

// freePort returns a 127.0.0.1 port nothing listens on right now, never
// the same one twice.
func freePort() (int, error) {
	ports.Lock()
	defer ports.Unlock()
	if hi := ephemeralLow(); hi-lowestPlanned >= 1000 {
		for range 200 {
			p := lowestPlanned + rand.IntN(hi-lowestPlanned)
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

// ephemeralLow is the first port of Linux's ephemeral range, or 0 where it
// cannot be read.
func ephemeralLow() int {
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
