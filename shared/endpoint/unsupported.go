package endpoint

import (
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
)

// methodNotFound is JSON-RPC's code for a method the server does not
// serve.
const methodNotFound = -32601

// Unsupported tells whether a node's refusal says it does not serve the
// method asked (JSON-RPC's "method not found", or the words providers use
// for a method they turned off), rather than that the call itself failed.
func Unsupported(err error) bool {
	if err == nil {
		return false
	}
	var eerr rpc.Error
	if errors.As(err, &eerr) && eerr.ErrorCode() == methodNotFound {
		return true
	}
	var serr *jsonrpc.RPCError
	if errors.As(err, &serr) && serr.Code == methodNotFound {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, s := range []string{"method not found", "does not exist", "not supported", "unsupported method", "not available", "method is disabled", "excluded from account secondary indexes"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
