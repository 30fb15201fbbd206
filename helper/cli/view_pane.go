package cli

import (
	"strconv"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/panestate"
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
		State:        nullable(o[panestate.OptState]),
		Source:       nullable(o[panestate.OptSource]),
		ReportedKind: nullable(o[panestate.OptReportedKind]),
		Detected:     nullable(o[panestate.OptDetected]),
		Message:      nullable(o[panestate.OptMessage]),
		SessionRef:   nullable(o[panestate.OptSessionID]),
		SessionPath:  nullable(o[panestate.OptSessionPath]),
		Resume:       rec.Resume,
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
