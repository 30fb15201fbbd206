package cli

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
)

// runMain runs taw with args against a server that does not exist, and returns stderr and the
// exit code.
func runMain(t *testing.T, args string) (string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := &Factory{
		Args:       append([]string{"taw", "-L", fmt.Sprintf("taw-none-%d", os.Getpid())}, strings.Fields(args)...),
		IO:         IO{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
		Getenv:     func(k string) string { return map[string]string{"TMUX_TMPDIR": t.TempDir()}[k] },
		Environ:    func() []string { return nil },
		Executable: os.Executable,
		LookPath:   func(string) (string, error) { return "", os.ErrNotExist },
		Now:        time.Now,
		Getpid:     os.Getpid,
	}
	code := Main(f)
	return errOut.String(), code
}

// One rule for every verb: a malformed call is usage (exit 2); a value that is not one taw takes
// is invalid_argument (exit 1), whichever flag it came in.
func TestUsageAndInvalidValueRule(t *testing.T) {
	for code, calls := range map[string][]string{
		coded.InvalidArgument: {
			"pane report-agent %1 --source s --agent a --state sleepy",
			"agent wait %1 --until sleepy",
			"agent wait %1 --timeout soon",
			"notify test --kind done",
			"watch --interval 5ms",
			"session restore --wait 0s",
		},
		coded.Usage: {
			"agent wait",
			"agent wait a b",
			"agent wait %1 --frob",
			"pane frob",
			"watch --once --serve",
			"pane report-agent %1 --source s --agent a",
			"bogus",
		},
	} {
		want := ExitError
		if code == coded.Usage {
			want = ExitUsage
		}
		for _, args := range calls {
			stderr, exit := runMain(t, args)
			if exit != want || !strings.Contains(stderr, `"code":"`+code+`"`) {
				t.Errorf("taw %s: exit %d, %s; want exit %d and code %s", args, exit, strings.TrimSpace(stderr), want, code)
			}
		}
	}
}

// Messages keep < and > as they are: no \u003c in what a person reads.
func TestErrorMessagesKeepAngleBrackets(t *testing.T) {
	stderr, _ := runMain(t, "agent get a b")
	if strings.Contains(stderr, `\u003c`) || !strings.Contains(stderr, "<pane|agent>") {
		t.Errorf("stderr = %s", stderr)
	}
}
