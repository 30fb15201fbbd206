package tests

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Commands of the notify, hooks and plugin scripts.
func init() {
	// countwait <file> <regexp> <n> [seconds]: poll until the file holds exactly n matches of the
	// regexp; more than n fails at once (a notification sent twice), fewer fails at the limit (20s unless given). With
	// n = 0 it checks there is none now.
	commands["countwait"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg {
			ts.Fatalf("unsupported: ! countwait")
		}
		if len(args) < 3 || len(args) > 4 {
			ts.Fatalf("usage: countwait <file> <regexp> <n> [seconds]")
		}
		re, err := regexp.Compile(args[1])
		ts.Check(err)
		want, err := strconv.Atoi(args[2])
		if err != nil || want < 0 {
			ts.Fatalf("usage: countwait <file> <regexp> <n> [seconds]: n must be a count")
		}
		limit := seconds(ts, args[3:], 20)
		path := ts.MkAbs(args[0])
		poll(ts, fmt.Sprintf("countwait: %s has not %d matches of %q", args[0], want, args[1]), func() (bool, string) {
			data, _ := os.ReadFile(path)
			got := len(re.FindAllIndex(data, -1))
			if got > want {
				ts.Fatalf("countwait: %s has %d matches of %q, want %d:\n%q", args[0], got, args[1], want, data)
			}
			return got == want, fmt.Sprintf("%d matches in %q", got, data)
		}, limit)
	}

	// watcherstart: start the server's watcher as the plugin does (tmux run-shell -b, so it
	// inherits tmux's global environment) and wait until it has made its first look, which is
	// its baseline: only what changes after it is a transition. The sign is a stale agent on a
	// spare pane's prompt, which the first look clears.
	commands["watcherstart"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 0 {
			ts.Fatalf("usage: watcherstart")
		}
		sock := ts.Getenv("TAW_SOCKET")
		run := func(name string, a ...string) string {
			cmd := exec.Command(name, a...)
			cmd.Env = environ(ts)
			out, err := cmd.CombinedOutput()
			if err != nil {
				ts.Fatalf("watcherstart: %s %s: %v: %s", name, strings.Join(a, " "), err, out)
			}
			return strings.TrimSpace(string(out))
		}
		spare := run("tmux", "-L", sock, "new-window", "-d", "-P", "-F", "#{pane_id}")
		run("taw", "-L", sock, "pane", "report-agent", spare, "--source", "watcherstart", "--agent", "stale", "--state", "idle")
		run("tmux", "-L", sock, "run-shell", "-b", "taw -L "+sock+" watch --serve >/dev/null 2>&1")
		poll(ts, "watcherstart: the watcher made no look", func() (bool, string) {
			name := run("tmux", "-L", sock, "display-message", "-p", "-t", spare, "#{@agent_name}")
			return name == "", "@agent_name " + name
		}, 20*time.Second)
		run("tmux", "-L", sock, "kill-pane", "-t", spare)
	}
}
