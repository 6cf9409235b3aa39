package service

import (
	"testing"

	"github.com/tradeapi/tradeapi/shared/freeport"
)

// freeAddrs returns n distinct 127.0.0.1 addresses nothing listens on now,
// for a service the test starts on them, picked below the kernel's
// ephemeral range (freeport): one freed there may be taken by any outgoing
// connection of the machine (the other packages' tests make thousands)
// before the service binds it, which stopped a test with "address already
// in use". Below it only a listener that picks the same port can
// (startUpLog tries again on that).
func freeAddrs(t testing.TB, n int) []string {
	t.Helper()
	out, err := freeport.Addrs(n)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// freeAddr is one of freeAddrs.
func freeAddr(t testing.TB) string {
	t.Helper()
	return freeAddrs(t, 1)[0]
}
