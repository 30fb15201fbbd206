package herdrsock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/integration"
	"github.com/taw-tmux/taw/helper/panectl"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

// A control method answers one request; each decodes its own params.
type method func(h *Handler, ctx context.Context, peer Peer, params json.RawMessage) (any, *Error)

// waits are the methods that may take longer than one call's patience: they end at their own
// timeout_ms, or when the client hangs up.
var waits = map[string]bool{
	"pane.wait_for_output": true, "agent.wait": true, "agent.prompt": true, "agent.send": true,
	"agent.start": true, "agent.answer": true, "events.wait": true, "events.subscribe": true,
	"worktree.create": true, "worktree.remove": true, "notification.show": true,
}

// IsWait says whether a method may run past one call's patience.
func IsWait(method string) bool { return waits[method] }

func decode(method string, params json.RawMessage, v any) *Error {
	if t := bytes.TrimSpace(params); len(t) == 0 || string(t) == "null" {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		return errorf(CodeInvalidRequest, "invalid request: params of %s: %s", method, jsonProblem(err))
	}
	return nil
}

// decodeNeed is decode, then need of the one field the method cannot do without: value points
// into v.
func decodeNeed(method string, params json.RawMessage, v any, field string, value *string) *Error {
	if e := decode(method, params, v); e != nil {
		return e
	}
	return need(method, field, *value)
}

func need(method, field, v string) *Error {
	if strings.TrimSpace(v) == "" {
		return errorf(CodeInvalidRequest, "invalid request: %s needs %s", method, field)
	}
	return nil
}

// herdrPaneID is one of herdr's own pane ids (w1:p2): a client written for herdr that read it
// from HERDR_PANE_ID means the pane it runs in.
var herdrPaneID = regexp.MustCompile(`^w[0-9]+:p[0-9]+$`)

func (h *Handler) agents(ctx context.Context, peer Peer) *agentctl.Ctl {
	c := &agentctl.Ctl{Tmux: h.Tmux, LockDir: h.LockDir}
	if id, e := h.callerPane(ctx, peer); e == nil {
		c.CallerPane = id
	}
	return c
}

func (h *Handler) panes() *panectl.Ctl { return &panectl.Ctl{Tmux: h.Tmux} }

// pane is the tmux pane a request names: %N as it is, %calling or a herdr id for the caller's
// own, session:window.pane looked up; none (where herdr takes the focused pane) is the caller's
// pane, or the server's current one when the caller runs in no pane.
func (h *Handler) pane(ctx context.Context, peer Peer, named string) (string, *Error) {
	named = strings.TrimSpace(named)
	switch {
	case named == "":
		if id, e := h.callerPane(ctx, peer); e == nil {
			return id, nil
		}
		id, err := h.Tmux.Output(ctx, "display-message", "-p", "#{pane_id}")
		if err != nil || !strings.HasPrefix(id, "%") {
			return "", errorf(CodePaneNotFound, "no pane named and the caller runs in no pane: name one as pane_id")
		}
		return id, nil
	case named == integration.CallingPane || herdrPaneID.MatchString(named):
		return h.callerPane(ctx, peer)
	}
	c := &agentctl.Ctl{Tmux: h.Tmux}
	id, err := c.ResolvePane(ctx, named)
	if err != nil {
		return "", asError(err)
	}
	return id, nil
}

// asError is the answer of a failed call: the code the package gave, tmux's mapped.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var te *tmux.Error
	if errors.As(err, &te) {
		return tmuxError(err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return errorf(coded.Timeout, "timed out")
	}
	if code := coded.CodeOf(err); code != "" {
		return errorf(code, "%s", err.Error())
	}
	return errorf(CodeInternal, "%s", err.Error())
}

// timeoutOf is a timeout_ms as a duration, -1 for none (wait until the client hangs up).
func timeoutOf(ms *int64) (time.Duration, *Error) {
	if ms == nil {
		return -1, nil
	}
	if *ms < 0 {
		return 0, errorf(CodeInvalidRequest, "invalid request: timeout_ms cannot be negative")
	}
	return time.Duration(*ms) * time.Millisecond, nil
}

func (h *Handler) paneInfo(ctx context.Context, id string) (paneInfo, *Error) {
	p, err := panestate.Read(ctx, h.Tmux, id)
	if err != nil {
		return paneInfo{}, asError(err)
	}
	return newPaneInfo(p), nil
}
