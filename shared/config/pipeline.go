package config

import (
	"errors"
	"fmt"
	"time"
)

// Pipeline is the `pipeline:` section: how orders move.
type Pipeline struct {
	// RequestTimeout is how long ingress waits for an order's answer.
	RequestTimeout time.Duration `yaml:"request_timeout"`
	// JobMaxAge: a job older than this is not executed any more (a bot
	// that got 504 long ago must not be surprised by a late trade).
	JobMaxAge time.Duration `yaml:"job_max_age"`
	// WorkersPerChain is how many jobs one worker process handles at once.
	WorkersPerChain int `yaml:"workers_per_chain"`
	// DefaultSlippagePct applies when a swap omits slippage.
	DefaultSlippagePct float64 `yaml:"default_slippage_pct"`
	// MaxPending bounds the jobs waiting for one chain's workers; past it,
	// ingress answers 503 OVERLOADED at once. 0 turns the bound off.
	MaxPending uint64 `yaml:"max_pending"`
}

// MaxWorkersPerChain bounds pipeline.workers_per_chain: sixteen times the
// default, more jobs at once than a chain's RPC provider answers in
// parallel. The worker's pool is sized by it and its consumer lets ten
// times as many jobs wait for their acks, so a figure past any use would
// take the process's memory before it started.
const MaxWorkersPerChain = 1024

// DefaultPipeline returns the defaults of the `pipeline:` section.
func DefaultPipeline() Pipeline {
	return Pipeline{
		RequestTimeout:     10 * time.Second,
		JobMaxAge:          30 * time.Second,
		WorkersPerChain:    64,
		DefaultSlippagePct: 10,
		MaxPending:         5000,
	}
}

// Validate checks the section; errors name the keys.
func (p *Pipeline) Validate() error {
	var errs []error
	if err := requestTimeoutBounds.check("pipeline.request_timeout", p.RequestTimeout); err != nil {
		errs = append(errs, err)
	}
	if err := jobMaxAgeBounds.check("pipeline.job_max_age", p.JobMaxAge); err != nil {
		errs = append(errs, err)
	}
	if p.WorkersPerChain < 1 || p.WorkersPerChain > MaxWorkersPerChain {
		errs = append(errs, fmt.Errorf("pipeline.workers_per_chain: %d is not 1 to %d", p.WorkersPerChain, MaxWorkersPerChain))
	}
	// Written so that NaN, for which every comparison is false, is out
	// of range too (it was taken, and read as no slippage at all).
	if !(p.DefaultSlippagePct >= 0 && p.DefaultSlippagePct <= 100) {
		errs = append(errs, fmt.Errorf("pipeline.default_slippage_pct: %v is not 0 to 100", p.DefaultSlippagePct))
	}
	return errors.Join(errs...)
}

// Exits is the `exits:` section: the auto-order engine (the exits role).
type Exits struct {
	// PollInterval is how often the price of each watched token is read
	// from its chain; one read serves every position of the token.
	PollInterval time.Duration `yaml:"poll_interval"`
	// ReadConcurrency bounds the price reads in flight at once.
	ReadConcurrency int `yaml:"read_concurrency"`
	// SellSlippagePct is the slippage of the sells the exits publish.
	SellSlippagePct float64 `yaml:"sell_slippage_pct"`
	// AutoTip lets the worker choose the fee and tip of exit sells, as
	// auto_tip does (under the account's fee caps); otherwise they pay
	// none.
	AutoTip bool `yaml:"auto_tip"`
	// MaxAttempts is how many sells one exit publishes when they fail on
	// chain, before it gives up.
	MaxAttempts int `yaml:"max_attempts"`
}

// MaxReadConcurrency bounds exits.read_concurrency, as MaxWorkersPerChain
// bounds the workers' jobs: past it the reads are no longer bounded in
// any way a chain's RPC provider would take.
const MaxReadConcurrency = 1024

// DefaultExits returns the defaults of the `exits:` section.
func DefaultExits() Exits {
	return Exits{
		PollInterval:    500 * time.Millisecond,
		ReadConcurrency: 32,
		SellSlippagePct: 20,
		MaxAttempts:     3,
	}
}

// Validate checks the section; errors name the keys.
func (e *Exits) Validate() error {
	var errs []error
	if err := pollBounds.check("exits.poll_interval", e.PollInterval); err != nil {
		errs = append(errs, err)
	}
	if e.ReadConcurrency < 1 || e.ReadConcurrency > MaxReadConcurrency {
		errs = append(errs, fmt.Errorf("exits.read_concurrency: %d is not 1 to %d", e.ReadConcurrency, MaxReadConcurrency))
	}
	if e.MaxAttempts < 1 {
		errs = append(errs, fmt.Errorf("exits.max_attempts: %d is not at least 1", e.MaxAttempts))
	}
	if !(e.SellSlippagePct >= 0 && e.SellSlippagePct <= 100) { // NaN too
		errs = append(errs, fmt.Errorf("exits.sell_slippage_pct: %v is not 0 to 100", e.SellSlippagePct))
	}
	return errors.Join(errs...)
}
