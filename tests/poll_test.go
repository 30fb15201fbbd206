package tests

import (
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// pollInterval is how often a script command asks again: short enough that a wait ends soon
// after its condition holds, long enough that many waiting scripts do not load the machine.
const pollInterval = 20 * time.Millisecond

// seconds is a script command's optional [seconds] argument, the first of args (a duration in
// seconds above 0, "2" or "0.5"), or def seconds when args is empty.
func seconds(ts *testscript.TestScript, args []string, def int) time.Duration {
	if len(args) == 0 {
		return time.Duration(def) * time.Second
	}
	d, err := time.ParseDuration(args[0] + "s")
	if err != nil || d <= 0 {
		ts.Fatalf("bad seconds %q: give a number above 0", args[0])
	}
	return d
}

// poll calls f every pollInterval until it says yes, or fails the script with what f saw last
// once limit has passed: every wait of a script command is bounded, and none is a fixed sleep.
func poll(ts *testscript.TestScript, what string, f func() (bool, string), limit time.Duration) {
	pollEvery(ts, what, pollInterval, f, limit)
}

// pollEvery is poll asking every interval, for conditions that cost a tmux call and a read of
// /proc each time.
func pollEvery(ts *testscript.TestScript, what string, interval time.Duration, f func() (bool, string), limit time.Duration) {
	if last, ok := waitUntil(limit, interval, f); !ok {
		ts.Fatalf("%s after %s; last seen:\n%s", what, limit, last)
	}
}

// waitUntil calls f every interval until it says yes (true) or limit has passed (false), and
// returns what f saw last.
func waitUntil(limit, interval time.Duration, f func() (bool, string)) (string, bool) {
	deadline := time.Now().Add(limit)
	for {
		ok, last := f()
		if ok {
			return last, true
		}
		if time.Now().After(deadline) {
			return last, false
		}
		time.Sleep(interval)
	}
}
