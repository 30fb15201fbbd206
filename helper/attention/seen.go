package attention

import (
	"context"
	"strings"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Seen clears done on every pane an attached client shows (the active pane of its current
// window), in two tmux calls at most, and wakes waiters when it cleared any. The hooks run it
// when the user moves: selecting a pane or window, switching session, attaching, focusing.
// Unlike the watcher it ignores terminal focus: a hook fires because someone just acted.
func Seen(ctx context.Context, c *tmux.Client) (cleared []string, err error) {
	out, err := c.Run(ctx,
		tmux.Cmd{"list-clients", "-F", tmux.Row("C", "#{pane_id}", "#{client_control_mode}")},
		listDone("P"))
	if err != nil {
		return nil, err
	}
	shown := map[string]bool{}
	var done []string
	for _, line := range strings.Split(out, "\n") {
		f := tmux.DecodeRow(line)
		switch {
		case f[0] == "C" && len(f) == 3 && f[2] != "1":
			shown[f[1]] = true
		case f[0] == "P" && len(f) == 3 && f[2] != "":
			done = append(done, f[1])
		}
	}
	var cmds []tmux.Cmd
	for _, id := range done {
		if shown[id] {
			cleared = append(cleared, id)
			cmds = append(cmds, tmux.Cmd{"set-option", "-pqu", "-t", id, panestate.OptDone})
		}
	}
	if len(cmds) == 0 {
		return nil, nil
	}
	cmds = append(cmds, tmux.SignalCmds(panestate.SignalChannel)...)
	_, err = c.Run(ctx, cmds...)
	return cleared, err
}

// ClearCmds are the commands that mark one pane seen, for verbs that take the user to it.
func ClearCmds(paneID string) []tmux.Cmd {
	return append([]tmux.Cmd{{"set-option", "-pqu", "-t", paneID, panestate.OptDone}}, tmux.SignalCmds(panestate.SignalChannel)...)
}

// listDone lists every pane's id and @agent_done, each row after the field mark ("" for none).
func listDone(mark string) tmux.Cmd {
	row := []string{"#{pane_id}", tmux.Text(panestate.OptDone)}
	if mark != "" {
		row = append([]string{mark}, row...)
	}
	return tmux.ListAllPanes(tmux.Row(row...))
}
