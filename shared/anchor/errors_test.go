package anchor

import (
	"errors"
	"fmt"
	"testing"
)

func TestProgramErrorMessage(t *testing.T) {
	tests := []struct {
		err  *ProgramError
		want string
	}{
		{&ProgramError{Program: "dbc", Code: 6002, Name: "ExceededSlippage", Msg: "Exceeded slippage tolerance"},
			"dbc error 6002 ExceededSlippage: Exceeded slippage tolerance"},
		{&ProgramError{Program: "pump", Code: 6031, Name: "StartTimeInThePast"}, "pump error 6031 StartTimeInThePast"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
}

func TestProgramErrorIs(t *testing.T) {
	slippage := &ProgramError{Program: "launchlab", Code: 6004, Name: "ExceededSlippage", Msg: "Exceeds desired slippage limit"}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"decoded from a transaction", &ProgramError{Program: "launchlab", Code: 6004}, true},
		{"wrapped", fmt.Errorf("sell: %w", &ProgramError{Program: "launchlab", Code: 6004}), true},
		{"another code", &ProgramError{Program: "launchlab", Code: 6005}, false},
		// PumpSwap's 6004 is also ExceededSlippage, but not LaunchLab's.
		{"another program", &ProgramError{Program: "pump_amm", Code: 6004, Name: "ExceededSlippage"}, false},
		{"another type", errors.New("launchlab error 6004"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errors.Is(tt.err, slippage); got != tt.want {
				t.Errorf("errors.Is = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestProgramErrorByCode(t *testing.T) {
	a := &ProgramError{Program: "dbc", Code: 6000, Name: "MathOverflow"}
	b := &ProgramError{Program: "dbc", Code: 6033, Name: "InsufficientLiquidity"}
	table := []*ProgramError{a, b}
	if got, ok := ProgramErrorByCode(table, 6033); !ok || got != b {
		t.Errorf("6033: %v, %v", got, ok)
	}
	if got, ok := ProgramErrorByCode(table, 6001); ok || got != nil {
		t.Errorf("6001: %v, %v", got, ok)
	}
}

// TestFailedProgram: the program that failed a transaction with its own
// error is the innermost of a call chain, whose error its callers pass on
// under the same code; lines of other kinds are passed over.
func TestFailedProgram(t *testing.T) {
	logs := []string{
		"Program 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P invoke [1]",
		"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [2]",
		"Program log: Error: insufficient funds",
		"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA failed: custom program error: 0x1",
		"Program 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P consumed 5000 of 200000 compute units",
		"Program 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P failed: custom program error: 0x1",
	}
	if p, code, ok := FailedProgram(logs); !ok || p != "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" || code != 1 {
		t.Fatalf("%s %d %v, want the token program's error 1", p, code, ok)
	}
	if p, code, ok := FailedProgram(logs[4:]); !ok || p != "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P" || code != 1 {
		t.Fatalf("%s %d %v", p, code, ok)
	}
	if _, _, ok := FailedProgram([]string{"Program log: AnchorError occurred", "Program X failed: insufficient funds"}); ok {
		t.Fatal("a failure that is no program's own error read as one")
	}
}
