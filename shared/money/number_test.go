package money

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCheckNumber(t *testing.T) {
	tests := []struct {
		in  string
		err error
	}{
		{"0.5", nil},
		{"0", nil},
		{"-0.25", nil},
		{"1e-05", nil},
		{"12E+3", nil},
		{"1e63", nil},       // 64 digits before the point
		{"1e64", ErrRange},  // 65
		{"1e-64", nil},      // 64 digits after the point
		{"1e-65", ErrRange}, // 65
		{"123e-64", nil},    // the last digit, 3, is 64 places down
		{"123e-65", ErrRange},
		{"1230e-65", nil}, // trailing zeros of the digits do not count
		{"0.00000000000000000000000000000000000000000000000000000000000001", nil},
		{"1e400", ErrRange},
		{"1e-999999", ErrRange},
		{"-1e-999999", ErrRange},
		{"1e99999999999999999999", ErrRange}, // an exponent past any int
		{"0e999999", nil},                    // zero is zero
		{"0.000e-999999", nil},
		{strings.Repeat("9", 64), nil},
		{strings.Repeat("9", 65), ErrRange},
		{"1" + strings.Repeat("0", 70), ErrRange},
		{"", ErrSyntax},
		{"-", ErrSyntax},
		{"+1", ErrSyntax},
		{".5", ErrSyntax},
		{"5.", ErrSyntax},
		{"01", ErrSyntax},
		{"1e", ErrSyntax},
		{"1e+", ErrSyntax},
		{"1x", ErrSyntax},
		{`"1"`, ErrSyntax},
		{"Infinity", ErrSyntax},
		{"NaN", ErrSyntax},
		{"0x10", ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if err := CheckNumber(tt.in); !errors.Is(err, tt.err) {
				t.Fatalf("CheckNumber(%q) = %v, want %v", tt.in, err, tt.err)
			}
		})
	}
}

func TestParseNumber(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0.5", "1/2"}, {"-2.5e1", "-25/1"}, {"1e-3", "1/1000"}, {"0e999999", "0/1"},
	} {
		r, err := ParseNumber(tt.in)
		if err != nil || r.String() != tt.want {
			t.Errorf("ParseNumber(%q) = %v, %v; want %s", tt.in, r, err, tt.want)
		}
	}
	if _, err := ParseNumber("1e-999999"); !errors.Is(err, ErrRange) {
		t.Fatalf("1e-999999: %v, want ErrRange", err)
	}
}

func TestNumberUnitsBounded(t *testing.T) {
	for _, tt := range []struct {
		in   string
		dec  int
		want string
		err  error
	}{
		{"1e-999999", 9, "", ErrRange},
		{"1e400", 9, "", ErrRange},
		{"1e-64", 9, "0", nil},
		{"5e-10", 9, "1", nil},
		{"1e60", 18, "", ErrRange}, // 10^78 base units do not fit 256 bits
		{"1e50", 18, "1" + strings.Repeat("0", 68), nil},
		{strings.Repeat("1", 65), 9, "", ErrRange},
		{"+1", 9, "", ErrSyntax},
	} {
		got, err := NumberUnits(tt.in, tt.dec)
		if !errors.Is(err, tt.err) || (err == nil && got.String() != tt.want) {
			t.Errorf("NumberUnits(%q, %d) = %v, %v; want %s, %v", tt.in, tt.dec, got, err, tt.want, tt.err)
		}
	}
}

// TestHugeExponentCostsNothing shows, without timing anything, that a
// literal like 1e-999999 is refused before any arithmetic: checking it
// allocates nothing, and refusing it through NumberUnits allocates no more
// than parsing 0.5 does (big.Rat.SetString on it allocates the 10^999999
// it spells, hundreds of kilobytes in dozens of allocations).
func TestHugeExponentCostsNothing(t *testing.T) {
	for _, lit := range []string{"1e-999999", "1e999999", "1e400", "-1e-999999"} {
		if n := testing.AllocsPerRun(100, func() { _ = CheckNumber(lit) }); n != 0 {
			t.Errorf("CheckNumber(%q) allocates %v times", lit, n)
		}
	}
	plain := testing.AllocsPerRun(100, func() { _, _ = NumberUnits("0.5", 9) })
	for _, lit := range []string{"1e-999999", "1e999999"} {
		if n := testing.AllocsPerRun(20, func() { _, _ = NumberUnits(lit, 9) }); n > plain {
			t.Errorf("NumberUnits(%q) allocates %v times, 0.5 %v times", lit, n, plain)
		}
	}
}

