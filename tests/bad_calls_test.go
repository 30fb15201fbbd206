package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"
)

// noArgVerbs are the verbs that take no argument: each refuses one, and anything after --.
var noArgVerbs = []string{
	"pane list", "agent list", "agent next", "agent seen", "popup", "session save", "session restore",
	"session list", "session autosave", "session restore-on-start", "watch", "config default",
	"config path", "config check", "notify test", "plugin list", "load", "unload", "status",
	"mux serve", "version",
}

// TestBadCalls makes the calls a new user gets wrong, each against a real server with a private
// HOME, and checks the answer: the exact code and exit (2 for usage, 1 otherwise), one JSON
// line on stderr with a lower-case message, no control bytes, no panic and no internal error,
// nothing on stdout, and nothing changed in tmux or on disk.
func TestBadCalls(t *testing.T) {
	tawBin, err := exec.LookPath("taw")
	if err != nil {
		t.Fatal("taw is not on PATH: the test binary installs it (TestMain)")
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for _, d := range []string{home + "/.config", home + "/.local/share", dir + "/bin"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home+"/.config")
	t.Setenv("XDG_DATA_HOME", home+"/.local/share")
	t.Setenv("XDG_RUNTIME_DIR", dir)
	// No agent is installed: PATH holds only what the system has, and an empty folder first.
	t.Setenv("PATH", dir+"/bin:/usr/bin:/bin")
	name, kill := startTmux(t, "badcalls", dir, 80, 24)
	defer kill()
	tmux := func(args ...string) string {
		out, _ := exec.Command("tmux", append([]string{"-L", name}, args...)...).CombinedOutput()
		return string(out)
	}
	if err := os.WriteFile(filepath.Join(dir, "screen.txt"), []byte("$ \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.toml"), []byte("[notify]\nenabled = maybe\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	type call struct {
		args   string // split on spaces; \x20 in a word stands for a space
		code   string
		report bool // the verb's report of the problems goes to stdout (config check)
	}
	var calls []call
	for _, v := range noArgVerbs {
		calls = append(calls, call{v + " extra", "usage", false}, call{v + " -- extra", "usage", false})
	}
	calls = append(calls, []call{
		{"", "", false}, // placeholder removed below: taw with no verb prints help
		{"bogus", "usage", false},
		{"pane bogus", "usage", false},
		{"pane", "usage", false},
		{"agent", "usage", false},
		{"--bogus", "usage", false},
		{"-L x -S y version", "usage", false},
		{"pane get", "usage", false},
		{"pane get %0 %1", "usage", false},
		{"pane get %999", "pane_not_found", false},
		{"pane get nonsense", "pane_not_found", false},
		{"pane explain", "usage", false},
		{"pane list --bogus", "usage", false},
		{"pane report-agent", "usage", false},
		{"pane report-agent %0", "usage", false},
		{"pane report-agent %0 --source s --agent a", "usage", false},
		{"pane report-agent %0 --source s --agent a --state sleepy", "invalid_argument", false},
		{"pane report-agent %0 --source s --agent a --state idle --seq x", "invalid_argument", false},
		{"pane report-agent %0 --source \\x20 --agent a --state idle", "invalid_argument", false},
		{"pane report-agent %999 --source s --agent a --state idle", "pane_not_found", false},
		{"pane report-agent-session %0", "usage", false},
		{"pane release-agent %0", "usage", false},
		{"agent get", "usage", false},
		{"agent get %0 %1", "usage", false},
		{"agent get nobody", "agent_not_found", false},
		{"agent wait", "usage", false},
		{"agent wait %0 --until sleeping", "invalid_argument", false},
		{"agent wait %0 --timeout soon", "invalid_argument", false},
		{"agent focus", "usage", false},
		{"agent start", "usage", false},
		{"agent start nobody", "unknown_agent", false},
		{"agent start claude codex", "usage", false},
		{"agent start claude", "agent_not_installed", false},
		{"agent start codex --window", "agent_not_installed", false},
		{"agent start claude --split x", "invalid_argument", false},
		{"agent start claude --split h --window", "usage", false},
		{"agent start claude --cwd /nonexistent", "invalid_argument", false},
		{"agent start claude --timeout 5s", "usage", false},
		{"agent prompt", "usage", false},
		{"agent prompt %0", "usage", false},
		{"agent read", "usage", false},
		{"agent read %0 --lines banana", "invalid_argument", false},
		{"agent read %0 --lines -3", "invalid_argument", false},
		{"agent read %0 --lines 0", "invalid_argument", false},
		{"agent read %0 --lines 99999999999999999999", "invalid_argument", false},
		{"agent answer", "usage", false},
		{"agent answer %0", "usage", false},
		{"agent answer %0 --option banana", "invalid_argument", false},
		{"agent answer %0 --option 0", "invalid_argument", false},
		{"agent answer %0 --yes --no", "usage", false},
		{"session restore --backup banana", "invalid_argument", false},
		{"session restore --backup -1", "invalid_argument", false},
		{"session restore --name nothing-saved", "save_not_found", false},
		{"session restore --wait soon", "invalid_argument", false},
		{"session delete", "usage", false},
		{"session delete a b", "usage", false},
		{"session delete nothing-saved", "save_not_found", false},
		{"session save --name ../x", "invalid_argument", false},
		{"session import-resurrect a b", "usage", false},
		{"session import-resurrect /dev/null", "file_not_regular", false},
		{"session import-resurrect /dev/zero", "file_not_regular", false},
		{"session import-resurrect /nonexistent", "save_not_found", false},
		{"watch --interval 5ms --once", "invalid_argument", false},
		{"detect", "usage", false},
		{"detect /nonexistent", "screen_unreadable", false},
		{"detect " + filepath.Join(dir, "screen.txt") + " --agent nobody", "unknown_agent", false},
		{"config check --file " + filepath.Join(dir, "bad.toml"), "config_invalid", true},
		{"config check --file /nonexistent", "config_invalid", false},
		{"notify test --kind done", "invalid_argument", false},
		{"plugin link", "usage", false},
		{"plugin link /nonexistent", "plugin_invalid", false},
		{"plugin unlink nobody", "plugin_not_found", false},
		{"plugin enable", "usage", false},
		{"plugin disable nobody", "plugin_not_found", false},
		{"plugin action run", "usage", false},
		{"plugin action run noDot", "invalid_argument", false},
		{"integration install nobody", "unknown_agent", false},
		{"integration uninstall nobody", "unknown_agent", false},
		{"integration status nobody", "unknown_agent", false},
		{"mux call", "usage", false},
		{"mux attach", "usage", false},
	}...)

	for _, c := range calls {
		if c.args == "" {
			continue
		}
		c := c
		t.Run(c.args, func(t *testing.T) {
			var args []string
			for _, w := range strings.Split(c.args, " ") {
				args = append(args, strings.ReplaceAll(w, `\x20`, " "))
			}
			tmuxBefore, diskBefore := tmuxState(tmux), diskState(t, home)
			// A refusal is at once: a call still running after 20 s did what it was told not to.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, tawBin, append([]string{"-L", name}, args...)...)
			cmd.Stdin = strings.NewReader("")
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			runErr := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("taw %s ran on for 20 s", c.args)
			}
			exit := 0
			if ee, ok := runErr.(*exec.ExitError); ok {
				exit = ee.ExitCode()
			} else if runErr != nil {
				t.Fatal(runErr)
			}
			wantExit := 1
			if c.code == "usage" {
				wantExit = 2
			}
			if c.report {
				out.Reset()
			}
			if problem := badAnswer(exit, out.Bytes(), errOut.Bytes(), c.code, wantExit); problem != "" {
				t.Errorf("taw %s: %s\nstdout %q\nstderr %q", c.args, problem, out.String(), errOut.String())
			}
			if got := tmuxState(tmux); got != tmuxBefore {
				t.Errorf("taw %s changed tmux:\nbefore %s\nafter  %s", c.args, tmuxBefore, got)
			}
			if got := diskState(t, home); got != diskBefore {
				t.Errorf("taw %s changed the disk:\nbefore %s\nafter  %s", c.args, diskBefore, got)
			}
		})
	}
}

// badAnswer says what is wrong with a refusal, or "" when it is clear.
func badAnswer(exit int, stdout, stderr []byte, code string, wantExit int) string {
	if len(stdout) > 0 {
		return "printed on stdout"
	}
	if exit != wantExit {
		return fmt.Sprintf("exit %d, want %d", exit, wantExit)
	}
	if bytes.Count(stderr, []byte("\n")) != 1 || !bytes.HasSuffix(stderr, []byte("\n")) {
		return "stderr is not one line"
	}
	for _, b := range stderr[:len(stderr)-1] {
		if b < 0x20 || b == 0x7f {
			return "a control byte on stderr"
		}
	}
	var e struct {
		OK      *bool  `json:"ok"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(stderr, &e); err != nil || e.OK == nil || *e.OK {
		return "stderr is not an error line of JSON"
	}
	switch {
	case e.Code != code:
		return fmt.Sprintf("code %q, want %q", e.Code, code)
	case e.Message == "" || unicode.IsUpper([]rune(e.Message)[0]):
		return "the message is empty or not lower-case"
	case strings.Contains(e.Message, "panic") || strings.Contains(e.Message, "goroutine"):
		return "a panic"
	case code == "usage" && !strings.Contains(e.Message, "--help"):
		return "a usage error that does not say where the help is"
	}
	return ""
}

// tmuxState is what a refused call must leave as it was: options, keys, hooks, windows and panes
// (a window's name only where someone set it: tmux renames the others as their program
// changes), buffers and the global environment.
func tmuxState(tmux func(...string) string) string {
	return strings.Join([]string{
		tmux("show-options", "-g"), tmux("show-options", "-s"), tmux("show-hooks", "-g"), tmux("list-keys"),
		tmux("list-windows", "-a", "-F", "#{window_id} #{?automatic-rename,,#{window_name}}"),
		tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_start_command}"),
		tmux("list-buffers"), tmux("show-environment", "-g"),
	}, "\n")
}

// diskState lists every file under root with its size and time.
func diskState(t *testing.T, root string) string {
	var files []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err == nil {
			files = append(files, fmt.Sprintf("%s %d %d", p, info.Size(), info.ModTime().UnixNano()))
		}
		return nil
	})
	sort.Strings(files)
	return strings.Join(files, "\n")
}
