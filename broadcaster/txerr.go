package broadcaster

import (
	"encoding/json"
	"fmt"
)

// chainError renders a Solana transaction error as a node answers it (a
// status's err, decoded from JSON) for an order's record and logs: an
// instruction's failure names the instruction, and a program's own error
// its code in decimal and hex, as the programs' IDLs list them; anything
// else is the error's JSON.
func chainError(v any) string {
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		if ie, ok := m["InstructionError"].([]any); ok && len(ie) == 2 {
			if idx, ok := ie[0].(float64); ok {
				return fmt.Sprintf("instruction %d failed: %s", int(idx), instructionError(ie[1]))
			}
		}
	}
	return jsonText(v)
}

// instructionError renders the error part of an InstructionError.
func instructionError(v any) string {
	switch e := v.(type) {
	case string:
		return e
	case map[string]any:
		if c, ok := e["Custom"].(float64); ok && len(e) == 1 {
			return fmt.Sprintf("program error %d (0x%x)", uint32(c), uint32(c))
		}
	}
	return jsonText(v)
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
