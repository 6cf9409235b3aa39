package service

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// stopWithGoRun ties the process to the `go` command that started it
// (`go run . up`): that command dies of a SIGTERM without passing it on,
// which would leave the service running, its ports and data folder held,
// with nothing left to stop it by. Linux sends the service the same
// SIGTERM when its parent dies, and it stops as it would for its own. A
// service started any other way (a shell, a supervisor) is left alone: its
// parent's end is not its own.
func stopWithGoRun() {
	parent := os.Getppid()
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(parent) + "/comm")
	if err != nil || strings.TrimSpace(string(comm)) != "go" {
		return
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0); err != nil {
		return
	}
	// The parent may have died before the request was made.
	if os.Getppid() != parent {
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	}
}
