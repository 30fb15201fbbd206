#!/bin/sh
# taw-integration-version: 1
#
# Cursor Agent (cursor-agent) hook: tells taw what Cursor's agent is doing in this tmux pane.
#
# Events: sessionStart, beforeSubmitPrompt, postToolUse, afterFileEdit, stop, sessionEnd. The
# event name is the first argument; the payload is the JSON Cursor writes to stdin.
#
# `taw integration install cursor` copies this script to $CURSOR_CONFIG_DIR (~/.cursor) and adds
# one entry per event to hooks.json:
#
#   { "version": 1, "hooks": { "stop": [ { "command": "sh '/home/me/.cursor/taw-agent-state.sh' stop" } ] } }
#
# It always exits 0 and prints nothing.

TAW_HOOK_AGENT=cursor
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
taw_json sid conversation_id
[ -n "$sid" ] || taw_json sid session_id
[ -n "$sid" ] && taw_hook_resume cursor-agent --resume "$sid"

case ${1:-} in
sessionStart | stop) taw_hook_state idle "$sid" ;;
beforeSubmitPrompt | postToolUse | afterFileEdit) taw_hook_state working "$sid" ;;
sessionEnd) taw_hook_release ;;
esac
exit 0
