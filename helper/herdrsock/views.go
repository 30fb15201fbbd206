package herdrsock

import (
	"strconv"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
)

// Results, each tagged with its type first, as herdr writes them.
type (
	okResult struct {
		Type string `json:"type"`
	}
	// reportResult is a report's ok; Kept false and Reason when the watcher clears it at its
	// next look (watch.ReportLasts).
	reportResult struct {
		Type   string `json:"type"`
		Kept   *bool  `json:"kept,omitempty"`
		Reason string `json:"reason,omitempty"`
	}
	pong struct {
		Type     string `json:"type"`
		Version  string `json:"version"`
		Protocol int    `json:"protocol"`
	}
	paneResult struct {
		Type string   `json:"type"`
		Pane paneInfo `json:"pane"`
	}
	paneList struct {
		Type  string     `json:"type"`
		Panes []paneInfo `json:"panes"`
	}
	agentResult struct {
		Type  string    `json:"type"`
		Agent agentInfo `json:"agent"`
	}
	agentList struct {
		Type   string      `json:"type"`
		Agents []agentInfo `json:"agents"`
	}
)

// paneInfo is herdr's PaneInfo filled from a tmux pane: a workspace is a tmux session, a tab a
// window. Fields taw has no value for are left out, as herdr leaves out empty ones.
type paneInfo struct {
	PaneID        string        `json:"pane_id"`
	WorkspaceID   string        `json:"workspace_id"`
	TabID         string        `json:"tab_id"`
	Focused       bool          `json:"focused"`
	Cwd           string        `json:"cwd,omitempty"`
	Agent         string        `json:"agent,omitempty"`
	TerminalTitle string        `json:"terminal_title,omitempty"`
	AgentStatus   string        `json:"agent_status"`
	AgentSession  *agentSession `json:"agent_session,omitempty"`
}

// agentInfo is herdr's AgentInfo: the pane's fields plus the count waiters sort by, here the
// unix milliseconds of the last change of agent or state (it only grows).
type agentInfo struct {
	paneInfo
	StateChangeSeq int64 `json:"state_change_seq"`
}

// agentSession is herdr's session reference: a path when the agent reported one, else its id.
type agentSession struct {
	Source string `json:"source"`
	Agent  string `json:"agent"`
	Kind   string `json:"kind"`
	Value  string `json:"value"`
}

func newPaneInfo(p panestate.Pane) paneInfo {
	rec := p.Record()
	v := paneInfo{
		PaneID: p.ID, WorkspaceID: p.SessionID, TabID: p.WindowID,
		Focused: p.PaneActive && p.WindowActive && p.SessionAttached,
		Cwd:     p.Cwd, Agent: p.Agent(), TerminalTitle: p.Title,
		AgentStatus: attention.Shown(p),
	}
	if v.AgentStatus == "" {
		v.AgentStatus = report.StateUnknown // herdr's word for a pane without an agent
	}
	if rec.SessionSource != "" {
		s := &agentSession{Source: rec.SessionSource, Agent: rec.SessionAgent, Kind: "id", Value: rec.SessionID}
		if rec.SessionPath != "" {
			s.Kind, s.Value = "path", rec.SessionPath
		}
		if s.Value != "" {
			v.AgentSession = s
		}
	}
	return v
}

func newAgentInfo(p panestate.Pane) agentInfo {
	since, _ := strconv.ParseInt(p.Options[panestate.OptStateSince], 10, 64)
	return agentInfo{paneInfo: newPaneInfo(p), StateChangeSeq: since}
}
