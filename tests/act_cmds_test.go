package tests

import (
	"os"
	"regexp"
	"strconv"

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
		limit := seconds(ts, args[2:], 10)
		poll(ts, "keyswait: "+args[0]+" does not match "+strconv.Quote(args[1]), func() (bool, string) {
			b, _ := os.ReadFile(ts.MkAbs(args[0]))
			return re.Match(b), strconv.Quote(string(b))
		}, limit)
	}
}
