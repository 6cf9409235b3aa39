package solana

import (
	"bytes"
	"encoding/base64"

	sol "github.com/gagliardetto/solana-go"
)

// maxProgramAccountFilters is the number of filters a getProgramAccounts
// takes, as on a real validator.
const maxProgramAccountFilters = 4

// programAccountsConfig is getProgramAccounts' configuration object: the
// encoding, the filters (dataSize, and memcmp with base58 or base64 bytes)
// and withContext.
type programAccountsConfig struct {
	Encoding    string `json:"encoding"`
	WithContext bool   `json:"withContext"`
	DataSlice   *struct {
		Offset uint64 `json:"offset"`
		Length uint64 `json:"length"`
	} `json:"dataSlice"`
	Filters []struct {
		DataSize *uint64 `json:"dataSize"`
		Memcmp   *struct {
			Offset   uint64 `json:"offset"`
			Bytes    string `json:"bytes"`
			Encoding string `json:"encoding"`
		} `json:"memcmp"`
	} `json:"filters"`
}

// programAccountFilter is one decoded filter: a data size, or bytes at an
// offset.
type programAccountFilter struct {
	size   *uint64
	offset uint64
	bytes  []byte
}

func (f programAccountFilter) match(data []byte) bool {
	if f.size != nil {
		return uint64(len(data)) == *f.size
	}
	end := f.offset + uint64(len(f.bytes))
	return end >= f.offset && end <= uint64(len(data)) && bytes.Equal(data[f.offset:end], f.bytes)
}

type rpcKeyedAccount struct {
	Pubkey  string      `json:"pubkey"`
	Account *rpcAccount `json:"account"`
}

// rpcGetProgramAccounts answers the accounts a program owns that pass every
// filter, as a validator does: what clients such as Meteora's SDK use to
// find a pool by its mint. The ledger is scanned under the read lock.
func rpcGetProgramAccounts(c *Chain, p rpcParams) (any, *rpcError) {
	program, err := p.pubkey(0)
	if err != nil {
		return nil, err
	}
	var cfg programAccountsConfig
	if err := p.decode(1, &cfg); err != nil {
		return nil, err
	}
	if len(cfg.Filters) > maxProgramAccountFilters {
		return nil, invalidParams("Too many filters provided; max %d", maxProgramAccountFilters)
	}
	filters := make([]programAccountFilter, 0, len(cfg.Filters))
	for _, f := range cfg.Filters {
		switch {
		case f.DataSize != nil:
			filters = append(filters, programAccountFilter{size: f.DataSize})
		case f.Memcmp != nil:
			var b []byte
			var derr error
			switch f.Memcmp.Encoding {
			case "", "base58":
				b, derr = b58dec(f.Memcmp.Bytes)
			case "base64":
				b, derr = base64.StdEncoding.DecodeString(f.Memcmp.Bytes)
			default:
				return nil, invalidParams("Invalid params: unsupported memcmp encoding %q", f.Memcmp.Encoding)
			}
			if derr != nil || len(b) > 128 {
				return nil, invalidParams("Invalid param: Invalid memcmp bytes")
			}
			filters = append(filters, programAccountFilter{offset: f.Memcmp.Offset, bytes: b})
		default:
			return nil, invalidParams("Invalid params: a filter is dataSize or memcmp")
		}
	}
	type found struct {
		key sol.PublicKey
		a   *Account
	}
	var hits []found
	c.mu.RLock()
	for k, a := range c.accounts {
		if a.Owner != program {
			continue
		}
		ok := true
		for _, f := range filters {
			if !f.match(a.Data) {
				ok = false
				break
			}
		}
		if ok {
			hits = append(hits, found{k, a})
		}
	}
	ctx := c.ctxLocked()
	c.mu.RUnlock()
	out := make([]rpcKeyedAccount, len(hits))
	for i, h := range hits {
		a := h.a
		if ds := cfg.DataSlice; ds != nil {
			// A slice past the end is empty, as a validator answers it.
			cut := *a
			from := min(ds.Offset, uint64(len(a.Data)))
			cut.Data = a.Data[from : from+min(ds.Length, uint64(len(a.Data))-from)]
			a = &cut
		}
		acc, rerr := c.encodeAccount(a, cfg.Encoding)
		if rerr != nil {
			return nil, rerr
		}
		out[i] = rpcKeyedAccount{Pubkey: h.key.String(), Account: acc}
	}
	if cfg.WithContext {
		return withContext{ctx, out}, nil
	}
	return out, nil
}
