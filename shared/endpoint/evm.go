package endpoint

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/rpc"
)

// EVMClient is a go-ethereum JSON-RPC client of an endpoint. Its
// CallContext and BatchCallContext return Clean errors (a node's JSON-RPC
// error stays an rpc.Error); the embedded *rpc.Client, for ethclient and
// the bindings, knows only the stand-in address, so its errors carry no
// part of the URL either.
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

// CallContext is rpc.Client's, with a Clean error.
func (c *EVMClient) CallContext(ctx context.Context, result any, method string, args ...any) error {
	return c.ep.Clean(c.Client.CallContext(ctx, result, method, args...))
}

// BatchCallContext is rpc.Client's, with a Clean error. The errors of
// single elements are the node's answers and stay as they are.
func (c *EVMClient) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	return c.ep.Clean(c.Client.BatchCallContext(ctx, b))
}
