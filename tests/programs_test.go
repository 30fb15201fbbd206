package tests

import (
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/taw-tmux/taw/tests/testrun"
)

// The command that says which programs beyond Go and tmux a script runs.
func init() {
	// needs <program[:package]>...: skip the script, with one line naming the Debian package to
	// install, when the machine lacks a program; under CI, which installs them all, fail instead.
	define("needs <program[:package]>...", 1, many, func(ts *testscript.TestScript, args []string) {
		missing := testrun.Missing(args...)
		if missing == "" {
			return
		}
		if testrun.InCI() {
			ts.Fatalf("%s (CI installs every program the tests need: add it to .ci/run)", strings.TrimSuffix(missing, " to run this test"))
		}
		// The script's own T skips it, as the builtin skip does.
		ts.Value(scriptT{}).(testscript.T).Skip(missing)
	})
}

// scriptT is the key under which setupServer keeps the script's testscript.T.
type scriptT struct{}
