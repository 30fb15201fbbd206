package cli

import (
	"context"
	"fmt"

	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/popup"
	"github.com/urfave/cli/v2"
)

func newAgentCommand(f *Factory) *cli.Command {
	return group("agent", "see, wait for, go to, start, prompt and answer the agents of every session",
		verb("list", "[--json]", "list every agent of the server (JSON when piped or with --json)",
			noArgs(f.agentList), jsonFlag()),
		verb("get", "<pane|agent> [--json]", "print one agent, named by its pane or by its agent's name when only one runs (JSON when piped or with --json)",
			oneArg("agent get takes one target: taw agent get <pane|agent>", f.agentGet), jsonFlag()),
		verb("wait", "<pane|agent> [--until {idle|done|working|blocked|unknown}]... [--timeout <duration>] [--changed]", "wait until an agent is in one of the given states, then print it as JSON",
			oneArg("agent wait takes one target: taw agent wait <pane|agent> [--until <state>]... [--timeout <duration>]", f.agentWait), agentWaitFlags()...),
		verb("next", "[--client <name>]", "go to the next agent that needs you: blocked ones first, then done ones, cycling",
			noArgs(f.agentNext), clientFlag()),
		verb("focus", "<pane|agent> [--client <name>]", "go to an agent's pane, switching session and window as needed",
			oneArg("agent focus takes one target: taw agent focus <pane|agent> [--client <name>]", f.agentFocus), clientFlag()),
		hidden(verb("seen", "", "mark the panes attached clients show as seen (taw's hooks run this)", noArgs(f.agentSeen))),
		verb("start", "<agent> [--pane P | --window | --split h|v] [--cwd DIR] [--wait [--timeout D]] [-- ARGS...]", "start a known agent in a new window, a split or a pane at its shell prompt",
			f.agentStart, agentStartFlags()...),
		verb("prompt", "<pane|agent> <text> [--wait] [--until <state>]... [--timeout <duration>] [--json]", "type a prompt into an agent's input as a paste and submit it; refuses while the agent is blocked",
			f.agentPrompt, agentPromptFlags()...),
		verb("read", "<pane|agent> [--lines N] [--json]", "print an agent's visible screen (or its last N lines) as plain text (--json: an object)",
			oneArg("agent read takes one target: taw agent read <pane|agent> [--lines N]", f.agentRead), agentReadFlags()...),
		verb("answer", "<pane|agent> (--option N | --yes | --no | --text T) [--json]", "answer the dialog a blocked agent waits on, only if it is still the one taw has on record",
			oneArg("agent answer takes one target: taw agent answer <pane|agent> (--option N | --yes | --no | --text T)", f.agentAnswer),
			&cli.StringFlag{Name: flagOption, Usage: "pick the dialog's option `<n>` (as numbered in taw agent get)"},
			&cli.BoolFlag{Name: flagYes, Usage: "pick the option that says yes (Yes, Allow, Approve)"},
			&cli.BoolFlag{Name: flagNo, Usage: "pick the option that says no (No, Reject, Deny)"},
			&cli.StringFlag{Name: flagText, Usage: "type `<text>` into the option that takes a typed answer"},
			jsonFlag()),
		agentSendVerb(f),
	)
}

type agentListOptions struct {
	JSON bool
}

func (f *Factory) agentList(c *cli.Context) error {
	return agentListRun(c.Context, f, &agentListOptions{JSON: wantJSON(f, c)})
}

func agentListRun(ctx context.Context, f *Factory, opts *agentListOptions) error {
	// The dialogs of blocked agents come from the record the watcher keeps: no screen is read.
	sel := paneViewSelection
	if !opts.JSON {
		sel = agentTableSelection
	}
	sel.Filter = panestate.AgentFilter
	panes, err := panestate.ListSelected(ctx, f.Tmux(), sel)
	if err != nil {
		return err
	}
	views := []paneView{}
	for _, p := range agentPanes(panes) {
		views = append(views, newPaneView(p))
	}
	if !opts.JSON {
		if err := writeTable(f.IO.Out, []paneColumn{colState, colAgent, colTarget, colPane, colFor, colDir, colMessage}, views, f.Now(), f.Getenv("HOME")); err != nil || len(views) > 0 {
			return err
		}
		_, err := fmt.Fprintf(f.IO.Out, "%s; %s\n", popup.NoAgentsHint, popup.NoAgentsMore(tawHint(f)))
		return err
	}
	return writeJSONLine(f.IO.Out, struct {
		Agents []paneView `json:"agents"`
	}{views})
}

// agentPanes are the panes that run an agent, each once (see panestate.AgentPanes).
func agentPanes(panes []panestate.Pane) []panestate.Pane { return panestate.AgentPanes(panes) }

func (f *Factory) agentGet(c *cli.Context, target string) error {
	return getRun(c.Context, f, &getOptions{Target: target, JSON: wantJSON(f, c)}, func(ctx context.Context, target string) (panestate.Pane, error) {
		p, err := resolveAgent(ctx, f, target)
		if err != nil {
			return p, err
		}
		return withPrompt(ctx, f, p), nil
	})
}

// resolveAgent finds the pane of a target: the name of an agent that runs in exactly one pane,
// or else a pane that runs an agent (see agentctl.Resolve).
func resolveAgent(ctx context.Context, f *Factory, target string) (panestate.Pane, error) {
	if err := needTarget(target); err != nil {
		return panestate.Pane{}, err
	}
	return f.agentCtl().Resolve(ctx, target)
}

// needTarget refuses a call that names no agent.
func needTarget(target string) error {
	if target == "" {
		return UsageErrorf("missing target: name a pane (%%N, %s, session:window.pane) or an agent", CallingPane)
	}
	return nil
}

func shownOrNone(p panestate.Pane) string { return agentctl.ShownOrNone(p) }
