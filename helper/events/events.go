package events

import (
	"encoding/json"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/notify"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/watch"
)

// Event is one agent event, as TAW_EVENT carries it (JSON; field names are stable).
type Event struct {
	Name      string `json:"event"`
	PaneID    string `json:"pane_id"`
	Target    string `json:"target"` // session:window.pane
	Session   string `json:"session"`
	SessionID string `json:"session_id"`
	WindowID  string `json:"window_id"`
	Agent     string `json:"agent"` // the pane's agent; for agent_gone, the agent that left
	State     string `json:"state"` // the pane's state; "" for agent_gone
	FromAgent string `json:"from_agent"`
	FromState string `json:"from_state"`
	Source    string `json:"source"`  // the hook source holding the pane, "screen" when the watcher read it
	Message   string `json:"message"` // the report's message, "" when none
	Closed    bool   `json:"pane_closed"`
	At        int64  `json:"at"` // unix milliseconds
	// Prompt is the dialog a blocked agent waits on, as the watcher recorded it: only in the
	// event stream (taw events), when one is on record.
	Prompt *prompt.Prompt `json:"prompt,omitempty"`
}

// SourceScreen is the source of an agent no hook holds: the watcher read it off the screen.
const SourceScreen = "screen"

// FromTransition lists the events of one transition, in this order: agent_gone,
// agent_appeared, state_changed, blocked, finished.
func FromTransition(t watch.Transition) []Event {
	base := Event{
		PaneID: t.PaneID, Target: t.Pane.Target(), Session: t.Pane.SessionName,
		SessionID: t.Pane.SessionID, WindowID: t.Pane.WindowID,
		Agent: t.ToAgent, State: t.ToState, FromAgent: t.FromAgent, FromState: t.FromState,
		Closed: t.Gone, At: t.At.UnixMilli(),
	}
	if t.Pane.ID == "" {
		base.Target = ""
	}
	if t.ToAgent != "" && !t.Gone {
		base.Source = SourceScreen
		if t.Pane.Options != nil {
			if rec := t.Pane.Record(); rec.Source != "" {
				base.Source, base.Message = rec.Source, rec.Message
			}
		}
	}
	with := func(name string) Event { e := base; e.Name = name; return e }
	var out []Event
	if t.FromAgent != "" && (t.Gone || t.ToAgent != t.FromAgent) {
		e := with(config.EventAgentGone)
		e.Agent, e.State, e.Source, e.Message = t.FromAgent, "", "", ""
		out = append(out, e)
	}
	if t.Gone || t.ToAgent == "" {
		return out
	}
	if t.ToAgent != t.FromAgent {
		out = append(out, with(config.EventAgentAppeared))
	}
	if t.ToAgent != t.FromAgent || t.ToState != t.FromState {
		out = append(out, with(config.EventStateChanged))
	}
	if kind, ok := notify.Decide(t); ok {
		if kind == notify.KindBlocked {
			out = append(out, with(config.EventBlocked))
		} else {
			out = append(out, with(config.EventFinished))
		}
	}
	return out
}

// Matches says whether a hook's on (canonical, or "*") takes the event.
func Matches(on, name string) bool { return on == config.EventAny || on == name }

// JSON is the event as TAW_EVENT holds it.
func (e Event) JSON() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// Invocation is the pane the event happened in.
func (e Event) Invocation() spawn.Invocation {
	return spawn.Invocation{PaneID: e.PaneID, WindowID: e.WindowID, SessionID: e.SessionID}
}

// Vars are the variables every command run for the event gets besides its pane's ids.
func (e Event) Vars() map[string]string {
	return map[string]string{
		"TAW_EVENT":      e.JSON(),
		"TAW_EVENT_NAME": e.Name,
		"TAW_AGENT":      e.Agent,
		"TAW_STATE":      e.State,
		"TAW_SOURCE":     e.Source,
		"TAW_TARGET":     e.Target,
	}
}
