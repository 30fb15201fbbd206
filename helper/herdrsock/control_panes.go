package herdrsock

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/taw-tmux/taw/helper/panectl"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
)

// paneMethods are herdr's pane.* methods mapped onto tmux panes.
var paneMethods = map[string]method{
	"pane.split":           (*Handler).paneSplit,
	"pane.current":         (*Handler).paneCurrent,
	"pane.read":            (*Handler).paneRead,
	"pane.send_text":       (*Handler).paneSendText,
	"pane.send_keys":       (*Handler).paneSendKeys,
	"pane.send_input":      (*Handler).paneSendInput,
	"pane.run":             (*Handler).paneRun,
	"pane.wait_for_output": (*Handler).paneWaitOutput,
	"pane.close":           (*Handler).paneClose,
	"pane.rename":          (*Handler).paneRename,
	"pane.zoom":            (*Handler).paneZoom,
	"pane.resize":          (*Handler).paneResize,
	"pane.swap":            (*Handler).paneSwap,
	"pane.process_info":    (*Handler).paneProcessInfo,
	"pane.focus":           (*Handler).paneFocus,
}

type paneParams struct {
	PaneID       string            `json:"pane_id"`
	TargetPaneID string            `json:"target_pane_id"`
	SourcePaneID string            `json:"source_pane_id"`
	CallerPaneID string            `json:"caller_pane_id"`
	Direction    string            `json:"direction"`
	Ratio        float64           `json:"ratio"`
	Amount       float64           `json:"amount"`
	Cwd          string            `json:"cwd"`
	Env          map[string]string `json:"env"`
	Command      []string          `json:"command"`
	Focus        bool              `json:"focus"`
	Text         *string           `json:"text"`
	Keys         []string          `json:"keys"`
	Source       string            `json:"source"`
	Lines        *int              `json:"lines"`
	Label        *string           `json:"label"`
	Mode         string            `json:"mode"`
	Match        *panectl.Match    `json:"match"`
	TimeoutMS    *int64            `json:"timeout_ms"`
}

func (h *Handler) paneTarget(ctx context.Context, peer Peer, method string, params json.RawMessage, required bool) (paneParams, string, *Error) {
	var p paneParams
	if e := decode(method, params, &p); e != nil {
		return p, "", e
	}
	if required {
		if e := need(method, "pane_id", p.PaneID); e != nil {
			return p, "", e
		}
	}
	id, e := h.pane(ctx, peer, p.PaneID)
	return p, id, e
}

func (h *Handler) paneSplit(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p paneParams
	if e := decodeNeed("pane.split", params, &p, "direction", &p.Direction); e != nil {
		return nil, e
	}
	named := p.TargetPaneID
	if named == "" {
		named = p.PaneID
	}
	id, e := h.pane(ctx, peer, named)
	if e != nil {
		return nil, e
	}
	made, err := h.panes().Split(ctx, panectl.SplitOptions{Pane: id, Direction: p.Direction, Ratio: p.Ratio, Cwd: p.Cwd, Env: p.Env, Argv: p.Command, Focus: p.Focus})
	if err != nil {
		return nil, asError(err)
	}
	info, e := h.paneInfo(ctx, made.PaneID)
	if e != nil {
		// A command that ended at once took its pane with it: the split still happened.
		info = paneInfo{PaneID: made.PaneID, WorkspaceID: made.SessionID, TabID: made.WindowID, AgentStatus: "unknown"}
	}
	return paneResult{Type: "pane_info", Pane: info}, nil
}

func (h *Handler) paneCurrent(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p paneParams
	if e := decode("pane.current", params, &p); e != nil {
		return nil, e
	}
	id, e := h.pane(ctx, peer, p.CallerPaneID)
	if e != nil {
		return nil, e
	}
	info, e := h.paneInfo(ctx, id)
	if e != nil {
		return nil, e
	}
	return paneResult{Type: "pane_current", Pane: info}, nil
}

