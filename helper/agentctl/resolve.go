package agentctl

import (
	"context"
	"regexp"
	"strings"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/integration"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Ctl acts on the agents of one tmux server.
type Ctl struct {
	Tmux    *tmux.Client
	LockDir string // where pane locks live (panestate.Lock)
	// CallerPane is the pane %calling names, "" where no pane calls (the caller is not in tmux).
	CallerPane string
	// Getenv reads the environment the screen rules load from (detect.Load); os.Getenv when nil.
	Getenv func(string) string
}

var paneIDPattern = regexp.MustCompile(`^%[0-9]+$`)

// ResolvePane turns a pane as people name it (%N, %calling, session:window.pane, a session's
// name) into its id.
func (c *Ctl) ResolvePane(ctx context.Context, arg string) (string, error) {
	switch {
	case arg == "":
		return "", coded.Errorf(coded.InvalidArgument, "missing pane: name one as %%N, %s or session:window.pane", integration.CallingPane)
	case arg == integration.CallingPane:
		if !paneIDPattern.MatchString(c.CallerPane) {
			return "", coded.Errorf(coded.InvalidArgument, "%s names the pane the caller runs in, and the caller runs in no tmux pane: name the pane", integration.CallingPane)
		}
		return c.CallerPane, nil
	case paneIDPattern.MatchString(arg):
		return arg, nil
	}
	if strings.ContainsAny(arg, "\n\r") {
		return "", coded.Errorf(coded.InvalidArgument, "invalid pane %q: a pane's name holds no newline", arg)
	}
	id, err := c.Tmux.Output(ctx, "display-message", "-p", "-t", arg, "#{pane_id}")
	if err != nil {
		return "", err
	}
	if !paneIDPattern.MatchString(id) {
		return "", &tmux.Error{Code: tmux.CodePaneNotFound, Stderr: "can't find pane: " + arg}
	}
	return id, nil
}

// Resolve finds the pane of a target: the name of an agent (its id, an alias or the name people
// see) that runs in exactly one pane, or else a pane that runs an agent.
func (c *Ctl) Resolve(ctx context.Context, target string) (panestate.Pane, error) {
	if target == "" {
		return panestate.Pane{}, coded.Errorf(coded.InvalidArgument, "missing target: name a pane (%%N, %s, session:window.pane) or an agent", integration.CallingPane)
	}
	if !strings.HasPrefix(target, "%") {
		panes, err := panestate.List(ctx, c.Tmux)
		if err != nil {
			return panestate.Pane{}, err
		}
		matches := panestate.AgentsNamed(panestate.AgentPanes(panes), target)
		switch {
		case len(matches) == 1:
			return matches[0], nil
		case len(matches) > 1:
			ids := make([]string, len(matches))
			for i, p := range matches {
				ids[i] = p.ID + " (" + p.Target() + ")"
			}
			return panestate.Pane{}, coded.Errorf(coded.AgentTargetAmbiguous, "%d panes run %s: %s; name the pane instead", len(matches), target, strings.Join(ids, ", "))
		}
	}
	id, err := c.ResolvePane(ctx, target)
	if err != nil {
		switch coded.CodeOf(err) {
		case tmux.CodeServerNotRunning, coded.InvalidArgument:
			return panestate.Pane{}, err
		}
		return panestate.Pane{}, coded.Errorf(coded.AgentNotFound, "no agent %q: no pane or agent goes by that name (run 'taw agent list')", target)
	}
	p, err := panestate.Read(ctx, c.Tmux, id)
	if err != nil {
		if coded.CodeOf(err) == tmux.CodePaneNotFound {
			return panestate.Pane{}, coded.Errorf(coded.AgentNotFound, "no agent %q: there is no pane %s (run 'taw agent list')", target, id)
		}
		return panestate.Pane{}, err
	}
	if p.Agent() == "" {
		return panestate.Pane{}, coded.Errorf(coded.AgentNotFound, "pane %s (%s) runs no agent taw knows of (run 'taw agent list')", p.ID, p.Target())
	}
	return p, nil
}

// ShownOrNone is the state people are shown, "none" for a pane without one.
func ShownOrNone(p panestate.Pane) string {
	if s := attention.Shown(p); s != "" {
		return s
	}
	return "none"
}
