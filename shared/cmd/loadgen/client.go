package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"time"
)

// clientJob is what a client process needs to run one scenario: the
// addresses it sends to and the bodies it sends. It carries no admin token.
type clientJob struct {
	Scenario string
	Dur      time.Duration
	Idem     bool
	Sol, EVM string // the service's listeners
	Floor    string // the bare handler in its own process
	Beside   string // the bare handler beside the service
	SolKey   string
	EVMKey   string
	SolBuys  [][]byte
	TenBuys  [][]byte
	EVMBuys  [][]byte
}

// clientResult is a result as a client process reports it.
type clientResult struct {
	Lat      []time.Duration
	Elapsed  time.Duration
	Statuses map[int]int
	Errors   int
	FirstErr string
}

// runInClient runs sc from a child process (this program run with
// -client-child) when the service runs in this process, so that the
// client's own work (its goroutines, allocations and collections) is not
// charged to the service, as it is not when bots send the orders: every
// scenario, the floors included, is then measured from another process.
func (e *env) runInClient(sc scenario) (*result, error) {
	if e.opts.remote.sol != "" {
		return sc.run(e), nil
	}
	job := clientJob{Scenario: sc.name, Dur: e.opts.dur, Idem: e.opts.idem,
		Sol: e.t.sol, EVM: e.t.evm, Floor: e.floor.url, Beside: e.besideService().url,
		SolKey: e.f.solKey, EVMKey: e.f.evmKey, SolBuys: e.solBuys, TenBuys: e.tenBuys, EVMBuys: e.evmBuys}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	in, err := json.Marshal(job)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-client-child")
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("client process for %s: %w", sc.name, err)
	}
	var cr clientResult
	if err := json.Unmarshal(out, &cr); err != nil {
		return nil, fmt.Errorf("client process for %s: %w", sc.name, err)
	}
	return &result{lat: cr.Lat, elapsed: cr.Elapsed, statuses: cr.Statuses, errors: cr.Errors, firstErr: cr.FirstErr}, nil
}

// clientChild is the child's side of runInClient: it reads the job from
// its standard input, runs the scenario and writes the result to its
// standard output.
func clientChild() error {
	var job clientJob
	if err := json.NewDecoder(os.Stdin).Decode(&job); err != nil {
		return fmt.Errorf("read the job: %w", err)
	}
	r, err := runJob(job)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}

// runJob runs a client process's scenario.
func runJob(job clientJob) (*clientResult, error) {
	sc, ok := scenarioNamed(job.Scenario)
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q", job.Scenario)
	}
	e := newEnv(options{dur: job.Dur, idem: job.Idem})
	e.t = &target{sol: job.Sol, evm: job.EVM}
	e.f = &fixture{solKey: job.SolKey, evmKey: job.EVMKey}
	e.floor, e.floorIn = &floor{url: job.Floor}, &floor{url: job.Beside}
	e.solBuys, e.tenBuys, e.evmBuys = job.SolBuys, job.TenBuys, job.EVMBuys
	r := sc.run(e)
	return &clientResult{Lat: r.lat, Elapsed: r.elapsed, Statuses: r.statuses, Errors: r.errors, FirstErr: r.firstErr}, nil
}

// scenarioNamed finds a scenario or a floor by name.
func scenarioNamed(name string) (scenario, bool) {
	for _, list := range [][]scenario{floorScenarios, scenarios, {floorSeqEnd}} {
		for _, sc := range list {
			if sc.name == name {
				return sc, true
			}
		}
	}
	return scenario{}, false
}

// newEnv returns an env with this program's two HTTP clients.
func newEnv(o options) *env {
	return &env{opts: o,
		pool: &http.Client{Timeout: 30 * time.Second,
			Transport: &http.Transport{MaxIdleConnsPerHost: 4096, IdleConnTimeout: time.Minute}},
		one: &http.Client{Timeout: 30 * time.Second,
			Transport: &http.Transport{MaxConnsPerHost: 1, MaxIdleConnsPerHost: 1, IdleConnTimeout: time.Minute}},
	}
}
