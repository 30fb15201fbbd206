package herdrsock

import (
	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/panectl"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
)

// herdr's records of workspaces, tabs, reads and the results that carry them.
type (
	workspaceInfo struct {
		WorkspaceID string `json:"workspace_id"`
		Number      int    `json:"number"`
		Label       string `json:"label"`
		Focused     bool   `json:"focused"`
		PaneCount   int    `json:"pane_count"`
		TabCount    int    `json:"tab_count"`
		ActiveTabID string `json:"active_tab_id"`
		AgentStatus string `json:"agent_status"`
	}
	tabInfo struct {
		TabID       string `json:"tab_id"`
		WorkspaceID string `json:"workspace_id"`
		Number      int    `json:"number"`
		Label       string `json:"label"`
		Focused     bool   `json:"focused"`
		PaneCount   int    `json:"pane_count"`
		AgentStatus string `json:"agent_status"`
	}
	readInfo struct {
		PaneID      string `json:"pane_id"`
		WorkspaceID string `json:"workspace_id"`
		TabID       string `json:"tab_id"`
		Source      string `json:"source"`
		Format      string `json:"format"`
		Text        string `json:"text"`
		Revision    int64  `json:"revision"`
		Truncated   bool   `json:"truncated"`
	}
	readResult struct {
		Type string   `json:"type"`
		Read readInfo `json:"read"`
	}
	outputMatched struct {
		Type        string   `json:"type"`
		PaneID      string   `json:"pane_id"`
		MatchedLine string   `json:"matched_line"`
		Read        readInfo `json:"read"`
		Revision    int64    `json:"revision"`
	}
	workspaceResult struct {
		Type      string        `json:"type"`
		Workspace workspaceInfo `json:"workspace"`
	}
	workspaceList struct {
		Type       string          `json:"type"`
		Workspaces []workspaceInfo `json:"workspaces"`
	}
	workspaceCreated struct {
		Type      string        `json:"type"`
		Workspace workspaceInfo `json:"workspace"`
		Tab       tabInfo       `json:"tab"`
		RootPane  paneInfo      `json:"root_pane"`
	}
	tabResult struct {
		Type string  `json:"type"`
		Tab  tabInfo `json:"tab"`
	}
	tabList struct {
		Type string    `json:"type"`
		Tabs []tabInfo `json:"tabs"`
	}
	tabCreated struct {
		Type     string   `json:"type"`
		Tab      tabInfo  `json:"tab"`
		RootPane paneInfo `json:"root_pane"`
	}
	worktreeSource struct {
		RepoKey            string `json:"repo_key"`
		RepoName           string `json:"repo_name"`
		RepoRoot           string `json:"repo_root"`
		SourceCheckoutPath string `json:"source_checkout_path"`
	}
	worktreeList struct {
		Type      string             `json:"type"`
		Source    worktreeSource     `json:"source"`
		Worktrees []panectl.Worktree `json:"worktrees"`
	}
	worktreeCreated struct {
		Type      string           `json:"type"`
		Workspace workspaceInfo    `json:"workspace"`
		Tab       tabInfo          `json:"tab"`
		RootPane  paneInfo         `json:"root_pane"`
		Worktree  panectl.Worktree `json:"worktree"`
	}
	worktreeRemoved struct {
		Type        string `json:"type"`
		WorkspaceID string `json:"workspace_id"`
		Path        string `json:"path"`
		Forced      bool   `json:"forced"`
	}
	agentStarted struct {
		Type  string    `json:"type"`
		Agent agentInfo `json:"agent"`
		Argv  []string  `json:"argv"`
	}
	zoomInfo struct {
		Changed       bool   `json:"changed"`
		ZoomChanged   bool   `json:"zoom_changed"`
		FocusChanged  bool   `json:"focus_changed"`
		PaneID        string `json:"pane_id"`
		FocusedPaneID string `json:"focused_pane_id"`
		Zoomed        bool   `json:"zoomed"`
	}
	zoomResult struct {
		Type string   `json:"type"`
		Zoom zoomInfo `json:"zoom"`
	}
	processInfo struct {
		PaneID     string        `json:"pane_id"`
		ShellPID   int           `json:"shell_pid,omitempty"`
		TTY        string        `json:"tty,omitempty"`
		ForeGroup  int           `json:"foreground_process_group_id,omitempty"`
		Foreground []processItem `json:"foreground_processes"`
	}
	processItem struct {
		PID  int      `json:"pid"`
		Name string   `json:"name"`
		Argv []string `json:"argv,omitempty"`
	}
	processResult struct {
		Type        string      `json:"type"`
		ProcessInfo processInfo `json:"process_info"`
	}
)

// rollup is the most pressing state among panes, as herdr rolls a tab's or a workspace's up:
// blocked, then done, working, idle, and unknown when no pane runs an agent.
func rollup(panes []panestate.Pane) string {
	rank := map[string]int{report.StateBlocked: 5, attention.StateDone: 4, report.StateWorking: 3, report.StateIdle: 2, report.StateUnknown: 1}
	best := report.StateUnknown
	for _, p := range panes {
		if s := attention.Shown(p); rank[s] > rank[best] {
			best = s
		}
	}
	return best
}

func newWorkspaceInfo(s panectl.Session, panes []panestate.Pane) workspaceInfo {
	var mine []panestate.Pane
	for _, p := range panes {
		if p.SessionID == s.ID {
			mine = append(mine, p)
		}
	}
	return workspaceInfo{WorkspaceID: s.ID, Number: s.Number, Label: s.Name, Focused: s.Attached, PaneCount: len(mine),
		TabCount: s.Windows, ActiveTabID: s.ActiveWindow, AgentStatus: rollup(mine)}
}

func newTabInfo(w panectl.Window, attached bool, panes []panestate.Pane) tabInfo {
	var mine []panestate.Pane
	for _, p := range panes {
		if p.WindowID == w.ID {
			mine = append(mine, p)
		}
	}
	return tabInfo{TabID: w.ID, WorkspaceID: w.SessionID, Number: w.Index, Label: w.Name, Focused: attached && w.Active,
		PaneCount: w.Panes, AgentStatus: rollup(mine)}
}
