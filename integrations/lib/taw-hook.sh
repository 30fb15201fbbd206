# taw-hook.sh: what every taw hook script runs. The scripts source it from the repository;
# `taw integration install` pastes it in place of their include line (and writes the installing
# taw's absolute path into __taw_installed), so an installed script stands alone.
#
# A script sets TAW_HOOK_AGENT and sources this. It hands the event (the script's first
# argument) and the agent's payload (stdin) to `taw hook report` in the background and returns
# at once: taw takes the seq, maps the event, keeps only the latest report of a burst, finds the
# pane and gives up after 5 s. Nothing here starts a process in the foreground, writes to the
# agent's stdout or stderr, or fails the agent.

# Only inside a tmux pane.
[ -n "${TMUX_PANE:-}" ] || exit 0

# The taw that installed this script, else the one the tmux server's plugin runs
# (@agent-wizard-bin), else taw on PATH: a plugin install leaves taw off PATH.
__taw_installed='__TAW_BIN__' # taw-installed-bin
__taw_report() {
	if [ -x "$__taw_installed" ]; then
		__taw_bin=$__taw_installed
	elif __taw_bin=$(tmux show-options -gqv @agent-wizard-bin 2>/dev/null) && [ -n "$__taw_bin" ] && [ -x "$__taw_bin" ]; then
		:
	elif __taw_bin=$(command -v taw 2>/dev/null); then
		:
	else
		# No taw: the payload is still read to its end (unless it is a terminal), so the agent's
		# write of it never fails.
		[ -t 0 ] && exit 0
		exec cat
	fi
	# The agent is this script's parent: taw trusts $TMUX_PANE only when it runs in that pane.
	# $$, this script's pid, orders events whose taws start out of order.
	exec "$__taw_bin" hook report --parent "$__taw_parent" --order "$$" "$TAW_HOOK_AGENT" "$1"
}
__taw_parent=$PPID
# A background job's stdin is /dev/null unless it is given one: the payload goes through fd 3.
# The agent's stdout and stderr are let go before the fork, so the agent sees the hook's end
# as this script exits, not once the background job has run.
exec 3<&0 >/dev/null 2>&1
(__taw_report "${1:-}") <&3 3<&- &
exit 0
