package evm

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/money"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestAutoTipUnderTheCaps: the priority fee and processor tip the signer
// chooses (auto_tip's fee history and configured tip, at least the chain's
// floor; or the node's suggestion) are clamped to the job's fee caps; a
// cap under the floor, which blocks do not take, refuses the order, as a
// client's own fee above a cap or under the floor does.
func TestAutoTipUnderTheCaps(t *testing.T) {
	e := newEnv(t)
	var list []Chain
	for _, name := range e.dev.chains.Names() {
		c := Chain{ChainConfig: configOf(e.dev.chain(t, name).Deployment()), Client: NewClient(e.dial(t, e.dev.url(name)))}
		c.MinTipCap = big.NewInt(2e9)         // 2 gwei floor
		c.AutoProcessorTip = big.NewInt(2e15) // 0.002 ETH
		list = append(list, c)
	}
	s, err := NewSigner(list, e.keys, e.nonces, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok := e.token(t, wire.ChainEth, "", 0, 0)
	caps := func(fee, tip string) *wire.FeeCaps { return &wire.FeeCaps{MaxPriorityFee: fee, MaxProcessorTip: tip} }
	tests := []struct {
		name        string
		auto        bool
		caps        *wire.FeeCaps
		fee, tip    string   // the client's, when not auto
		wantTipCap  *big.Int // exact; nil: at least the floor
		wantBuilder int64
		wantRefusal string // an INVALID_REQUEST naming this field
	}{
		{name: "no caps on the job: the defaults, far above", auto: true, wantBuilder: 2e15},
		{name: "caps above the choice", auto: true, caps: caps("500000000000", "50000000000000000"), wantBuilder: 2e15},
		{name: "choice at a cap of the floor, the processor tip clamped", auto: true, caps: caps("2000000000", "1000000000000000"),
			wantTipCap: big.NewInt(2_000_000_000), wantBuilder: 1e15},
		{name: "a cap under the chain's floor refuses what auto_tip would pick", auto: true, caps: caps("1500000000", "0"),
			wantRefusal: "fee_caps.max_priority_fee"},
		{name: "zero caps refuse auto_tip", auto: true, caps: caps("0", "0"), wantRefusal: "fee_caps.max_priority_fee"},
		{name: "and the node's suggestion", caps: caps("7", "0"), wantRefusal: "fee_caps.max_priority_fee"},
		{name: "the floor itself", caps: caps("2000000000", "0"), fee: "2000000000", wantTipCap: big.NewInt(2e9), wantBuilder: 0},
		{name: "client fees within the caps", caps: caps("3000000000", "1000000000000000"), fee: "3000000000", tip: "1000000000000000",
			wantTipCap: big.NewInt(3e9), wantBuilder: 1e15},
		{name: "client priority fee 0, under the floor", caps: caps("3000000000", "0"), fee: "0", tip: "0",
			wantRefusal: "priority_fee"},
		{name: "client priority fee of 1 wei under the floor", fee: "1999999999", wantRefusal: "priority_fee"},
		{name: "client priority fee above its cap", caps: caps("2999999999", "1000000000000000"), fee: "3000000000", tip: "1",
			wantRefusal: "priority_fee"},
		{name: "client tip above its cap", caps: caps("3000000000", "999"), fee: "3000000000", tip: "1000",
			wantRefusal: "processor_tip"},
		{name: "a cap that is not a number", auto: true, caps: caps("500 gwei", "0"), wantRefusal: "fee_caps.max_priority_fee"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := e.wallet(t, wire.ChainEth, "1", nil)
			job := e.job(wire.ChainEth, wire.Buy, tok.Address, "", legOf(w, "0.01"))
			job.AutoTip, job.FeeCaps, job.PriorityFee, job.ProcessorTip = tt.auto, tt.caps, tt.fee, tt.tip
			b, err := s.Sign(context.Background(), job)
			if tt.wantRefusal != "" {
				var e *apierr.Error
				if !errors.As(err, &e) || e.Code != apierr.InvalidRequest || e.Details != tt.wantRefusal {
					t.Fatalf("error %v, want INVALID_REQUEST naming %s", err, tt.wantRefusal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			txs := decode(t, b)
			tx := txs[len(txs)-1] // the swap
			switch {
			case tt.wantTipCap != nil && tx.GasTipCap().Cmp(tt.wantTipCap) != 0:
				t.Fatalf("tip cap %s, want %s", tx.GasTipCap(), tt.wantTipCap)
			case tt.wantTipCap == nil && tx.GasTipCap().Cmp(big.NewInt(2e9)) < 0:
				t.Fatalf("tip cap %s under the chain's floor", tx.GasTipCap())
			}
			// A tip is a transfer of its own before the swap, which sends
			// the amount alone.
			builder := new(big.Int)
			if len(txs) == 2 {
				builder = txs[0].Value()
			}
			if builder.Int64() != tt.wantBuilder || tx.Value().Cmp(units(t, "0.01", 18)) != 0 {
				t.Fatalf("processor tip %s and swap value %s, want %d and the amount", builder, tx.Value(), tt.wantBuilder)
			}
			c, _ := parseFeeCaps(tt.caps)
			if tx.GasTipCap().Cmp(c.priorityFee) > 0 || builder.Cmp(c.tip) > 0 {
				t.Fatalf("signed above the caps: tip cap %s, builder %s", tx.GasTipCap(), builder)
			}
		})
	}
}

// TestDefaultFeeCapsAreTheRegistrys keeps the caps of a job without caps
// equal to the registry's account defaults (gwei and native coin).
func TestDefaultFeeCapsAreTheRegistrys(t *testing.T) {
	def := registry.DefaultFeeCaps(wire.FamilyEVM)
	for _, c := range []struct {
		name     string
		value    string
		decimals int
		got      *big.Int
	}{
		{"max_priority_fee", string(def.MaxPriorityFee), 9, DefaultMaxPriorityFee},
		{"max_processor_tip", string(def.MaxProcessorTip), 18, DefaultMaxProcessorTip},
	} {
		want, err := money.ParseUnits(c.value, c.decimals)
		if err != nil || want.Cmp(c.got) != 0 {
			t.Errorf("%s: default %s wei, the registry's %s (%v)", c.name, c.got, c.value, err)
		}
	}
	got, err := parseFeeCaps(nil)
	if err != nil || got.priorityFee.Cmp(DefaultMaxPriorityFee) != 0 || got.tip.Cmp(DefaultMaxProcessorTip) != 0 {
		t.Fatalf("parseFeeCaps(nil) = %+v, %v", got, err)
	}
	// The defaults are copied: clamping an order never changes them.
	got.priorityFee.SetInt64(1)
	if DefaultMaxPriorityFee.Int64() == 1 {
		t.Fatal("parseFeeCaps(nil) hands out the package default itself")
	}
}
