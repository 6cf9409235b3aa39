package evm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestNativeBuySimulatedWhileWalletsAreRead holds every request that reads
// the wallets (the pending nonce) until the swap's simulation reaches the
// node: a native-coin buy's swap needs nothing of the wallets, so it is
// simulated as soon as the quotes are in, not after the reads. Before,
// the held reads would have waited for a simulation that waited for them.
// Each order's swap is simulated once, by an estimate for the first buy of
// its kind on the chain and by an eth_call after that; a buy that pays a
// processor tip still waits for the reads, which give the tip's place.
func TestNativeBuySimulatedWhileWalletsAreRead(t *testing.T) {
	e := newEnv(t)
	target := e.dev.url(wire.ChainBsc)
	var (
		mu       sync.Mutex
		released chan struct{} // closed by the next simulation
		sims     atomic.Int32
		held     atomic.Int32 // reads released by a simulation
		timedOut atomic.Int32 // reads released by the bound instead
	)
	arm := func() {
		mu.Lock()
		released = make(chan struct{})
		mu.Unlock()
	}
	arm()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		ch := released
		mu.Unlock()
		switch {
		case bytes.Contains(body, []byte(`"eth_estimateGas"`)),
			bytes.Contains(body, []byte(`"eth_call"`)) && bytes.Contains(body, []byte(`"value"`)):
			sims.Add(1)
			select {
			case <-ch:
			default:
				close(ch)
			}
		case bytes.Contains(body, []byte(`"eth_getTransactionCount"`)):
			select {
			case <-ch:
				held.Add(1)
			case <-time.After(2 * time.Second):
				timedOut.Add(1)
			}
		}
		resp, err := http.Post(target, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(proxy.Close)
	dep := e.dev.chain(t, wire.ChainBsc).Deployment()
	s, err := NewSigner([]Chain{{ChainConfig: configOf(dep), Client: NewClient(e.dial(t, proxy.URL))}}, e.keys, e.nonces, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok := e.token(t, wire.ChainBsc, "", 0, 0)
	w := e.wallet(t, wire.ChainBsc, "10", nil)
	ctx := context.Background()
	for i := range 2 {
		arm()
		b, err := s.Sign(ctx, e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(w, "0.01")))
		if err != nil {
			t.Fatalf("buy %d: %v", i, err)
		}
		e.broadcast(t, b)
	}
	if n := timedOut.Load(); n > 0 {
		t.Fatalf("%d wallet reads waited for a simulation that never came: the swap was simulated after the reads", n)
	}
	if held.Load() != 2 || sims.Load() != 2 {
		t.Fatalf("%d reads released by a simulation, %d simulations, want 2 and 2 (one per order)", held.Load(), sims.Load())
	}

	t.Run("a tipped buy waits for the reads", func(t *testing.T) {
		arm()
		job := e.job(wire.ChainBsc, wire.Buy, tok.Address, "", legOf(w, "0.01"))
		job.ProcessorTip = "100000000000000"
		before := timedOut.Load()
		if _, err := s.Sign(ctx, job); err != nil {
			t.Fatal(err)
		}
		if timedOut.Load() != before+1 {
			t.Fatal("the tipped buy's swap was simulated before the wallets were read")
		}
	})
}
