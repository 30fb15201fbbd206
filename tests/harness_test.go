package tests

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var serial atomic.Int64

// TestScripts runs every script in testdata/. TAW_SCRIPT=name runs one; TAW_UPDATE=1 rewrites
// cmp golden sections.
func TestScripts(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: the end-to-end tests need a real tmux server (apt-get install tmux)")
	}
	files := ""
	if name := os.Getenv("TAW_SCRIPT"); name != "" {
		files = filepath.Join("testdata", name)
	}
	p := Params()
	p.Dir = "testdata"
	if files != "" {
		p.Dir = ""
		p.Files = []string{files}
	}
	testscript.Run(t, p)
}

// Params is the harness shared by every script directory.
func Params() testscript.Params {
	return testscript.Params{
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("TAW_UPDATE") != "",
		// Scripts' folders go straight in the run folder (TMPDIR): $WORK stays as short as a path
		// under /tmp, for the tables and sockets that hold it.
		WorkdirRoot: os.Getenv("TMPDIR"),
		Setup:       setupServer,
		Cmds:        commands,
		Condition:   condition,
	}
}

// condition answers the scripts' own conditions: [root], that the test runs as root (and so can
// act as a second user with setpriv).
func condition(cond string) (bool, error) {
	switch cond {
	case "root":
		return os.Geteuid() == 0, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// setupServer gives the script a tmux server of its own and the environment a pane would have:
// TMUX and TMUX_PANE name the first pane of session "main".
func setupServer(env *testscript.Env) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	env.Values[scriptT{}] = env.T()
	// testscript keeps a folder under WorkdirRoot when the script ends; it goes here instead, last
	// of the script's deferred steps, once its server is gone.
	env.Defer(func() { os.RemoveAll(env.WorkDir) })
	// $WORK can be longer than a socket path may be, so the socket lives under a short folder.
	sockDir, err := os.MkdirTemp("", "tawt")
	if err != nil {
		return err
	}
	env.Defer(func() { os.RemoveAll(sockDir) })
	name := fmt.Sprintf("taw-test-%d-%d", os.Getpid(), serial.Add(1))
	home := filepath.Join(env.WorkDir, "home")
	for _, d := range []string{home, filepath.Join(home, ".config"), filepath.Join(home, ".local/share"), filepath.Join(env.WorkDir, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	env.Setenv("HOME", home)
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	env.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local/share"))
	env.Setenv("XDG_RUNTIME_DIR", sockDir)
	env.Setenv("TMUX_TMPDIR", sockDir)
	env.Setenv("TERM", "screen")
	env.Setenv("SHELL", "/bin/sh")
	env.Setenv("LANG", "C.UTF-8")
	env.Setenv("TAW_SOCKET", name)
	env.Setenv("TAW_ROOT", root)
	// The Go toolchain's caches, so a script that builds taw (as taw.tmux does) builds offline.
	for _, k := range goEnvKeys {
		if v := goEnv(k); v != "" {
			env.Setenv(k, v)
		}
	}
	// Fake agents the script writes into $WORK/bin come first on PATH.
	env.Setenv("PATH", filepath.Join(env.WorkDir, "bin")+string(os.PathListSeparator)+env.Getenv("PATH"))

	start := exec.Command("tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "120", "-y", "40", "-c", env.WorkDir)
	start.Env = env.Vars
	start.Dir = env.WorkDir
	if out, err := start.CombinedOutput(); err != nil {
		return fmt.Errorf("start tmux: %v: %s", err, out)
	}
	env.Defer(func() {
		kill := exec.Command("tmux", "-L", name, "kill-server")
		kill.Env = env.Vars
		_ = kill.Run()
	})
	// tmux 3.2a makes a detached session's first window 80x23 whatever -x and -y say: the window
	// gets the size the other releases give it, so screens drawn for it read alike everywhere.
	size := exec.Command("tmux", "-L", name, "display-message", "-p", "-t", "main:0", "#{window_width}x#{window_height}")
	size.Env = env.Vars
	if out, err := size.Output(); err == nil && strings.TrimSpace(string(out)) != "120x40" {
		resize := exec.Command("tmux", "-L", name, "resize-window", "-t", "main:0", "-x", "120", "-y", "40")
		resize.Env = env.Vars
		if out, err := resize.CombinedOutput(); err != nil {
			return fmt.Errorf("size the first window: %v: %s", err, out)
		}
	}
	info := exec.Command("tmux", "-L", name, "display-message", "-p", "-t", "main:0.0", "#{socket_path},#{pid},#{session_id} #{pane_id}")
	info.Env = env.Vars
	out, err := info.Output()
	if err != nil {
		return fmt.Errorf("read tmux server: %v", err)
	}
	tmuxVar, pane, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	env.Setenv("TMUX", strings.Replace(tmuxVar, ",$", ",", 1))
	env.Setenv("TMUX_PANE", pane)
	return shellReady(env, name, pane)
}

// shellReady waits (bounded) until the first pane's shell shows its prompt and its window is named
// after it, so that no script starts while the shell is still starting: on a loaded machine that
// can take seconds.
func shellReady(env *testscript.Env, socket, pane string) error {
	screen, ok := waitUntil(30*time.Second, pollInterval, func() (bool, string) {
		capture := exec.Command("tmux", "-L", socket, "capture-pane", "-p", "-t", pane)
		capture.Env = env.Vars
		out, _ := capture.Output()
		// The window's automatic name follows its shell a moment later: both must have settled.
		names := exec.Command("tmux", "-L", socket, "display-message", "-p", "-t", pane, "#{window_name}|#{pane_current_command}")
		names.Env = env.Vars
		n, _ := names.Output()
		name, command, _ := strings.Cut(strings.TrimSpace(string(n)), "|")
		return atPrompt(out) && name == command, string(out)
	})
	if !ok {
		return fmt.Errorf("the first pane's shell showed no prompt within 30s; its screen:\n%s", screen)
	}
	return nil
}

// atPrompt says whether a screen ends in a shell's prompt ($ or #).
func atPrompt(screen []byte) bool {
	last := bytes.TrimRight(screen, "\n ")
	return bytes.HasSuffix(last, []byte("$")) || bytes.HasSuffix(last, []byte("#"))
}

func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return filepath.Dir(wd), nil
}

// goEnvKeys are the Go toolchain's settings a script inherits from the test.
var goEnvKeys = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOFLAGS", "GOTOOLCHAIN"}

var (
	goEnvOnce  sync.Once
	goEnvCache = map[string]string{}
)

// goEnv is a value of the test's own Go environment (go env), read once.
func goEnv(key string) string {
	goEnvOnce.Do(func() {
		out, err := exec.Command("go", append([]string{"env"}, goEnvKeys...)...).Output()
		if err != nil {
			return
		}
		lines := strings.Split(string(out), "\n")
		for i, k := range goEnvKeys {
			if i < len(lines) {
				goEnvCache[k] = lines[i]
			}
		}
	})
	return goEnvCache[key]
}
