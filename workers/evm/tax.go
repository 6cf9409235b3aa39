package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"golang.org/x/sync/errgroup"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/evm/callerr"
	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// taxProbeGas bounds the probe's call: a V3 round trip with its two
// quotes runs about 600,000 gas.
const taxProbeGas = 5_000_000

// taxResult is a probed buy and sell tax in basis points.
type taxResult struct {
	buyBps, sellBps uint64
}

// wire renders the probe for the order record.
func (t *taxResult) wire() *wire.TaxProbe {
	if t == nil {
		return nil // no probe
	}
	return &wire.TaxProbe{BuyPct: float64(t.buyBps) / 100, SellPct: float64(t.sellBps) / 100}
}

// check refuses a tax above the cap, with the probed figures in details.
func (t *taxResult) check(capBps uint32) error {
	if t.buyBps <= uint64(capBps) && t.sellBps <= uint64(capBps) {
		return nil
	}
	w := t.wire()
	details, _ := json.Marshal(struct {
		Buy  float64 `json:"buy_tax_pct"`
		Sell float64 `json:"sell_tax_pct"`
	}{w.BuyPct, w.SellPct})
	return apierr.Newf(apierr.TaxOutOfRange, string(details), "the token's tax (buy %g%%, sell %g%%) exceeds max_tax, %g%% in whole basis points (a cap between two is the one below)",
		w.BuyPct, w.SellPct, float64(capBps)/100)
}

// probeTax measures the token's buy and sell tax by a round trip on the
// pool the order trades on: the TaxProbe contract's code is placed at an
// unused address (contracts.TaxProbeAddress) by a state override, with a
// native balance, and run by eth_call, so nothing is kept. On a V2 pair it
// buys and sells through Router02 (probe), in a V3 pool through
// SwapRouter02 with QuoterV2's quotes as what a tax-free token would get
// (probeV3). The round trip spends a small share of the pool's quote
// holding (Config.TaxProbeAmountBps).
func (s *Signer) probeTax(ctx context.Context, p *pool) (*taxResult, error) {
	depth, err := s.quoteDepth(ctx, p)
	if err != nil {
		return nil, err
	}
	amount := new(big.Int).Mul(depth, new(big.Int).SetUint64(s.cfg.TaxProbeAmountBps))
	amount.Quo(amount, big.NewInt(10_000))
	if amount.Sign() == 0 {
		amount.SetInt64(1)
	}
	method := "probe"
	data := pack(taxProbeABI, method, p.ch.Router, p.token, p.quote, amount)
	if p.v3 {
		method = "probeV3"
		data = pack(taxProbeABI, method, p.ch.Router, p.ch.SwapRouter02, p.ch.QuoterV2, p.token, p.quote,
			new(big.Int).SetUint64(uint64(p.fee)), amount)
	}
	to := contracts.TaxProbeAddress
	out, err := p.ch.client.CallWithOverrides(ctx, ethereum.CallMsg{To: &to, Gas: taxProbeGas, Data: data}, contracts.TaxProbeOverrides())
	if err != nil {
		if callerr.IsRevert(err) {
			// The probe catches the swaps' reverts; what is left is a token
			// that cannot even be quoted: it cannot be traded either.
			return &taxResult{buyBps: 10_000, sellBps: 10_000}, nil
		}
		return nil, fmt.Errorf("probe tax of %s on %s: %w", p.token.Hex(), p.ch.Name, err)
	}
	vals, err := taxProbeABI.Unpack(method, out)
	if err != nil || len(vals) != 2 {
		return nil, fmt.Errorf("probe tax of %s on %s: %w: %v", p.token.Hex(), p.ch.Name, errDecode, err)
	}
	buy, ok1 := vals[0].(*big.Int)
	sell, ok2 := vals[1].(*big.Int)
	if !ok1 || !ok2 || !buy.IsUint64() || !sell.IsUint64() {
		return nil, fmt.Errorf("probe tax of %s on %s: %w", p.token.Hex(), p.ch.Name, errDecode)
	}
	return &taxResult{buyBps: min(buy.Uint64(), 10_000), sellBps: min(sell.Uint64(), 10_000)}, nil
}

// chooseAfterTax probes, when max_tax asks for a probe, the tax of every
// pool that quoted the order, and trades on the one that pays the most
// after its tax among those within the cap: many tokens tax only their own
// V2 pair, so that the pool paying the most before tax pays the wallet less
// than a tax-free V3 pool beside it, or is refused TAX_OUT_OF_RANGE while
// that pool is within the cap. Ties keep the pool chosen before tax. With
// one pool quoted it is probed alone; with none within the cap the
// refusal gives the tax of the pool that pays the most before tax. The
// pools' taxes go into the route.
func (s *Signer) chooseAfterTax(ctx context.Context, m *market, capBps uint32) (*taxResult, error) {
	quoted := make([]int, 0, len(m.pools))
	for i, p := range m.pools {
		if p == m.best {
			// First, so that a tie keeps it.
			quoted = append([]int{i}, quoted...)
		} else if p.out != nil && p.out.Sign() > 0 {
			quoted = append(quoted, i)
		}
	}
	if len(quoted) <= 1 {
		t, err := s.probeTax(ctx, m.best)
		if err != nil {
			return nil, err
		}
		return t, t.check(capBps)
	}
	taxes := make([]*taxResult, len(m.pools))
	g, gctx := errgroup.WithContext(ctx)
	for _, i := range quoted {
		g.Go(func() (err error) {
			taxes[i], err = s.probeTax(gctx, m.pools[i])
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	m.taxes = taxes
	chosen, most := -1, new(big.Int)
	for _, i := range quoted {
		t := taxes[i]
		if t.check(capBps) != nil {
			continue
		}
		bps := t.buyBps
		if m.side == wire.Sell {
			bps = t.sellBps
		}
		if net := afterTax(m.pools[i].out, bps); chosen < 0 || net.Cmp(most) > 0 {
			chosen, most = i, net
		}
	}
	if chosen < 0 {
		t := taxes[quoted[0]]
		return t, t.check(capBps)
	}
	m.best = m.pools[chosen]
	return taxes[chosen], nil
}

// afterTax is out less a tax of bps basis points, rounded down.
func afterTax(out *big.Int, bps uint64) *big.Int {
	v := new(big.Int).Mul(out, new(big.Int).SetUint64(10_000-min(bps, 10_000)))
	return v.Quo(v, big.NewInt(10_000))
}
