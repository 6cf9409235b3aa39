package money

import (
	"errors"
	"math/big"
	"testing"
)

func TestParseUnits(t *testing.T) {
	tests := []struct {
		in   string
		dec  int
		want string
		err  error
	}{
		{"1", 9, "1000000000", nil},
		{"1.5", 9, "1500000000", nil},
		{"0.000000001", 9, "1", nil},
		{"0.0000000010", 9, "", ErrPrecision}, // trailing zeros are digits too
		{"0.100000000", 9, "100000000", nil},
		{"0.0000000001", 9, "", ErrPrecision},
		{"123456789012345678901234567890", 18, "123456789012345678901234567890000000000000000000", nil},
		{"0", 9, "", ErrNotPos},
		{"0.000", 9, "", ErrNotPos},
		{"-1", 9, "", ErrSyntax},
		{"+1", 9, "", ErrSyntax},
		{"1e9", 9, "", ErrSyntax},
		{".5", 9, "", ErrSyntax},
		{"5.", 9, "", ErrSyntax},
		{"", 9, "", ErrSyntax},
		{"1.2.3", 9, "", ErrSyntax},
		{" 1", 9, "", ErrSyntax},
		{"0x10", 9, "", ErrSyntax},
		{"1,5", 9, "", ErrSyntax},
		{"١", 9, "", ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseUnits(tt.in, tt.dec)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err == nil && got.String() != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestNumberUnits(t *testing.T) {
	tests := []struct {
		in   string
		want string
		err  error
	}{
		{"0.001", "1000000", nil},
		{"1e-05", "10000", nil},
		{"0.30000000000000004", "300000000", nil},
		{"0.0000000005", "1", nil},
		{"0.0000000004", "0", nil},
		{"0", "0", nil},
		{"-0.1", "", ErrRange},
		{"abc", "", ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := NumberUnits(tt.in, 9)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err == nil && got.String() != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestNumberUnitsUp: any fraction of a base unit rounds up, so a fee is
// above an integer cap exactly when the number is.
func TestNumberUnitsUp(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0.1", "100000000"},
		{"0.1000000001", "100000001"},
		{"0.10000000000000000001", "100000001"},
		{"0.0000000004", "1"},
		{"1e-18", "1"},
		{"0", "0"},
		{"2.5e-9", "3"},
	} {
		got, err := NumberUnitsUp(tt.in, 9)
		if err != nil || got.String() != tt.want {
			t.Errorf("NumberUnitsUp(%s) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		v    int64
		dec  int
		want string
	}{
		{1500000000, 9, "1.5"}, {1, 9, "0.000000001"}, {0, 9, "0"}, {100, 0, "100"}, {-25, 1, "-2.5"},
	} {
		if got := Format(big.NewInt(tt.v), tt.dec); got != tt.want {
			t.Errorf("Format(%d,%d) = %q, want %q", tt.v, tt.dec, got, tt.want)
		}
	}
}

// TestPow10PastTheTable: 10^n for every uint8 n, a token's decimals as a
// chain may answer them, past the table of the first 40.
func TestPow10PastTheTable(t *testing.T) {
	for _, n := range []int{0, 9, 39, 40, 77, 255} {
		want := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
		if got := Pow10(n); got.Cmp(want) != 0 {
			t.Errorf("10^%d = %v", n, got)
		}
	}
}
