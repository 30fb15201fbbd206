#!/bin/sh
# taw-integration-version: 1
#
# GitHub Copilot CLI hook: tells taw what Copilot is doing in this tmux pane.
#
# Events: sessionStart, userPromptSubmitted, preToolUse, postToolUse, notification, agentStop,
# sessionEnd. The event name is the first argument; the payload is the JSON Copilot writes to
# stdin.
#
# `taw integration install copilot` copies this script to $COPILOT_HOME/hooks (~/.copilot/hooks)
# and writes beside it a hook file of taw's own, taw-agent-state.json, that Copilot loads with
# every other *.json there:
#
#   { "version": 1, "hooks": { "agentStop": [ { "type": "command", "bash": "sh '/home/me/.copilot/hooks/taw-agent-state.sh' agentStop", "timeoutSec": 10 } ] } }
#
# It always exits 0 and prints nothing: Copilot reads a hook's output as its answer.

TAW_HOOK_AGENT=copilot
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
taw_json sid sessionId
[ -n "$sid" ] || taw_json sid session_id
[ -n "$sid" ] && taw_hook_resume copilot "--resume=$sid"

case ${1:-} in
sessionStart | agentStop) taw_hook_state idle "$sid" ;;
userPromptSubmitted | postToolUse) taw_hook_state working "$sid" ;;
preToolUse)
	# Copilot asks the user through its ask_user tool.
	taw_json __v toolName
	case $__v in
	ask_user) taw_hook_state blocked "$sid" ;;
	*) taw_hook_state working "$sid" ;;
	esac
	;;
notification)
	taw_json __v notificationType
	[ -n "$__v" ] || taw_json __v notification_type
	case $__v in
	permission_prompt | elicitation_dialog) taw_hook_state blocked "$sid" ;;
	esac
	;;
sessionEnd) taw_hook_release ;;
esac
exit 0
