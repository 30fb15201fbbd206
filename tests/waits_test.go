package tests

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/taw-tmux/taw/helper/procinfo"
)

// The waits: each polls (poll_test.go) until its condition holds, bounded by its [seconds], so
// a script never sleeps a fixed time.
func init() {
	// tmuxwait <target> <format> <regexp> [seconds]: until the format, expanded for the target,
	// matches.
	matchWait("tmuxwait <target> <format> <regexp> [seconds]", 30, func(ts *testscript.TestScript, args []string) (string, string) {
		out, _ := scriptTmux(ts, "display-message", "-p", "-t", args[0], args[1])
		last := strings.TrimSpace(out)
		return last, strconv.Quote(last)
	})
	// screenwait <target> <regexp> [seconds]: until the pane's visible screen matches.
	matchWait("screenwait <target> <regexp> [seconds]", 30, func(ts *testscript.TestScript, args []string) (string, string) {
		out, _ := scriptTmux(ts, "capture-pane", "-p", "-t", args[0])
		return out, out
	})
	// keyswait <file> <regexp> [seconds]: until the file (the keys a stand-in received) matches,
	// so a check never races the stand-in's writes.
	matchWait("keyswait <file> <regexp> [seconds]", 10, func(ts *testscript.TestScript, args []string) (string, string) {
		b, _ := os.ReadFile(ts.MkAbs(args[0]))
		return string(b), strconv.Quote(string(b))
	})

	// countwait <file> <regexp> <n> [seconds]: until the file holds exactly n matches of the
	// regexp; more than n fails at once (a notification sent twice), fewer fails at the limit.
	// With n = 0 it checks there is none now.
	countUsage := "countwait <file> <regexp> <n> [seconds]"
	define(countUsage, 3, 4, func(ts *testscript.TestScript, args []string) {
		re := pattern(ts, args[1])
		want, err := strconv.Atoi(args[2])
		if err != nil || want < 0 {
			ts.Fatalf("usage: %s: n must be a count", countUsage)
		}
		path := ts.MkAbs(args[0])
		poll(ts, fmt.Sprintf("countwait: %s has not %d matches of %q", args[0], want, args[1]), func() (bool, string) {
			data, _ := os.ReadFile(path)
			got := len(re.FindAllIndex(data, -1))
			if got > want {
				ts.Fatalf("countwait: %s has %d matches of %q, want %d:\n%q", args[0], got, args[1], want, data)
			}
			return got == want, fmt.Sprintf("%d matches in %q", got, data)
		}, seconds(ts, args[3:], 20))
	})

	// globwait <glob> {present|absent} [seconds]: until a file matches the glob, or none does
	// (hooks run in the background, so their effects are waited for).
	globUsage := "globwait <glob> {present|absent} [seconds]"
	define(globUsage, 2, 3, func(ts *testscript.TestScript, args []string) {
		if args[1] != "present" && args[1] != "absent" {
			ts.Fatalf("usage: %s", globUsage)
		}
		poll(ts, "globwait: "+args[0]+" is not "+args[1], func() (bool, string) {
			m, err := filepath.Glob(ts.MkAbs(args[0]))
			ts.Check(err)
			return (len(m) > 0) == (args[1] == "present"), fmt.Sprint(m)
		}, seconds(ts, args[2:], 30))
	})

	// filewait <path> [seconds]: until the file exists and is not empty.
	define("filewait <path> [seconds]", 1, 2, func(ts *testscript.TestScript, args []string) {
		path := ts.MkAbs(args[0])
		poll(ts, "filewait: "+path+" missing or empty", func() (bool, string) {
			st, err := os.Stat(path)
			if err != nil {
				return false, err.Error()
			}
			return st.Size() > 0, st.Name() + " is empty"
		}, seconds(ts, args[1:], 30))
	})

	// pidwait <pid> [seconds]: until the process is gone (/proc keeps a zombie's entry, as
	// kill -0 finds it).
	define("pidwait <pid> [seconds]", 1, 2, func(ts *testscript.TestScript, args []string) {
		pid, err := strconv.Atoi(args[0])
		if err != nil || pid <= 0 {
			ts.Fatalf("pidwait: %q is not a process id", args[0])
		}
		poll(ts, fmt.Sprintf("pidwait: process %d still runs", pid), func() (bool, string) {
			_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
			return err != nil, "the process"
		}, seconds(ts, args[1:], 30))
	})

	// panewait [-a] <target> <regexp> [seconds]: until the pane's screen and scrollback match;
	// with -a, only the normal screen kept under a program on the alternate screen (what was on
	// the pane before the program drew).
	paneUsage := "panewait [-a] <target> <regexp> [seconds]"
	define(paneUsage, 2, 4, func(ts *testscript.TestScript, args []string) {
		capture := []string{"capture-pane", "-p", "-S", "-"}
		if args[0] == "-a" {
			capture, args = []string{"capture-pane", "-p", "-a"}, args[1:]
		}
		if len(args) < 2 || len(args) > 3 {
			ts.Fatalf("usage: %s", paneUsage)
		}
		re := pattern(ts, args[1])
		pollEvery(ts, fmt.Sprintf("panewait: %s does not match %q", args[0], args[1]), 50*time.Millisecond, func() (bool, string) {
			out, _ := scriptTmux(ts, append(capture, "-t", args[0])...)
			return re.MatchString(out), out
		}, seconds(ts, args[2:], 20))
	})

	// paneprog <target> <dir> <want-file> [seconds]: until the program in front of the pane's
	// shell runs with exactly the argv in want-file (one word a line) in directory dir, read from
	// the process itself.
	define("paneprog <target> <dir> <want-file> [seconds]", 3, 4, func(ts *testscript.TestScript, args []string) {
		want := strings.Split(strings.TrimSuffix(ts.ReadFile(args[2]), "\n"), "\n")
		wantDir, err := filepath.EvalSymlinks(ts.MkAbs(args[1]))
		ts.Check(err)
		last := "nothing"
		pollEvery(ts, fmt.Sprintf("paneprog: %s does not run %q in %s", args[0], want, wantDir), 50*time.Millisecond, func() (bool, string) {
			out, _ := scriptTmux(ts, "display-message", "-p", "-t", args[0], "#{pane_pid}")
			if pid, err := strconv.Atoi(strings.TrimSpace(out)); err == nil {
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
		}, seconds(ts, args[3:], 20))
	})

	// waiters <n> [seconds]: until exactly n taw agent wait processes of this script are blocked
	// in tmux's wait-for, so a script knows a wait is in place before it reports. taw talks to
	// tmux over its socket, so a waiting process is one that has held the same socket open
	// across two looks 100ms apart (a plain call holds one for a millisecond or two).
	define("waiters <n> [seconds]", 1, 2, func(ts *testscript.TestScript, args []string) {
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
	})
}

// matchWait defines the wait usage names, whose last arguments are <regexp> [seconds]: it polls
// until the text read returns for the arguments before them matches, and shows a failure with
// what read gave to show.
func matchWait(usage string, def int, read func(ts *testscript.TestScript, args []string) (text, shown string)) {
	words := strings.Fields(usage)
	n := len(words) - 3 // the arguments before <regexp> [seconds]
	define(usage, n+1, n+2, func(ts *testscript.TestScript, args []string) {
		re := pattern(ts, args[n])
		what := fmt.Sprintf("%s: %s does not match %q", words[0], strings.Join(args[:n], " "), args[n])
		poll(ts, what, func() (bool, string) {
			text, shown := read(ts, args[:n])
			return re.MatchString(text), shown
		}, seconds(ts, args[n+1:], def))
	})
}
