package endpoint

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/rpc"
)

// EVMClient is a go-ethereum JSON-RPC client of an endpoint. Its
// CallContext and BatchCallContext return Clean errors (a node's JSON-RPC
// error stays an rpc.Error); the embedded *rpc.Client, for ethclient and
// the bindings, knows only the stand-in address, but a node's own message
// can quote the request's path and query (a provider's key): pass the
// errors of clients built over it through CleanNode.
type EVMClient struct {
	*rpc.Client
	ep Endpoint
}

// DialEVM returns the endpoint's EVM JSON-RPC client over HTTP; timeout
// bounds each call. A URL that is not http or https is refused, naming the
// endpoint.
func (e Endpoint) DialEVM(ctx context.Context, timeout time.Duration) (*EVMClient, error) {
	if err := e.Check(); err != nil {
		return nil, err
	}
	c, err := rpc.DialOptions(ctx, e.StandIn(), rpc.WithHTTPClient(e.HTTPClient(timeout)))
	if err != nil {
		return nil, e.Clean(err)
	}
	return &EVMClient{Client: c, ep: e}, nil
}

// CallContext is rpc.Client's, with a Clean error (see cleanNode).
func (c *EVMClient) CallContext(ctx context.Context, result any, method string, args ...any) error {
	return c.ep.cleanNode(c.Client.CallContext(ctx, result, method, args...))
}

// CleanNode is the endpoint's clean form of an error of a call over the
// client (see cleanNode), for the clients built over the embedded
// *rpc.Client (ethclient, gethclient), whose errors pass a node's message
// on whole.
func (c *EVMClient) CleanNode(err error) error { return c.ep.cleanNode(err) }

// BatchCallContext is rpc.Client's, with a Clean error; the errors of
// single elements are the node's answers, cleaned the same way.
func (c *EVMClient) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	err := c.ep.Clean(c.Client.BatchCallContext(ctx, b))
	for i := range b {
		if b[i].Error != nil {
			b[i].Error = c.ep.cleanNode(b[i].Error)
		}
	}
	return err
}

// cleanNode is Clean for what a node may answer: its JSON-RPC error
// (rpc.Error) becomes an *EVMNodeError, which keeps its code and data
// (callers read them) and names the endpoint, its message and data losing
// any part of the endpoint's URL, since some providers quote the request's
// path, which holds their key, in their refusals.
func (e Endpoint) cleanNode(err error) error {
	var rerr rpc.Error
	if err == nil || !errors.As(err, &rerr) {
		return e.Clean(err)
	}
	var derr rpc.DataError
	var data any
	if errors.As(err, &derr) {
		data = e.scrubValue(derr.ErrorData())
	}
	return &EVMNodeError{Endpoint: e.Name, code: rerr.ErrorCode(), msg: e.Scrub(rerr.Error()), data: data}
}

// EVMNodeError is an EVM node's answer to a call that is a JSON-RPC error:
// the node answered, and refused. Its text is the node's message alone
// (callers match it, as go-ethereum's own errors), cleaned of the
// endpoint's URL; Reason adds the code, and Endpoint names the node. It is
// an rpc.Error and an rpc.DataError, as the error it replaces, to which it
// does not unwrap: its text is what it cleans.
type EVMNodeError struct {
	// Endpoint is the endpoint's name: "base rpc".
	Endpoint string
	code     int
	msg      string
	data     any
}

func (e *EVMNodeError) Error() string  { return e.msg }
func (e *EVMNodeError) ErrorCode() int { return e.code }
func (e *EVMNodeError) ErrorData() any { return e.data }

// Reason is the node's code and message: "code -32000: nonce too low".
func (e *EVMNodeError) Reason() string { return fmt.Sprintf("code %d: %s", e.code, e.msg) }
