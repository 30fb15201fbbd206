package tests

import (
	"os"
	"regexp"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Script commands of the acting verbs' scripts.
func init() {
	// keyswait <file> <regexp> [seconds]: poll until the file (the keys a stand-in received)
	// matches, so a check never races the stand-in's writes.
	commands["keyswait"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 || len(args) > 3 {
			ts.Fatalf("usage: keyswait <file> <regexp> [seconds]")
		}
		re, err := regexp.Compile(args[1])
		ts.Check(err)
		limit := 10 * time.Second
		if len(args) == 3 {
			d, err := time.ParseDuration(args[2] + "s")
			ts.Check(err)
			limit = d
		}
		deadline := time.Now().Add(limit)
		for {
			b, _ := os.ReadFile(ts.MkAbs(args[0]))
			if re.Match(b) {
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("keyswait: %s is %q after %s, want match for %q", args[0], b, limit, args[1])
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
