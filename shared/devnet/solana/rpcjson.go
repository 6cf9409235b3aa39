package solana

import (
	"bytes"
	"encoding/json"
	"slices"
)

// The JSON of the chain's RPC is decoded and encoded by encoding/json,
// except for the plain form that clients send nearly always: an envelope
// with the four members in lowercase, strings of printable ASCII without
// escapes (keys, signatures, base58 and base64 transactions) and small
// objects. That form is read here in one pass over the request instead of
// the decoder's two per level of nesting, and a successful answer is
// written without the encoder's second pass over the result. Each reader
// gives what the decoder would give, or reports that the input is not in
// the plain form, which then takes the decoder's path: errors are always
// the decoder's.

// parsePlainRequest reads a call in the plain form: what json.Unmarshal
// into rpcRequest and splitParams would give, for a call whose jsonrpc is
// "2.0" and that names a method. It reports false for anything else. What
// it returns shares raw's memory.
func parsePlainRequest(raw []byte) (rpcRequest, rpcParams, bool) {
	req, params, ok := parsePlain(raw)
	if !ok {
		// Nothing of a half-read request may reach the decoder, which
		// would write into raw through the members that share it.
		return rpcRequest{}, nil, false
	}
	return req, params, true
}

func parsePlain(raw []byte) (rpcRequest, rpcParams, bool) {
	var req rpcRequest
	var params rpcParams
	var seen [4]bool
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return req, nil, false
	}
	i = skipSpace(raw, i+1)
	for {
		end := plainStringEnd(raw, i)
		if end < 0 {
			return req, nil, false
		}
		key := string(raw[i+1 : end-1])
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return req, nil, false
		}
		i = skipSpace(raw, i+1)
		var field int
		switch key {
		case "jsonrpc":
			field = 0
			end = plainStringEnd(raw, i)
			if end > 0 {
				req.JSONRPC = string(raw[i+1 : end-1])
			}
		case "id":
			field = 1
			end = idEnd(raw, i)
			if end > 0 {
				req.ID = raw[i:end]
			}
		case "method":
			field = 2
			end = plainStringEnd(raw, i)
			if end > 0 {
				req.Method = string(raw[i+1 : end-1])
			}
		case "params":
			field = 3
			var ok bool
			end = paramsEnd(raw, i)
			if end > 0 {
				req.Params = raw[i:end]
				if params, ok = plainParams(req.Params); !ok {
					return req, nil, false
				}
			}
		default:
			// Members the decoder matches without regard to case, or
			// ignores, are left to it.
			return req, nil, false
		}
		if end < 0 || seen[field] {
			return req, nil, false
		}
		seen[field] = true
		i = skipSpace(raw, end)
		if i >= len(raw) {
			return req, nil, false
		}
		if raw[i] == '}' {
			break
		}
		if raw[i] != ',' {
			return req, nil, false
		}
		i = skipSpace(raw, i+1)
	}
	if skipSpace(raw, i+1) != len(raw) || req.JSONRPC != "2.0" || req.Method == "" {
		return req, nil, false
	}
	return req, params, true
}

// plainStringEnd returns the index after the plain string (see
// plainString) that starts at raw[i], or -1.
func plainStringEnd(raw []byte, i int) int {
	if i >= len(raw) || raw[i] != '"' {
		return -1
	}
	for j := i + 1; j < len(raw); j++ {
		switch b := raw[j]; {
		case b == '"':
			return j + 1
		case b < 0x20 || b >= 0x80 || b == '\\':
			return -1
		}
	}
	return -1
}

// idEnd returns the index after the id that starts at raw[i] when it is a
// plain string, a number or a literal (null, true, false), or -1.
func idEnd(raw []byte, i int) int {
	if i >= len(raw) {
		return -1
	}
	if raw[i] == '"' {
		return plainStringEnd(raw, i)
	}
	j := i
	for j < len(raw) && (raw[j] >= '0' && raw[j] <= '9' || raw[j] == '-' || raw[j] == '+' || raw[j] == '.' || raw[j] == 'e' || raw[j] == 'E' ||
		raw[j] >= 'a' && raw[j] <= 'z') {
		j++
	}
	if j == i || !json.Valid(raw[i:j]) {
		return -1
	}
	return j
}

