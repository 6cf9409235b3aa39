package envelope

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestCutByClient: a body read that ended with the client's connection
// (closed before the announced body was in, or reset) is the client's
// leaving; the server's body deadline passing, or a body malformed as it
// came, is not, even once the server has cancelled the request.
func TestCutByClient(t *testing.T) {
	reset := &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	deadline := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	for _, tc := range []struct {
		name      string
		err       error
		cancelled bool
		want      bool
	}{
		{"the body ended early", io.ErrUnexpectedEOF, false, true},
		{"the connection reset", reset, false, true},
		{"the server saw the connection end", errors.New("read: broken"), true, true},
		{"the body deadline passed", deadline, true, false},
		{"malformed chunks", errors.New("invalid byte in chunk length"), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancelled {
				cancel()
			}
			r := httptest.NewRequestWithContext(ctx, "POST", "/", strings.NewReader("{"))
			if got := cutByClient(r, tc.err); got != tc.want {
				t.Fatalf("cutByClient(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
