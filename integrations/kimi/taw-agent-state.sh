#!/bin/sh
# taw-integration-version: 1
#
# Kimi Code CLI hook: tells taw what Kimi is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure,
# SubagentStart, PreCompact, Notification, Stop, StopFailure, SessionEnd. The event name is the
# first argument; the payload is the JSON Kimi writes to stdin.
#
# `taw integration install kimi` copies this script to $KIMI_CODE_HOME/hooks (~/.kimi-code/hooks)
# and adds a block of [[hooks]] tables to config.toml, between two marker comments:
#
#   # >>> taw integration (managed by taw integration; edit outside this block)
#   [[hooks]]
#   event = "Stop"
#   command = "sh '/home/me/.kimi-code/hooks/taw-agent-state.sh' Stop"
#   timeout = 10
#   # <<< taw integration
#
# It always exits 0 and prints nothing.

TAW_HOOK_AGENT=kimi
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
taw_json sid session_id
[ -n "$sid" ] && taw_hook_resume kimi --session "$sid"

if ! taw_hook_event "${1:-}" "$sid"; then
	case ${1:-} in
	Notification)
		taw_json __v notification_type
		case $__v in
		*approval* | *permission*) taw_hook_state blocked "$sid" ;;
		esac
		;;
	esac
fi
exit 0
