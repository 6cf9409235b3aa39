// Package paralleltest runs a test package whose tests mostly wait (on a
// bus's acknowledgement waits and redeliveries, a chain's polls, a
// service's start) with more of its parallel tests at once than the
// machine has cores, which is what `go test` allows them by default.
package paralleltest

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// Main is a package's TestMain: it runs the tests with n of those that
// call t.Parallel at once, unless -test.parallel was given, and exits
// with their status. The tests that do not call t.Parallel (those that
// read the process's metrics or change its environment) still run alone,
// before the parallel ones.
func Main(m *testing.M, n int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
