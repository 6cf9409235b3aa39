package bus_test

import (
	"testing"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
	"github.com/tradeapi/tradeapi/shared/paralleltest"
)

// TestMain runs the test binary as a node of a test's cluster when it was
// started as one (bustest.StartCluster), and the tests otherwise, four of
// the parallel ones at once: they mostly wait on the server's timers.
func TestMain(m *testing.M) {
	bustest.ServeNodeIfAsked()
	paralleltest.Main(m, 4)
}
