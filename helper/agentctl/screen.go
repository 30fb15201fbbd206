package agentctl

import (
	"context"
	"strconv"

	"github.com/taw-tmux/taw/helper/panectl"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Capture is the pane's visible screen as plain text, with the last history lines over it when
// history > 0. capture-pane -p prints no escape sequences.
func Capture(ctx context.Context, c *tmux.Client, paneID string, history int) (string, error) {
	args := []string{"capture-pane", "-p", "-t", paneID}
	if history > 0 {
		args = append(args, "-S", "-"+strconv.Itoa(history))
	}
	return c.Output(ctx, args...)
}

// Lines are the screen's lines as panectl.Lines has them, never nil.
func Lines(screen string, n int) []string {
	lines, _ := panectl.Lines(screen, n)
	if lines == nil {
		lines = []string{}
	}
	return lines
}

// Read is an agent's screen as lines: the visible screen, or its last n lines (from the history
// too) when n > 0.
func (c *Ctl) Read(ctx context.Context, p panestate.Pane, n int) ([]string, error) {
	screen, err := Capture(ctx, c.Tmux, p.ID, n)
	if err != nil {
		return nil, err
	}
	return Lines(screen, n), nil
}

// LivePrompt is the dialog on the agent's screen now, nil when none is.
func (c *Ctl) LivePrompt(ctx context.Context, p panestate.Pane) (*prompt.Prompt, error) {
	screen, err := Capture(ctx, c.Tmux, p.ID, 0)
	if err != nil {
		return nil, err
	}
	return withHookMessage(prompt.Read(p.Agent(), screen), p), nil
}

// withHookMessage adds what the agent's own hook said it is blocked on.
func withHookMessage(q *prompt.Prompt, p panestate.Pane) *prompt.Prompt {
	return prompt.WithHook(q, p.HookMessage())
}

// RecordedPrompt is the dialog taw has on record for a blocked agent. With none recorded yet,
// or only its hook's words (no options: a hook that fired before the dialog was drawn), it reads
// the screen and records what it finds, so what people were shown is what an answer is checked
// against.
func (c *Ctl) RecordedPrompt(ctx context.Context, p panestate.Pane) (*prompt.Prompt, error) {
	if p.State() != report.StateBlocked {
		return nil, nil
	}
	had := prompt.Decode(p.Options[panestate.OptPrompt])
	if had != nil && len(had.Options) > 0 {
		return had, nil
	}
	q, err := c.LivePrompt(ctx, p)
	if err != nil || q == nil {
		return had, err
	}
	if had != nil && had.Encode() == q.Encode() {
		return had, nil
	}
	return q, c.recordPrompt(ctx, p, q)
}

// recordPrompt keeps q on the pane (panestate.DialogOptions); nil takes the record off.
func (c *Ctl) recordPrompt(ctx context.Context, p panestate.Pane, q *prompt.Prompt) error {
	cmds := []tmux.Cmd{{"set-option", "-p", "-u", "-t", p.ID, panestate.OptPrompt}}
	if q != nil {
		cmds = panestate.DialogCmds(p.ID, p.Options[panestate.OptMessage], q)
	}
	_, err := c.Tmux.Run(ctx, cmds...)
	return err
}

// WithPrompt fills in the record of a blocked pane that has none yet, for the read verbs. A
// screen that cannot be read leaves the pane as it was: the read verbs still answer.
func (c *Ctl) WithPrompt(ctx context.Context, p panestate.Pane) panestate.Pane {
	if had := prompt.Decode(p.Options[panestate.OptPrompt]); p.State() != report.StateBlocked || (had != nil && len(had.Options) > 0) {
		return p
	}
	if q, err := c.RecordedPrompt(ctx, p); err == nil && q != nil {
		o := make(map[string]string, len(p.Options))
		for k, v := range p.Options {
			o[k] = v
		}
		o[panestate.OptPrompt] = q.Encode()
		p.Options = o
	}
	return p
}
