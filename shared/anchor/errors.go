package anchor

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
)

// ProgramError is a custom error of an Anchor program: the code the program
// returns (Anchor's 6000 + the index in the IDL's errors[]), with its IDL
// name and message.
type ProgramError struct {
	// Program names the program in messages, such as "pump" or "dbc". Two
	// programs reuse the same codes, so it is part of the error's identity.
	Program string
	Code    uint32
	Name    string
	// Msg is the IDL's message; empty where the IDL has none.
	Msg string
}

// Error returns the program, code, name and message.
func (e *ProgramError) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("%s error %d %s", e.Program, e.Code, e.Name)
	}
	return fmt.Sprintf("%s error %d %s: %s", e.Program, e.Code, e.Name, e.Msg)
}

// Is reports whether target is a *ProgramError of the same program with the
// same code, so errors.Is matches an error decoded from a transaction result
// against the sentinel, and never another program's error of that code.
func (e *ProgramError) Is(target error) bool {
	t, ok := target.(*ProgramError)
	return ok && t.Program == e.Program && t.Code == e.Code
}

// ProgramErrorByCode returns the error of errs, a program's error table,
// with code. A table holds at most a hundred errors and a lookup serves a
// failed transaction, so a scan is enough.
func ProgramErrorByCode(errs []*ProgramError, code uint32) (*ProgramError, bool) {
	for _, e := range errs {
		if e.Code == code {
			return e, true
		}
	}
	return nil, false
}

// InstructionFailure reads a Solana transaction error as a node answers it
// (the err of a status or a simulation, decoded from JSON): the index of
// the instruction that failed and what failed it, such as
// "InsufficientFunds" or {"Custom": 6002}; ok is false for an error of the
// transaction as a whole.
func InstructionFailure(txErr any) (index int, cause any, ok bool) {
	m, isMap := txErr.(map[string]any)
	if !isMap || len(m) != 1 {
		return 0, nil, false
	}
	ie, isIx := m["InstructionError"].([]any)
	if !isIx || len(ie) != 2 {
		return 0, nil, false
	}
	idx, isNum := ie[0].(float64)
	if !isNum {
		return 0, nil, false
	}
	return int(idx), ie[1], true
}

// CustomCode is the code of a program's own error, when cause (an
// InstructionFailure's) is one.
func CustomCode(cause any) (uint32, bool) {
	e, ok := cause.(map[string]any)
	if !ok || len(e) != 1 {
		return 0, false
	}
	c, ok := e["Custom"].(float64)
	return uint32(c), ok
}

// TxErrorText renders a transaction error for an order's record and logs:
// an instruction's failure names the instruction, and a program's own
// error its code in decimal and hex, as the programs' IDLs list them;
// anything else is the error's JSON.
func TxErrorText(txErr any) string {
	return TxErrorTextNamed(txErr, nil)
}

// TxErrorTextNamed is TxErrorText with a program's own error named, as its
// IDL does, when name knows the program of the failed instruction (its
// index) and the code: "instruction 3 failed: pump error 6002
// TooMuchSolRequired: slippage: ... (0x1772)".
func TxErrorTextNamed(txErr any, name func(instruction int, code uint32) (*ProgramError, bool)) string {
	idx, cause, ok := InstructionFailure(txErr)
	if !ok {
		return jsonText(txErr)
	}
	if code, ok := CustomCode(cause); ok {
		if name != nil {
			if e, ok := name(idx, code); ok {
				return fmt.Sprintf("instruction %d failed: %s (0x%x)", idx, e.Error(), code)
			}
		}
		return fmt.Sprintf("instruction %d failed: program error %d (0x%x)", idx, code, code)
	}
	if name, ok := cause.(string); ok {
		return fmt.Sprintf("instruction %d failed: %s", idx, name)
	}
	return fmt.Sprintf("instruction %d failed: %s", idx, jsonText(cause))
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// failedProgram matches the log line of a program that failed with one of
// its own errors: "Program <id> failed: custom program error: 0x1772".
var failedProgram = regexp.MustCompile(`^Program ([1-9A-HJ-NP-Za-km-z]{32,44}) failed: custom program error: 0x([0-9a-fA-F]{1,8})$`)

// FailedProgram reads from a transaction's logs the program that failed it
// with one of its own errors, and the error's code: the first such line,
// the innermost program of a call chain, whose error its callers pass on
// under the same code.
func FailedProgram(logs []string) (program string, code uint32, ok bool) {
	for i := range logs {
		if m := failedProgram.FindStringSubmatch(logs[i]); m != nil {
			c, err := strconv.ParseUint(m[2], 16, 32)
			if err != nil {
				return "", 0, false
			}
			return m[1], uint32(c), true
		}
	}
	return "", 0, false
}
