package budget

import (
	"net/http"
	"strconv"
	"time"

	"github.com/tradeapi/tradeapi/shared/apierr"
)

// Limits are the units an account may spend in each window of one family.
// A limit of 0 lets nothing pass in that window.
type Limits struct{ Minute, Hour, Week int64 }

// DefaultLimits apply to an account without figures of its own, and are
// shown on responses where no account is known.
var DefaultLimits = Limits{Minute: 60, Hour: 1200, Week: 10000}

// at returns the limit of window i (0 minute, 1 hour, 2 week).
func (l Limits) at(i int) int64 {
	switch i {
	case minute:
		return l.Minute
	case hour:
		return l.Hour
	default:
		return l.Week
	}
}

// set sets the limit of window i.
func (l *Limits) set(i int, v int64) {
	switch i {
	case minute:
		l.Minute = v
	case hour:
		l.Hour = v
	default:
		l.Week = v
	}
}

// clamped returns l with negative limits raised to 0.
func (l Limits) clamped() Limits {
	for i := range windows {
		if l.at(i) < 0 {
			l.set(i, 0)
		}
	}
	return l
}

// State is what the X-RateLimit-* headers show.
type State struct {
	// Limits are the account's limits.
	Limits Limits
	// Remaining is what is left in each window after this request; never
	// negative.
	Remaining Limits
	// Used is what each window has counted, set by Read only: above the
	// limits when they were lowered after the window's charges.
	Used Limits
	// Reset holds the seconds until the minute, hour and week windows
	// reset; each is at least 1.
	Reset [3]int64
	// Spent names the spent window on a refusal: "minute", "hour" or
	// "week"; when several are spent, the one that resets last, since a
	// retry before then is refused again. Empty when the request passed.
	Spent string
	// RetryAfter is, on a refusal, the seconds until the spent window resets.
	RetryAfter int64
	// Windows are, after a granted Charge, the starts (Unix seconds) of the
	// minute, hour and week windows the unit was counted in: Refund gives
	// it back to those windows only, never to ones that began since.
	Windows [3]int64
}

// refused reports whether the state is that of a refused request.
func (s State) refused() bool { return s.Spent != "" }

// refuse returns s as the state of a request refused because window i is
// spent, with the RATE_LIMITED error that names it.
func (s State) refuse(i int) (State, error) {
	s.Spent = windows[i]
	s.RetryAfter = s.Reset[i]
	return s, apierr.Newf(apierr.RateLimited, windows[i],
		"rate limit exceeded: the %s budget is spent, retry in %d s", windows[i], s.RetryAfter)
}

// Refusal returns the refusal a charge would meet in s, a state from Peek:
// when a window has nothing left, s as Charge would return it for that
// window and the same RATE_LIMITED error; otherwise s and nil. Peek's cache
// may lag other processes' charges but never runs ahead of them, so a
// refusal it shows is certain, and a caller may answer it without writing
// anything; a pass is not certain, and Charge decides.
func (s State) Refusal() (State, error) {
	// The windows nest (a week starts on an hour, an hour on a minute), so
	// the longest spent one resets last.
	for i := len(windows) - 1; i >= 0; i-- {
		if s.Remaining.at(i) <= 0 {
			return s.refuse(i)
		}
	}
	return s, nil
}

// StateFor returns the full budget of lim at now: Remaining equals the limit.
// It is what a response shows where no account is known (401, with
// DefaultLimits).
func StateFor(lim Limits, now time.Time) State {
	lim = lim.clamped()
	return State{Limits: lim, Remaining: lim, Reset: resets(now, starts(now))}
}

// Header names set by State.Headers, spelled as the API specification
// spells them. They are written into the header map as they are, not in
// Go's canonical form (X-Ratelimit-...): a server sends a map key as it
// stands, and a client that reads the answer as text sees the
// specification's names. Go's own clients canonicalize what they receive,
// so their Header.Get finds them; code reading a response's map on the
// server side must use these names (or Values of the canonical one: none
// does).
var (
	headerLimit     = [3]string{"X-RateLimit-Limit-Minute", "X-RateLimit-Limit-Hour", "X-RateLimit-Limit-Week"}
	headerRemaining = [3]string{"X-RateLimit-Remaining-Minute", "X-RateLimit-Remaining-Hour", "X-RateLimit-Remaining-Week"}
	headerReset     = [3]string{"X-RateLimit-Reset-Minute", "X-RateLimit-Reset-Hour", "X-RateLimit-Reset-Week"}
)

// Headers sets X-RateLimit-Limit-Minute, -Hour and -Week,
// X-RateLimit-Remaining-Minute, -Hour and -Week, X-RateLimit-Reset-Minute,
// -Hour and -Week, and Retry-After when the request was refused.
func (s State) Headers(h http.Header) {
	// One backing array for the nine values: this runs on every response.
	vals := make([]string, 9)
	for i := range windows {
		vals[3*i] = strconv.FormatInt(s.Limits.at(i), 10)
		vals[3*i+1] = strconv.FormatInt(s.Remaining.at(i), 10)
		vals[3*i+2] = strconv.FormatInt(s.Reset[i], 10)
		h[headerLimit[i]] = vals[3*i : 3*i+1 : 3*i+1]
		h[headerRemaining[i]] = vals[3*i+1 : 3*i+2 : 3*i+2]
		h[headerReset[i]] = vals[3*i+2 : 3*i+3 : 3*i+3]
	}
	if s.refused() {
		h["Retry-After"] = []string{strconv.FormatInt(s.RetryAfter, 10)}
	}
}

// The windows, in the order of State.Reset and of the stored value.
const (
	minute = iota
	hour
	week
)

// windows names the windows as Spent and the error details name them.
var windows = [3]string{"minute", "hour", "week"}

// Window lengths in seconds.
const (
	minuteLen = 60
	hourLen   = 3600
	weekLen   = 7 * 86400
)

// mondayEpoch is the Unix time of Monday 1970-01-05 00:00 UTC: ISO weeks
// start a whole number of weeks from it.
const mondayEpoch = 4 * 86400

// starts returns the Unix second at which each window containing now began.
func starts(now time.Time) [3]int64 {
	sec := now.Unix()
	return [3]int64{
		floorTo(sec, minuteLen, 0),
		floorTo(sec, hourLen, 0),
		floorTo(sec, weekLen, mondayEpoch),
	}
}

// floorTo rounds sec down to origin plus a whole number of steps.
func floorTo(sec, step, origin int64) int64 {
	d := sec - origin
	q := d / step
	if d%step < 0 {
		q--
	}
	return origin + q*step
}

// resets returns the whole seconds, rounded up and at least 1, from now
// until the end of each window that started at st.
func resets(now time.Time, st [3]int64) [3]int64 {
	ns := now.UnixNano()
	return [3]int64{
		secondsUntil(st[minute]+minuteLen, ns),
		secondsUntil(st[hour]+hourLen, ns),
		secondsUntil(st[week]+weekLen, ns),
	}
}

// secondsUntil returns the seconds, rounded up and at least 1, from the
// Unix nanosecond ns to the Unix second end.
func secondsUntil(end, ns int64) int64 {
	left := end*int64(time.Second) - ns
	return max((left+int64(time.Second)-1)/int64(time.Second), 1)
}
