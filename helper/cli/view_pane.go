package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/ctrl"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
)

// paneView is the JSON shape of one pane, shared by every read verb. Field names are stable and
// documented in the README; absent facts are null.
type paneView struct {
	PaneID       string   `json:"pane_id"`
	Target       string   `json:"target"`
	Session      string   `json:"session"`
	SessionID    string   `json:"session_id"`
	WindowID     string   `json:"window_id"`
	WindowIndex  int      `json:"window_index"`
	WindowName   string   `json:"window_name"`
	PaneIndex    int      `json:"pane_index"`
	Cwd          string   `json:"cwd"`
	Command      string   `json:"command"`
	Title        string   `json:"title"`
	Active       bool     `json:"active"`
	Agent        *string  `json:"agent"`
	AgentDisplay *string  `json:"agent_display"`
	State        *string  `json:"state"`
	StateSince   *int64   `json:"state_since"`
	Source       *string  `json:"source"`
	ReportedKind *string  `json:"reported_kind"`
	Detected     *string  `json:"detected"`
	Message      *string  `json:"message"`
	SessionRef   *string  `json:"agent_session_id"`
	SessionPath  *string  `json:"agent_session_path"`
	Resume       []string `json:"resume"`

	// Added for the read verbs (taw pane list, taw agent …).
	Done      bool    `json:"done"`       // state is done: a turn ended and nobody has looked yet
	BaseState *string `json:"base_state"` // the agent's own state, done read as idle
	PID       int     `json:"pid"`        // the pane's first process (usually its shell)
	TTY       string  `json:"tty"`
	Dead      bool    `json:"dead"`
	Width     int     `json:"width"`
	Height    int     `json:"height"`

	// Prompt is what a blocked agent asks; null unless it is blocked and taw could read it.
	Prompt *prompt.Prompt `json:"prompt"`
}

// paneViewSelection is what newPaneView reads of a pane: the read verbs ask tmux for it only.
var paneViewSelection = panestate.Selection{
	Fields: []string{
		"pane_id", "session_name", "session_id", "window_id", "window_index", "window_name",
		"pane_index", "pane_current_path", "pane_current_command", "pane_pid", "pane_tty",
		"pane_title", "pane_active", "window_active", "pane_dead", "pane_width", "pane_height",
	},
	Options: []string{
		panestate.OptName, panestate.OptState, panestate.OptStateSince, panestate.OptDone,
		panestate.OptSource, panestate.OptReportedKind, panestate.OptDetected, panestate.OptMessage,
		panestate.OptSessionID, panestate.OptSessionPath, panestate.OptResume,
		panestate.OptReportedState, panestate.OptPrompt,
	},
}

// agentTableSelection is what the table of agent list prints: its columns' facts only.
var agentTableSelection = panestate.Selection{
	Fields:  []string{"pane_id", "session_name", "window_index", "pane_index", "pane_current_path"},
	Options: []string{panestate.OptName, panestate.OptState, panestate.OptStateSince, panestate.OptDone, panestate.OptMessage},
}

