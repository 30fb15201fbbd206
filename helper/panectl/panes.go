package panectl

import (
	"context"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Ctl acts on one tmux server.
type Ctl struct {
	Tmux *tmux.Client
}

// SplitOptions say how to split a pane.
type SplitOptions struct {
	Pane      string  // the pane split (a tmux id)
	Direction string  // right (side by side) or down (one over the other)
	Ratio     float64 // the new pane's share, 0 for half
	Cwd       string  // absolute; "" for the split pane's folder
	Env       map[string]string
	Argv      []string // started directly, without a shell; empty starts the default shell
	Focus     bool
}

// Split splits a pane and returns the new pane with its window and session. An argv is started as it is: tmux runs a
// single word through the shell, so such a command goes through env(1), which runs it as one
// program.
func (c *Ctl) Split(ctx context.Context, o SplitOptions) (Created, error) {
	cmd := tmux.Cmd{"split-window", "-P", "-F", createdFormat, "-t", o.Pane}
	switch o.Direction {
	case "right":
		cmd = append(cmd, "-h")
	case "down":
		cmd = append(cmd, "-v")
	default:
		return Created{}, coded.Errorf(coded.InvalidArgument, "invalid direction %q (expected right or down)", o.Direction)
	}
	if !o.Focus {
		cmd = append(cmd, "-d")
	}
	if o.Ratio != 0 {
		if math.IsNaN(o.Ratio) || o.Ratio <= 0 || o.Ratio >= 1 {
			return Created{}, coded.Errorf(coded.InvalidArgument, "invalid ratio %v (expected a number between 0 and 1, the new pane's share)", o.Ratio)
		}
		cmd = append(cmd, "-l", strconv.Itoa(max(1, int(math.Round(o.Ratio*100))))+"%")
	}
	return c.create(ctx, cmd, o.Cwd, o.Env, o.Argv)
}

// spawnArgs are the -c, -e and command words of a command that starts a process.
func spawnArgs(cwd string, env map[string]string, argv []string) ([]string, error) {
	var args []string
	if cwd != "" {
		dir, err := CheckDir(cwd)
		if err != nil {
			return nil, err
		}
		args = append(args, "-c", dir)
	}
	if err := CheckEnv(env); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		args = append(args, "-e", k+"="+env[k])
	}
	if err := CheckArgv(argv); err != nil {
		return nil, err
	}
	if len(argv) == 1 {
		argv = []string{"env", "--", argv[0]}
	}
	if len(argv) > 0 {
		args = append(append(args, "--"), argv...)
	}
	return args, nil
}

// SendText types text into a pane as it is (no Enter added).
func (c *Ctl) SendText(ctx context.Context, pane, text string) error {
	if err := CheckText("the text", text); err != nil {
		return err
	}
	if text == "" {
		return nil
	}
	_, err := c.Tmux.Run(ctx, tmux.Cmd{"send-keys", "-t", pane, "-l", "--", text})
	return err
}

// SendKeys sends herdr key combos to a pane, all checked before any is sent.
func (c *Ctl) SendKeys(ctx context.Context, pane string, combos []string) error {
	keys, err := TmuxKeys(combos)
	if err != nil {
		return err
	}
	_, err = c.Tmux.Run(ctx, append(tmux.Cmd{"send-keys", "-t", pane}, keys...))
	return err
}

// Run types a command line and Enter in one tmux call, as a paste when the program asked for
// bracketed pastes, so the line is not read key by key.
func (c *Ctl) Run(ctx context.Context, pane, line string) error {
	if err := CheckText("the command", line); err != nil {
		return err
	}
	if strings.ContainsAny(line, "\n") {
		return coded.Errorf(coded.InvalidArgument, "the command holds a newline: run one line at a time")
	}
	buf := fmt.Sprintf("taw-run-%d-%d", os.Getpid(), time.Now().UnixNano())
	_, err := c.Tmux.Run(ctx,
		tmux.Cmd{"set-buffer", "-b", buf, "--", line},
		tmux.Cmd{"paste-buffer", "-p", "-d", "-b", buf, "-t", pane},
		tmux.Cmd{"send-keys", "-t", pane, "Enter"})
	if err != nil {
		_, _ = c.Tmux.Run(context.WithoutCancel(ctx), tmux.Cmd{"delete-buffer", "-b", buf})
	}
	return err
}

