package bus_test

import (
	"net"
	"sync"
	"testing"
)

// pausingProxy passes bytes between NATS clients and the server at target,
// and while paused reads nothing (the bytes wait in the sockets), as a
// process stopped for a while would: nothing is lost, all of it late.
type pausingProxy struct {
	mu     sync.Mutex
	paused bool
	resume *sync.Cond
}

func startPausingProxy(t *testing.T, target string) (*pausingProxy, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	p := &pausingProxy{}
	p.resume = sync.NewCond(&p.mu)
	t.Cleanup(p.thaw)
	pass := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			p.mu.Lock()
			for p.paused {
				p.resume.Wait()
			}
			p.mu.Unlock()
			n, err := src.Read(buf)
			if err != nil {
				dst.Close()
				return
			}
			if _, err := dst.Write(buf[:n]); err != nil {
				src.Close()
				return
			}
		}
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			go pass(s, c)
			go pass(c, s)
		}
	}()
	return p, ln.Addr().String()
}

// freeze stops passing bytes on, keeping the connections open, until
// thaw: a server (or client) whose process is stopped.
func (p *pausingProxy) freeze() {
	p.mu.Lock()
	p.paused = true
	p.mu.Unlock()
}

func (p *pausingProxy) thaw() {
	p.mu.Lock()
	p.paused = false
	p.resume.Broadcast()
	p.mu.Unlock()
}
