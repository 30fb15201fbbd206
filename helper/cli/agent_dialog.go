package cli

import (
	"context"

	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/tmux"
)

// agentCtl acts on this server's agents for one call; %calling is the pane taw runs in.
func (f *Factory) agentCtl() *agentctl.Ctl {
	return &agentctl.Ctl{Tmux: f.Tmux(), LockDir: f.LockDir(), CallerPane: f.Getenv("TMUX_PANE"), Getenv: f.Getenv}
}

// captureScreen is the pane's visible screen as plain text (see agentctl.Capture).
func captureScreen(ctx context.Context, c *tmux.Client, paneID string, history int) (string, error) {
	return agentctl.Capture(ctx, c, paneID, history)
}

// screenLines are the screen's lines without the blank ones under the last text.
func screenLines(screen string, n int) []string { return agentctl.Lines(screen, n) }

// recordedPrompt is the dialog taw has on record for a blocked agent (see agentctl).
func recordedPrompt(ctx context.Context, f *Factory, p panestate.Pane) (*prompt.Prompt, error) {
	return f.agentCtl().RecordedPrompt(ctx, p)
}

// withPrompt fills in the record of a blocked pane that has none yet, for the read verbs.
func withPrompt(ctx context.Context, f *Factory, p panestate.Pane) panestate.Pane {
	return f.agentCtl().WithPrompt(ctx, p)
}
