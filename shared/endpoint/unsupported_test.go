package endpoint

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
)

type codedError struct {
	code int
	msg  string
}

func (e codedError) Error() string  { return e.msg }
func (e codedError) ErrorCode() int { return e.code }

// TestUnsupported tells a node that does not serve a method from one whose
// call failed.
func TestUnsupported(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{codedError{-32601, "the method eth_simulateV1 does not exist/is not available"}, true},
		{fmt.Errorf("simulate: %w", codedError{-32601, "whatever"}), true},
		{&jsonrpc.RPCError{Code: -32601, Message: "Method not found"}, true},
		{errors.New("getProgramAccounts is not supported on this plan"), true},
		{errors.New("Request deprioritized: excluded from account secondary indexes; this RPC method unavailable for key"), true},
		{codedError{-32000, "execution reverted"}, false},
		{&jsonrpc.RPCError{Code: -32005, Message: "Node is behind by 42 slots"}, false},
		{errors.New("context deadline exceeded"), false},
		{nil, false},
	} {
		if got := Unsupported(tt.err); got != tt.want {
			t.Errorf("Unsupported(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
