// Package logtest holds what tests need to read a service's log while it
// runs.
package logtest

import (
	"bytes"
	"sync"
)

// Buffer is a log destination safe to write from many goroutines while a
// test reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
