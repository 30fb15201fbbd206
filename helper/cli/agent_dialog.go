package cli

import (
	"context"
	"strconv"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// captureScreen is the pane's visible screen as plain text, with the last history lines over
// it when history > 0. capture-pane -p prints no escape sequences.
func captureScreen(ctx context.Context, c *tmux.Client, paneID string, history int) (string, error) {
	args := []string{"capture-pane", "-p", "-t", paneID}
	if history > 0 {
		args = append(args, "-S", "-"+strconv.Itoa(history))
	}
	return c.Output(ctx, args...)
}

// livePrompt is the dialog on the agent's screen now, nil when none is.
func livePrompt(ctx context.Context, f *Factory, p panestate.Pane) (*prompt.Prompt, error) {
	screen, err := captureScreen(ctx, f.Tmux(), p.ID, 0)
	if err != nil {
		return nil, err
	}
	return withHookMessage(prompt.Read(p.Agent(), screen), p), nil
}

// withHookMessage adds what the agent's own hook said it is blocked on.
func withHookMessage(q *prompt.Prompt, p panestate.Pane) *prompt.Prompt {
	return prompt.WithHook(q, p.HookMessage())
}

// recordedPrompt is the dialog taw has on record for a blocked agent. With none recorded yet,
// or only its hook's words (no options: a hook that fired before the dialog was drawn), it reads
// the screen and records what it finds, so what people were shown is what an answer is checked
// against.
func recordedPrompt(ctx context.Context, f *Factory, p panestate.Pane) (*prompt.Prompt, error) {
	if p.State() != report.StateBlocked {
		return nil, nil
	}
	had := prompt.Decode(p.Options[panestate.OptPrompt])
	if had != nil && len(had.Options) > 0 {
		return had, nil
	}
	q, err := livePrompt(ctx, f, p)
	if err != nil || q == nil {
		return had, err
	}
	if had != nil && had.Encode() == q.Encode() {
		return had, nil
	}
	return q, recordPrompt(ctx, f, p.ID, q)
}

// recordPrompt keeps q on the pane; nil takes the record off.
func recordPrompt(ctx context.Context, f *Factory, paneID string, q *prompt.Prompt) error {
	cmd := tmux.Cmd{"set-option", "-p", "-t", paneID, panestate.OptPrompt, q.Encode()}
	if q == nil {
		cmd = tmux.Cmd{"set-option", "-p", "-u", "-t", paneID, panestate.OptPrompt}
	}
	_, err := f.Tmux().Run(ctx, cmd)
	return err
}

// withPrompt fills in the record of a blocked pane that has none yet, for the read verbs.
// A screen that cannot be read leaves the pane as it was: the read verbs still answer.
func withPrompt(ctx context.Context, f *Factory, p panestate.Pane) panestate.Pane {
	if had := prompt.Decode(p.Options[panestate.OptPrompt]); p.State() != report.StateBlocked || (had != nil && len(had.Options) > 0) {
		return p
	}
	if q, err := recordedPrompt(ctx, f, p); err == nil && q != nil {
		o := make(map[string]string, len(p.Options))
		for k, v := range p.Options {
			o[k] = v
		}
		o[panestate.OptPrompt] = q.Encode()
		p.Options = o
	}
	return p
}
