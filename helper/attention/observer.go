package attention

import (
	"context"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/watch"
)

// refreshEvery is how many looks the observer trusts its memory of what it published before it
// reads the options again, so an edit by hand (or an unload) is mended within a minute.
const refreshEvery = 60

// Observer keeps done and the rollups current from the watcher's looks. It writes only what
// changed, so a look where nothing moved costs no tmux call.
type Observer struct {
	published *Published
	looks     int
}

func (o *Observer) Name() string { return "attention" }

func (o *Observer) Observe(ctx context.Context, l *watch.Look) {
	if o.published == nil || o.looks%refreshEvery == 0 {
		pub, err := ReadPublished(ctx, l.Client)
		if err != nil {
			return
		}
		o.published = &pub
	}
	o.looks++
	completed := map[string]bool{}
	for _, t := range l.Transitions {
		if t.EndsTurn() {
			completed[t.PaneID] = true
		}
	}
	panes, cmds := MarkDone(l.Panes, completed, l.InView)
	next := Rollup(panes)
	cmds = append(cmds, Changes(o.published.Existing(panes), next)...)
	if len(cmds) == 0 {
		return
	}
	if _, err := l.Client.Run(ctx, cmds...); err != nil {
		o.published = nil // read again at the next look
		return
	}
	o.published = &next
}

// MarkDone is the done rule over one look: a pane whose agent completed a turn while nobody
// looked at it is done; one the user looks at, or whose agent moved on (working again, another
// agent, none), is not. It returns the panes as they are after the change and the tmux commands
// that make it so, with a wake-up of waiters when anything changed.
func MarkDone(panes []panestate.Pane, completed map[string]bool, inView func(paneID string) bool) ([]panestate.Pane, []tmux.Cmd) {
	var cmds []tmux.Cmd
	out := make([]panestate.Pane, len(panes))
	decided := map[string]string{}
	for i, p := range panes {
		out[i] = p
		want, ok := decided[p.ID]
		if !ok {
			// Whether the pane is in view matters only to a pane that would be done, and asking
			// costs a tmux command (a line of the person's message log) at every look.
			want = DoneAfter(p.Agent(), p.State(), p.Options[panestate.OptDone], completed[p.ID], false)
			if want != "" && inView(p.ID) {
				want = ""
			}
			decided[p.ID] = want
			if want != p.Options[panestate.OptDone] {
				if want == "" {
					cmds = append(cmds, tmux.Cmd{"set-option", "-pqu", "-t", p.ID, panestate.OptDone})
				} else {
					cmds = append(cmds, tmux.Cmd{"set-option", "-pq", "-t", p.ID, panestate.OptDone, want})
				}
			}
		}
		if want != p.Options[panestate.OptDone] {
			o := make(map[string]string, len(p.Options))
			for k, v := range p.Options {
				o[k] = v
			}
			o[panestate.OptDone] = want
			out[i].Options = o
		}
	}
	if len(cmds) > 0 {
		cmds = append(cmds, tmux.SignalCmds(panestate.SignalChannel)...)
	}
	return out, cmds
}

// DoneAfter is the value @agent_done should hold: the agent's id while it is done, else empty.
func DoneAfter(agent, state, done string, completed, inView bool) string {
	switch {
	case inView:
		return ""
	case completed:
		return agent
	case done != "" && (done != agent || state != "idle"):
		return ""
	}
	return done
}