// readOf reads a pane as herdr's pane.read does.
func (h *Handler) readOf(ctx context.Context, id, source string, lines *int) (readInfo, *Error) {
	src, err := panectl.NormalSource(source)
	if err != nil {
		return readInfo{}, asError(err)
	}
	n := 0
	if lines != nil {
		n = *lines
	}
	text, truncated, err := h.panes().Read(ctx, id, src, n)
	if err != nil {
		return readInfo{}, asError(err)
	}
	p, err := panestate.Read(ctx, h.Tmux, id)
	if err != nil {
		return readInfo{}, asError(err)
	}
	return readInfo{PaneID: id, WorkspaceID: p.SessionID, TabID: p.WindowID, Source: src, Format: "text", Text: text, Truncated: truncated}, nil
}

func (h *Handler) paneRead(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, id, e := h.paneTarget(ctx, peer, "pane.read", params, true)
	if e != nil {
		return nil, e
	}
	r, e := h.readOf(ctx, id, p.Source, p.Lines)
	if e != nil {
		return nil, e
	}
	return readResult{Type: "pane_read", Read: r}, nil
}

func (h *Handler) paneSendText(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, id, e := h.paneTarget(ctx, peer, "pane.send_text", params, true)
	if e != nil {
		return nil, e
	}
	if p.Text == nil {
		return nil, errorf(CodeInvalidRequest, "invalid request: pane.send_text needs text")
	}
	if err := h.panes().SendText(ctx, id, *p.Text); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

func (h *Handler) paneSendKeys(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, id, e := h.paneTarget(ctx, peer, "pane.send_keys", params, true)
	if e != nil {
		return nil, e
	}
	if err := h.panes().SendKeys(ctx, id, p.Keys); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

// paneSendInput types text, then sends keys: both checked before either goes.
func (h *Handler) paneSendInput(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, id, e := h.paneTarget(ctx, peer, "pane.send_input", params, true)
	if e != nil {
		return nil, e
	}
	if p.Text == nil && len(p.Keys) == 0 {
		return nil, errorf(CodeInvalidRequest, "invalid request: pane.send_input needs text or keys")
	}
	if p.Text != nil {
		if err := panectl.CheckText("the text", *p.Text); err != nil {
			return nil, asError(err)
		}
	}
	if len(p.Keys) > 0 {
		if _, err := panectl.TmuxKeys(p.Keys); err != nil {
			return nil, asError(err)
		}
	}
	if p.Text != nil {
		if err := h.panes().SendText(ctx, id, *p.Text); err != nil {
			return nil, asError(err)
		}
	}
	if len(p.Keys) > 0 {
		if err := h.panes().SendKeys(ctx, id, p.Keys); err != nil {
			return nil, asError(err)
		}
	}
	return ok, nil
}

// paneRun is what herdr's CLI pane run does: one line typed and submitted.
func (h *Handler) paneRun(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, id, e := h.paneTarget(ctx, peer, "pane.run", params, true)
	if e != nil {
		return nil, e
	}
	if p.Text == nil {
		return nil, errorf(CodeInvalidRequest, "invalid request: pane.run needs text")
	}
	if err := h.panes().Run(ctx, id, *p.Text); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

func (h *Handler) paneWaitOutput(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, id, e := h.paneTarget(ctx, peer, "pane.wait_for_output", params, true)
	if e != nil {
		return nil, e
	}
	if p.Match == nil {
		return nil, errorf(CodeInvalidRequest, "invalid request: pane.wait_for_output needs match {type: substring|regex, value}")
	}
	timeout, e := timeoutOf(p.TimeoutMS)
	if e != nil {
		return nil, e
	}
	src, err := panectl.NormalSource(p.Source)
	if err != nil {
		return nil, asError(err)
	}
	n := 0
	if p.Lines != nil {
		n = *p.Lines
	}
	line, text, truncated, err := h.panes().WaitOutput(ctx, id, src, n, *p.Match, timeout)
	if err != nil {
		return nil, asError(err)
	}
	r := readInfo{PaneID: id, Source: src, Format: "text", Text: text, Truncated: truncated}
	if q, err := panestate.Read(ctx, h.Tmux, id); err == nil {
		r.WorkspaceID, r.TabID = q.SessionID, q.WindowID
	}
	return outputMatched{Type: "output_matched", PaneID: id, MatchedLine: line, Read: r}, nil
}

func (h *Handler) paneClose(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	_, id, e := h.paneTarget(ctx, peer, "pane.close", params, true)
	if e != nil {
		return nil, e
	}
	if err := h.panes().Close(ctx, id); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

func (h *Handler) paneRename(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, id, e := h.paneTarget(ctx, peer, "pane.rename", params, true)
	if e != nil {
		return nil, e
	}
	label := ""
	if p.Label != nil {
		label = *p.Label
	}
	if err := h.panes().Rename(ctx, id, label); err != nil {
		return nil, asError(err)
	}
	info, e := h.paneInfo(ctx, id)
	if e != nil {
		return nil, e
	}
	return paneResult{Type: "pane_info", Pane: info}, nil
}

func (h *Handler) paneZoom(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, id, e := h.paneTarget(ctx, peer, "pane.zoom", params, false)
	if e != nil {
		return nil, e
	}
	before, _ := h.Tmux.Output(ctx, "display-message", "-p", "-t", id, "#{window_zoomed_flag}")
	zoomed, err := h.panes().Zoom(ctx, id, p.Mode)
	if err != nil {
		return nil, asError(err)
	}
	changed := zoomed != (before == "1")
	return zoomResult{Type: "pane_zoom", Zoom: zoomInfo{Changed: changed, ZoomChanged: changed, PaneID: id, FocusedPaneID: id, Zoomed: zoomed}}, nil
}

func (h *Handler) paneResize(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, id, e := h.paneTarget(ctx, peer, "pane.resize", params, false)
	if e != nil {
		return nil, e
	}
	if err := h.panes().Resize(ctx, id, p.Direction, p.Amount); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

func (h *Handler) paneSwap(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p paneParams
	if e := decode("pane.swap", params, &p); e != nil {
		return nil, e
	}
	if p.SourcePaneID == "" || p.TargetPaneID == "" {
		return nil, errorf(CodeInvalidRequest, "invalid request: pane.swap needs source_pane_id and target_pane_id (swapping by direction is not mapped)")
	}
	src, e := h.pane(ctx, peer, p.SourcePaneID)
	if e != nil {
		return nil, e
	}
	dst, e := h.pane(ctx, peer, p.TargetPaneID)
	if e != nil {
		return nil, e
	}
	if err := h.panes().Swap(ctx, src, dst); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

func (h *Handler) paneProcessInfo(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	_, id, e := h.paneTarget(ctx, peer, "pane.process_info", params, false)
	if e != nil {
		return nil, e
	}
	p, err := panestate.Read(ctx, h.Tmux, id)
	if err != nil {
		return nil, asError(err)
	}
	info := processInfo{PaneID: id, ShellPID: p.PID, TTY: p.TTY, Foreground: []processItem{}}
	if leader, group, _, err := procinfo.Foreground(p.PID); err == nil {
		info.ForeGroup = leader.PGID
		for _, q := range group {
			info.Foreground = append(info.Foreground, processItem{PID: q.PID, Name: q.Comm, Argv: q.Argv})
		}
	}
	return processResult{Type: "pane_process_info", ProcessInfo: info}, nil
}

func (h *Handler) paneFocus(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	_, id, e := h.paneTarget(ctx, peer, "pane.focus", params, true)
	if e != nil {
		return nil, e
	}
	if err := h.panes().Focus(ctx, id, ""); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

// trimmed is s without surrounding blanks.
func trimmed(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}
