package tests

import (
	"os"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Commands of the session scripts.
func init() {
	// filewait <path> [seconds]: poll until the file exists and is not empty; never a fixed sleep.
	commands["filewait"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg {
			ts.Fatalf("unsupported: ! filewait")
		}
		if len(args) < 1 || len(args) > 2 {
			ts.Fatalf("usage: filewait <path> [seconds]")
		}
		limit := 30 * time.Second
		if len(args) == 2 {
			d, err := time.ParseDuration(args[1] + "s")
			ts.Check(err)
			limit = d
		}
		path := ts.MkAbs(args[0])
		deadline := time.Now().Add(limit)
		for {
			if st, err := os.Stat(path); err == nil && st.Size() > 0 {
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("filewait: %s did not appear within %s", path, limit)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
