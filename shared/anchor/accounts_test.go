package anchor

import (
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"
)

func key(b byte) solana.PublicKey {
	var k solana.PublicKey
	k[0] = b
	return k
}

func TestMetas(t *testing.T) {
	a, b, c, d := key(1), key(2), key(3), key(4)
	got := Metas([]*solana.PublicKey{&a, &b, &c, &d}, []Access{RO, RW, RS, RWS})
	want := []solana.AccountMeta{
		{PublicKey: a},
		{PublicKey: b, IsWritable: true},
		{PublicKey: c, IsSigner: true},
		{PublicKey: d, IsWritable: true, IsSigner: true},
	}
	if len(got) != len(want) {
		t.Fatalf("%d metas, want %d", len(got), len(want))
	}
	for i := range want {
		if *got[i] != want[i] {
			t.Errorf("meta %d: %+v, want %+v", i, *got[i], want[i])
		}
	}
	// The list holds the keys' values: a builder may reuse its struct.
	a = key(9)
	if got[0].PublicKey != key(1) {
		t.Error("meta aliases the field it was built from")
	}
}

func TestMetasLengthMismatchPanics(t *testing.T) {
	a := key(1)
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "1 accounts with 2 access modes") {
			t.Fatalf("panic %v", r)
		}
	}()
	Metas([]*solana.PublicKey{&a}, []Access{RO, RW})
}

func TestAssignAccounts(t *testing.T) {
	var x, y, opt solana.PublicKey
	fields := []*solana.PublicKey{&x, &y, &opt}

	tests := []struct {
		name    string
		keys    []solana.PublicKey
		wantErr string
		want    [3]solana.PublicKey
	}{
		{"too few", []solana.PublicKey{key(1)}, "dbc: swap needs 2 accounts, got 1", [3]solana.PublicKey{}},
		{"fixed only", []solana.PublicKey{key(1), key(2)}, "", [3]solana.PublicKey{key(1), key(2), {}}},
		{"with remaining", []solana.PublicKey{key(1), key(2), key(3)}, "", [3]solana.PublicKey{key(1), key(2), key(3)}},
		{"more keys than fields", []solana.PublicKey{key(1), key(2), key(3), key(4)}, "", [3]solana.PublicKey{key(1), key(2), key(3)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y, opt = solana.PublicKey{}, solana.PublicKey{}, solana.PublicKey{}
			err := AssignAccounts("dbc", "swap", tt.keys, fields, 2)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := [3]solana.PublicKey{x, y, opt}; got != tt.want {
				t.Errorf("fields %v, want %v", got, tt.want)
			}
		})
	}
}
