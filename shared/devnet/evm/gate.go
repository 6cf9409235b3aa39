package evm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/ethereum/go-ethereum/rpc"
)

// maxRequestBody bounds a JSON-RPC request, as go-ethereum's HTTP server
// does by default.
const maxRequestBody = 5 << 20

// gated serves h under the chain's gate, so that a request never runs
// between a block's insertion and the pool's reset to it. The devnet_
// methods wait for blocks of their own, and eth_sendBundle seals one, so
// they run outside the gate.
func (c *Chain) gated(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody+1))
		if err != nil {
			http.Error(w, "read request body", http.StatusBadRequest)
			return
		}
		if len(body) > maxRequestBody {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !sealsBlocks(body) {
			c.gate.RLock()
			defer c.gate.RUnlock()
		}
		h.ServeHTTP(w, r)
	})
}

// sealsBlocks reports whether a request (single or batch) calls a devnet_
// method or eth_sendBundle. A body that does not parse is left to the RPC
// server to refuse.
func sealsBlocks(body []byte) bool {
	// Such a method's name is in the body as it is, unless written with
	// \u escapes: a body with neither calls none, and is not parsed here
	// as well as by the RPC server on every read.
	if !bytes.Contains(body, []byte("devnet_")) && !bytes.Contains(body, []byte("sendBundle")) && !bytes.Contains(body, []byte(`\u`)) {
		return false
	}
	var calls []struct {
		Method string `json:"method"`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		trimmed = append(append([]byte{'['}, trimmed...), ']')
	}
	if json.Unmarshal(trimmed, &calls) != nil {
		return false
	}
	for _, call := range calls {
		if strings.HasPrefix(call.Method, "devnet_") || call.Method == "eth_sendBundle" {
			return true
		}
	}
	return false
}

// handlerTransport answers HTTP requests with a handler in process.
type handlerTransport struct {
	h http.Handler
}

// RoundTrip serves the request with the handler.
func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// dialHandler returns a JSON-RPC client of an HTTP handler, in process.
func dialHandler(h http.Handler) (*rpc.Client, error) {
	c, err := rpc.DialOptions(context.Background(), "http://devnet.invalid/",
		rpc.WithHTTPClient(&http.Client{Transport: handlerTransport{h: h}}))
	if err != nil {
		return nil, fmt.Errorf("dial in process: %w", err)
	}
	return c, nil
}
