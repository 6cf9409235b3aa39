package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tradeapi/tradeapi/shared/apierr"
)

// DecodeObject's refusals: a value that is no JSON object (or one cut
// off), an object broken between its fields (a trailing comma, a number
// with a leading zero), and one object followed by more.
var (
	ErrNotObject = errors.New("not a JSON object")
	ErrMalformed = errors.New("not valid JSON")
	ErrTrailing  = errors.New("more after the JSON object")
)

// ValueError is DecodeObject's refusal of a field whose value is not valid
// JSON (a syntax error, or nesting deeper than the decoder allows): the
// body is an object, and the answer says what in it is wrong.
type ValueError struct {
	Key string
	Err error
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("the value of %q is not valid JSON (%v)", e.Field(), e.Err)
}

// Field is the key, cut to 64 bytes: an answer that names it does not echo
// a key of kilobytes.
func (e *ValueError) Field() string {
	if len(e.Key) > 64 {
		return e.Key[:64] + "..."
	}
	return e.Key
}

func (e *ValueError) Unwrap() error { return e.Err }

// foldKey returns k case-folded, and whether k is its own fold (lower-case
// ASCII, as every field name the service reads), which costs nothing.
func foldKey(k string) (string, bool) {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			// Upper then lower maps the Kelvin sign to k and the long s
			// to s, as the case-insensitive matching of decoders does.
			return strings.ToLower(strings.ToUpper(k)), false
		}
	}
	return k, true
}

// Twice is the refusal of a field given twice in one object, name its
// path.
func Twice(name string) *apierr.Error {
	return apierr.Invalid(name, "%s appears twice (keys that differ only in case count as one); a field must appear once", name)
}

// twiceName is how DecodeObject names a key given twice.
func twiceName(k string) string {
	if k == "" {
		return `""`
	}
	return k
}

// DecodeObject reads raw as one JSON object. A key given twice is refused
// (twice names it, the empty key as `""`, so that twice is never empty
// then): decoders differ on which of the two they keep, so a
// check in front of the service could pass another request than the one
// that would run. Keys that differ only in case are one key given twice:
// Go's encoding/json, among others, matches a field's name in any case,
// and keeps the last of them ("amount" and "AMOUNT"). For the same reason
// a key in another case is read as the field it names: fields hold it
// case-folded ("MAX_TAX" is max_tax), every field the service reads being
// named in lower case, so that a protection spelled in capitals is applied
// rather than dropped as an unknown field.
func DecodeObject(raw []byte) (fields map[string]json.RawMessage, twice string, err error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, "", ErrNotObject
	}
	fields = map[string]json.RawMessage{}
	var folded map[string]bool // keys not in lower-case ASCII, case-folded
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, "", malformed(err)
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, "", ErrNotObject // cut off: no object at all
			}
			return nil, "", &ValueError{Key: k, Err: err}
		}
		if _, seen := fields[k]; seen {
			return nil, twiceName(k), nil
		}
		if f, plain := foldKey(k); !plain || folded != nil {
			if folded == nil {
				folded = make(map[string]bool, len(fields)+1)
				for earlier := range fields {
					fk, _ := foldKey(earlier)
					folded[fk] = true
				}
			}
			if folded[f] {
				return nil, twiceName(k), nil
			}
			folded[f] = true
			k = f
		}
		fields[k] = v
	}
	if t, err := d.Token(); err != nil || t != json.Delim('}') {
		return nil, "", malformed(err)
	}
	if d.More() || d.InputOffset() < int64(len(bytes.TrimRight(raw, " \t\r\n"))) {
		return nil, "", ErrTrailing
	}
	return fields, "", nil
}

// malformed is the refusal of an object broken between its fields: the
// decoder's words say where (ErrNotObject when the body was cut off).
func malformed(err error) error {
	var se *json.SyntaxError
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &se) {
		return ErrNotObject
	}
	return fmt.Errorf("%w: %v (at byte %d)", ErrMalformed, se, se.Offset)
}
