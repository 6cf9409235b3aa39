package wire

import "testing"

func TestDisplayProblem(t *testing.T) {
	for _, tc := range []struct {
		s   string
		bad bool
	}{
		{"Pepe", false},
		{"PEPE 2.0", false},
		{"狗狗币", false},
		{"👨\u200d👩\u200d👧 family", false}, // a joiner inside an emoji
		{"é", false},                      // e and a combining accent
		{"\u200b\u200b", true},            // zero-width spaces only
		{"\u2800", true},                  // the Braille blank
		{"\u3164", true},                  // a Hangul filler
		{" \u00a0 ", true},
		{"\u0301", true}, // a combining mark alone
		{"ok\u202eevil", true},
		{"a\u2066b", true},
		{"\ufffd", true},
		{"x\x00", true},
		{"x\n", true},
		{"a\u2028b", true},
		{"\x1b[31mred", true},
	} {
		if got := DisplayProblem(tc.s) != ""; got != tc.bad {
			t.Errorf("DisplayProblem(%q) = %q, want refused %v", tc.s, DisplayProblem(tc.s), tc.bad)
		}
	}
}
