package bus

import "time"

// SetDrainWait sets drainWait for a test and returns the setting before.
func SetDrainWait(d time.Duration) time.Duration {
	old := drainWait
	drainWait = d
	return old
}

// SetKeepPoll sets keepPoll for a test and returns the setting before.
func SetKeepPoll(d time.Duration) time.Duration {
	old := keepPoll
	keepPoll = d
	return old
}
