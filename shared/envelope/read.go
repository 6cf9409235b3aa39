package envelope

import (
	"bytes"
	"io"
	"net/http"
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
