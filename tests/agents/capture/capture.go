// Package capture reads a real agent's pane the way taw's watcher does (tmux capture-pane -p and
// the pane title), asks taw's screen rules for a verdict, and records the screen as a fixture for
// helper/detect's tests.
package capture

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
)

// Tmux runs tmux against one server (-L socket, no user config).
type Tmux struct{ Socket string }

// Run runs one tmux command with a bound on its time, returning its output.
func (t Tmux) Run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", append([]string{"-L", t.Socket, "-f", "/dev/null"}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// Shot is one look at a pane: its text and title, and taw's verdict on them.
type Shot struct {
	Screen  detect.Screen
	Verdict detect.Verdict
}

// Text is the pane's text as the fixture stores it.
func (s Shot) Text() string { return strings.Join(s.Screen.Lines, "\n") }

var rules *detect.Rules

func loadRules() (*detect.Rules, error) {
	if rules != nil {
		return rules, nil
	}
	rs, errs := detect.Load(func(string) string { return "" })
	if len(errs) > 0 {
		return nil, errs[0]
	}
	rules = rs
	return rs, nil
}

// Take captures the pane and classifies it as agent's screen.
func Take(t Tmux, target, agent string) (Shot, error) {
	text, err := t.Run("capture-pane", "-p", "-t", target)
	if err != nil {
		return Shot{}, err
	}
	title, err := t.Run("display-message", "-p", "-t", target, "#{pane_title}")
	if err != nil {
		return Shot{}, err
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	sc := detect.Screen{Lines: lines, Title: strings.TrimRight(title, "\n")}
	rs, err := loadRules()
	if err != nil {
		return Shot{}, err
	}
	return Shot{Screen: sc, Verdict: rs.Classify(agent, sc)}, nil
}

// Until captures the pane every 200ms until ok accepts a shot or the time is up; it returns the
// last shot either way, and whether ok accepted it.
func Until(t Tmux, target, agent string, within time.Duration, ok func(Shot) bool) (Shot, bool, error) {
	deadline := time.Now().Add(within)
	for {
		s, err := Take(t, target, agent)
		if err != nil {
			return s, false, err
		}
		if ok(s) {
			return s, true, nil
		}
		if time.Now().After(deadline) {
			return s, false, nil
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Shows accepts a shot whose text matches the regular expression.
func Shows(re string) func(Shot) bool {
	r := regexp.MustCompile(re)
	return func(s Shot) bool { return r.MatchString(s.Text()) }
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// FixtureName is the file a screen is recorded in: real_<version>_<state>_<screen>.txt.
func FixtureName(version, state, screen string) string {
	return unsafeName.ReplaceAllString("real_"+version+"_"+state+"_"+screen, "-") + ".txt"
}

// Write records a shot under dir (helper/detect/testdata/<agent>) with the state it must read
// as. The rule named is the one that matched when the verdict was right; a wrong verdict is
// recorded with rule=unmatched so the fixture test fails until a rule reads the screen right.
func Write(dir, version, screen, want string, s Shot) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	rule := s.Verdict.RuleID
	if s.Verdict.State != want {
		rule = "unmatched"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# title: %s\n# want: %s rule=%s\n", s.Screen.Title, want, rule)
	b.WriteString(s.Text())
	b.WriteString("\n")
	path := filepath.Join(dir, FixtureName(version, want, screen))
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}
