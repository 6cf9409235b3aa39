package solana

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// overlapRPC is the fake chain with getMultipleAccounts held until a
// getRecentPrioritizationFees has arrived (or a second passed), so it can
// tell whether the fees were read beside the accounts or after them.
type overlapRPC struct {
	*fakeChain
	feesIn   chan struct{}
	once     sync.Once
	mu       sync.Mutex
	overlaps int
}

func (r *overlapRPC) GetMultipleAccountsWithOpts(ctx context.Context, keys []sol.PublicKey, opts *rpc.GetMultipleAccountsOpts) (*rpc.GetMultipleAccountsResult, error) {
	select {
	case <-r.feesIn:
		r.mu.Lock()
		r.overlaps++
		r.mu.Unlock()
	case <-time.After(time.Second):
	}
	return r.fakeChain.GetMultipleAccountsWithOpts(ctx, keys, opts)
}

func (r *overlapRPC) GetRecentPrioritizationFees(ctx context.Context, accounts sol.PublicKeySlice) ([]rpc.PriorizationFeeResult, error) {
	r.once.Do(func() { close(r.feesIn) })
	return r.fakeChain.GetRecentPrioritizationFees(ctx, accounts)
}

// TestAutoTipFeesReadBesideMarket checks that an auto_tip order reads the
// prioritization fees while its market is read, not after: the fees add
// no round trip.
func TestAutoTipFeesReadBesideMarket(t *testing.T) {
	f := newFixture(t)
	f.chain.prioFees = []uint64{1_000_000}
	w := f.wallet(5e9, 0)
	r := &overlapRPC{fakeChain: f.chain, feesIn: make(chan struct{})}
	s := NewSigner(r, f.keys, Config{TipAccounts: JitoTipAccounts[:2]}, nil)
	job := f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.001"})
	job.AutoTip = true
	start := time.Now()
	if _, err := s.Sign(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.overlaps == 0 || f.chain.prioReads != 1 {
		t.Fatalf("the market read waited %v without the fees in flight; %d fee reads", time.Since(start), f.chain.prioReads)
	}
}

// TestSideReadErrorsKeepTheirPlace checks that the reads made beside the
// market fail an order only where the order uses them: a token that is not
// a curve is TOKEN_NOT_FOUND whatever the fees or the SOL/USD price did,
// and on a live curve the failed read is the order's error.
func TestSideReadErrorsKeepTheirPlace(t *testing.T) {
	feesDown := errors.New("fees: connection refused")
	tests := []struct {
		name     string
		notCurve bool
		autoTip  bool
		bounds   bool
		wantCode apierr.Code // "" for a plain error
		wantErr  error
	}{
		{"not a curve with auto_tip", true, true, false, apierr.TokenNotFound, nil},
		{"not a curve with bounds", true, false, true, apierr.TokenNotFound, nil},
		{"curve with auto_tip", false, true, false, "", feesDown},
		{"curve with bounds and no SOL/USD source", false, false, true, apierr.Internal, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.chain.prioErr = feesDown
			w := f.wallet(5e9, 0)
			job := f.job(wire.Buy, wire.Leg{Wallet: w.String(), Amount: "0.001"})
			if tt.notCurve {
				job.Token = sol.NewWallet().PublicKey().String()
			}
			job.AutoTip = tt.autoTip
			if tt.bounds {
				min := 1.0
				job.MinLiquidityUSD = &min
			}
			_, err := f.signer.Sign(context.Background(), job)
			if tt.wantErr != nil {
				var e *apierr.Error
				if !errors.Is(err, tt.wantErr) || errors.As(err, &e) {
					t.Fatalf("error %v, want the fee read's", err)
				}
				return
			}
			if e := signErr(t, err); e.Code != tt.wantCode {
				t.Fatalf("error %v, want %s", err, tt.wantCode)
			}
		})
	}
}
