package tests

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Script commands of the integration scripts.
func init() {
	// seqcheck <pane> <source> <ns|us> <var>: the seq the pane keeps for source is the time
	// since the epoch in that unit (within a minute of now); it goes in $var.
	commands["seqcheck"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 4 || (args[2] != "ns" && args[2] != "us") {
			ts.Fatalf("usage: seqcheck <pane> <source> <ns|us> <var>")
		}
		cmd := exec.Command("tmux", "-L", ts.Getenv("TAW_SOCKET"), "show-options", "-p", "-v", "-t", args[0], "@agent_seq")
		cmd.Env = environ(ts)
		out, err := cmd.Output()
		ts.Check(err)
		var book [][2]json.RawMessage
		ts.Check(json.Unmarshal([]byte(strings.TrimSpace(string(out))), &book))
		var seq uint64
		found := false
		for _, e := range book {
			var src string
			if json.Unmarshal(e[1], &src) == nil && src == args[1] {
				ts.Check(json.Unmarshal(e[0], &seq))
				found = true
			}
		}
		if !found {
			ts.Fatalf("seqcheck: no seq from %s in %s", args[1], out)
		}
		now := uint64(time.Now().UnixNano())
		if args[2] == "us" {
			now /= 1000
		}
		unit := uint64(time.Second)
		if args[2] == "us" {
			unit /= 1000
		}
		if seq > now+unit || now-seq > 60*unit {
			ts.Fatalf("seqcheck: seq %d from %s is not the %s since the epoch (now %d)", seq, args[1], args[2], now)
		}
		ts.Setenv(args[3], strconv.FormatUint(seq, 10))
	}
	// seqdelta <var1> <var2> <n>: $var2 is $var1 plus n.
	commands["seqdelta"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: seqdelta <var1> <var2> <n>")
		}
		a, err := strconv.ParseUint(ts.Getenv(args[0]), 10, 64)
		ts.Check(err)
		b, err := strconv.ParseUint(ts.Getenv(args[1]), 10, 64)
		ts.Check(err)
		n, err := strconv.ParseUint(args[2], 10, 64)
		ts.Check(err)
		if b != a+n {
			ts.Fatalf("seqdelta: %s=%d is not %s=%d plus %d", args[1], b, args[0], a, n)
		}
	}
}
