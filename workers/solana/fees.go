package solana

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"

	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// Default fee caps, in lamports per transaction, of a job that carries
// none (from an ingress older than the caps): the account defaults of the
// registry (registry.DefaultFeeCaps), 0.1 SOL each.
const (
	DefaultMaxPriorityFee  = 100_000_000
	DefaultMaxProcessorTip = 100_000_000
)

// feeCaps bound what one transaction of an order pays, in lamports: the
// priority fee over the compute-unit limit, and the processor tip.
type feeCaps struct {
	priorityFee uint64
	tip         uint64
}

// parseFeeCaps reads the caps ingress set on a job; nil is the defaults.
func parseFeeCaps(c *wire.FeeCaps) (feeCaps, error) {
	if c == nil {
		return feeCaps{priorityFee: DefaultMaxPriorityFee, tip: DefaultMaxProcessorTip}, nil
	}
	var out feeCaps
	var err error
	if out.priorityFee, err = parseLamports("fee_caps.max_priority_fee", c.MaxPriorityFee); err != nil {
		return feeCaps{}, err
	}
	if out.tip, err = parseLamports("fee_caps.max_processor_tip", c.MaxProcessorTip); err != nil {
		return feeCaps{}, err
	}
	return out, nil
}

// check refuses a client's priority fee or tip above the caps.
func (c feeCaps) check(priorityFee, tip uint64) error {
	if priorityFee > c.priorityFee {
		return apierr.Invalid("priority_fee", "priority_fee of %d lamports is above the account's max_priority_fee cap of %d lamports", priorityFee, c.priorityFee)
	}
	if tip > c.tip {
		return apierr.Invalid("processor_tip", "processor_tip of %d lamports is above the account's max_processor_tip cap of %d lamports", tip, c.tip)
	}
	return nil
}

// autoPrice returns the compute-unit price of a job with auto_tip: the
// configured percentile of the prioritization fees recent slots paid for
// writing the accounts the trade writes, clamped to the configured bounds.
// An RPC that reports no fees gives the minimum.
func (s *Signer) autoPrice(ctx context.Context, writes []sol.PublicKey) (uint64, error) {
	cctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	res, err := s.rpc.GetRecentPrioritizationFees(cctx, writes)
	if err != nil {
		return 0, fmt.Errorf("get recent prioritization fees: %w", err)
	}
	fees := make([]uint64, len(res))
	for i, r := range res {
		fees[i] = r.PrioritizationFee
	}
	return clampPrice(percentile(fees, s.cfg.AutoFeePercentile), s.cfg.AutoFeeMinMicroLamports, s.cfg.AutoFeeMaxMicroLamports), nil
}

// percentile returns the nearest-rank percentile p (0 to 100) of v: the
// smallest value at least p percent of the values do not exceed. It is 0
// for no values.
func percentile(v []uint64, p float64) uint64 {
	if len(v) == 0 {
		return 0
	}
	sorted := slices.Clone(v)
	slices.Sort(sorted)
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(rank, 1), len(sorted))-1]
}

func clampPrice(v, lo, hi uint64) uint64 { return min(max(v, lo), hi) }

// txFee is what a transaction pays once it lands, failed or not: the base
// fee of each signature it needs and the priority fee its compute budget
// sets (price in micro-lamports per unit over limit units), saturating
// where no balance could pay it.
func txFee(signatures int, price uint64, limit uint32) uint64 {
	fee, carry := bits.Add64(uint64(signatures)*lamportsPerSignature, priorityFee(price, limit), 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return fee
}
