package wire

import (
	"bytes"
	"encoding/json"
	"errors"
)

// DecodeObject's refusals: a value that is no JSON object, and one object
// followed by more.
var (
	ErrNotObject = errors.New("not a JSON object")
	ErrTrailing  = errors.New("more after the JSON object")
)

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
			return nil, "", ErrNotObject
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
