package endpoint

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
)

// JSONRPC is a Solana-style JSON-RPC client of an endpoint (solana-go's
// client at the endpoint's stand-in address, over its transport). It is
// what rpc.NewWithCustomRPCClient takes and what a bundle relay needs
// (CallForInto). A JSON-RPC error comes back as a *NodeError, which
// unwraps to the node's *jsonrpc.RPCError; any other error is Clean.
type JSONRPC struct {
	ep Endpoint
	c  jsonrpc.RPCClient
}

// JSONRPC returns the endpoint's JSON-RPC client; timeout bounds each call.
func (e Endpoint) JSONRPC(timeout time.Duration) *JSONRPC {
	return &JSONRPC{ep: e, c: jsonrpc.NewClientWithOpts(e.StandIn(), &jsonrpc.RPCClientOpts{HTTPClient: e.HTTPClient(timeout)})}
}

// SolanaRPC returns a Solana RPC client of the endpoint; timeout bounds
// each call.
func (e Endpoint) SolanaRPC(timeout time.Duration) *rpc.Client {
	return rpc.NewWithCustomRPCClient(e.JSONRPC(timeout))
}

// CallForInto implements rpc.JSONRPCClient.
func (j *JSONRPC) CallForInto(ctx context.Context, out any, method string, params []any) error {
	return j.clean(j.c.CallForInto(ctx, out, method, params))
}

// CallWithCallback implements rpc.JSONRPCClient.
func (j *JSONRPC) CallWithCallback(ctx context.Context, method string, params []any, callback func(*http.Request, *http.Response) error) error {
	return j.clean(j.c.CallWithCallback(ctx, method, params, callback))
}

// CallBatch implements rpc.JSONRPCClient.
func (j *JSONRPC) CallBatch(ctx context.Context, requests jsonrpc.RPCRequests) (jsonrpc.RPCResponses, error) {
	out, err := j.c.CallBatch(ctx, requests)
	for _, r := range out {
		if r != nil && r.Error != nil {
			_ = j.clean(r.Error)
		}
	}
	return out, j.clean(err)
}

// Close releases the client's idle connections.
func (j *JSONRPC) Close() error { return j.c.Close() }

// NodeError is a node's answer to a call that is a JSON-RPC error: the node
// answered, and refused. Its text is the endpoint's name, the code and the
// message ("solana rpc: code -32000: Node is behind by 120 slots"), where
// the library's own text of the error is a multi-line dump of the
// structure with a pointer address. It unwraps to the node's
// *jsonrpc.RPCError, whose code, message and data callers read; the
// message and data are scrubbed of the endpoint's URL.
type NodeError struct {
	// Endpoint is the endpoint's name.
	Endpoint string
	rpc      *jsonrpc.RPCError
}

// Error implements error.
func (e *NodeError) Error() string { return e.Endpoint + ": " + e.Reason() }

// Reason is the node's code and message: "code -32000: Node is behind by
// 120 slots".
func (e *NodeError) Reason() string { return fmt.Sprintf("code %d: %s", e.rpc.Code, e.rpc.Message) }

// Unwrap returns the node's JSON-RPC error.
func (e *NodeError) Unwrap() error { return e.rpc }

// clean keeps the node's own JSON-RPC errors (callers read their code and
// message) with any part of the endpoint's URL taken out of the message,
// since some providers quote the request's path, which holds their key, in
// their refusals, as a *NodeError; and cleans the rest. An answer that is not JSON is said
// so without the library's quote of its first bytes, which may hold a
// piece of the URL too short to recognise.
func (j *JSONRPC) clean(err error) error {
	var rerr *jsonrpc.RPCError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rerr):
		rerr.Message = j.ep.Scrub(rerr.Message)
		// Its text prints Data whole, whatever its shape (a provider's
		// error may carry the URL in an object): every string in it is
		// scrubbed, its shape kept for the callers that read it (a
		// simulation's logs).
		rerr.Data = j.ep.scrubValue(rerr.Data)
		return &NodeError{Endpoint: j.ep.name(), rpc: rerr}
	case strings.Contains(err.Error(), "error found in #"):
		return &Error{Endpoint: j.ep.name(), Reason: "the answer is not JSON-RPC", cause: err}
	}
	return j.ep.Clean(err)
}
