package cli

import (
	"context"
	"strings"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

type agentNextOptions struct {
	Client string
}

func (f *Factory) agentNext(c *cli.Context) error {
	return agentNextRun(c.Context, f, &agentNextOptions{Client: c.String(flagClient)})
}

// currentMark is the first field of the row naming the client's pane; no pane row starts with
// its control byte.
const currentMark = "\x1etaw-current"

func agentNextRun(ctx context.Context, f *Factory, opts *agentNextOptions) error {
	c := f.Tmux()
	// tmux 3.2a's display-message cannot name a client: there the pane is that of the client
	// tmux picks.
	feat, _ := c.Features(ctx)
	display := tmux.Cmd{"display-message", "-p"}
	if opts.Client != "" && feat.ClientMessage {
		display = append(display, "-c", opts.Client)
	}
	out, err := c.Run(ctx, panestate.ListCmd(""), append(display, tmux.Row(currentMark, "#{pane_id}")))
	if err != nil {
		return err
	}
	var panes []panestate.Pane
	current := ""
	parse := panestate.All.FieldsParser()
	for _, row := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		f := tmux.DecodeRow(row)
		if f[0] == currentMark && len(f) == 2 {
			current = f[1]
			continue
		}
		p, err := parse(f)
		if err != nil {
			return err
		}
		panes = append(panes, p)
	}
	next, ok := attention.Next(panes, current)
	if !ok {
		msg := tmux.Cmd{"display-message"}
		if opts.Client != "" && feat.ClientMessage {
			msg = append(msg, "-c", opts.Client)
		}
		_, _ = c.Run(ctx, append(msg, "taw: no agent needs you"))
		return writeJSONLine(f.IO.Out, struct {
			OK   bool    `json:"ok"`
			Pane *string `json:"pane"`
		}{true, nil})
	}
	if _, err := c.Run(ctx, jumpCmds(opts.Client, next.ID)...); err != nil {
		return err
	}
	return writeJSONLine(f.IO.Out, struct {
		OK   bool   `json:"ok"`
		Pane string `json:"pane"`
	}{true, next.ID})
}

// jumpCmds take a client to a pane, whatever session and window it is in, and mark it seen.
func jumpCmds(client, paneID string) []tmux.Cmd {
	sw := tmux.Cmd{"switch-client"}
	if client != "" {
		sw = append(sw, "-c", client)
	}
	cmds := []tmux.Cmd{
		append(sw, "-t", paneID),
		{"select-window", "-t", paneID},
		{"select-pane", "-t", paneID},
	}
	return append(cmds, attention.ClearCmds(paneID)...)
}

type agentFocusOptions struct {
	Target string
	Client string
}

func (f *Factory) agentFocus(c *cli.Context, target string) error {
	return agentFocusRun(c.Context, f, &agentFocusOptions{Target: target, Client: c.String(flagClient)})
}

func agentFocusRun(ctx context.Context, f *Factory, opts *agentFocusOptions) error {
	p, err := resolveAgent(ctx, f, opts.Target)
	if err != nil {
		return err
	}
	if _, err := f.Tmux().Run(ctx, jumpCmds(opts.Client, p.ID)...); err != nil {
		return err
	}
	return writeJSONLine(f.IO.Out, struct {
		OK   bool   `json:"ok"`
		Pane string `json:"pane"`
	}{true, p.ID})
}
