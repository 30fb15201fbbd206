package notify

import (
	"context"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/tmux"
)

// withPrompt makes a blocked notification say what the agent asks ("wants to run `npm test` —
// 1 Yes · 2 No"), read off its screen, and records that dialog on the pane, so an answer is
// checked against the dialog the user was told about. Without a readable dialog the
// notification is left as it is.
func withPrompt(ctx context.Context, c *tmux.Client, n Notification) Notification {
	if n.Kind != KindBlocked {
		return n
	}
	screen, err := c.Output(ctx, "capture-pane", "-p", "-t", n.PaneID)
	if err != nil {
		return n
	}
	q := prompt.Read(n.Agent, screen)
	if q == nil {
		return n
	}
	if n.Message != "" {
		q = prompt.FromMessage(q, n.Message)
	}
	_, _ = c.Run(ctx, panestate.DialogCmds(n.PaneID, n.Message, q)...)
	n.Message = q.Summary()
	return n
}
