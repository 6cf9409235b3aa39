package bus

import "time"

// SetDrainWait sets drainWait for a test and returns the setting before.
func SetDrainWait(d time.Duration) time.Duration {
	old := drainWait
	drainWait = d
	return old
}
