package mcpserver

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/panectl"
	"github.com/taw-tmux/taw/helper/panestate"
)

type (
	noInput struct{}
	// agentTarget is the agent a tool acts on.
	agentTarget struct {
		Target string `json:"target" jsonschema:"the agent: its pane (%N, session:window.pane) or its name when only one runs"`
	}
	// waitEnd says when a wait ends: agent_wait's, and agent_prompt's with wait.
	waitEnd struct {
		Until          []string `json:"until,omitempty" jsonschema:"states that end the wait: idle, done, working, blocked, unknown (default idle, done, blocked)"`
		TimeoutSeconds float64  `json:"timeout_seconds,omitempty" jsonschema:"give up after this many seconds (default 300, at most 3600)"`
	}
	readInput struct {
		agentTarget
		Lines int `json:"lines,omitempty" jsonschema:"the last n lines, with the history; 0 for the visible screen"`
	}
	waitInput struct {
		agentTarget
		waitEnd
		Changed bool `json:"changed,omitempty" jsonschema:"count only a state reached after the wait starts"`
	}
	paneReadInput struct {
		Pane   string `json:"pane" jsonschema:"the pane: %N or session:window.pane"`
		Source string `json:"source,omitempty" jsonschema:"visible, recent (default), recent_unwrapped or detection"`
		Lines  int    `json:"lines,omitempty" jsonschema:"how many rows (recent: default 80)"`
	}
	startInput struct {
		Agent          string   `json:"agent" jsonschema:"the agent to start: claude, codex, gemini, ..."`
		Args           []string `json:"args,omitempty" jsonschema:"arguments after the agent's program"`
		Place          string   `json:"place,omitempty" jsonschema:"window (default), split_right, split_down (of the calling pane) or pane"`
		Pane           string   `json:"pane,omitempty" jsonschema:"with place pane: a pane at its shell prompt"`
		Cwd            string   `json:"cwd,omitempty" jsonschema:"an absolute folder to start in"`
		NoWait         bool     `json:"no_wait,omitempty" jsonschema:"return once typed, without waiting for the agent to be ready"`
		TimeoutSeconds float64  `json:"timeout_seconds,omitempty" jsonschema:"how long to wait for it to be ready (default 60)"`
	}
	startOutput struct {
		PaneID  string `json:"pane_id"`
		Command string `json:"command" jsonschema:"what was typed at the shell prompt"`
		Agent   *Agent `json:"agent,omitempty" jsonschema:"the agent once ready"`
	}
	promptInput struct {
		agentTarget
		Text string `json:"text" jsonschema:"the prompt"`
		Wait bool   `json:"wait,omitempty" jsonschema:"then wait for a state reached after the prompt, as until and timeout_seconds say"`
		waitEnd
	}
	promptOutput struct {
		Sent  bool   `json:"sent"`
		Agent *Agent `json:"agent,omitempty" jsonschema:"with wait: the agent when the wait ended"`
	}
	answerInput struct {
		agentTarget
		Option int    `json:"option,omitempty" jsonschema:"the number of the option to pick"`
		Yes    bool   `json:"yes,omitempty" jsonschema:"pick the option that says yes"`
		No     bool   `json:"no,omitempty" jsonschema:"pick the option that says no"`
		Text   string `json:"text,omitempty" jsonschema:"type this into the option that takes text"`
	}
	splitInput struct {
		Pane      string            `json:"pane,omitempty" jsonschema:"the pane to split (default the calling pane)"`
		Direction string            `json:"direction" jsonschema:"right (side by side) or down (one over the other)"`
		Ratio     float64           `json:"ratio,omitempty" jsonschema:"the new pane's share, between 0 and 1 (default half)"`
		Cwd       string            `json:"cwd,omitempty" jsonschema:"an absolute folder to start in"`
		Command   []string          `json:"command,omitempty" jsonschema:"the program and its arguments, started without a shell"`
		Env       map[string]string `json:"env,omitempty" jsonschema:"variables for the new pane's process"`
	}
	paneOutput struct {
		PaneID string `json:"pane_id"`
	}
	runInput struct {
		Pane    string `json:"pane" jsonschema:"the pane: %N or session:window.pane"`
		Command string `json:"command" jsonschema:"one command line"`
	}
	textOutput struct {
		PaneID string `json:"pane_id"`
		Text   string `json:"text"`
	}
)

