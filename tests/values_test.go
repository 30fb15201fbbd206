package tests

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/taw-tmux/taw/helper/tmux"
)

// The commands that put a value in a script variable, or check values against each other.
func init() {
	// stdout2env <name>: put the last command's stdout, trimmed, in $name.
	define("stdout2env <name>", 1, 1, func(ts *testscript.TestScript, args []string) {
		ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile("stdout")))
	})

	// nowms <name> [offset-seconds]: put the current unix time in milliseconds, plus the offset
	// (which may be negative), in $name.
	define("nowms <name> [offset-seconds]", 1, 2, func(ts *testscript.TestScript, args []string) {
		ms := time.Now().UnixMilli()
		if len(args) == 2 {
			off, err := strconv.ParseInt(args[1], 10, 64)
			ts.Check(err)
			ms += off * 1000
		}
		ts.Setenv(args[0], strconv.FormatInt(ms, 10))
	})

	// seqcheck <pane> <source> <ns|us> <var>: the seq the pane keeps for source is the time
	// since the epoch in that unit (within a minute of now); it goes in $var.
	seqUsage := "seqcheck <pane> <source> <ns|us> <var>"
	define(seqUsage, 4, 4, func(ts *testscript.TestScript, args []string) {
		if args[2] != "ns" && args[2] != "us" {
			ts.Fatalf("usage: %s", seqUsage)
		}
		out, err := scriptTmux(ts, "show-options", "-p", "-v", "-t", args[0], "@agent_seq")
		if err != nil {
			ts.Fatalf("seqcheck: %v: %s", err, out)
		}
		var book [][2]json.RawMessage
		ts.Check(json.Unmarshal([]byte(strings.TrimSpace(out)), &book))
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
		unit := uint64(time.Second)
		if args[2] == "us" {
			now /= 1000
			unit /= 1000
		}
		if seq > now+unit || now-seq > 60*unit {
			ts.Fatalf("seqcheck: seq %d from %s is not the %s since the epoch (now %d)", seq, args[1], args[2], now)
		}
		ts.Setenv(args[3], strconv.FormatUint(seq, 10))
	})

	// tmuxvalue <target|-> <variable>: print the format variable's value (an option's, say) as
	// it is, for stdout and cmp to check: read the way taw reads rows, since tmux 3.4 and 3.5a
	// print show-options' values escaped. "-" reads it without a target.
	define("tmuxvalue <target|-> <variable>", 2, 2, func(ts *testscript.TestScript, args []string) {
		cmd := []string{"display-message", "-p"}
		if args[0] != "-" {
			cmd = append(cmd, "-t", args[0])
		}
		out, err := scriptTmux(ts, append(cmd, tmux.Text(args[1]))...)
		if err != nil {
			ts.Fatalf("tmuxvalue: %v: %s", err, out)
		}
		fmt.Fprintln(ts.Stdout(), tmux.Decode(strings.TrimSuffix(out, "\n")))
	})

	// tmuxkey [-L socket] <table> <key>: print the list-keys lines that bind key in table, for
	// stdout to check (none when it is unbound). Every binding is listed and the lines picked:
	// tmux 3.7c prints nothing when list-keys finds exactly one binding, as list-keys -T table key
	// does for a bound key.
	define("tmuxkey [-L socket] <table> <key>", 2, 4, func(ts *testscript.TestScript, args []string) {
		socket := ts.Getenv("TAW_SOCKET")
		if args[0] == "-L" && len(args) == 4 {
			socket, args = args[1], args[2:]
		} else if len(args) != 2 {
			ts.Fatalf("usage: tmuxkey [-L socket] <table> <key>")
		}
		out, err := tmuxOn(ts, socket, "list-keys")
		if err != nil {
			ts.Fatalf("tmuxkey: %v: %s", err, out)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			f := strings.Fields(line)
			for i := 0; i+2 < len(f); i++ {
				if f[i] == "-T" {
					if f[i+1] == args[0] && f[i+2] == args[1] {
						fmt.Fprintln(ts.Stdout(), line)
					}
					break
				}
			}
		}
	})

	// jsonhas <file|stdout> <key> <want>...: some object in the JSON has key with the string
	// want (or one of the wants), each written as the inside of a Go string literal ("\\" a
	// backslash, "\x01" a control byte).
	define("jsonhas <file|stdout> <key> <want>...", 3, many, func(ts *testscript.TestScript, args []string) {
		wants := map[string]bool{}
		for _, w := range args[2:] {
			want, err := strconv.Unquote(`"` + w + `"`)
			ts.Check(err)
			wants[want] = true
		}
		var doc any
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc))
		var seen []string
		var walk func(v any) bool
		walk = func(v any) bool {
			switch v := v.(type) {
			case map[string]any:
				if s, ok := v[args[1]].(string); ok {
					if wants[s] {
						return true
					}
					seen = append(seen, s)
				}
				for _, e := range v {
					if walk(e) {
						return true
					}
				}
			case []any:
				for _, e := range v {
					if walk(e) {
						return true
					}
				}
			}
			return false
		}
		if !walk(doc) {
			ts.Fatalf("jsonhas: no %q of %q in %s; its values: %q", args[1], args[2:], args[0], seen)
		}
	})

	// stdoutfeature <feature> <regexp> <regexp-without>: the last command's stdout matches the
	// first regexp on a tmux server whose release has the feature (a field of tmux.Features),
	// the second on one without it: for behaviour docs/setup.md names as differing by release.
	define("stdoutfeature <feature> <regexp> <regexp-without>", 3, 3, func(ts *testscript.TestScript, args []string) {
		v, err := scriptTmux(ts, "display-message", "-p", tmux.VersionFormat)
		if err != nil {
			ts.Fatalf("stdoutfeature: %v: %s", err, v)
		}
		f := tmux.FeaturesOf(strings.TrimSpace(v))
		has, ok := map[string]bool{"DeadSignal": f.DeadSignal, "LiteralMessage": f.LiteralMessage, "ClientMessage": f.ClientMessage}[args[0]]
		if !ok {
			ts.Fatalf("stdoutfeature: no feature %q", args[0])
		}
		expr := args[1]
		if !has {
			expr = args[2]
		}
		if !pattern(ts, expr).MatchString(ts.ReadFile("stdout")) {
			ts.Fatalf("stdoutfeature: tmux %s (%s %v): no match for %q in stdout", f.Version, args[0], has, expr)
		}
	})

	// seqdelta <var1> <var2> <n>: $var2 is $var1 plus n.
	define("seqdelta <var1> <var2> <n>", 3, 3, func(ts *testscript.TestScript, args []string) {
		a, err := strconv.ParseUint(ts.Getenv(args[0]), 10, 64)
		ts.Check(err)
		b, err := strconv.ParseUint(ts.Getenv(args[1]), 10, 64)
		ts.Check(err)
		n, err := strconv.ParseUint(args[2], 10, 64)
		ts.Check(err)
		if b != a+n {
			ts.Fatalf("seqdelta: %s=%d is not %s=%d plus %d", args[1], b, args[0], a, n)
		}
	})
}
