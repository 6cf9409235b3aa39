package envelope

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"
)

// readLimited reads at most limit bytes of the body; more is an
// *http.MaxBytesError.
func readLimited(r *http.Request, limit int64) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	_, err := io.Copy(&buf, http.MaxBytesReader(nil, r.Body, limit))
	return buf.Bytes(), err
}

// cutByClient reports whether err, which ended a read of r's body, is the
// client closing its connection before the body its headers announced had
// all come: the connection ended (io.ErrUnexpectedEOF, the body's length
// or its chunks unfinished) or was reset, or the server, having seen it
// end, cancelled the request. The server's own body deadline passing is not
// the client's doing, and a body that came whole but malformed fails
// otherwise.
func cutByClient(r *http.Request, err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(context.Cause(r.Context()), context.Canceled)
}
