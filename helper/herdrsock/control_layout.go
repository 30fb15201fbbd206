package herdrsock

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/panectl"
	"github.com/taw-tmux/taw/helper/panestate"
)

// layoutMethods are herdr's workspace.*, tab.* and worktree.* methods: a workspace is a tmux
// session, a tab a window, a worktree a git checkout opened as a new session.
var layoutMethods = map[string]method{
	"workspace.list":   (*Handler).workspaceList,
	"workspace.get":    (*Handler).workspaceGet,
	"workspace.create": (*Handler).workspaceCreate,
	"workspace.focus":  (*Handler).workspaceFocus,
	"workspace.rename": (*Handler).workspaceRename,
	"workspace.close":  (*Handler).workspaceClose,
	"tab.list":         (*Handler).tabList,
	"tab.get":          (*Handler).tabGet,
	"tab.create":       (*Handler).tabCreate,
	"tab.focus":        (*Handler).tabFocus,
	"tab.rename":       (*Handler).tabRename,
	"tab.close":        (*Handler).tabClose,
	"worktree.list":    (*Handler).worktreeList,
	"worktree.create":  (*Handler).worktreeCreate,
	"worktree.open":    (*Handler).worktreeOpen,
	"worktree.remove":  (*Handler).worktreeRemove,
}

type layoutParams struct {
	WorkspaceID string            `json:"workspace_id"`
	TabID       string            `json:"tab_id"`
	Label       *string           `json:"label"`
	Cwd         string            `json:"cwd"`
	Env         map[string]string `json:"env"`
	Focus       bool              `json:"focus"`
	Branch      string            `json:"branch"`
	Base        string            `json:"base"`
	Path        string            `json:"path"`
	Force       bool              `json:"force"`
}

func (h *Handler) allPanes(ctx context.Context) ([]panestate.Pane, *Error) {
	panes, err := panestate.List(ctx, h.Tmux)
	if err != nil {
		return nil, asError(err)
	}
	return panes, nil
}

func (h *Handler) workspace(ctx context.Context, id string) (workspaceInfo, *Error) {
	s, err := h.panes().Session(ctx, id)
	if err != nil {
		return workspaceInfo{}, asError(err)
	}
	panes, e := h.allPanes(ctx)
	if e != nil {
		return workspaceInfo{}, e
	}
	return newWorkspaceInfo(s, panes), nil
}

func (h *Handler) tab(ctx context.Context, id string) (tabInfo, *Error) {
	w, err := h.panes().Window(ctx, id)
	if err != nil {
		return tabInfo{}, asError(err)
	}
	s, err := h.panes().Session(ctx, w.SessionID)
	if err != nil {
		return tabInfo{}, asError(err)
	}
	panes, e := h.allPanes(ctx)
	if e != nil {
		return tabInfo{}, e
	}
	return newTabInfo(w, s.Attached, panes), nil
}

// callerSession is the workspace a request names, or else the caller's own (herdr: the active
// one).
func (h *Handler) callerSession(ctx context.Context, peer Peer, named string) (string, *Error) {
	if named != "" {
		return named, nil
	}
	id, e := h.pane(ctx, peer, "")
	if e != nil {
		return "", e
	}
	p, err := panestate.Read(ctx, h.Tmux, id)
	if err != nil {
		return "", asError(err)
	}
	return p.SessionID, nil
}

func (h *Handler) workspaceList(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	ss, err := h.panes().Sessions(ctx)
	if err != nil {
		return nil, asError(err)
	}
	panes, e := h.allPanes(ctx)
	if e != nil {
		return nil, e
	}
	out := []workspaceInfo{}
	for _, s := range ss {
		out = append(out, newWorkspaceInfo(s, panes))
	}
	return workspaceList{Type: "workspace_list", Workspaces: out}, nil
}

func (h *Handler) workspaceGet(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decodeNeed("workspace.get", params, &p, "workspace_id", &p.WorkspaceID); e != nil {
		return nil, e
	}
	w, e := h.workspace(ctx, p.WorkspaceID)
	if e != nil {
		return nil, e
	}
	return workspaceResult{Type: "workspace_info", Workspace: w}, nil
}

func (h *Handler) created(ctx context.Context, typ string, made panectl.Created) (any, *Error) {
	w, e := h.workspace(ctx, made.SessionID)
	if e != nil {
		return nil, e
	}
	t, e := h.tab(ctx, made.WindowID)
	if e != nil {
		return nil, e
	}
	root, e := h.paneInfo(ctx, made.PaneID)
	if e != nil {
		return nil, e
	}
	if typ == "tab_created" {
		return tabCreated{Type: typ, Tab: t, RootPane: root}, nil
	}
	return workspaceCreated{Type: typ, Workspace: w, Tab: t, RootPane: root}, nil
}

