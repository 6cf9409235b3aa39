package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DecodeObject's refusals: a value that is no JSON object, and one object
// followed by more.
var (
	ErrNotObject = errors.New("not a JSON object")
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
	k := e.Key
	if len(k) > 64 {
		k = k[:64] + "..."
	}
	return fmt.Sprintf("the value of %q is not valid JSON (%v)", k, e.Err)
}

func (e *ValueError) Unwrap() error { return e.Err }

// DecodeObject reads raw as one JSON object, its fields by exact key. A
// key given twice is refused (twice names it): decoders differ on which of
// the two they keep, so a check in front of the service could pass another
// request than the one that would run.
func DecodeObject(raw []byte) (fields map[string]json.RawMessage, twice string, err error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, "", ErrNotObject
	}
	fields = map[string]json.RawMessage{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, "", ErrNotObject
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
			return nil, k, nil
		}
		fields[k] = v
	}
	if t, err := d.Token(); err != nil || t != json.Delim('}') {
		return nil, "", ErrNotObject
	}
	if d.More() || d.InputOffset() < int64(len(bytes.TrimRight(raw, " \t\r\n"))) {
		return nil, "", ErrTrailing
	}
	return fields, "", nil
}
