package tests

import (
	"fmt"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Custom commands of the watcher's scripts.
func init() {
	// globwait <glob> {present|absent} [seconds]: poll until a file matches the glob, or none
	// does (hooks run in the background, so their effects are waited for).
	commands["globwait"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg {
			ts.Fatalf("unsupported: ! globwait")
		}
		if len(args) < 2 || len(args) > 3 || (args[1] != "present" && args[1] != "absent") {
			ts.Fatalf("usage: globwait <glob> {present|absent} [seconds]")
		}
		poll(ts, "globwait: "+args[0]+" is not "+args[1], func() (bool, string) {
			m, err := filepath.Glob(ts.MkAbs(args[0]))
			ts.Check(err)
			return (len(m) > 0) == (args[1] == "present"), fmt.Sprint(m)
		}, seconds(ts, args[2:], 30))
	}
	// pidwait <pid> [seconds]: poll until the process is gone.
	commands["pidwait"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg {
			ts.Fatalf("unsupported: ! pidwait")
		}
		if len(args) < 1 || len(args) > 2 {
			ts.Fatalf("usage: pidwait <pid> [seconds]")
		}
		pid, err := strconv.Atoi(args[0])
		if err != nil || pid <= 0 {
			ts.Fatalf("pidwait: %q is not a process id", args[0])
		}
		poll(ts, fmt.Sprintf("pidwait: process %d still runs", pid), func() (bool, string) {
			return syscall.Kill(pid, 0) != nil, "the process"
		}, seconds(ts, args[1:], 30))
	}
	// nowms <name> [offset-seconds]: put the current unix time in milliseconds, plus the offset
	// (which may be negative), in $name.
	commands["nowms"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 1 || len(args) > 2 {
			ts.Fatalf("usage: nowms <name> [offset-seconds]")
		}
		ms := time.Now().UnixMilli()
		if len(args) == 2 {
			off, err := strconv.ParseInt(args[1], 10, 64)
			ts.Check(err)
			ms += off * 1000
		}
		ts.Setenv(args[0], strconv.FormatInt(ms, 10))
	}
}
