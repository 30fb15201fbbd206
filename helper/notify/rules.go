package notify

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/watch"
)

// Kind is why a notification is sent.
type Kind string

const (
	KindBlocked  Kind = "blocked"  // the agent needs a decision
	KindFinished Kind = "finished" // the agent finished a turn
	KindNotice   Kind = "notice"   // a program's own notice (herdr's notification.show)
)

// Decide says whether a transition notifies, and why: a pane's agent becoming blocked needs a
// decision; the same agent going from working or blocked to idle finished its turn (unless it
// answered a start-up dialog, see watch.Transition.EndsTurn).
func Decide(t watch.Transition) (Kind, bool) {
	if t.Gone || t.ToAgent == "" {
		return "", false
	}
	switch {
	case t.ToState == report.StateBlocked && (t.FromState != report.StateBlocked || t.FromAgent != t.ToAgent):
		return KindBlocked, true
	case t.EndsTurn():
		return KindFinished, true
	}
	return "", false
}

// Notification is one thing to tell the user.
type Notification struct {
	Kind    Kind
	PaneID  string
	Agent   string // the agent's id
	Display string // the agent's name as people see it
	Target  string // session:window.pane
	Message string // the report's message, "" when none; a notice's body
	Heading string // a notice's title
	At      time.Time
}

// Notice limits, herdr's: a title of at most 80 characters, a body of at most 240.
const (
	MaxNoticeTitle = 80
	MaxNoticeBody  = 240
)

// NewNotice is a program's notice: its title and body tidied (control characters dropped,
// blanks trimmed) and cut to herdr's limits.
func NewNotice(title, body string, at time.Time) Notification {
	cut := func(s string, n int) string {
		s = strings.TrimSpace(clean(s))
		if r := []rune(s); len(r) > n {
			s = string(r[:n])
		}
		return s
	}
	return Notification{Kind: KindNotice, Heading: cut(title, MaxNoticeTitle), Message: cut(body, MaxNoticeBody), At: at}
}

// NewNotification describes a pane's agent for kind.
func NewNotification(kind Kind, p panestate.Pane, at time.Time) Notification {
	agent := p.Agent()
	display := agent
	if a, ok := agents.Lookup(agent); ok && a.Display != "" {
		display = a.Display
	}
	msg := ""
	if rec := p.Record(); rec.Source != "" {
		msg = strings.TrimSpace(rec.Message)
	}
	return Notification{Kind: kind, PaneID: p.ID, Agent: agent, Display: display, Target: p.Target(), Message: msg, At: at}
}

// Title is the headline: which agent and what happened.
func (n Notification) Title() string {
	switch n.Kind {
	case KindNotice:
		return n.Heading
	case KindBlocked:
		return n.Display + " needs a decision"
	}
	return n.Display + " finished"
}

// Body says where, and why when the agent said.
func (n Notification) Body() string {
	if n.Kind == KindNotice {
		return n.Message
	}
	if n.Message != "" {
		return n.Target + ": " + n.Message
	}
	return n.Target
}

// Text is the one-line form: "Claude Code needs a decision in main:1.0: Allow Bash?".
func (n Notification) Text() string {
	if n.Kind == KindNotice {
		if n.Message == "" {
			return n.Heading
		}
		return n.Heading + ": " + n.Message
	}
	s := fmt.Sprintf("%s in %s", n.Title(), n.Target)
	if n.Message != "" {
		s += ": " + n.Message
	}
	return s
}

type pending struct {
	kind  Kind
	agent string
	state string
	due   time.Time
}

type rateKey struct {
	pane string
	kind Kind
}

// Planner turns the watcher's looks into notifications: a notifying transition waits for the
// recheck delay, and is sent at the first look after it when the pane's agent still has that
// state, nobody is looking at the pane, its agent's notifications are on and the pane had no
// notification of the same kind within the rate limit.
type Planner struct {
	pending map[string]pending
	last    map[rateKey]time.Time
	// blockedMsg is each pane's message when it last became blocked: a report's message stays
	// until the next one that carries a message, so "finished" leaves out a question already
	// answered.
	blockedMsg map[string]string
}

// Skip says why a due notification was not sent (for the log and tests).
type Skip struct {
	Notification
	Why string
}

// Plan reads one look. It returns what to send now and what was dropped, with why.
func (p *Planner) Plan(l *watch.Look, cfg config.Notify) (send []Notification, skipped []Skip) {
	if p.pending == nil {
		p.pending, p.last, p.blockedMsg = map[string]pending{}, map[rateKey]time.Time{}, map[string]string{}
	}
	for _, t := range l.Transitions {
		delete(p.pending, t.PaneID) // whatever waited for this pane no longer holds
		switch {
		case t.Gone:
			delete(p.blockedMsg, t.PaneID)
		case t.ToState == report.StateBlocked:
			p.blockedMsg[t.PaneID] = NewNotification(KindBlocked, t.Pane, l.Now).Message
		}
		kind, ok := Decide(t)
		if !ok || (kind == KindBlocked && !cfg.Blocked) || (kind == KindFinished && !cfg.Finished) {
			continue
		}
		at := t.At
		if at.IsZero() {
			at = l.Now
		}
		p.pending[t.PaneID] = pending{kind: kind, agent: t.ToAgent, state: t.ToState, due: at.Add(cfg.RecheckDelay.Duration)}
	}
	panes := make(map[string]panestate.Pane, len(l.Panes))
	for _, pn := range l.Panes {
		panes[pn.ID] = pn
	}
	for id, w := range p.pending {
		pn, ok := panes[id]
		if !ok || pn.Agent() != w.agent || pn.State() != w.state {
			delete(p.pending, id)
			continue
		}
		if l.Now.Before(w.due) {
			continue
		}
		delete(p.pending, id)
		n := NewNotification(w.kind, pn, l.Now)
		if w.kind == KindFinished && n.Message == p.blockedMsg[id] {
			n.Message = ""
		}
		key := rateKey{id, w.kind}
		switch {
		case !cfg.Enabled:
			skipped = append(skipped, Skip{n, "notifications are off"})
		case l.InView(id):
			skipped = append(skipped, Skip{n, "the pane is in view"})
		case !cfg.AgentOn(w.agent):
			skipped = append(skipped, Skip{n, "notifications are off for " + w.agent})
		case !p.last[key].IsZero() && l.Now.Sub(p.last[key]) < cfg.RateLimit.Duration:
			skipped = append(skipped, Skip{n, "rate limited"})
		default:
			p.last[key] = l.Now
			send = append(send, n)
		}
	}
	sort.Slice(send, func(i, j int) bool { return send[i].PaneID < send[j].PaneID })
	for k, at := range p.last {
		if l.Now.Sub(at) >= cfg.RateLimit.Duration {
			delete(p.last, k)
		}
	}
	return send, skipped
}

// Pending says how many notifications wait for their recheck.
func (p *Planner) Pending() int { return len(p.pending) }
