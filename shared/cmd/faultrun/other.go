//go:build !linux

package main

import (
	"errors"
	"syscall"
)

// procAttr puts a child in its own process group, so that a signal reaches
// it and anything it starts.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// listeners is only implemented on Linux, where /proc tells which process
// holds which listening socket.
func listeners(map[string]int) (map[string][]string, error) {
	return nil, errors.New("listening sockets are only checked on linux")
}