func (t *tools) agentList(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, struct {
	Agents []Agent `json:"agents"`
}, error) {
	var out struct {
		Agents []Agent `json:"agents"`
	}
	panes, err := panestate.List(ctx, t.o.Tmux)
	if err != nil {
		return nil, out, failure(err)
	}
	out.Agents = []Agent{}
	for _, p := range panestate.AgentPanes(panes) {
		out.Agents = append(out.Agents, agentOf(t.agents.WithPrompt(ctx, p)))
	}
	return nil, out, nil
}

func (t *tools) agentGet(ctx context.Context, _ *mcp.CallToolRequest, in agentTarget) (*mcp.CallToolResult, Agent, error) {
	p, err := t.agents.Resolve(ctx, in.Target)
	if err != nil {
		return nil, Agent{}, failure(err)
	}
	return nil, agentOf(t.agents.WithPrompt(ctx, p)), nil
}

func (t *tools) agentRead(ctx context.Context, _ *mcp.CallToolRequest, in readInput) (*mcp.CallToolResult, textOutput, error) {
	p, err := t.agents.Resolve(ctx, in.Target)
	if err != nil {
		return nil, textOutput{}, failure(err)
	}
	if in.Lines < 0 || in.Lines > panectl.MaxLines {
		return nil, textOutput{}, fmt.Errorf("invalid_argument: lines must be 0 to %d", panectl.MaxLines)
	}
	lines, err := t.agents.Read(ctx, p, in.Lines)
	if err != nil {
		return nil, textOutput{}, failure(err)
	}
	text := ""
	for _, l := range lines {
		text += l + "\n"
	}
	return nil, textOutput{PaneID: p.ID, Text: text}, nil
}

// check is the wait's time limit, once every state it names is one a wait takes.
func (w waitEnd) check() (time.Duration, error) {
	for _, s := range w.Until {
		if !agentctl.ValidUntil(s) {
			return 0, fmt.Errorf("invalid_argument: until %q (expected idle, done, working, blocked or unknown)", s)
		}
	}
	return waitFor(w.TimeoutSeconds)
}

func (t *tools) agentWait(ctx context.Context, _ *mcp.CallToolRequest, in waitInput) (*mcp.CallToolResult, Agent, error) {
	d, err := in.check()
	if err != nil {
		return nil, Agent{}, err
	}
	p, err := t.agents.Wait(ctx, agentctl.WaitOptions{Target: in.Target, Until: in.Until, Timeout: d, Changed: in.Changed})
	if err != nil {
		return nil, Agent{}, failure(err)
	}
	return nil, agentOf(t.agents.WithPrompt(ctx, p)), nil
}

func (t *tools) pane(ctx context.Context, named string) (string, error) {
	if named == "" {
		named = "%calling"
	}
	id, err := t.agents.ResolvePane(ctx, named)
	return id, failure(err)
}

func (t *tools) paneRead(ctx context.Context, _ *mcp.CallToolRequest, in paneReadInput) (*mcp.CallToolResult, textOutput, error) {
	id, err := t.pane(ctx, in.Pane)
	if err != nil {
		return nil, textOutput{}, err
	}
	src, err := panectl.NormalSource(in.Source)
	if err != nil {
		return nil, textOutput{}, failure(err)
	}
	text, _, err := t.panes.Read(ctx, id, src, in.Lines)
	if err != nil {
		return nil, textOutput{}, failure(err)
	}
	return nil, textOutput{PaneID: id, Text: text}, nil
}

