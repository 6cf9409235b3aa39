package service

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tradeapi/tradeapi/shared/paralleltest"
)

// Environment of the test binary run as the tradeapi command itself, for
// tests that need it as a process of its own: the command's arguments, and
// the file its exit status is written to.
const (
	commandArgsEnv   = "TRADEAPI_TEST_COMMAND_ARGS"
	commandStatusEnv = "TRADEAPI_TEST_COMMAND_STATUS"
)

// TestMain runs four of the parallel tests at once: they mostly wait on
// the bus's and the local chains' timers, not on the cores. Run with
// commandArgsEnv set, the binary is the command instead.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(commandArgsEnv); ok {
		code := Main(strings.Fields(args), os.Stdout, os.Stderr)
		if path := os.Getenv(commandStatusEnv); path != "" {
			// Whole or not at all: a test waits for the file to appear.
			if os.WriteFile(path+".part", []byte(strconv.Itoa(code)), 0o600) == nil {
				_ = os.Rename(path+".part", path)
			}
		}
		os.Exit(code)
	}
	paralleltest.Main(m, 4)
}
