package registry

import (
	"math/big"
	"testing"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestCapUnitsUpToTheAdminBound: every cap the admin API stores reads
// back, the largest (2^256-1 wei) included, instead of giving way to the
// default; a cap past that bound, or damaged, still does, named.
func TestCapUnitsUpToTheAdminBound(t *testing.T) {
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	caps := FeeCaps{MaxPriorityFee: "115792089237316195423570985008687907853269984665640564039457584007913.129639935",
		MaxProcessorTip: "0"}
	u, unread := caps.Units(wire.FamilyEVM)
	if len(unread) != 0 || u.PriorityFee.Cmp(max) != 0 || u.ProcessorTip.Sign() != 0 {
		t.Fatalf("caps read as %v %v, unread %v", u.PriorityFee, u.ProcessorTip, unread)
	}
	caps.MaxPriorityFee = "115792089237316195423570985008687907853269984665640564039457584007913.129639936"
	if u, unread = caps.Units(wire.FamilyEVM); len(unread) != 1 || unread[0] != "max_priority_fee" {
		t.Fatalf("a cap past 2^256-1 wei read as %v, unread %v", u.PriorityFee, unread)
	}
	caps.MaxPriorityFee = "1e-3"
	if u, unread = caps.Units(wire.FamilyEVM); len(unread) != 0 || u.PriorityFee.Cmp(big.NewInt(1_000_000)) != 0 {
		t.Fatalf("1e-3 gwei read as %v, unread %v", u.PriorityFee, unread)
	}
}
