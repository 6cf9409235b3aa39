package exits

import (
	"testing"

	"github.com/tradeapi/tradeapi/shared/paralleltest"
)

// TestMain runs four of the parallel tests at once: they mostly wait on
// the bus's and the local chains' timers, not on the cores.
func TestMain(m *testing.M) { paralleltest.Main(m, 4) }
