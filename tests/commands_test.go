package tests

import (
	"os/exec"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// commands are the custom script commands, each defined with define in the file of its kind:
// waits_test.go (bounded waits), values_test.go (values put in or checked against variables),
// clients_test.go (processes a script starts beside tmux), mux_cmds_test.go (a Conmux client).
var commands = map[string]func(ts *testscript.TestScript, neg bool, args []string){}

// many is a command's max when it takes any number of arguments.
const many = -1

// define adds the script command usage names (its first word), which takes min to max arguments:
// "!" before it, or another count, fails the script with its usage.
func define(usage string, min, max int, run func(ts *testscript.TestScript, args []string)) {
	name := strings.Fields(usage)[0]
	commands[name] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg {
			ts.Fatalf("unsupported: ! %s", name)
		}
		if len(args) < min || (max != many && len(args) > max) {
			ts.Fatalf("usage: %s", usage)
		}
		run(ts, args)
	}
}

// pattern is a command's regexp argument, compiled.
func pattern(ts *testscript.TestScript, expr string) *regexp.Regexp {
	re, err := regexp.Compile(expr)
	ts.Check(err)
	return re
}

// tmuxOn runs tmux on the server of the socket name, in the script's environment, and returns
// what it printed on both streams.
func tmuxOn(ts *testscript.TestScript, socket string, args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", socket}, args...)...)
	cmd.Env = environ(ts)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// scriptTmux runs tmux on the script's own server.
func scriptTmux(ts *testscript.TestScript, args ...string) (string, error) {
	return tmuxOn(ts, ts.Getenv("TAW_SOCKET"), args...)
}

// environ is what tmux and taw run with from a script command: the script's own variables.
func environ(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMUX_TMPDIR", "TERM", "LANG", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}
