#!/bin/sh
# taw-integration-version: 1
#
# Gemini CLI hook: tells taw what Gemini CLI is doing in this tmux pane.
#
# Events: SessionStart, BeforeAgent, BeforeTool, AfterTool, AfterAgent, Notification,
# SessionEnd. The event name is the first argument; the payload is the JSON Gemini CLI writes to
# stdin.
#
# `taw integration install gemini` copies this script to ~/.gemini/hooks ($GEMINI_CLI_HOME/.gemini
# when set) and adds one entry per event to settings.json:
#
#   "hooks": { "AfterAgent": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.gemini/hooks/taw-agent-state.sh' AfterAgent", "timeout": 10000 } ] } ] }
#
# It always exits 0 and prints nothing: Gemini CLI parses a hook's stdout as JSON.

TAW_HOOK_AGENT=gemini
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
taw_json sid session_id
[ -n "$sid" ] && taw_hook_resume gemini --resume "$sid"

case ${1:-} in
SessionStart | AfterAgent) taw_hook_state idle "$sid" ;;
BeforeAgent | BeforeTool | AfterTool) taw_hook_state working "$sid" ;;
Notification)
	taw_json __v notification_type
	case $__v in
	ToolPermission) taw_hook_state blocked "$sid" ;;
	esac
	;;
SessionEnd)
	taw_json __v reason
	case $__v in
	clear) ;;
	*) taw_hook_release ;;
	esac
	;;
esac
exit 0
