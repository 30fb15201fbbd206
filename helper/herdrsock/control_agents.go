package herdrsock

import (
	"context"
	"encoding/json"

	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/panestate"
)

// agentMethods are herdr's agent.* methods over taw's agents, and agent.answer, taw's own: the
// dialog on screen answered, only if it is the one on record.
var agentMethods = map[string]method{
	"agent.read":      (*Handler).agentRead,
	"agent.prompt":    (*Handler).agentPrompt,
	"agent.send":      (*Handler).agentPrompt,
	"agent.send_keys": (*Handler).agentSendKeys,
	"agent.wait":      (*Handler).agentWait,
	"agent.start":     (*Handler).agentStart,
	"agent.focus":     (*Handler).agentFocus,
	"agent.answer":    (*Handler).agentAnswer,
}

type agentParams struct {
	Target    string   `json:"target"`
	Text      *string  `json:"text"`
	Keys      []string `json:"keys"`
	Source    string   `json:"source"`
	Lines     *int     `json:"lines"`
	Until     []string `json:"until"`
	TimeoutMS *int64   `json:"timeout_ms"`
	Wait      *struct {
		Until     []string `json:"until"`
		TimeoutMS *int64   `json:"timeout_ms"`
	} `json:"wait"`
	// agent.start
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`
	PaneID string   `json:"pane_id"`
	Args   []string `json:"args"`
	// agent.answer
	Option int  `json:"option"`
	Yes    bool `json:"yes"`
	No     bool `json:"no"`
}

// agentOf resolves a request's target: an agent's name, or a pane (a herdr id or %calling
// naming the caller's).
func (h *Handler) agentOf(ctx context.Context, peer Peer, method string, params json.RawMessage) (agentParams, *agentctl.Ctl, panestate.Pane, *Error) {
	var p agentParams
	if e := decode(method, params, &p); e != nil {
		return p, nil, panestate.Pane{}, e
	}
	if e := need(method, "target", p.Target); e != nil {
		return p, nil, panestate.Pane{}, e
	}
	c := h.agents(ctx, peer)
	target := p.Target
	if herdrPaneID.MatchString(target) {
		target = c.CallerPane
	}
	pane, err := c.Resolve(ctx, target)
	if err != nil {
		return p, c, pane, asError(err)
	}
	return p, c, pane, nil
}

func (h *Handler) agentRead(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, _, pane, e := h.agentOf(ctx, peer, "agent.read", params)
	if e != nil {
		return nil, e
	}
	r, e := h.readOf(ctx, pane.ID, p.Source, p.Lines)
	if e != nil {
		return nil, e
	}
	return readResult{Type: "pane_read", Read: r}, nil
}

func validUntil(until []string) *Error {
	for _, s := range until {
		if !agentctl.ValidUntil(s) {
			return errorf(CodeInvalidRequest, "invalid request: until %q (expected idle, done, working, blocked or unknown)", s)
		}
	}
	return nil
}

// agentPrompt types a prompt (refused while the agent is blocked or not at its input); with
// wait, it then waits for a state the agent reaches after the prompt.
func (h *Handler) agentPrompt(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, c, pane, e := h.agentOf(ctx, peer, "agent.prompt", params)
	if e != nil {
		return nil, e
	}
	if p.Text == nil {
		return nil, errorf(CodeInvalidRequest, "invalid request: agent.prompt needs text")
	}
	var wait *agentctl.WaitOptions
	if p.Wait != nil {
		if e := validUntil(p.Wait.Until); e != nil {
			return nil, e
		}
		timeout, e := timeoutOf(p.Wait.TimeoutMS)
		if e != nil {
			return nil, e
		}
		wait = &agentctl.WaitOptions{Until: p.Wait.Until, Timeout: timeout, Changed: true, Settle: agentctl.PromptSettle}
	}
	res, err := c.Prompt(ctx, pane.ID, *p.Text)
	if err != nil {
		return nil, asError(err)
	}
	if wait != nil {
		q, err := c.WaitPane(ctx, res.Pane, *wait)
		if err != nil {
			return nil, asError(err)
		}
		return agentResult{Type: "agent_info", Agent: newAgentInfo(q)}, nil
	}
	q, err := panestate.Read(ctx, h.Tmux, pane.ID)
	if err != nil {
		return nil, asError(err)
	}
	return agentResult{Type: "agent_prompted", Agent: newAgentInfo(q)}, nil
}

func (h *Handler) agentSendKeys(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, _, pane, e := h.agentOf(ctx, peer, "agent.send_keys", params)
	if e != nil {
		return nil, e
	}
	if err := h.panes().SendKeys(ctx, pane.ID, p.Keys); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

func (h *Handler) agentWait(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, c, pane, e := h.agentOf(ctx, peer, "agent.wait", params)
	if e != nil {
		return nil, e
	}
	if e := validUntil(p.Until); e != nil {
		return nil, e
	}
	timeout, e := timeoutOf(p.TimeoutMS)
	if e != nil {
		return nil, e
	}
	q, err := c.WaitPane(ctx, pane, agentctl.WaitOptions{Until: p.Until, Timeout: timeout})
	if err != nil {
		return nil, asError(err)
	}
	return agentResult{Type: "agent_info", Agent: newAgentInfo(q)}, nil
}

// agentStart starts a known agent at the shell prompt of a pane and returns once it is ready.
// herdr's name is not kept: the agent goes by its pane, or by its kind when it runs alone.
func (h *Handler) agentStart(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p agentParams
	if e := decodeNeed("agent.start", params, &p, "kind", &p.Kind); e != nil {
		return nil, e
	}
	if e := need("agent.start", "pane_id", p.PaneID); e != nil {
		return nil, e
	}
	a, err := agentctl.Lookup(p.Kind)
	if err != nil {
		return nil, asError(err)
	}
	id, e := h.pane(ctx, peer, p.PaneID)
	if e != nil {
		return nil, e
	}
	timeout, e := timeoutOf(p.TimeoutMS)
	if e != nil {
		return nil, e
	}
	c := h.agents(ctx, peer)
	res, err := c.Start(ctx, agentctl.StartOptions{Agent: a, Pane: id, Args: p.Args, Wait: true, Timeout: timeout})
	if err != nil {
		return nil, asError(err)
	}
	return agentStarted{Type: "agent_started", Agent: newAgentInfo(res.Pane), Argv: append([]string{a.Programs[0]}, p.Args...)}, nil
}

func (h *Handler) agentFocus(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	_, _, pane, e := h.agentOf(ctx, peer, "agent.focus", params)
	if e != nil {
		return nil, e
	}
	if err := h.panes().Focus(ctx, pane.ID, ""); err != nil {
		return nil, asError(err)
	}
	return ok, nil
}

func (h *Handler) agentAnswer(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	p, c, pane, e := h.agentOf(ctx, peer, "agent.answer", params)
	if e != nil {
		return nil, e
	}
	given := 0
	for _, set := range []bool{p.Option != 0, p.Yes, p.No, p.Text != nil} {
		if set {
			given++
		}
	}
	if given != 1 {
		return nil, errorf(CodeInvalidRequest, "invalid request: agent.answer takes one answer: option, yes, no or text")
	}
	a := agentctl.Answer{Option: p.Option, Yes: p.Yes, No: p.No}
	if p.Text != nil {
		a.Text = *p.Text
	}
	res, err := c.Answer(ctx, pane, a)
	if err != nil {
		return nil, asError(err)
	}
	return struct {
		Type string `json:"type"`
		agentctl.Answered
	}{"agent_answered", res}, nil
}
