package budget

import (
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestReadSeesOtherProcess reads, from a process that never watches the
// bucket, the counts another process charged, and full windows for a key
// never charged and after the windows roll over.
func TestReadSeesOtherProcess(t *testing.T) {
	srv := startServer(t)
	clk := newClock(wed)
	charger := newBudget(t, openKV(t, srv, "ingress"), clk, false)
	reader := newBudget(t, openKV(t, srv, "registry"), clk, false)
	lim := Limits{Minute: 10, Hour: 100, Week: 1000}
	ctx := ctxT(t)
	for range 3 {
		if _, err := charger.Charge(ctx, "acct-1", wire.FamilySol, lim); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		account string
		family  wire.Family
		at      time.Time
		want    Limits
	}{
		{"charged", "acct-1", wire.FamilySol, wed, Limits{Minute: 7, Hour: 97, Week: 997}},
		{"other family", "acct-1", wire.FamilyEVM, wed, lim},
		{"never charged", "acct-2", wire.FamilySol, wed, lim},
		{"next minute", "acct-1", wire.FamilySol, wed.Add(time.Minute), Limits{Minute: 10, Hour: 97, Week: 997}},
		{"next week", "acct-1", wire.FamilySol, wed.Add(7 * 24 * time.Hour), lim},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk.Set(tt.at)
			st, err := reader.Read(ctx, tt.account, tt.family, lim)
			if err != nil {
				t.Fatal(err)
			}
			if st.Remaining != tt.want || st.Limits != lim {
				t.Fatalf("Read = %+v remaining, %+v limits; want %+v, %+v", st.Remaining, st.Limits, tt.want, lim)
			}
			if st.Reset[0] < 1 || st.Reset[0] > 60 {
				t.Fatalf("minute reset %d, want 1..60", st.Reset[0])
			}
		})
	}
	if _, err := reader.Read(ctx, "acct-1", "btc", lim); err == nil {
		t.Fatal("Read of an unknown family succeeded")
	}
}
