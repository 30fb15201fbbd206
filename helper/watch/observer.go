package watch

import (
	"context"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Transition is one pane's effective agent or state moving between two looks. A pane that
// appeared has empty From fields; a pane that closed has empty To fields and Gone set.
type Transition struct {
	PaneID    string
	FromAgent string
	FromState string
	ToAgent   string
	ToState   string
	Gone      bool
	// FromSetup: the blocked it left was a start-up dialog on screen (trust, sign-in), not a
	// question of a turn.
	FromSetup bool
	Pane      panestate.Pane // as read in this look (the last known pane when Gone)
	At        time.Time
}

// EndsTurn says whether the move is the end of a turn: the same agent going from working or
// blocked to idle, unless what it left was a start-up dialog answered.
func (t Transition) EndsTurn() bool {
	return !t.Gone && !t.FromSetup && t.FromAgent != "" && t.FromAgent == t.ToAgent && t.ToState == report.StateIdle &&
		report.AtWork(t.FromState)
}

// Client is one attached tmux client, as the watcher read it in the same call as the panes.
type Client struct {
	TTY      string
	Session  string // session id ($N)
	PaneID   string // the active pane of the client's current window
	Focused  bool   // the client's terminal has focus (tmux's focus flag; true when unknown)
	ReadOnly bool
	Control  bool
}

// Look is everything one look of the watcher saw.
type Look struct {
	Client      *tmux.Client
	Panes       []panestate.Pane
	Transitions []Transition
	Now         time.Time
	// Clients are the attached clients; the watcher reads them the first time a look asks,
	// through readClients, as most looks never do.
	Clients     []Client
	readClients func() []Client
}

// InView says whether the pane is the active pane of a window some attached, focused client is
// showing: the user is looking at it.
func (l *Look) InView(paneID string) bool {
	if l.readClients != nil {
		l.Clients, l.readClients = l.readClients(), nil
	}
	for _, c := range l.Clients {
		if c.PaneID == paneID && c.Focused && !c.Control {
			return true
		}
	}
	return false
}

// Observer is a feature that acts on what the watcher sees (rollups, notifications, event hooks,
// automatic saves). Observe runs after every look, in the order Config.Observers lists them; it
// must be quick and must not block the watcher (hand slow work to a goroutine).
type Observer interface {
	Name() string
	Observe(ctx context.Context, l *Look)
}
