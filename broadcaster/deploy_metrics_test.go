package broadcaster

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/tradeapi/tradeapi/shared/metrics"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// verdictChain's relay refuses every bundle (refuse), or takes it and
// gives verdict a moment (wait) after it took it.
type verdictChain struct {
	slowRelayChain
	refuse  bool
	verdict Status
	wait    time.Duration
	tookAt  atomic.Int64
}

func (c *verdictChain) Statuses(_ context.Context, sigs []string) ([]Status, error) {
	return make([]Status, len(sigs)), nil
}
func (c *verdictChain) Height(context.Context) (uint64, error) { return 900, nil }
func (c *verdictChain) SendBundle(_ context.Context, txs []wire.SignedTx) (string, error) {
	if c.refuse {
		return "", &Refused{Reason: "bundle rejected by the relay"}
	}
	c.tookAt.Store(time.Now().UnixNano())
	return txs[0].Signature, nil
}
func (c *verdictChain) BundleOutcome(context.Context, string, []wire.SignedTx) (Status, error) {
	if time.Since(time.Unix(0, c.tookAt.Load())) < c.wait {
		return Status{}, nil
	}
	return c.verdict, nil
}

// landing reads the count and sum of a landing-duration histogram.
func landing(chain, sender string) (uint64, float64) {
	var m dto.Metric
	if err := metrics.Landing.WithLabelValues(chain, sender).(prometheus.Metric).Write(&m); err != nil {
		return 0, 0
	}
	return m.GetHistogram().GetSampleCount(), m.GetHistogram().GetSampleSum()
}

// TestLaunchBundlesCountedAsRelaySends: a launch's bundle is counted in
// tradeapi_transactions_total as the tracker counts a swap's relay sends
// (sent, then confirmed, failed when it landed with an error, dropped when
// the relay failed or dropped it; send_failed only when the relay refused
// the send), and a bundle that landed observes its transactions' landing
// time in tradeapi_landing_duration_seconds{sender="relay"}.
func TestLaunchBundlesCountedAsRelaySends(t *testing.T) {
	for _, tc := range []struct {
		name  string
		chain *verdictChain
		want  map[string]float64
	}{
		{"landed", &verdictChain{verdict: Status{State: wire.StateConfirmed, Slot: 900_000}, wait: 150 * time.Millisecond},
			map[string]float64{metrics.TxSent: 2, metrics.TxConfirmed: 2}},
		{"landed with an error", &verdictChain{verdict: Status{State: wire.StateFailed, Slot: 900_000, Err: "instruction 1 failed"}},
			map[string]float64{metrics.TxSent: 2, metrics.TxFailed: 2}},
		{"failed by the relay", &verdictChain{verdict: Status{State: wire.StateFailed, Err: "bundle failed"}},
			map[string]float64{metrics.TxSent: 2, metrics.TxDropped: 2}},
		{"refused when sent", &verdictChain{refuse: true},
			map[string]float64{metrics.TxSendFailed: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipeline(t)
			p.start(t, Config{Poll: 20 * time.Millisecond}, map[string]Chain{wire.ChainSolana: tc.chain})
			id := fmt.Sprintf("eu-deploy-counted-%d", time.Now().UnixNano())
			b := batchOf(id, wire.ChainSolana, wire.FamilySol,
				wire.SignedTx{Wallet: "w", Signature: "5j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7", Raw: []byte{1}, Bundle: 1, Kind: "create", Mint: "m"},
				wire.SignedTx{Wallet: "w", Signature: "4j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TFg9wSyTLeYouxPBJEMzJinENTkpA52YStRW5Dia7", Raw: []byte{2}, Bundle: 1, Kind: "buy", Mint: "m"})
			b.Kind, b.Mints = wire.KindDeploy, []string{"m"}
			outcomes := []string{metrics.TxSent, metrics.TxSendFailed, metrics.TxConfirmed, metrics.TxFailed, metrics.TxDropped, metrics.TxExpired}
			before := map[string]float64{}
			for _, o := range outcomes {
				before[o] = value(metrics.Transactions.With(wire.ChainSolana, metrics.SenderRelay, o))
			}
			landings, landingSum := landing(wire.ChainSolana, metrics.SenderRelay)
			p.send(t, b)
			for _, o := range outcomes {
				if got := value(metrics.Transactions.With(wire.ChainSolana, metrics.SenderRelay, o)) - before[o]; got != tc.want[o] {
					t.Errorf("outcome %s counted %v, want %v", o, got, tc.want[o])
				}
			}
			n, sum := landing(wire.ChainSolana, metrics.SenderRelay)
			want := uint64(0)
			if tc.want[metrics.TxConfirmed] > 0 {
				want = 2
			}
			if n-landings != want {
				t.Fatalf("landing durations observed %d, want %d", n-landings, want)
			}
			if want > 0 && (sum-landingSum < 2*0.15 || sum-landingSum > 2*5) {
				t.Fatalf("landing durations sum %.3f s for 2 transactions that landed 0.15 s after the relay took them", sum-landingSum)
			}
		})
	}
}