func newPaneView(p panestate.Pane) paneView {
	o := p.Options
	rec := p.Record()
	v := paneView{
		PaneID: p.ID, Target: p.Target(), Session: p.SessionName, SessionID: p.SessionID,
		WindowID: p.WindowID, WindowIndex: p.WindowIndex, WindowName: p.WindowName,
		PaneIndex: p.PaneIndex, Cwd: p.Cwd, Command: p.Command, Title: p.Title,
		Active:       p.PaneActive && p.WindowActive,
		Agent:        nullable(o[panestate.OptName]),
		State:        nullable(attention.Shown(p)),
		BaseState:    nullable(o[panestate.OptState]),
		Source:       nullable(o[panestate.OptSource]),
		ReportedKind: nullable(o[panestate.OptReportedKind]),
		Detected:     nullable(o[panestate.OptDetected]),
		Message:      nullable(o[panestate.OptMessage]),
		SessionRef:   nullable(o[panestate.OptSessionID]),
		SessionPath:  nullable(o[panestate.OptSessionPath]),
		Resume:       rec.Resume,
		PID:          p.PID, TTY: p.TTY, Dead: p.Dead, Width: p.Width, Height: p.Height,
	}
	v.Done = v.State != nil && *v.State == attention.StateDone
	if o[panestate.OptState] == report.StateBlocked {
		// With no dialog on record yet (the watcher records it), what the hook said stands in.
		if v.Prompt = prompt.Decode(o[panestate.OptPrompt]); v.Prompt == nil {
			v.Prompt = prompt.WithHook(nil, p.HookMessage())
		}
	}
	if v.Agent != nil {
		d := *v.Agent
		if a, ok := agents.Lookup(d); ok {
			d = a.Display
		}
		v.AgentDisplay = &d
	}
	if ms, err := strconv.ParseInt(o[panestate.OptStateSince], 10, 64); err == nil {
		v.StateSince = &ms
	}
	return v
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// The read verbs print a table for people on a terminal and JSON for scripts: JSON when stdout is
// not a terminal, or with --json.
// paneColumns are the columns of a list table, in order.
type paneColumn struct {
	head string
	cell func(v paneView, now time.Time, home string) string
}

var (
	colPane   = paneColumn{"PANE", func(v paneView, _ time.Time, _ string) string { return v.PaneID }}
	colTarget = paneColumn{"TARGET", func(v paneView, _ time.Time, _ string) string { return v.Target }}
	colAgent  = paneColumn{"AGENT", func(v paneView, _ time.Time, _ string) string { return deref(v.AgentDisplay, "-") }}
	colState  = paneColumn{"STATE", func(v paneView, _ time.Time, _ string) string {
		if v.State == nil {
			return "-"
		}
		return attention.Icon(*v.State) + " " + *v.State
	}}
	colFor = paneColumn{"FOR", func(v paneView, now time.Time, _ string) string {
		if v.StateSince == nil {
			return "-"
		}
		return humanAge(now.Sub(time.UnixMilli(*v.StateSince)))
	}}
	colDir     = paneColumn{"DIRECTORY", func(v paneView, _ time.Time, home string) string { return shortDir(v.Cwd, home) }}
	colCommand = paneColumn{"COMMAND", func(v paneView, _ time.Time, _ string) string { return v.Command }}
	colMessage = paneColumn{"MESSAGE", func(v paneView, _ time.Time, _ string) string { return deref(v.Message, "") }}
)

func writeTable(w io.Writer, cols []paneColumn, views []paneView, now time.Time, home string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.head
	}
	fmt.Fprintln(tw, strings.Join(heads, "\t"))
	for _, v := range views {
		cells := make([]string, len(cols))
		for i, c := range cols {
			cells[i] = oneLine(c.cell(v, now, home))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// writePaneCard prints one pane as "field  value" lines, for taw pane get and agent get on a
// terminal.
func writePaneCard(w io.Writer, v paneView, now time.Time, home string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, val string) { fmt.Fprintf(tw, "%s\t%s\n", k, oneLine(val)) }
	row("pane", v.PaneID+"  "+v.Target)
	row("window", v.WindowName)
	row("directory", shortDir(v.Cwd, home))
	row("command", v.Command)
	row("agent", deref(v.AgentDisplay, "-"))
	row("state", colState.cell(v, now, home))
	row("for", colFor.cell(v, now, home))
	if v.Message != nil {
		row("message", *v.Message)
	}
	if v.Prompt != nil {
		row("asks", strings.TrimPrefix(v.Prompt.Summary(), "asks: "))
	}
	if v.Source != nil {
		row("source", *v.Source)
	}
	if v.Detected != nil {
		row("detected", *v.Detected)
	}
	if v.SessionRef != nil {
		row("agent session", *v.SessionRef)
	}
	if len(v.Resume) > 0 {
		row("resume", strings.Join(v.Resume, " "))
	}
	return tw.Flush()
}

func deref(s *string, none string) string {
	if s == nil {
		return none
	}
	return *s
}

func oneLine(s string) string {
	return ctrl.Printable(s)
}

// shortDir writes a directory under home as ~/….
func shortDir(dir, home string) string {
	if home != "" && home != "/" {
		if dir == home {
			return "~"
		}
		if strings.HasPrefix(dir, home+"/") {
			return "~" + dir[len(home):]
		}
	}
	return dir
}

// humanAge is a duration in its largest whole unit: 5s, 3m, 2h, 4d.
func humanAge(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}

func timeFromMillis(ms int64) time.Time { return time.UnixMilli(ms) }
