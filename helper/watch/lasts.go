package watch

import (
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
)

// ReportLasts says whether an agent a report just wrote to p outlasts the watcher's next look,
// and why not: the watcher reads the pane's own shell at its prompt (or its process gone) as the
// agent's process having ended, and clears it (Decide). reporter is the pid of the process that
// sent the report, 0 when unknown: a report typed at the pane's prompt is in front of the shell
// only until it ends. A pane whose processes cannot be read is taken to keep the report.
func ReportLasts(p panestate.Pane, reporter int) (bool, string) {
	if !HasAgent(p.Record()) {
		return true, ""
	}
	if p.Dead {
		return false, "the pane's process has exited: the watcher clears the report at its next look"
	}
	leader, _, shellInFront, err := procinfo.Foreground(p.PID)
	switch {
	case err != nil:
		return true, ""
	case shellInFront && IsInteractiveShell(leader):
		return false, "the pane's shell is at its prompt: the watcher clears the report at its next look, as for an agent that has exited, unless your agent starts in the pane first; report from your agent's process"
	case reporter > 0 && leader.PID == reporter && leader.PPID == p.PID:
		return false, "the report was typed at the pane's prompt: once it ends the shell is back at its prompt and the watcher clears the report at its next look, unless your agent starts in the pane first; report from your agent's process"
	}
	return true, ""
}
