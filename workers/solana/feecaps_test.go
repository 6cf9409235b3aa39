package solana

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// feesOf returns the compute-unit price (0 without the instruction) and
// the processor tip (0 without the transfer) of a signed swap.
func feesOf(t *testing.T, st wire.SignedTx) (price, tip uint64) {
	t.Helper()
	ixs := decodeTx(t, st)
	for _, ix := range ixs {
		if ix.program == sol.ComputeBudget && len(ix.data) == 9 && ix.data[0] == 3 { // SetComputeUnitPrice
			price = binary.LittleEndian.Uint64(ix.data[1:])
		}
	}
	if last := ixs[len(ixs)-1]; last.program == sol.SystemProgramID {
		tip = binary.LittleEndian.Uint64(last.data[4:])
	}
	return price, tip
}

// TestAutoTipUnderTheCaps: what auto_tip chooses (the recent fees'
// percentile, the configured tip) is clamped to the job's fee caps, never
// above; a client's own fee above a cap is refused; anti_mev's tip floor
// above the tip cap is refused rather than paid.
func TestAutoTipUnderTheCaps(t *testing.T) {
	caps := func(fee, tip string) *wire.FeeCaps { return &wire.FeeCaps{MaxPriorityFee: fee, MaxProcessorTip: tip} }
	tests := []struct {
		name      string
		prio      []uint64 // recent prioritization fees, micro-lamports per CU
		auto      bool
		antiMEV   bool
		caps      *wire.FeeCaps
		fee, tip  string // the client's, when not auto
		wantPrice uint64
		wantTip   uint64
		wantField string // an INVALID_REQUEST naming it
	}{
		// 20e6 micro-lamports over 200k units is 4e6 lamports; the tip is
		// the configured 100_000.
		{name: "no caps on the job: the defaults, far above", prio: []uint64{20_000_000}, auto: true,
			wantPrice: 20_000_000, wantTip: 100_000},
		{name: "caps above the choice", prio: []uint64{20_000_000}, auto: true, caps: caps("5000000", "200000"),
			wantPrice: 20_000_000, wantTip: 100_000},
		{name: "choice above the caps is clamped", prio: []uint64{20_000_000}, auto: true, caps: caps("40000", "30000"),
			wantPrice: 200_000, wantTip: 30_000}, // 40_000 lamports over 200k units
		{name: "a cap not a whole unit price rounds down", prio: []uint64{20_000_000}, auto: true, caps: caps("1", "1"),
			wantPrice: 5, wantTip: 1},
		{name: "zero caps pay nothing", prio: []uint64{20_000_000}, auto: true, caps: caps("0", "0"),
			wantPrice: 0, wantTip: 0},
		{name: "anti_mev floor within the cap", prio: []uint64{20_000_000}, auto: true, antiMEV: true, caps: caps("40000", "5000"),
			wantPrice: 200_000, wantTip: 5000},
		{name: "anti_mev floor above the tip cap", auto: true, antiMEV: true, caps: caps("40000", "500"),
			wantField: "processor_tip"},
		{name: "client fee within the caps", caps: caps("1000000", "100000"), fee: "1000000", tip: "100000",
			wantPrice: 5_000_000, wantTip: 100_000},
		{name: "client priority fee above its cap", caps: caps("999999", "100000"), fee: "1000000", tip: "100000",
			wantField: "priority_fee"},
		{name: "client tip above its cap", caps: caps("1000000", "99999"), fee: "1000000", tip: "100000",
			wantField: "processor_tip"},
		{name: "a cap that is not a number", auto: true, caps: caps("0.1", "1"), wantField: "fee_caps.max_priority_fee"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.chain.prioFees = tt.prio
			w := f.wallet(5e9, 0)
			job := f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.001"})
			job.AutoTip, job.AntiMEV, job.FeeCaps = tt.auto, tt.antiMEV, tt.caps
			if !tt.auto {
				job.PriorityFee, job.ProcessorTip = tt.fee, tt.tip
			}
			batch, err := f.signer.Sign(context.Background(), job)
			if tt.wantField != "" {
				if e := signErr(t, err); e.Code != apierr.InvalidRequest || e.Details != tt.wantField {
					t.Fatalf("error %v (%s), want INVALID_REQUEST naming %s", err, e.Details, tt.wantField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			price, tip := feesOf(t, batch.Txs[0])
			if price != tt.wantPrice || tip != tt.wantTip {
				t.Fatalf("unit price %d and tip %d, want %d and %d", price, tip, tt.wantPrice, tt.wantTip)
			}
			if c, _ := parseFeeCaps(tt.caps); priorityFee(price, 200_000) > c.priorityFee || tip > c.tip {
				t.Fatalf("signed above the caps %+v: fee %d, tip %d", c, priorityFee(price, 200_000), tip)
			}
		})
	}
}

// TestDefaultFeeCapsAreTheRegistrys keeps the caps of a job without caps
// equal to the registry's account defaults.
func TestDefaultFeeCapsAreTheRegistrys(t *testing.T) {
	def := registry.DefaultFeeCaps(wire.FamilySol)
	for _, c := range []struct {
		name string
		sol  string
		got  uint64
	}{{"max_priority_fee", string(def.MaxPriorityFee), DefaultMaxPriorityFee}, {"max_processor_tip", string(def.MaxProcessorTip), DefaultMaxProcessorTip}} {
		want, err := money.ParseUnits(c.sol, 9)
		if err != nil || !want.IsUint64() || want.Uint64() != c.got {
			t.Errorf("%s: default %d lamports, the registry's %s SOL (%v)", c.name, c.got, c.sol, err)
		}
	}
	got, err := parseFeeCaps(nil)
	if err != nil || got.priorityFee != DefaultMaxPriorityFee || got.tip != DefaultMaxProcessorTip {
		t.Fatalf("parseFeeCaps(nil) = %+v, %v", got, err)
	}
}

// TestTxFee: a transaction's fee is 5,000 lamports a signature and its
// priority fee rounded up to the lamport; prices no balance could pay give
// the largest fee instead of wrapping.
func TestTxFee(t *testing.T) {
	for _, c := range []struct {
		name  string
		sigs  int
		price uint64
		limit uint32
		want  uint64
	}{
		{"no price", 1, 0, 200_000, 5_000},
		{"a fraction of a lamport rounds up", 1, 1, 200_000, 5_001},
		{"exact", 1, 1_230_000, 100_000, 5_000 + 123_000},
		{"three signers", 3, 1_000_000, 100_000, 15_000 + 100_000},
		{"price beyond any balance", 1, math.MaxUint64, 1_400_000, math.MaxUint64},
	} {
		if got := txFee(c.sigs, c.price, c.limit); got != c.want {
			t.Errorf("%s: fee %d, want %d", c.name, got, c.want)
		}
	}
}
