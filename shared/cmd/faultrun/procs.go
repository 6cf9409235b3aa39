package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// proc is one child process the run starts, kills and restarts: a NATS node
// or a tradeapi role. Its output, over every start, goes to one log file.
type proc struct {
	name  string
	bin   string
	args  []string
	env   []string
	dir   string
	ready string // URL answering 200 once the process is ready
	log   string // log file

	mu       sync.Mutex
	cmd      *exec.Cmd
	done     chan struct{} // closed when the current start has exited
	expected bool          // the current start is being stopped by the run
	starts   int
}

// exit is a process ending that the run did not cause.
type exit struct {
	name  string
	at    time.Time
	state string
}

// supervisor owns every child process: it starts them each in their own
// process group, records the ones that exit on their own, and kills what is
// left when the run ends, whatever way it ends.
type supervisor struct {
	mu     sync.Mutex
	procs  []*proc
	exits  []exit
	client *http.Client
}

func newSupervisor() *supervisor {
	return &supervisor{client: &http.Client{Timeout: 2 * time.Second}}
}

// add registers a process without starting it.
func (s *supervisor) add(p *proc) *proc {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.procs = append(s.procs, p)
	return p
}

// start starts p and returns once it has started (not once it is ready).
func (s *supervisor) start(p *proc) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil && !isDone(p.done) {
		return fmt.Errorf("%s is already running", p.name)
	}
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	p.starts++
	fmt.Fprintf(f, "=== faultrun: start %d of %s at %s\n", p.starts, p.name, time.Now().UTC().Format(time.RFC3339Nano))
	cmd := exec.Command(p.bin, p.args...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("start %s: %w", p.name, err)
	}
	done := make(chan struct{})
	p.cmd, p.done, p.expected = cmd, done, false
	go func() {
		err := cmd.Wait()
		f.Close()
		p.mu.Lock()
		expected := p.expected
		p.mu.Unlock()
		if !expected {
			state := "exited"
			if err != nil {
				state = err.Error()
			}
			s.mu.Lock()
			s.exits = append(s.exits, exit{name: p.name, at: time.Now(), state: state})
			s.mu.Unlock()
		}
		close(done)
	}()
	return nil
}

// waitReady polls p's readiness URL until it answers 200.
func (s *supervisor) waitReady(ctx context.Context, p *proc, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		p.mu.Lock()
		done := p.done
		p.mu.Unlock()
		if isDone(done) {
			return fmt.Errorf("%s exited before it was ready (see %s)", p.name, filepath.Base(p.log))
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.ready, nil)
		if resp, err := s.client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %s (see %s)", p.name, limit, filepath.Base(p.log))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stop signals p's process group and waits for it to exit, up to limit;
// past it the group is killed. It returns how long the exit took and
// whether it came within limit.
func (s *supervisor) stop(p *proc, sig syscall.Signal, limit time.Duration) (time.Duration, bool) {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	if cmd == nil || isDone(done) {
		p.mu.Unlock()
		return 0, true
	}
	p.expected = true
	p.mu.Unlock()
	start := time.Now()
	_ = syscall.Kill(-cmd.Process.Pid, sig)
	select {
	case <-done:
		return time.Since(start), true
	case <-time.After(limit):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return time.Since(start), false
	}
}

// pid returns the process id of p's current start, or 0.
func (p *proc) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || isDone(p.done) {
		return 0
	}
	return p.cmd.Process.Pid
}

// killAll kills the process group of every child still running and waits
// for each.
func (s *supervisor) killAll() {
	s.mu.Lock()
	procs := append([]*proc(nil), s.procs...)
	s.mu.Unlock()
	for _, p := range procs {
		s.stop(p, syscall.SIGKILL, 5*time.Second)
	}
}

// unexpected returns the exits the run did not cause.
func (s *supervisor) unexpected() []exit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]exit(nil), s.exits...)
}

func isDone(ch chan struct{}) bool {
	if ch == nil {
		return true
	}
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// errInterrupted ends a run stopped by a signal.
var errInterrupted = errors.New("interrupted")
