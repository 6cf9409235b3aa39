package solana

import (
	"context"
	"fmt"
	"math"
	"slices"

	sol "github.com/gagliardetto/solana-go"
)

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
