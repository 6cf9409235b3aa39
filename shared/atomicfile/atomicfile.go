// Package atomicfile replaces files whole: a reader, or a process started
// after a crash, sees the old contents or the new, never a part.
package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
)

// Write replaces path with data: a temporary file in the same folder, mode
// 0600, synced and renamed over path, then the folder synced so that the
// rename itself survives a crash.
func Write(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if runtime.GOOS == "windows" {
		// Folders cannot be synced there; the rename is durable enough.
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
