package herdrsock

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/events"
	"github.com/taw-tmux/taw/helper/prompt"
)

// Stream is a result that keeps the connection open: Ack is the answer, then Run pushes one
// line per event until ctx ends (the client hung up) or push fails.
type Stream struct {
	Ack any
	Run func(ctx context.Context, push func(any) error) error
}

// envelope is one pushed event, as herdr writes it.
type envelope struct {
	Event string    `json:"event"`
	Data  eventData `json:"data"`
}

type eventData struct {
	PaneID      string         `json:"pane_id"`
	WorkspaceID string         `json:"workspace_id"`
	TabID       string         `json:"tab_id,omitempty"`
	AgentStatus string         `json:"agent_status,omitempty"`
	Agent       *string        `json:"agent,omitempty"`
	Released    *bool          `json:"released,omitempty"`
	FinalStatus string         `json:"final_status,omitempty"`
	Prompt      *prompt.Prompt `json:"prompt,omitempty"` // taw's: the dialog of a blocked agent
	Event       *events.Event  `json:"taw,omitempty"`    // taw.event: the event as taw events prints it
}

// The subscription types taw can push; herdr's others (workspace.*, tab.*, layout.*) have no
// source in tmux's signals and are refused.
var subscribable = map[string]bool{
	"pane.created": true, "pane.closed": true, "pane.agent_detected": true,
	"pane.agent_status_changed": true, "taw.event": true,
}

// herdrEvents are the herdr events of one taw event.
func herdrEvents(e events.Event) []envelope {
	base := eventData{PaneID: e.PaneID, WorkspaceID: e.SessionID}
	agent := e.Agent
	yes, no := true, false
	raw := e
	out := []envelope{{Event: "taw.event", Data: eventData{PaneID: e.PaneID, WorkspaceID: e.SessionID, Event: &raw}}}
	switch e.Name {
	case events.EventPaneCreated:
		d := base
		d.TabID = e.WindowID
		out = append(out, envelope{"pane.created", d})
	case events.EventPaneClosed:
		out = append(out, envelope{"pane.closed", base})
	case config.EventAgentAppeared:
		d := base
		d.Agent, d.Released = &agent, &no
		out = append(out, envelope{"pane.agent_detected", d})
	case config.EventAgentGone:
		d := base
		d.Released, d.FinalStatus = &yes, e.FromState
		out = append(out, envelope{"pane.agent_detected", d})
	case config.EventStateChanged:
		d := base
		d.Agent, d.AgentStatus, d.Prompt = &agent, e.State, e.Prompt
		out = append(out, envelope{"pane.agent_status_changed", d})
	case config.EventFinished:
		d := base
		d.Agent, d.AgentStatus = &agent, attention.StateDone
		out = append(out, envelope{"pane.agent_status_changed", d})
	}
	return out
}

type subscription struct {
	Type        string `json:"type"`
	Event       string `json:"event"` // events.wait's match_event names it so, with underscores
	PaneID      string `json:"pane_id"`
	AgentStatus string `json:"agent_status"`
}

func (s subscription) matches(env envelope) bool {
	return env.Event == s.Type && (s.PaneID == "" || s.PaneID == env.Data.PaneID) &&
		(s.AgentStatus == "" || s.AgentStatus == env.Data.AgentStatus)
}

func (h *Handler) checkSubscription(ctx context.Context, peer Peer, s *subscription) *Error {
	if !subscribable[s.Type] {
		return errorf(CodeNotSupported, "taw cannot push %q events: it pushes %s", s.Type, "pane.created, pane.closed, pane.agent_detected, pane.agent_status_changed and taw.event")
	}
	if s.PaneID != "" {
		id, e := h.pane(ctx, peer, s.PaneID)
		if e != nil {
			return e
		}
		s.PaneID = id
	}
	return nil
}

func (h *Handler) eventsSubscribe(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p struct {
		Subscriptions []subscription `json:"subscriptions"`
	}
	if e := decode("events.subscribe", params, &p); e != nil {
		return nil, e
	}
	if len(p.Subscriptions) == 0 {
		return nil, errorf(CodeInvalidRequest, "invalid request: events.subscribe needs subscriptions [{type, pane_id?, agent_status?}]")
	}
	for i := range p.Subscriptions {
		if e := h.checkSubscription(ctx, peer, &p.Subscriptions[i]); e != nil {
			return nil, e
		}
	}
	return Stream{
		Ack: okResult{Type: "subscription_started"},
		Run: func(ctx context.Context, push func(any) error) error {
			return events.Stream(ctx, h.Tmux, func(es []events.Event) error {
				for _, e := range es {
					for _, env := range herdrEvents(e) {
						for _, s := range p.Subscriptions {
							if s.matches(env) {
								if err := push(env); err != nil {
									return err
								}
								break
							}
						}
					}
				}
				return nil
			})
		},
	}, nil
}

// eventsWait waits for the first event that matches, and answers it.
func (h *Handler) eventsWait(ctx context.Context, peer Peer, params json.RawMessage) (any, *Error) {
	var p struct {
		Match     *subscription `json:"match_event"`
		TimeoutMS *int64        `json:"timeout_ms"`
	}
	if e := decode("events.wait", params, &p); e != nil {
		return nil, e
	}
	if p.Match == nil || p.Match.Event == "" {
		return nil, errorf(CodeInvalidRequest, "invalid request: events.wait needs match_event {event, pane_id?, agent_status?}")
	}
	// herdr names a match pane_agent_status_changed where a subscription says pane.agent_status_changed.
	p.Match.Type = strings.Replace(p.Match.Event, "_", ".", 1)
	if e := h.checkSubscription(ctx, peer, p.Match); e != nil {
		return nil, e
	}
	timeout, e := timeoutOf(p.TimeoutMS)
	if e != nil {
		return nil, e
	}
	if timeout >= 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var found *envelope
	stop := context.Canceled
	err := events.Stream(ctx, h.Tmux, func(es []events.Event) error {
		for _, e := range es {
			for _, env := range herdrEvents(e) {
				if p.Match.matches(env) {
					env.Event = p.Match.Event
					found = &env
					return stop
				}
			}
		}
		return nil
	})
	if found != nil {
		return struct {
			Type  string   `json:"type"`
			Event envelope `json:"event"`
		}{"wait_matched", *found}, nil
	}
	if ctx.Err() != nil && timeout >= 0 {
		return nil, errorf("timeout", "timed out after %s waiting for %s", timeout.Round(time.Millisecond), p.Match.Event)
	}
	return nil, asError(err)
}
