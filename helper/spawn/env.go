package spawn

import (
	"sort"
	"strings"
)

// Invocation is the pane a command runs for, with its window and session; all empty when there
// is none (a startup command).
type Invocation struct {
	PaneID    string // %N
	WindowID  string // @N
	SessionID string // $N
}

// Variables naming the invocation, under taw's names and herdr's.
const (
	VarPane      = "TAW_PANE"
	VarWindow    = "TAW_WINDOW"
	VarSession   = "TAW_SESSION"
	VarHerdrPane = "HERDR_PANE_ID"
	VarHerdrTab  = "HERDR_TAB_ID"
	VarHerdrWS   = "HERDR_WORKSPACE_ID"
)

// dropped are variables a command must never inherit from whoever started it: tmux's global
// environment may hold HERDR_PANE_ID=%calling (and the rest of herdr's) for panes, a watcher
// started from a pane holds that pane's TMUX_PANE, and taw's own names are set afresh.
func dropped(name string) bool {
	switch {
	case strings.HasPrefix(name, "HERDR_"), strings.HasPrefix(name, "TAW_PLUGIN"),
		strings.HasPrefix(name, "TAW_NOTIFY_"):
		return true
	}
	switch name {
	case "TMUX_PANE", VarPane, VarWindow, VarSession, "TAW_EVENT", "TAW_EVENT_NAME", "TAW_AGENT",
		"TAW_STATE", "TAW_SOURCE", "TAW_TARGET", "TAW_FROM_STATE", "TAW_MESSAGE", "TAW_BIN":
		return true
	}
	return false
}

// Env is base without the variables above, plus the invocation's ids (none when it has no pane)
// and extra, sorted so it reads well in a log.
func Env(base []string, inv Invocation, extra map[string]string) []string {
	vars := map[string]string{}
	for _, kv := range base {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || dropped(k) {
			continue
		}
		vars[k] = v
	}
	if inv.PaneID != "" {
		vars[VarPane], vars[VarHerdrPane] = inv.PaneID, inv.PaneID
	}
	if inv.WindowID != "" {
		vars[VarWindow], vars[VarHerdrTab] = inv.WindowID, inv.WindowID
	}
	if inv.SessionID != "" {
		vars[VarSession], vars[VarHerdrWS] = inv.SessionID, inv.SessionID
	}
	for k, v := range extra {
		vars[k] = v
	}
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
