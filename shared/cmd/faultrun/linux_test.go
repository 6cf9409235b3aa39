//go:build linux

package main

import (
	"net"
	"os"
	"testing"
)

func TestDecodeProcAddr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0100007F:1F90", "127.0.0.1:8080"},
		{"00000000:0050", "0.0.0.0:80"},
		{"0000000000000000FFFF00000100007F:1F90", "127.0.0.1:8080"},
		{"00000000000000000000000001000000:1F90", "[0:0:0:0:0:0:0:1]:8080"},
		{"00000000000000000000000000000000:0016", "[0:0:0:0:0:0:0:0]:22"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := decodeProcAddr(tc.in); got != tc.want {
				t.Errorf("decodeProcAddr(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestListeners finds a socket this test listens on, by its own pid.
func TestListeners(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got, err := listeners(map[string]int{"self": os.Getpid()})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range got["self"] {
		if a == ln.Addr().String() {
			return
		}
	}
	t.Errorf("listeners = %v, want %s among them", got["self"], ln.Addr())
}
