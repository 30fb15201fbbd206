package tests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Commands of the agent, popup, badge and wait scripts.
func init() {
	// outer start <session> | outer keys <key>... | outer {wait|gone} <regexp> [seconds] |
	// outer client <regexp> [seconds]: a real tmux client, attached to the script's server from
	// inside a detached outer tmux (its own socket, 80x24, no status line), so keys go through
	// tmux's key tables and the screen can be read back (wait: until it matches; gone: until it
	// does not; client: the inner client's pane). The outer server dies with the script.
	commands["outer"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg {
			ts.Fatalf("unsupported: ! outer")
		}
		usage := "usage: outer start <session> | outer keys <key>... | outer {wait|gone} <regexp> [seconds] | outer client <regexp> [seconds]"
		if len(args) < 2 {
			ts.Fatalf("%s", usage)
		}
		inner := ts.Getenv("TAW_SOCKET")
		outer := inner + "-outer"
		run := func(socket string, a ...string) (string, error) {
			cmd := exec.Command("tmux", append([]string{"-L", socket}, a...)...)
			cmd.Env = environ(ts)
			out, err := cmd.CombinedOutput()
			return string(out), err
		}
		switch args[0] {
		case "start":
			if len(args) != 2 {
				ts.Fatalf("%s", usage)
			}
			attach := "TMUX= TERM=screen tmux -L " + inner + " attach -t " + args[1]
			if out, err := run(outer, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", attach, ";", "set", "-g", "status", "off"); err != nil {
				ts.Fatalf("outer start: %v: %s", err, out)
			}
			ts.Defer(func() { _, _ = run(outer, "kill-server") })
			poll(ts, "outer start: no client attached", func() (bool, string) {
				out, _ := run(inner, "list-clients", "-F", "#{client_name}")
				return strings.TrimSpace(out) != "", out
			}, 30*time.Second)
		case "keys":
			if out, err := run(outer, append([]string{"send-keys", "-t", "0:0.0"}, args[1:]...)...); err != nil {
				ts.Fatalf("outer keys: %v: %s", err, out)
			}
		case "wait", "gone", "client":
			if len(args) > 3 {
				ts.Fatalf("%s", usage)
			}
			re, err := regexp.Compile(args[1])
			ts.Check(err)
			limit := seconds(ts, args[2:], 30)
			poll(ts, "outer "+args[0]+": "+strconv.Quote(args[1])+" not as wanted", func() (bool, string) {
				if args[0] == "client" {
					out, _ := run(inner, "list-clients", "-F", "#{session_name}:#{window_index}.#{pane_index} #{pane_id}")
					return re.MatchString(out), out
				}
				out, _ := run(outer, "capture-pane", "-p", "-t", "0:0.0")
				if args[0] == "gone" && !re.MatchString(out) {
					// A screen caught mid-redraw can miss what is still there: gone means
					// gone on a second look too.
					time.Sleep(150 * time.Millisecond)
					out, _ = run(outer, "capture-pane", "-p", "-t", "0:0.0")
				}
				return re.MatchString(out) == (args[0] == "wait"), out
			}, limit)
		default:
			ts.Fatalf("%s", usage)
		}
	}

	// waiters <n> [seconds]: poll until exactly n taw agent wait processes of this script are
	// blocked in tmux's wait-for, so a script knows a wait is in place before it reports. taw
	// talks to tmux over its socket, so a waiting process is one that has held the same socket
	// open across two looks 100ms apart (a plain call holds one for a millisecond or two).
	commands["waiters"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg {
			ts.Fatalf("unsupported: ! waiters")
		}
		if len(args) < 1 || len(args) > 2 {
			ts.Fatalf("usage: waiters <n> [seconds]")
		}
		want, err := strconv.Atoi(args[0])
		ts.Check(err)
		mark := []byte("TAW_SOCKET=" + ts.Getenv("TAW_SOCKET") + "\x00")
		before := map[string]bool{}
		poll(ts, "waiters: not "+args[0]+" waiting", func() (bool, string) {
			now := map[string]bool{}
			n := 0
			dirs, _ := filepath.Glob("/proc/[0-9]*")
			for _, d := range dirs {
				cmdline, err := os.ReadFile(filepath.Join(d, "cmdline"))
				if err != nil || !bytes.Contains(cmdline, []byte("agent\x00wait\x00")) {
					continue
				}
				env, err := os.ReadFile(filepath.Join(d, "environ"))
				if err != nil || !bytes.Contains(env, mark) {
					continue
				}
				fds, _ := filepath.Glob(filepath.Join(d, "fd", "*"))
				held := false
				for _, fd := range fds {
					if link, err := os.Readlink(fd); err == nil && strings.HasPrefix(link, "socket:") {
						key := d + " " + link
						now[key] = true
						held = held || before[key]
					}
				}
				if held {
					n++
				}
			}
			ok := n == want
			before = now
			if !ok {
				time.Sleep(80 * time.Millisecond)
			}
			return ok, strconv.Itoa(n) + " waiting"
		}, seconds(ts, args[1:], 30))
	}
}
