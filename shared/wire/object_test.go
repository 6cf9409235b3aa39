package wire

import (
	"errors"
	"strings"
	"testing"
)

// TestDecodeObjectSaysWhatIsWrong: an object whose field holds no valid
// JSON (nested deeper than the decoder allows, or broken) is refused
// naming that field, not as a body that is no object.
func TestDecodeObjectSaysWhatIsWrong(t *testing.T) {
	deep := `{"address":"x","memo":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`
	for _, body := range []string{deep, `{"address":"x","amount":tru}`} {
		_, _, err := DecodeObject([]byte(body))
		var ve *ValueError
		if !errors.As(err, &ve) || errors.Is(err, ErrNotObject) {
			t.Fatalf("%.40s: %v, want the field's value refused", body, err)
		}
		if !strings.Contains(err.Error(), "is not valid JSON") || ve.Key == "" {
			t.Fatalf("%.40s: %v", body, err)
		}
	}
	for _, body := range []string{`{"a":1,}`, `{"slippage":010}`, `{"a":1 "b":2}`} {
		if _, _, err := DecodeObject([]byte(body)); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "at byte") {
			t.Fatalf("%s: %v, want where it breaks", body, err)
		}
	}
	for _, body := range []string{`[]`, `{`, `"x"`} {
		if _, _, err := DecodeObject([]byte(body)); !errors.Is(err, ErrNotObject) {
			t.Fatalf("%s: %v, want no object", body, err)
		}
	}
}