func (t *tools) agentStart(ctx context.Context, _ *mcp.CallToolRequest, in startInput) (*mcp.CallToolResult, startOutput, error) {
	a, err := agentctl.Lookup(in.Agent)
	if err != nil {
		return nil, startOutput{}, failure(err)
	}
	o := agentctl.StartOptions{Agent: a, Args: in.Args, Wait: !in.NoWait}
	switch in.Place {
	case "", "window":
	case "split_right":
		o.Split = "h"
	case "split_down":
		o.Split = "v"
	case "pane":
		if in.Pane == "" {
			return nil, startOutput{}, fmt.Errorf("invalid_argument: place pane needs pane")
		}
		o.Pane = in.Pane
	default:
		return nil, startOutput{}, fmt.Errorf("invalid_argument: place %q (expected window, split_right, split_down or pane)", in.Place)
	}
	if in.Cwd != "" {
		if o.Cwd, err = panectl.CheckDir(in.Cwd); err != nil {
			return nil, startOutput{}, failure(err)
		}
	}
	if in.TimeoutSeconds > 0 {
		o.Timeout, _ = waitFor(in.TimeoutSeconds)
	}
	res, err := t.agents.Start(ctx, o)
	if err != nil {
		return nil, startOutput{}, failure(err)
	}
	out := startOutput{PaneID: res.PaneID, Command: res.Command}
	if o.Wait {
		ag := agentOf(res.Pane)
		out.Agent = &ag
	}
	return nil, out, nil
}

func (t *tools) agentPrompt(ctx context.Context, _ *mcp.CallToolRequest, in promptInput) (*mcp.CallToolResult, promptOutput, error) {
	d, err := in.check()
	if err != nil {
		return nil, promptOutput{}, err
	}
	res, err := t.agents.Prompt(ctx, in.Target, in.Text)
	if err != nil {
		return nil, promptOutput{}, failure(err)
	}
	out := promptOutput{Sent: true}
	if in.Wait {
		p, err := t.agents.WaitPane(ctx, res.Pane, agentctl.WaitOptions{Until: in.Until, Timeout: d, Changed: true, Settle: agentctl.PromptSettle})
		if err != nil {
			return nil, out, failure(err)
		}
		ag := agentOf(t.agents.WithPrompt(ctx, p))
		out.Agent = &ag
	}
	return nil, out, nil
}

func (t *tools) agentAnswer(ctx context.Context, _ *mcp.CallToolRequest, in answerInput) (*mcp.CallToolResult, agentctl.Answered, error) {
	given := 0
	for _, set := range []bool{in.Option != 0, in.Yes, in.No, in.Text != ""} {
		if set {
			given++
		}
	}
	if given != 1 {
		return nil, agentctl.Answered{}, fmt.Errorf("invalid_argument: give one answer: option, yes, no or text")
	}
	p, err := t.agents.Resolve(ctx, in.Target)
	if err != nil {
		return nil, agentctl.Answered{}, failure(err)
	}
	res, err := t.agents.Answer(ctx, p, agentctl.Answer{Option: in.Option, Yes: in.Yes, No: in.No, Text: in.Text})
	if err != nil {
		return nil, agentctl.Answered{}, failure(err)
	}
	return nil, res, nil
}

func (t *tools) paneSplit(ctx context.Context, _ *mcp.CallToolRequest, in splitInput) (*mcp.CallToolResult, paneOutput, error) {
	id, err := t.pane(ctx, in.Pane)
	if err != nil {
		return nil, paneOutput{}, err
	}
	made, err := t.panes.Split(ctx, panectl.SplitOptions{Pane: id, Direction: in.Direction, Ratio: in.Ratio, Cwd: in.Cwd, Env: in.Env, Argv: in.Command})
	if err != nil {
		return nil, paneOutput{}, failure(err)
	}
	return nil, paneOutput{PaneID: made.PaneID}, nil
}

func (t *tools) paneRun(ctx context.Context, _ *mcp.CallToolRequest, in runInput) (*mcp.CallToolResult, paneOutput, error) {
	id, err := t.pane(ctx, in.Pane)
	if err != nil {
		return nil, paneOutput{}, err
	}
	if err := t.panes.Run(ctx, id, in.Command); err != nil {
		return nil, paneOutput{}, failure(err)
	}
	return nil, paneOutput{PaneID: id}, nil
}
