// Package callerr tells an EVM node's answer that a call reverted, or could
// not run, from a failure to reach the node or the node's own trouble.
package callerr

import (
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum/rpc"
)

// IsRevert reports whether err is the node's answer that a call reverted
// (or could not run: the code at the address broke off), as opposed to a
// failure to reach it, or a node's trouble, which a retry may mend.
func IsRevert(err error) bool {
	var rerr rpc.Error
	if !errors.As(err, &rerr) {
		return false
	}
	if rerr.ErrorCode() == 3 {
		return true
	}
	msg := strings.ToLower(rerr.Error())
	for _, broke := range callBroke {
		if strings.Contains(msg, broke) {
			return true
		}
	}
	return false
}

// callBroke are the words of the EVM's own errors for a call whose code
// broke off (go-ethereum's core/vm errors, which other clients share in
// the main): the address holds no contract that answers the call.
var callBroke = []string{"revert", "invalid opcode", "out of gas", "stack underflow", "stack overflow",
	"invalid jump destination", "return data out of bounds", "write protection", "max call depth exceeded"}
