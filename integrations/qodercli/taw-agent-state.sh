#!/bin/sh
# taw-integration-version: 1
#
# Qoder CLI (qodercli) hook: tells taw what Qoder is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SessionEnd. The event
# name is the first argument; the payload is the JSON Qoder writes to stdin.
#
# `taw integration install qodercli` copies this script to $QODER_CONFIG_DIR/hooks (~/.qoder/hooks)
# and adds one entry per event to settings.json:
#
#   "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.qoder/hooks/taw-agent-state.sh' Stop", "timeout": 10 } ] } ] }
#
# It always exits 0 and prints nothing.

TAW_HOOK_AGENT=qodercli
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
taw_json sid session_id
[ -n "$sid" ] && taw_hook_resume qodercli --resume "$sid"
taw_hook_event "${1:-}" "$sid"
exit 0