// Read sources, as herdr names them.
const (
	SourceVisible         = "visible"
	SourceRecent          = "recent"
	SourceRecentUnwrapped = "recent_unwrapped"
	SourceDetection       = "detection"
	recentRows            = 80
	MaxLines              = 100000
)

// NormalSource is a read source in herdr's socket spelling (the CLI writes recent-unwrapped).
func NormalSource(s string) (string, error) {
	switch s = strings.ReplaceAll(s, "-", "_"); s {
	case "":
		return SourceRecent, nil
	case SourceVisible, SourceRecent, SourceRecentUnwrapped, SourceDetection:
		return s, nil
	}
	return "", coded.Errorf(coded.InvalidArgument, "invalid source %q (expected visible, recent, recent-unwrapped or detection)", s)
}

// Read is a pane's text: the visible screen (visible, detection) or its last rows with the
// history (recent, 80 unless lines says; recent_unwrapped joins wrapped lines). capture-pane
// without -e prints no escape sequences.
func (c *Ctl) Read(ctx context.Context, pane, source string, lines int) (text string, truncated bool, err error) {
	if lines < 0 || lines > MaxLines {
		return "", false, coded.Errorf(coded.InvalidArgument, "invalid lines %d (expected 1 to %d)", lines, MaxLines)
	}
	cmd := tmux.Cmd{"capture-pane", "-p", "-t", pane}
	rows := lines
	switch source {
	case SourceVisible, SourceDetection:
	case SourceRecent, SourceRecentUnwrapped:
		if rows == 0 {
			rows = recentRows
		}
		cmd = append(cmd, "-S", "-"+strconv.Itoa(rows))
		if source == SourceRecentUnwrapped {
			cmd = append(cmd, "-J")
		}
	default:
		return "", false, coded.Errorf(coded.InvalidArgument, "invalid source %q (expected visible, recent, recent_unwrapped or detection)", source)
	}
	out, err := c.Tmux.Run(ctx, cmd)
	if err != nil {
		return "", false, err
	}
	all, truncated := Lines(out, rows)
	if len(all) == 0 {
		return "", truncated, nil
	}
	return strings.Join(all, "\n") + "\n", truncated, nil
}

// Lines are a screen's lines without the blank ones under the last text and the spaces that
// end each, the last n of them when n > 0 (truncated when that left some out).
func Lines(screen string, n int) (lines []string, truncated bool) {
	lines = strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	if n > 0 && len(lines) > n {
		lines, truncated = lines[len(lines)-n:], true
	}
	return lines, truncated
}

// Match is what WaitOutput looks for on one line: a substring, or a regular expression.
type Match struct {
	Type  string // substring or regex
	Value string
}

// Matcher checks a match and returns the test it makes of a line.
func (m Match) Matcher() (func(string) bool, error) {
	if m.Value == "" {
		return nil, coded.Errorf(coded.InvalidArgument, "the match is empty")
	}
	switch m.Type {
	case "substring":
		return func(l string) bool { return strings.Contains(l, m.Value) }, nil
	case "regex":
		re, err := regexp.Compile(m.Value)
		if err != nil {
			return nil, coded.Errorf(coded.InvalidArgument, "invalid regex: %v", err)
		}
		return re.MatchString, nil
	}
	return nil, coded.Errorf(coded.InvalidArgument, "invalid match type %q (expected substring or regex)", m.Type)
}

// outputPoll is how often WaitOutput reads the pane: output sends no signal to wait on.
const outputPoll = 100 * time.Millisecond

