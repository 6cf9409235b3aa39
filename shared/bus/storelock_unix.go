//go:build unix

package bus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockStore takes the store directory for this process: a second server
// on the same directory (another `up` or `nats` role started on the same
// data folder) would read and write the same stream files under the first
// one. The lock is the kernel's, so a process that dies holds it no more.
// The returned func gives it back.
func lockStore(dir string) (func(), error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("nats store %s: %w", dir, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("nats store %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("nats store %s is in use by another process (a second up or nats role on the same data folder?)", dir)
		}
		return nil, fmt.Errorf("nats store %s: lock: %w", dir, err)
	}
	return func() { f.Close() }, nil
}
