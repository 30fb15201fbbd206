package tests

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestBadOptions sets each bad @agent-wizard-… setting a person might write, loads, and checks
// the load's answer: done (exit 0), one warning naming the setting, what it allows and the
// default used, both keys bound, and a load after the setting is mended says nothing again.
func TestBadOptions(t *testing.T) {
	tawBin, err := exec.LookPath("taw")
	if err != nil {
		t.Fatal("taw is not on PATH: the test binary installs it (TestMain)")
	}
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", dir+"/.config")
	t.Setenv("XDG_RUNTIME_DIR", dir)
	name, kill := startTmux(t, "badopts", dir, 80, 24)
	defer kill()
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-L", name}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	load := func() (string, string, int) {
		cmd := exec.Command(tawBin, "-L", name, "load")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errOut.String(), code
	}
	// The watcher is a daemon of its own: these loads are about settings, so it stays off.
	tmux("set-option", "-g", "@agent-wizard-watcher", "off")
	defer exec.Command(tawBin, "-L", name, "unload").Run()

	keys := "a tmux key name such as A, M-a or F5, or none"
	for _, tt := range []struct{ option, value, warning string }{
		{"@agent-wizard-popup-key", "NotAKey!!", `@agent-wizard-popup-key is "NotAKey!!", which is not ` + keys + `: using A`},
		{"@agent-wizard-popup-key", "F13", `@agent-wizard-popup-key is "F13", which is not ` + keys + `: using A`},
		{"@agent-wizard-popup-key", "C-", `@agent-wizard-popup-key is "C-", which is not ` + keys + `: using A`},
		{"@agent-wizard-popup-key", "two words", `@agent-wizard-popup-key is "two words", which is not ` + keys + `: using A`},
		{"@agent-wizard-next-key", "", `@agent-wizard-next-key is empty, which is not ` + keys + `: using N`},
		{"@agent-wizard-next-key", "\x1b[A", `@agent-wizard-next-key is "\x1b[A", which is not ` + keys + `: using N`},
		{"@agent-wizard-next-key", "Banana", `@agent-wizard-next-key is "Banana", which is not ` + keys + `: using N`},
		{"@agent-wizard-wacther", "on", `@agent-wizard-wacther is not a setting of taw: did you mean @agent-wizard-watcher? (it is left alone)`},
		{"@agent-wizard-popupkey", "B", `@agent-wizard-popupkey is not a setting of taw: did you mean @agent-wizard-popup-key? (it is left alone)`},
		{"@agent-wizard-autosave", "maybe", `@agent-wizard-autosave is "maybe", which is not on or off: using off`},
		{"@agent-wizard-window-badges", "", `@agent-wizard-window-badges is empty, which is not on or off: using off`},
		{"@agent-wizard-autosave-delay", "-1", `@agent-wizard-autosave-delay is "-1", which is not a number of seconds from 0 to 3600: using 5`},
		{"@agent-wizard-session-backups", "2.5", `@agent-wizard-session-backups is "2.5", which is not a whole number from 0 to 100: using 5`},
		{"@agent-wizard-watch-interval", "5ms", `@agent-wizard-watch-interval is "5ms", which is not a duration from 100ms to 1m, such as 1s or 500ms, or a number of seconds: using 1s`},
		{"@agent-wizard-restore-grace", "soon", `@agent-wizard-restore-grace is "soon", which is not a duration from 0s to 1h, such as 30s, or a number of seconds: using 30s`},
		{"@agent-wizard-restore-on-start", "always", `@agent-wizard-restore-on-start is "always", which is not on, off or replace: using off`},
	} {
		t.Run(tt.option+"="+tt.value, func(t *testing.T) {
			tmux("set-option", "-g", tt.option, tt.value)
			out, errOut, code := load()
			if code != 0 || out != "" || errOut != "taw: "+tt.warning+"\n" {
				t.Errorf("load: exit %d, stdout %q, stderr %q; want exit 0 and the warning %q", code, out, errOut, tt.warning)
			}
			if got := tmux("show-options", "-gqv", "@agent-wizard-status"); got != "taw: "+tt.warning {
				t.Errorf("@agent-wizard-status = %q", got)
			}
			// (all the table's keys: tmux 3.7c's list-keys -T prefix A prints nothing)
			keys := tmux("list-keys", "-T", "prefix")
			for _, key := range []string{"A", "N"} {
				if !regexp.MustCompile(`(?m)^bind-key +-T prefix +` + key + ` .*TAW_KEY=`).MatchString(keys) {
					t.Errorf("prefix %s is not taw's:\n%s", key, keys)
				}
			}
			tmux("set-option", "-gu", tt.option)
			out, errOut, code = load()
			if code != 0 || out != "" || errOut != "" {
				t.Errorf("the load after: exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			if got := tmux("show-options", "-gqv", "@agent-wizard-status"); got != "" {
				t.Errorf("after a good load @agent-wizard-status still says %q", got)
			}
			// The notice kept for the first client to attach holds the welcome (none has
			// attached), never the mended setting's warning.
			if got := tmux("show-options", "-gqv", "@agent-wizard-notice"); strings.Contains(got, tt.option) {
				t.Errorf("after a good load @agent-wizard-notice still says %q", got)
			}
		})
	}
}