func (h *Handler) workspaceCreate(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decode("workspace.create", params, &p); e != nil {
		return nil, e
	}
	made, err := h.panes().NewSession(ctx, trimmed(p.Label), p.Cwd, p.Env, nil)
	if err != nil {
		return nil, asError(err)
	}
	if p.Focus {
		_ = h.panes().Focus(ctx, made.SessionID, "")
	}
	return h.created(ctx, "workspace_created", made)
}

func (h *Handler) workspaceFocus(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decodeNeed("workspace.focus", params, &p, "workspace_id", &p.WorkspaceID); e != nil {
		return nil, e
	}
	if err := h.panes().Focus(ctx, p.WorkspaceID, ""); err != nil {
		return nil, asError(err)
	}
	w, e := h.workspace(ctx, p.WorkspaceID)
	if e != nil {
		return nil, e
	}
	return workspaceResult{Type: "workspace_info", Workspace: w}, nil
}

func (h *Handler) workspaceRename(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decodeNeed("workspace.rename", params, &p, "workspace_id", &p.WorkspaceID); e != nil {
		return nil, e
	}
	if err := h.panes().RenameSession(ctx, p.WorkspaceID, trimmed(p.Label)); err != nil {
		return nil, asError(err)
	}
	w, e := h.workspace(ctx, p.WorkspaceID)
	if e != nil {
		return nil, e
	}
	return workspaceResult{Type: "workspace_info", Workspace: w}, nil
}

