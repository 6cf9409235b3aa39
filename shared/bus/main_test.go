package bus_test

import (
	"os"
	"testing"

	"github.com/tradeapi/tradeapi/shared/bus/bustest"
)

// TestMain runs the test binary as a node of a test's cluster when it was
// started as one (bustest.StartCluster), and the tests otherwise.
func TestMain(m *testing.M) {
	bustest.ServeNodeIfAsked()
	os.Exit(m.Run())
}
