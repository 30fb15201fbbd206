package tests

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// The commands that start processes beside the script's tmux server: a real attached client
// and the watcher.
func init() {
	// outer start <session> | outer keys <key>... | outer {wait|gone} <regexp> [seconds] |
	// outer client <regexp> [seconds]: a real tmux client, attached to the script's server from
	// inside a detached outer tmux (its own socket, 80x24, no status line), so keys go through
	// tmux's key tables and the screen can be read back (wait: until it matches; gone: until it
	// does not; client: the inner client's pane). The outer server dies with the script.
	outerUsage := "outer start <session> | outer keys <key>... | outer {wait|gone} <regexp> [seconds] | outer client <regexp> [seconds]"
	define(outerUsage, 2, many, func(ts *testscript.TestScript, args []string) {
		inner := ts.Getenv("TAW_SOCKET")
		outer := inner + "-outer"
		switch args[0] {
		case "start":
			if len(args) != 2 {
				ts.Fatalf("usage: %s", outerUsage)
			}
			attach := "TMUX= TERM=screen tmux -L " + inner + " attach -t " + args[1]
			if out, err := tmuxOn(ts, outer, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", attach, ";", "set", "-g", "status", "off"); err != nil {
				ts.Fatalf("outer start: %v: %s", err, out)
			}
			ts.Defer(func() { _, _ = tmuxOn(ts, outer, "kill-server") })
			poll(ts, "outer start: no client attached", func() (bool, string) {
				out, _ := tmuxOn(ts, inner, "list-clients", "-F", "#{client_name}")
				return strings.TrimSpace(out) != "", out
			}, 30*time.Second)
		case "keys":
			if out, err := tmuxOn(ts, outer, append([]string{"send-keys", "-t", "0:0.0"}, args[1:]...)...); err != nil {
				ts.Fatalf("outer keys: %v: %s", err, out)
			}
		case "wait", "gone", "client":
			if len(args) > 3 {
				ts.Fatalf("usage: %s", outerUsage)
			}
			re := pattern(ts, args[1])
			poll(ts, "outer "+args[0]+": "+strconv.Quote(args[1])+" not as wanted", func() (bool, string) {
				if args[0] == "client" {
					out, _ := tmuxOn(ts, inner, "list-clients", "-F", "#{session_name}:#{window_index}.#{pane_index} #{pane_id}")
					return re.MatchString(out), out
				}
				out, _ := tmuxOn(ts, outer, "capture-pane", "-p", "-t", "0:0.0")
				if args[0] == "gone" && !re.MatchString(out) {
					// A screen caught mid-redraw can miss what is still there: gone means
					// gone on a second look too.
					time.Sleep(150 * time.Millisecond)
					out, _ = tmuxOn(ts, outer, "capture-pane", "-p", "-t", "0:0.0")
				}
				return re.MatchString(out) == (args[0] == "wait"), out
			}, seconds(ts, args[2:], 30))
		default:
			ts.Fatalf("usage: %s", outerUsage)
		}
	})

	// watcherstart: start the server's watcher as the plugin does (tmux run-shell -b, so it
	// inherits tmux's global environment) and wait until it has made its first look, which is
	// its baseline: only what changes after it is a transition. The sign is a stale agent on a
	// spare pane's prompt, which the first look clears.
	define("watcherstart", 0, 0, func(ts *testscript.TestScript, args []string) {
		sock := ts.Getenv("TAW_SOCKET")
		tmux := func(a ...string) string {
			out, err := scriptTmux(ts, a...)
			if err != nil {
				ts.Fatalf("watcherstart: tmux %s: %v: %s", strings.Join(a, " "), err, out)
			}
			return strings.TrimSpace(out)
		}
		spare := tmux("new-window", "-d", "-P", "-F", "#{pane_id}")
		report := exec.Command("taw", "-L", sock, "pane", "report-agent", spare, "--source", "watcherstart", "--agent", "stale", "--state", "idle")
		report.Env = environ(ts)
		if out, err := report.CombinedOutput(); err != nil {
			ts.Fatalf("watcherstart: taw pane report-agent: %v: %s", err, out)
		}
		tmux("run-shell", "-b", "taw -L "+sock+" watch --serve >/dev/null 2>&1")
		poll(ts, "watcherstart: the watcher made no look", func() (bool, string) {
			name := tmux("display-message", "-p", "-t", spare, "#{@agent_name}")
			return name == "", "@agent_name " + name
		}, 20*time.Second)
		tmux("kill-pane", "-t", spare)
	})

	// watcherstop: end the server's watcher (TERM) and wait until its process is gone, so that
	// nothing records what the pane shows until the script says.
	define("watcherstop", 0, 0, func(ts *testscript.TestScript, args []string) {
		out, err := scriptTmux(ts, "show-options", "-sv", "@agent-wizard-watcher-pid")
		pid, convErr := strconv.Atoi(strings.TrimSpace(out))
		if err != nil || convErr != nil || pid <= 0 {
			ts.Fatalf("watcherstop: no watcher on record: %v: %q", err, out)
		}
		if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
			ts.Fatalf("watcherstop: kill %d: %v", pid, err)
		}
		poll(ts, "watcherstop: the watcher did not end", func() (bool, string) {
			err := syscall.Kill(pid, 0)
			return err != nil, fmt.Sprintf("process %d: %v", pid, err)
		}, 20*time.Second)
	})
}