// paramsEnd returns the index after the array or null that starts at
// raw[i], or -1. The array is not checked here, only delimited.
func paramsEnd(raw []byte, i int) int {
	if i+4 <= len(raw) && string(raw[i:i+4]) == "null" {
		return i + 4
	}
	if i >= len(raw) || raw[i] != '[' {
		return -1
	}
	depth := 0
	for j := i; j < len(raw); j++ {
		switch b := raw[j]; {
		case b == '"':
			if j = closingQuote(raw, j+1); j < 0 {
				return -1
			}
		case b == '[' || b == '{':
			depth++
		case b == ']' || b == '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// plainParams returns the parameters of raw, null or an array, when each
// is valid JSON: a plain string, or anything json.Valid takes.
func plainParams(raw []byte) (rpcParams, bool) {
	if string(raw) == "null" {
		return nil, true
	}
	p, ok := splitArray(raw)
	if !ok {
		return nil, false
	}
	for _, e := range p {
		if _, plain := plainString(e); !plain && !json.Valid(e) {
			return nil, false
		}
	}
	return p, true
}

// splitArray returns the elements of raw, a JSON array, without whitespace
// around them: for a valid array, what json.Unmarshal into
// []json.RawMessage gives, without scanning every parameter twice more.
// It only delimits: it reports false for an array it cannot delimit, but
// the elements of an invalid one may be invalid, and a caller that did not
// get raw from the decoder checks them.
func splitArray(raw []byte) (rpcParams, bool) {
	p := make(rpcParams, 0, 2)
	i := skipSpace(raw, 1)
	if i < len(raw) && raw[i] == ']' {
		return p, skipSpace(raw, i+1) == len(raw)
	}
	for i < len(raw) {
		start, depth := i, 0
	scan:
		for ; i < len(raw); i++ {
			switch b := raw[i]; {
			case b == '"':
				if i = closingQuote(raw, i+1); i < 0 {
					return nil, false
				}
			case b == '[' || b == '{':
				depth++
			case (b == ']' || b == '}') && depth > 0:
				depth--
			case (b == ',' || b == ']') && depth == 0:
				break scan
			}
		}
		if i >= len(raw) {
			return nil, false
		}
		end := i
		for end > start && isSpace(raw[end-1]) {
			end--
		}
		if end == start {
			return nil, false
		}
		p = append(p, raw[start:end])
		if raw[i] == ']' {
			return p, skipSpace(raw, i+1) == len(raw)
		}
		i = skipSpace(raw, i+1)
	}
	return nil, false
}

// closingQuote returns the index of the quote that ends the JSON string
// whose content starts at raw[i], or -1. Transactions in base64 are most
// of a request, so it looks for the quote and a backslash before it with
// IndexByte rather than byte by byte.
func closingQuote(raw []byte, i int) int {
	for i <= len(raw) {
		q := bytes.IndexByte(raw[i:], '"')
		if q < 0 {
			return -1
		}
		esc := bytes.IndexByte(raw[i:i+q], '\\')
		if esc < 0 {
			return i + q
		}
		i += esc + 2 // past the backslash and the byte it escapes
	}
	return -1
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && isSpace(raw[i]) {
		i++
	}
	return i
}

// plainString returns the value of raw, a JSON string, when it holds only
// printable ASCII with no escape: then its bytes between the quotes are
// its value, as json.Unmarshal would give it. Base58 and base64 strings,
// which are most of what a client sends, are such strings.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	for _, b := range raw[1 : len(raw)-1] {
		if b < 0x20 || b >= 0x80 || b == '"' || b == '\\' {
			return "", false
		}
	}
	return string(raw[1 : len(raw)-1]), true
}

// plainStrings returns the values of raw, a JSON array of plain strings
// (see plainString), or false when it is anything else.
func plainStrings(raw []byte) ([]string, bool) {
	if len(raw) < 2 || raw[0] != '[' {
		return nil, false
	}
	elems, ok := splitArray(raw)
	if !ok {
		return nil, false
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		if out[i], ok = plainString(e); !ok {
			return nil, false
		}
	}
	return out, true
}

// appendResult appends a successful answer to dst as json.Encoder writes
// it, newline included, or returns nil for an error answer (which goes
// through the encoder). The result is already JSON from json.Marshal,
// compact and HTML-escaped, which is what the encoder would make of it
// again at the cost of a second pass over every account's data; only the
// id, which the client wrote, still needs its pass.
func (r rpcResponse) appendResult(dst []byte) []byte {
	if r.Error != nil || len(r.Result) == 0 {
		return nil
	}
	id, err := json.Marshal(r.ID)
	if err != nil || r.JSONRPC != "2.0" {
		return nil
	}
	dst = slices.Grow(dst, len(`{"jsonrpc":"2.0","id":,"result":}`)+len(id)+len(r.Result)+1)
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"result":`...)
	dst = append(dst, r.Result...)
	return append(dst, "}\n"...)
}
