#!/bin/sh
# taw-integration-version: 1
#
# Claude Code hook: tells taw what Claude Code is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PermissionRequest,
# Notification, Stop, SessionEnd. The event name is the first argument; the payload is the JSON
# Claude Code writes to stdin.
#
# `taw integration install claude` copies this script to $CLAUDE_CONFIG_DIR/hooks (~/.claude/hooks)
# and adds one entry per event to settings.json, for example:
#
#   "hooks": {
#     "Stop": [
#       { "hooks": [ { "type": "command", "command": "sh '/home/me/.claude/hooks/taw-agent-state.sh' Stop", "timeout": 10 } ] }
#     ]
#   }
#
# It always exits 0 and prints nothing: a hook's output would reach Claude Code.

TAW_HOOK_AGENT=claude
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
taw_json sid session_id

case ${1:-} in
SessionStart)
	taw_json model model
	[ -n "$model" ] && taw_hook_remember claude-model "$model"
	;;
esac

if [ -n "$sid" ]; then
	# The resumed session keeps the model and permission mode it ran with.
	taw_hook_recall model claude-model
	taw_json mode permission_mode
	[ "$mode" = default ] && mode=
	taw_hook_resume claude --resume "$sid" ${model:+--model "$model"} ${mode:+--permission-mode "$mode"}
fi

if ! taw_hook_event "${1:-}" "$sid"; then
	case ${1:-} in
	Notification)
		taw_json __v notification_type
		case $__v in
		permission_prompt | elicitation_dialog) taw_hook_state blocked "$sid" ;;
		idle_prompt) taw_hook_state idle "$sid" ;;
		esac
		;;
	esac
fi
exit 0
