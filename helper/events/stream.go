package events

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/watch"
)

// The stream's own events, beside the agent events hooks get.
const (
	EventPaneCreated = "pane_created"
	EventPaneClosed  = "pane_closed"
)

// Names are every event the stream gives, in the order one change lists them.
var Names = []string{EventPaneCreated, config.EventAgentGone, config.EventAgentAppeared, config.EventStateChanged, config.EventBlocked, config.EventFinished, EventPaneClosed}

// Snapshot is every pane of the server by id, as one list-panes read it.
type Snapshot map[string]panestate.Pane

// Diff lists the events between two snapshots: panes created, the agent events of each pane
// whose agent or state changed (FromTransition's), then panes closed. A blocked state carries
// the dialog the watcher recorded.
func Diff(before, after Snapshot, at time.Time) []Event {
	var out []Event
	for _, id := range sortedIDs(after) {
		p := after[id]
		was, had := before[id]
		if !had {
			out = append(out, paneEvent(EventPaneCreated, p, at))
		}
		if p.Agent() == was.Agent() && p.State() == was.State() {
			// A blocked agent whose dialog changed (or was first recorded) is blocked anew.
			if q := p.Options[panestate.OptPrompt]; had && p.State() == report.StateBlocked && q != "" && q != was.Options[panestate.OptPrompt] {
				e := paneEvent(config.EventBlocked, p, at)
				e.FromAgent, e.FromState, e.Source, e.Message = was.Agent(), was.State(), p.Record().Source, p.Record().Message
				if e.Source == "" {
					e.Source = SourceScreen
				}
				e.Prompt = prompt.Decode(q)
				out = append(out, e)
			}
			continue
		}
		t := watch.Transition{PaneID: id, FromAgent: was.Agent(), FromState: was.State(), ToAgent: p.Agent(), ToState: p.State(), Pane: p, At: at}
		for _, e := range FromTransition(t) {
			if e.State == report.StateBlocked && e.Name != config.EventAgentGone {
				e.Prompt = prompt.Decode(p.Options[panestate.OptPrompt])
			}
			out = append(out, e)
		}
	}
	for _, id := range sortedIDs(before) {
		if _, still := after[id]; still {
			continue
		}
		p := before[id]
		if p.Agent() != "" {
			out = append(out, FromTransition(watch.Transition{PaneID: id, FromAgent: p.Agent(), FromState: p.State(), Gone: true, Pane: p, At: at})...)
		}
		out = append(out, paneEvent(EventPaneClosed, p, at))
	}
	return out
}

func paneEvent(name string, p panestate.Pane, at time.Time) Event {
	return Event{Name: name, PaneID: p.ID, Target: p.Target(), Session: p.SessionName, SessionID: p.SessionID,
		WindowID: p.WindowID, Agent: p.Agent(), State: p.State(), Closed: name == EventPaneClosed, At: at.UnixMilli()}
}

func sortedIDs(s Snapshot) []string {
	ids := make([]string, 0, len(s))
	for id := range s {
		ids = append(ids, id)
	}
	// %N in the order tmux made them.
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && paneNumber(ids[j]) < paneNumber(ids[j-1]); j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
	return ids
}

func paneNumber(id string) int {
	n := 0
	fmt.Sscanf(strings.TrimPrefix(id, "%"), "%d", &n)
	return n
}

// Take reads every pane of the server once.
func Take(ctx context.Context, c *tmux.Client) (Snapshot, error) {
	panes, err := panestate.List(ctx, c)
	if err != nil {
		return nil, err
	}
	s := Snapshot{}
	for _, p := range panes {
		if _, dup := s[p.ID]; !dup {
			s[p.ID] = p
		}
	}
	return s, nil
}

// streamPoll is how often the stream reads the panes with no wake-up: panes made or closed send
// no signal, agents' changes do (panestate.SignalChannel).
const streamPoll = 500 * time.Millisecond

// Stream reads the server's panes at every change and gives emit the events since the last
// read, until ctx ends, emit fails or the server goes. The first read is the baseline: what
// is there already is not an event. States that come and go between two reads show as one
// change, or none.
func Stream(ctx context.Context, c *tmux.Client, emit func([]Event) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wake := make(chan struct{}, 1)
	go c.WaitLoop(ctx, panestate.SignalChannel, wake, streamPoll)
	last, err := Take(ctx, c)
	if err != nil {
		return err
	}
	tick := time.NewTicker(streamPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		case <-tick.C:
		}
		now, err := Take(ctx, c)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if es := Diff(last, now, time.Now()); len(es) > 0 {
			if err := emit(es); err != nil {
				return err
			}
		}
		last = now
	}
}

// Filter keeps the events a reader asked for: by name, pane, agent or state; empty parts
// keep all.
type Filter struct {
	Names              []string
	Pane, Agent, State string
}

// ParseFilter reads filter words: an event's name, or pane=%N, agent=NAME, state=STATE; a word
// may hold several joined by commas.
func ParseFilter(words []string) (Filter, error) {
	var f Filter
	for _, w := range words {
		for _, part := range strings.Split(w, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			k, v, isPair := strings.Cut(part, "=")
			switch {
			case !isPair && known(part):
				f.Names = append(f.Names, part)
			case isPair && k == "pane" && v != "":
				f.Pane = v
			case isPair && k == "agent" && v != "":
				f.Agent = v
			case isPair && k == "state" && report.ValidState(v):
				f.State = v
			default:
				return f, fmt.Errorf("invalid filter %q (expected an event: %s; or pane=%%N, agent=NAME, state=idle|working|blocked|unknown)", part, strings.Join(Names, ", "))
			}
		}
	}
	return f, nil
}

func known(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// Keep says whether the filter keeps an event.
func (f Filter) Keep(e Event) bool {
	if len(f.Names) > 0 && !contains(f.Names, e.Name) {
		return false
	}
	return (f.Pane == "" || f.Pane == e.PaneID) && (f.Agent == "" || f.Agent == e.Agent) && (f.State == "" || f.State == e.State)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
