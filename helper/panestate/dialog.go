package panestate

import (
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// DialogOptions are the options that put dialog q on record for a blocked agent whose message is
// message: the dialog, and the message too when it names less than the dialog does (a hook's
// generic words give way to the command or question on screen, see prompt.Specific). An agent
// with no message (its state read off the screen) gets none. Every writer of a dialog goes
// through here, so whichever records it first leaves the same record.
func DialogOptions(message string, q *prompt.Prompt) map[string]string {
	o := map[string]string{OptPrompt: q.Encode()}
	if message == "" {
		return o
	}
	if m := report.CleanMessage(prompt.Specific(message, q)); m != message {
		o[OptMessage] = m
	}
	return o
}

// DialogCmds are the tmux commands that write DialogOptions to pane paneID.
func DialogCmds(paneID, message string, q *prompt.Prompt) []tmux.Cmd {
	var cmds []tmux.Cmd
	o := DialogOptions(message, q)
	for _, k := range []string{OptPrompt, OptMessage} {
		if v, ok := o[k]; ok {
			cmds = append(cmds, tmux.Cmd{"set-option", "-p", "-t", paneID, k, v})
		}
	}
	return cmds
}
