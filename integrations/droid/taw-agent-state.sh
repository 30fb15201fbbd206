#!/bin/sh
# taw-integration-version: 1
#
# Droid (Factory) hook: tells taw what Droid is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Notification, Stop,
# SessionEnd. The event name is the first argument; the payload is the JSON Droid writes to stdin.
#
# `taw integration install droid` copies this script to ~/.factory/hooks and adds one entry per
# event to ~/.factory/settings.json:
#
#   "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.factory/hooks/taw-agent-state.sh' Stop", "timeout": 10 } ] } ] }
#
# It always exits 0 and prints nothing.

TAW_HOOK_AGENT=droid
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
taw_json sid session_id
[ -n "$sid" ] && taw_hook_resume droid --resume "$sid"

if ! taw_hook_event "${1:-}" "$sid"; then
	case ${1:-} in
	Notification)
		# Droid notifies both when it needs a permission and when it waits for input.
		taw_json __v message
		case $__v in
		*ermission*) taw_hook_state blocked "$sid" ;;
		*) taw_hook_state idle "$sid" ;;
		esac
		;;
	esac
fi
exit 0
