package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// call is one request of a scenario: it returns the answer's HTTP status
// and, for an answer that is not a 200, its body; err is a request that got
// no answer.
type call func(worker, i int) (status int, body []byte, err error)

// result is what a scenario measured.
type result struct {
	lat      []time.Duration // sorted
	elapsed  time.Duration   // from the first request to the last answer
	statuses map[int]int     // by status; -1 is no answer
	errors   int             // answers other than 200, and no answers
	firstErr string          // the first error, for diagnosis
}

func (r *result) n() int { return len(r.lat) }

// pct returns the p-quantile of the latencies (0 <= p <= 1).
func (r *result) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	return r.lat[int(p*float64(len(r.lat)-1))]
}

// rate is the answered requests per second over the scenario.
func (r *result) rate() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(len(r.lat)-r.errors) / r.elapsed.Seconds()
}

// recorder collects the outcomes of one scenario from many goroutines.
type recorder struct {
	mu  sync.Mutex
	res result
}

func newRecorder(capacity int) *recorder {
	return &recorder{res: result{lat: make([]time.Duration, 0, capacity), statuses: map[int]int{}}}
}

func (r *recorder) add(d time.Duration, status int, body []byte, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.res.lat = append(r.res.lat, d)
	if err != nil {
		status = -1
	}
	r.res.statuses[status]++
	if status == http.StatusOK {
		return
	}
	r.res.errors++
	if r.res.firstErr == "" {
		if err != nil {
			r.res.firstErr = err.Error()
		} else {
			r.res.firstErr = fmt.Sprintf("%d %s", status, bytes.TrimSpace(body))
		}
	}
}

func (r *recorder) done(elapsed time.Duration) *result {
	r.mu.Lock()
	defer r.mu.Unlock()
	slices.Sort(r.res.lat)
	r.res.elapsed = elapsed
	return &r.res
}

// sequential sends one request at a time for dur, or until limit requests:
// the unloaded latency of one connection.
func sequential(dur time.Duration, limit int, do call) *result {
	rec := newRecorder(1024)
	start := time.Now()
	stop := start.Add(dur)
	for i := 0; i < limit && time.Now().Before(stop); i++ {
		t := time.Now()
		status, body, err := do(0, i)
		rec.add(time.Since(t), status, body, err)
	}
	return rec.done(time.Since(start))
}

// closedLoop keeps conns requests in flight for dur, each connection
// sending its next request when the last is answered: the throughput at
// that concurrency.
func closedLoop(conns int, dur time.Duration, do call) *result {
	rec := newRecorder(4096)
	start := time.Now()
	stop := start.Add(dur)
	var wg sync.WaitGroup
	for w := 0; w < conns; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(stop); i++ {
				t := time.Now()
				status, body, err := do(w, i)
				rec.add(time.Since(t), status, body, err)
			}
		}()
	}
	wg.Wait()
	return rec.done(time.Since(start))
}

// openLoop sends rate requests per second for dur whatever the answers'
// speed, so the latency includes any queueing in the service. Each
// request's latency runs from the moment it is sent.
func openLoop(rate int, dur time.Duration, do call) *result {
	interval := time.Second / time.Duration(rate)
	total := int(dur.Seconds() * float64(rate))
	rec := newRecorder(total)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < total; i++ {
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.Now()
			status, body, err := do(i, i)
			rec.add(time.Since(t), status, body, err)
		}()
	}
	wg.Wait()
	return rec.done(time.Since(start))
}

// httpDo sends one request and reads the whole answer, keeping the body of
// an answer that is not a 200 for the report.
func httpDo(c *http.Client, method, url, key string, body []byte, header map[string]string) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, nil, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		_, err = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, nil, err
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1024))
	return resp.StatusCode, b, err
}
