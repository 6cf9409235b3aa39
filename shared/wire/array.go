package wire

import "encoding/json"

// ArrayHead splits off the first n elements of a JSON array without reading
// past them: an array of thousands of entries where a field takes a few
// costs what those few cost, not a slice of every entry (32,000 one-byte
// entries of a 64 KiB body took 16 ms and 4 MB to count, for a 400). more
// reports whether the array holds more than n elements; ok is false when
// raw is not an array. raw must be valid JSON, as a field of an object
// DecodeObject read is; each element is still only split, not checked.
func ArrayHead(raw json.RawMessage, n int) (items []json.RawMessage, more, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false, false
	}
	i = skipSpace(raw, i+1)
	items = []json.RawMessage{}
	if i < len(raw) && raw[i] == ']' {
		return items, false, true
	}
	for {
		if len(items) == n {
			return items, true, true
		}
		end, ok := valueEnd(raw, i)
		if !ok {
			return nil, false, false
		}
		items = append(items, raw[i:end])
		i = skipSpace(raw, end)
		switch {
		case i >= len(raw):
			return nil, false, false
		case raw[i] == ']':
			return items, false, true
		case raw[i] != ',':
			return nil, false, false
		}
		i = skipSpace(raw, i+1)
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns where the JSON value that starts at b[i] ends.
func valueEnd(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	depth := 0
	for j := i; j < len(b); j++ {
		switch c := b[j]; c {
		case '"':
			end, ok := stringEnd(b, j)
			if !ok {
				return 0, false
			}
			if depth == 0 {
				return end, true
			}
			j = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j, j > i
			}
			depth--
			if depth == 0 {
				return j + 1, true
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return j, j > i
			}
		}
	}
	return len(b), depth == 0 && len(b) > i
}

// stringEnd returns where the JSON string that starts at b[i] ends, past
// its closing quote.
func stringEnd(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}
