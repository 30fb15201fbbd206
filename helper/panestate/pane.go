package panestate

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Pane is one tmux pane with taw's facts about it.
type Pane struct {
	ID              string // %N
	SessionName     string
	SessionID       string // $N
	WindowID        string // @N
	WindowIndex     int
	WindowName      string
	PaneIndex       int
	Cwd             string
	Command         string // pane_current_command
	PID             int    // pane_pid: the pane's first process, usually its shell
	TTY             string
	Title           string
	PaneActive      bool
	WindowActive    bool
	SessionAttached bool
	Dead            bool
	Width, Height   int
	Activity        int64 // window_activity: unix seconds of the window's last output
	HistorySize     int
	CursorX         int
	CursorY         int
	AltScreen       bool

	Options map[string]string // every option in Options, "" when unset
}

// Record is the contract's record held in the pane's options.
func (p Pane) Record() report.Record { return RecordFromOptions(p.Options) }

// Agent and State are the effective ones, as stored.
func (p Pane) Agent() string { return p.Options[OptName] }
func (p Pane) State() string { return p.Options[OptState] }

// Target is session:window.pane, the address people type.
func (p Pane) Target() string {
	return fmt.Sprintf("%s:%d.%d", p.SessionName, p.WindowIndex, p.PaneIndex)
}

const sep = "\x1f"

var paneFields = []string{
	"pane_id", "session_name", "session_id", "window_id", "window_index", "window_name",
	"pane_index", "pane_current_path", "pane_current_command", "pane_pid", "pane_tty",
	"pane_title", "pane_active", "window_active", "session_attached", "pane_dead",
	"pane_width", "pane_height",
	"window_activity", "history_size", "cursor_x", "cursor_y", "alternate_on",
}

// Format is the tmux format that prints one pane as one row.
func Format() string {
	parts := make([]string, 0, len(paneFields)+len(Options))
	for _, f := range paneFields {
		parts = append(parts, "#{"+f+"}")
	}
	for _, o := range Options {
		parts = append(parts, "#{"+o+"}")
	}
	return strings.Join(parts, sep)
}

// ParseRow reads one row printed with Format.
func ParseRow(row string) (Pane, error) {
	f := strings.Split(row, sep)
	if len(f) != len(paneFields)+len(Options) {
		return Pane{}, fmt.Errorf("read pane: %d fields where %d were expected", len(f), len(paneFields)+len(Options))
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	p := Pane{
		ID: f[0], SessionName: f[1], SessionID: f[2], WindowID: f[3], WindowIndex: atoi(f[4]),
		WindowName: f[5], PaneIndex: atoi(f[6]), Cwd: f[7], Command: f[8], PID: atoi(f[9]),
		TTY: f[10], Title: f[11], PaneActive: f[12] == "1", WindowActive: f[13] == "1",
		SessionAttached: f[14] != "" && f[14] != "0", Dead: f[15] == "1",
		Width: atoi(f[16]), Height: atoi(f[17]),
		Activity: int64(atoi(f[18])), HistorySize: atoi(f[19]), CursorX: atoi(f[20]), CursorY: atoi(f[21]), AltScreen: f[22] == "1",
		Options: make(map[string]string, len(Options)),
	}
	for i, o := range Options {
		p.Options[o] = f[len(paneFields)+i]
	}
	return p, nil
}

// Read reads one pane, by id (%N), in one tmux call.
func Read(ctx context.Context, c *tmux.Client, paneID string) (Pane, error) {
	out, err := c.Output(ctx, "display-message", "-p", "-t", paneID, "-F", Format())
	if err != nil {
		return Pane{}, err
	}
	p, err := ParseRow(out)
	if err != nil {
		return Pane{}, err
	}
	if p.ID != paneID {
		// display-message falls back to the current pane for a target it cannot resolve.
		return Pane{}, &tmux.Error{Code: tmux.CodePaneNotFound, Stderr: "can't find pane: " + paneID}
	}
	return p, nil
}

// ListCmd is the tmux call that prints every pane of the server as a row ParseRow reads, each
// row after prefix (a marker, when the call shares one output with others; "" for none).
func ListCmd(prefix string) tmux.Cmd { return tmux.Cmd{"list-panes", "-a", "-F", prefix + Format()} }

// List reads every pane of the server in one tmux call.
func List(ctx context.Context, c *tmux.Client) ([]Pane, error) {
	out, err := c.Run(ctx, ListCmd(""))
	if err != nil {
		return nil, err
	}
	var panes []Pane
	for _, row := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if row == "" {
			continue
		}
		p, err := ParseRow(row)
		if err != nil {
			return nil, err
		}
		panes = append(panes, p)
	}
	return panes, nil
}

// SignalChannel is the tmux wait-for channel signalled whenever a pane's agent or state changes,
// so waiters need not poll.
const SignalChannel = "taw-state"

// WriteCmds are the tmux commands that turn the pane's options from old into new: only what
// changed, an empty value unsetting the option.
func WriteCmds(paneID string, old, new map[string]string) []tmux.Cmd {
	var cmds []tmux.Cmd
	for _, k := range Options {
		v, ok := new[k]
		if !ok || v == old[k] {
			continue
		}
		if v == "" {
			cmds = append(cmds, tmux.Cmd{"set-option", "-p", "-u", "-t", paneID, k})
		} else {
			cmds = append(cmds, tmux.Cmd{"set-option", "-p", "-t", paneID, k, v})
		}
	}
	return cmds
}

// Commit writes rec into the pane's options, deriving the effective agent and state, and signals
// waiters when those moved. It returns the pane as written.
func Commit(ctx context.Context, c *tmux.Client, p Pane, rec report.Record, nowMillis int64, extra map[string]string) (Pane, error) {
	next := OptionsFromRecord(p.Options, rec, nowMillis)
	for k, v := range extra {
		next[k] = v
	}
	cmds := WriteCmds(p.ID, p.Options, next)
	if next[OptName] != p.Options[OptName] || next[OptState] != p.Options[OptState] {
		cmds = append(cmds, tmux.SignalCmds(SignalChannel)...)
	}
	if len(cmds) > 0 {
		if _, err := c.Run(ctx, cmds...); err != nil {
			return p, err
		}
	}
	p.Options = next
	return p, nil
}
