package tests

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/taw-tmux/taw/helper/procinfo"
)

// standIns are programs the session scripts run in panes where the real one cannot run in a test
// (ssh needs a host): real executables, so the process's argv is exactly what was typed, as a real
// ssh's is (a script would show its interpreter first).
var standIns = map[string]func(){
	// ssh: says where it would connect, then waits like a session does.
	"ssh": func() { standIn("connected (stand-in for ssh) to " + strings.Join(os.Args[1:], " ")) },
	// show-args: prints its arguments, one a line, then waits.
	"show-args": func() { standIn("args: " + strings.Join(os.Args[1:], "|")) },
}

func standIn(say string) {
	fmt.Println(say)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	os.Exit(0)
}

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
		limit := seconds(ts, args[1:], 30)
		path := ts.MkAbs(args[0])
		poll(ts, "filewait: "+path+" missing or empty", func() (bool, string) {
			st, err := os.Stat(path)
			if err != nil {
				return false, err.Error()
			}
			return st.Size() > 0, st.Name() + " is empty"
		}, limit)
	}

	// paneprog <target> <dir> <want-file> [seconds]: poll until the program in front of the pane's
	// shell runs with exactly the argv in want-file (one word a line) in directory dir, read from
	// the process itself.
	commands["paneprog"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg {
			ts.Fatalf("unsupported: ! paneprog")
		}
		if len(args) < 3 || len(args) > 4 {
			ts.Fatalf("usage: paneprog <target> <dir> <want-file> [seconds]")
		}
		limit := seconds(ts, args[3:], 20)
		want := strings.Split(strings.TrimSuffix(ts.ReadFile(args[2]), "\n"), "\n")
		wantDir, err := filepath.EvalSymlinks(ts.MkAbs(args[1]))
		ts.Check(err)
		last := "nothing"
		pollEvery(ts, fmt.Sprintf("paneprog: %s does not run %q in %s", args[0], want, wantDir), 50*time.Millisecond, func() (bool, string) {
			cmd := exec.Command("tmux", "-L", ts.Getenv("TAW_SOCKET"), "display-message", "-p", "-t", args[0], "#{pane_pid}")
			cmd.Env = environ(ts)
			out, _ := cmd.Output()
			if pid, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil {
				leader, _, shellInFront, err := procinfo.Foreground(pid)
				switch {
				case err != nil:
					last = err.Error()
				case shellInFront:
					last = "the shell at its prompt"
				default:
					dir, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", leader.PID))
					last = fmt.Sprintf("%q in %s", leader.Argv, dir)
					if strings.Join(leader.Argv, "\x00") == strings.Join(want, "\x00") && dir == wantDir {
						return true, last
					}
				}
			}
			return false, last
		}, limit)
	}

	// panewait [-a] <target> <regexp> [seconds]: poll until the pane's screen and scrollback match;
	// with -a, only the normal screen kept under a program on the alternate screen (what was on the
	// pane before the program drew).
	commands["panewait"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg {
			ts.Fatalf("unsupported: ! panewait")
		}
		capture := []string{"capture-pane", "-p", "-S", "-"}
		if len(args) > 0 && args[0] == "-a" {
			capture, args = []string{"capture-pane", "-p", "-a"}, args[1:]
		}
		if len(args) < 2 || len(args) > 3 {
			ts.Fatalf("usage: panewait [-a] <target> <regexp> [seconds]")
		}
		re, err := regexp.Compile(args[1])
		ts.Check(err)
		limit := seconds(ts, args[2:], 20)
		pollEvery(ts, fmt.Sprintf("panewait: %s does not match %q", args[0], args[1]), 50*time.Millisecond, func() (bool, string) {
			cmd := exec.Command("tmux", append([]string{"-L", ts.Getenv("TAW_SOCKET")}, append(capture, "-t", args[0])...)...)
			cmd.Env = environ(ts)
			out, _ := cmd.CombinedOutput()
			return re.Match(out), string(out)
		}, limit)
	}
}
