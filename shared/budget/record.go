package budget

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// A record is the stored value of one (account, family) key: for each
// window, the Unix second it started and the units charged in it.
//
// Encoding: 49 bytes, a version byte (1) then, for the minute, hour and week
// windows in that order, the start as a big-endian int64 and the count as a
// big-endian int64.
type record [3]slot

// slot is one window of a record.
type slot struct{ start, count int64 }

const (
	recordVersion = 1
	recordSize    = 1 + 3*16
)

var errBadRecord = errors.New("malformed budget record")

// encode returns the stored form of r.
func (r *record) encode() []byte {
	b := make([]byte, recordSize)
	b[0] = recordVersion
	for i, w := range r {
		binary.BigEndian.PutUint64(b[1+16*i:], uint64(w.start))
		binary.BigEndian.PutUint64(b[9+16*i:], uint64(w.count))
	}
	return b
}

// decode parses a stored record.
func decode(b []byte) (record, error) {
	var r record
	if len(b) != recordSize || b[0] != recordVersion {
		return r, fmt.Errorf("%w: %d bytes, version %d", errBadRecord, len(b), firstByte(b))
	}
	for i := range r {
		r[i].start = int64(binary.BigEndian.Uint64(b[1+16*i:]))
		r[i].count = max(int64(binary.BigEndian.Uint64(b[9+16*i:])), 0)
	}
	return r, nil
}

func firstByte(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
}

// current returns r as it stands in the windows starting at st: a window
// that started earlier has rolled over and counts nothing. A window stored
// as starting later than st (another process's clock is ahead) is kept, so
// that a count never goes back.
func (r record) current(st [3]int64) record {
	for i := range r {
		if r[i].start < st[i] {
			r[i] = slot{start: st[i]}
		}
	}
	return r
}

// used returns the counts of r.
func (r record) used() Limits {
	var out Limits
	for i := range r {
		out.set(i, r[i].count)
	}
	return out
}

// remaining returns what is left of lim after the counts of r, never
// negative.
func (r record) remaining(lim Limits) Limits {
	var out Limits
	for i := range r {
		out.set(i, max(lim.at(i)-r[i].count, 0))
	}
	return out
}

// cacheKey names one budget: an account in one family.
type cacheKey struct {
	account string
	family  wire.Family
}

// plainAccount reports whether an account id can be used in a key as it is.
// Dots are excluded because they separate the account from the family.
func plainAccount(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// kvKey returns the KV key of an account and family: "<account>.<family>".
// An account id holding characters that a key cannot carry is written as
// "=" followed by its unpadded URL-safe base64, which a plain id never
// starts with.
func kvKey(k cacheKey) string {
	if plainAccount(k.account) {
		return k.account + "." + string(k.family)
	}
	return "=" + base64.RawURLEncoding.EncodeToString([]byte(k.account)) + "." + string(k.family)
}

// parseKey is the inverse of kvKey.
func parseKey(key string) (cacheKey, bool) {
	i := strings.LastIndexByte(key, '.')
	if i <= 0 || i == len(key)-1 {
		return cacheKey{}, false
	}
	acct, fam := key[:i], wire.Family(key[i+1:])
	if enc, ok := strings.CutPrefix(acct, "="); ok {
		raw, err := base64.RawURLEncoding.DecodeString(enc)
		if err != nil {
			return cacheKey{}, false
		}
		acct = string(raw)
	} else if !plainAccount(acct) {
		return cacheKey{}, false
	}
	return cacheKey{account: acct, family: fam}, true
}