// WaitOutput reads the pane until a line matches, and returns that line and the text read. It
// looks at what is already there first. timeout < 0 waits until ctx ends.
func (c *Ctl) WaitOutput(ctx context.Context, pane, source string, lines int, m Match, timeout time.Duration) (line, text string, truncated bool, err error) {
	test, err := m.Matcher()
	if err != nil {
		return "", "", false, err
	}
	if source == SourceRecent {
		source = SourceRecentUnwrapped // herdr matches recent output unwrapped
	}
	var deadline <-chan time.Time
	if timeout >= 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	tick := time.NewTicker(outputPoll)
	defer tick.Stop()
	for {
		text, truncated, err = c.Read(ctx, pane, source, lines)
		if err != nil {
			return "", "", false, err
		}
		for _, l := range strings.Split(text, "\n") {
			if test(l) {
				return l, text, truncated, nil
			}
		}
		select {
		case <-tick.C:
		case <-deadline:
			return "", text, truncated, coded.Errorf(coded.Timeout, "timed out after %s waiting for %q in pane %s", timeout, m.Value, pane)
		case <-ctx.Done():
			return "", text, truncated, ctx.Err()
		}
	}
}

// Close kills a pane.
func (c *Ctl) Close(ctx context.Context, pane string) error {
	_, err := c.Tmux.Run(ctx, tmux.Cmd{"kill-pane", "-t", pane})
	return err
}

// Rename sets a pane's title ("" clears it to the host's name, as tmux starts it).
func (c *Ctl) Rename(ctx context.Context, pane, label string) error {
	if label != "" {
		if err := CheckLabel(label, false); err != nil {
			return err
		}
	}
	_, err := c.Tmux.Run(ctx, tmux.Cmd{"select-pane", "-t", pane, "-T", label})
	return err
}

// Zoom zooms a pane (on), unzooms its window (off) or toggles; it says whether the window is
// zoomed after.
func (c *Ctl) Zoom(ctx context.Context, pane, mode string) (bool, error) {
	now, err := c.Tmux.Output(ctx, "display-message", "-p", "-t", pane, "#{window_zoomed_flag}")
	if err != nil {
		return false, err
	}
	zoomed := now == "1"
	want := !zoomed
	switch mode {
	case "", "toggle":
	case "on", "zoom":
		want = true
	case "off", "unzoom":
		want = false
	default:
		return zoomed, coded.Errorf(coded.InvalidArgument, "invalid zoom mode %q (expected toggle, on or off)", mode)
	}
	if want != zoomed {
		if _, err := c.Tmux.Run(ctx, tmux.Cmd{"resize-pane", "-Z", "-t", pane}); err != nil {
			return zoomed, err
		}
	}
	return want, nil
}

// Resize moves a pane's edge in a direction by a share of its window (0.1 when amount is 0).
func (c *Ctl) Resize(ctx context.Context, pane, direction string, amount float64) error {
	flag := map[string]string{"left": "-L", "right": "-R", "up": "-U", "down": "-D"}[direction]
	if flag == "" {
		return coded.Errorf(coded.InvalidArgument, "invalid direction %q (expected left, right, up or down)", direction)
	}
	if amount == 0 {
		amount = 0.1
	}
	if math.IsNaN(amount) || amount <= 0 || amount > 1 {
		return coded.Errorf(coded.InvalidArgument, "invalid amount %v (expected a share of the window, above 0 and at most 1)", amount)
	}
	size, err := c.Tmux.Output(ctx, "display-message", "-p", "-t", pane, "#{window_width} #{window_height}")
	if err != nil {
		return err
	}
	var w, h int
	fmt.Sscan(size, &w, &h)
	cells := w
	if flag == "-U" || flag == "-D" {
		cells = h
	}
	n := max(1, int(math.Round(amount*float64(cells))))
	_, err = c.Tmux.Run(ctx, tmux.Cmd{"resize-pane", "-t", pane, flag, strconv.Itoa(n)})
	return err
}

// Swap swaps two panes' places.
func (c *Ctl) Swap(ctx context.Context, source, target string) error {
	_, err := c.Tmux.Run(ctx, tmux.Cmd{"swap-pane", "-d", "-s", source, "-t", target})
	return err
}