func (h *Handler) workspaceClose(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decodeNeed("workspace.close", params, &p, "workspace_id", &p.WorkspaceID); e != nil {
		return nil, e
	}
	if err := h.panes().KillSession(ctx, p.WorkspaceID); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

func (h *Handler) tabList(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decode("tab.list", params, &p); e != nil {
		return nil, e
	}
	ws, err := h.panes().Windows(ctx, p.WorkspaceID)
	if err != nil {
		return nil, asError(err)
	}
	ss, err := h.panes().Sessions(ctx)
	if err != nil {
		return nil, asError(err)
	}
	attached := map[string]bool{}
	for _, s := range ss {
		attached[s.ID] = s.Attached
	}
	panes, e := h.allPanes(ctx)
	if e != nil {
		return nil, e
	}
	out := []tabInfo{}
	for _, w := range ws {
		out = append(out, newTabInfo(w, attached[w.SessionID], panes))
	}
	return tabList{Type: "tab_list", Tabs: out}, nil
}

func (h *Handler) tabGet(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decodeNeed("tab.get", params, &p, "tab_id", &p.TabID); e != nil {
		return nil, e
	}
	t, e := h.tab(ctx, p.TabID)
	if e != nil {
		return nil, e
	}
	return tabResult{Type: "tab_info", Tab: t}, nil
}

func (h *Handler) tabCreate(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decode("tab.create", params, &p); e != nil {
		return nil, e
	}
	sess, e := h.callerSession(ctx, peer, p.WorkspaceID)
	if e != nil {
		return nil, e
	}
	made, err := h.panes().NewWindow(ctx, sess, trimmed(p.Label), p.Cwd, p.Env, p.Focus)
	if err != nil {
		return nil, asError(err)
	}
	return h.created(ctx, "tab_created", made)
}

func (h *Handler) tabFocus(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decodeNeed("tab.focus", params, &p, "tab_id", &p.TabID); e != nil {
		return nil, e
	}
	if err := h.panes().Focus(ctx, p.TabID, ""); err != nil {
		return nil, asError(err)
	}
	t, e := h.tab(ctx, p.TabID)
	if e != nil {
		return nil, e
	}
	return tabResult{Type: "tab_info", Tab: t}, nil
}

func (h *Handler) tabRename(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decodeNeed("tab.rename", params, &p, "tab_id", &p.TabID); e != nil {
		return nil, e
	}
	if err := h.panes().RenameWindow(ctx, p.TabID, trimmed(p.Label)); err != nil {
		return nil, asError(err)
	}
	t, e := h.tab(ctx, p.TabID)
	if e != nil {
		return nil, e
	}
	return tabResult{Type: "tab_info", Tab: t}, nil
}

func (h *Handler) tabClose(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decodeNeed("tab.close", params, &p, "tab_id", &p.TabID); e != nil {
		return nil, e
	}
	if err := h.panes().KillWindow(ctx, p.TabID); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

// worktreeDir is the folder whose repository a worktree method acts on: cwd, or the named
// workspace's folder, or the caller's.
func (h *Handler) worktreeDir(ctx context.Context, peer Peer, method string, p layoutParams) (string, *Error) {
	if p.Cwd != "" && p.WorkspaceID != "" {
		return "", errorf(CodeInvalidRequest, "invalid request: %s takes workspace_id or cwd, not both", method)
	}
	if p.Cwd != "" {
		return p.Cwd, nil
	}
	sess, e := h.callerSession(ctx, peer, p.WorkspaceID)
	if e != nil {
		return "", e
	}
	s, err := h.panes().Session(ctx, sess)
	if err != nil {
		return "", asError(err)
	}
	return s.Path, nil
}

func (h *Handler) worktreeList(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decode("worktree.list", params, &p); e != nil {
		return nil, e
	}
	dir, e := h.worktreeDir(ctx, peer, "worktree.list", p)
	if e != nil {
		return nil, e
	}
	repo, list, err := h.panes().Worktrees(ctx, dir)
	if err != nil {
		return nil, asError(err)
	}
	if list == nil {
		list = []panectl.Worktree{}
	}
	src := worktreeSource{RepoKey: repo, RepoName: filepath.Base(repo), RepoRoot: repo, SourceCheckoutPath: dir}
	return worktreeList{Type: "worktree_list", Source: src, Worktrees: list}, nil
}

func (h *Handler) worktreeCreate(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decode("worktree.create", params, &p); e != nil {
		return nil, e
	}
	dir, e := h.worktreeDir(ctx, peer, "worktree.create", p)
	if e != nil {
		return nil, e
	}
	wt, made, err := h.panes().CreateWorktree(ctx, panectl.WorktreeOptions{Dir: dir, Branch: p.Branch, Base: p.Base, Path: p.Path, Label: trimmed(p.Label)})
	if err != nil {
		return nil, asError(err)
	}
	if p.Focus {
		_ = h.panes().Focus(ctx, made.SessionID, "")
	}
	c, e := h.created(ctx, "worktree_created", made)
	if e != nil {
		return nil, e
	}
	w := c.(workspaceCreated)
	return worktreeCreated{Type: "worktree_created", Workspace: w.Workspace, Tab: w.Tab, RootPane: w.RootPane, Worktree: wt}, nil
}

// worktreeOpen opens an existing checkout as a session, or names the one already open in it.
func (h *Handler) worktreeOpen(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decode("worktree.open", params, &p); e != nil {
		return nil, e
	}
	if (p.Path == "") == (p.Branch == "") {
		return nil, errorf(CodeInvalidRequest, "invalid request: worktree.open takes path or branch, one of them")
	}
	dir, e := h.worktreeDir(ctx, peer, "worktree.open", p)
	if e != nil {
		return nil, e
	}
	_, list, err := h.panes().Worktrees(ctx, dir)
	if err != nil {
		return nil, asError(err)
	}
	for _, wt := range list {
		if (p.Path != "" && filepath.Clean(p.Path) == filepath.Clean(wt.Path)) || (p.Branch != "" && wt.Branch != nil && *wt.Branch == p.Branch) {
			already := wt.OpenIn != nil
			var made panectl.Created
			if already {
				made.SessionID = *wt.OpenIn
				s, err := h.panes().Session(ctx, made.SessionID)
				if err != nil {
					return nil, asError(err)
				}
				made.WindowID = s.ActiveWindow
				made.PaneID, _ = h.Tmux.Output(ctx, "display-message", "-p", "-t", s.ActiveWindow, "#{pane_id}")
			} else {
				made, err = h.panes().NewSession(ctx, trimmed(p.Label), wt.Path, nil, nil)
				if err != nil {
					return nil, asError(err)
				}
				wt.OpenIn = &made.SessionID
			}
			c, e := h.created(ctx, "worktree_opened", made)
			if e != nil {
				return nil, e
			}
			w := c.(workspaceCreated)
			return struct {
				worktreeCreated
				AlreadyOpen bool `json:"already_open"`
			}{worktreeCreated{Type: "worktree_opened", Workspace: w.Workspace, Tab: w.Tab, RootPane: w.RootPane, Worktree: wt}, already}, nil
		}
	}
	return nil, errorf(coded.NotFound, "no worktree of that repository has that path or branch (see worktree.list)")
}

func (h *Handler) worktreeRemove(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p layoutParams
	if e := decodeNeed("worktree.remove", params, &p, "workspace_id", &p.WorkspaceID); e != nil {
		return nil, e
	}
	path, err := h.panes().RemoveWorktree(ctx, p.WorkspaceID, p.Force)
	if err != nil {
		return nil, asError(err)
	}
	return worktreeRemoved{Type: "worktree_removed", WorkspaceID: p.WorkspaceID, Path: path, Forced: p.Force}, nil
}