// BenchmarkNumberUnits compares a plain fee with literals that spell huge
// numbers: all cost about the same, because the bound is checked first.
func BenchmarkNumberUnits(b *testing.B) {
	for _, lit := range []string{"0.5", "0.000123456789", "1e-999999", "1e999999", "1e400", strings.Repeat("9", 64)} {
		b.Run(lit[:min(len(lit), 12)], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = NumberUnits(lit, 9)
			}
		})
	}
}

// ratDecimal is Decimal by arithmetic: the literal's exact value written
// with MaxNumberDigits decimals, its trailing zeros cut.
func ratDecimal(lit string) (string, error) {
	r, err := ParseNumber(lit)
	if err != nil {
		return "", err
	}
	out := strings.TrimRight(strings.TrimRight(r.FloatString(MaxNumberDigits), "0"), ".")
	if out == "-0" {
		out = "0"
	}
	return out, nil
}

// TestDecimal: Decimal writes each literal as exact arithmetic does, and
// refuses what CheckNumber refuses.
func TestDecimal(t *testing.T) {
	for lit, want := range map[string]string{"0": "0", "-0": "0", "0.000": "0", "0e99999999": "0", "10": "10", "1e1": "10",
		"10.0": "10", "1e-05": "0.00001", "0.000010": "0.00001", "-0.5": "-0.5", "123.456e2": "12345.6", "123.456e-2": "1.23456",
		"5e-1": "0.5", "1E+3": "1000", "100e-2": "1", "0.00100": "0.001", "1e63": "1" + strings.Repeat("0", 63),
		"1e-64": "0." + strings.Repeat("0", 63) + "1"} {
		got, err := Decimal(lit)
		if err != nil || got != want {
			t.Errorf("Decimal(%q) = %q, %v; want %q", lit, got, err, want)
		}
	}
	for _, lit := range []string{"1e64", "1e-65", "1e400", "1e-999999", "01", "1.", ".5", "+1", "1e", "--1", "", "x"} {
		if _, err := Decimal(lit); err == nil || !errors.Is(err, CheckNumber(lit)) {
			t.Errorf("Decimal(%q): %v, want CheckNumber's %v", lit, err, CheckNumber(lit))
		}
	}
}

// FuzzDecimal holds Decimal to exact arithmetic on any literal.
func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"0", "-0.0e5", "1e-05", "123.456e-2", "9.99e63", "1e-64", "0.1e-63", "12e-66", "-7.25E+3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		got, err := Decimal(lit)
		want, werr := ratDecimal(lit)
		if (err == nil) != (werr == nil) || got != want {
			t.Fatalf("Decimal(%q) = %q, %v; arithmetic gives %q, %v", lit, got, err, want, werr)
		}
	})
}

func TestNegativeZero(t *testing.T) {
	for lit, want := range map[string]bool{"-0": true, "-0.000": true, "-0e5": true, "-0.0E-3": true, "0": false, "-": false,
		"-0.01": false, "-10": false, "1": false} {
		if got := NegativeZero(lit); got != want {
			t.Errorf("%q: %v, want %v", lit, got, want)
		}
	}
}

func TestFloatKeepsWholeNumbersApart(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		want float64
	}{
		{"100", 100},
		{"100.0", 100},
		{"1e2", 100},
		{"0", 0},
		{"0.5", 0.5},
		{"100.00000000000000001", math.Nextafter(100, 200)},
		{"0.99999999999999999", math.Nextafter(1, 0)},
		{"-0.00000000000000000001", -1e-20},
		{"99.999999999999999999", math.Nextafter(100, 0)},
	} {
		got, err := Float(tc.lit)
		if err != nil || got != tc.want {
			t.Errorf("Float(%s) = %v, %v; want %v", tc.lit, got, err, tc.want)
		}
	}
	for _, lit := range []string{"1e400", "1e-999999", "x", ""} {
		if _, err := Float(lit); err == nil {
			t.Errorf("Float(%q) accepted", lit)
		}
	}
}
