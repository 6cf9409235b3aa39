package anchor

import "fmt"

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
