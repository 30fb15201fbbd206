// Package spawn starts the user's own commands ([hooks] commands and plugins' processes): it
// builds their environment, which names the pane of their own invocation and never carries what
// tmux's global environment holds for panes, and runs them detached under a supervisor that
// enforces a time limit and logs a failure, so no command of the user's can block taw.
package spawn
