package anchor

import (
	"encoding/json"
	"testing"
)

func TestTxErrorText(t *testing.T) {
	for raw, want := range map[string]string{
		`{"InstructionError":[2,{"Custom":6002}]}`:         "instruction 2 failed: program error 6002 (0x1772)",
		`{"InstructionError":[0,"InsufficientFunds"]}`:     "instruction 0 failed: InsufficientFunds",
		`{"InstructionError":[1,{"BorshIoError":"x"}]}`:    `instruction 1 failed: {"BorshIoError":"x"}`,
		`"BlockhashNotFound"`:                              `"BlockhashNotFound"`,
		`{"InsufficientFundsForRent":{"account_index":3}}`: `{"InsufficientFundsForRent":{"account_index":3}}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatal(err)
		}
		if got := TxErrorText(v); got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
}
