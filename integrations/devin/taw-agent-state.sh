#!/bin/sh
# taw-integration-version: 1
#
# Devin CLI hook: tells taw what Devin is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PermissionRequest, Stop. The
# event name is the first argument; the payload is the JSON Devin writes to stdin.
#
# `taw integration install devin` copies this script to $XDG_CONFIG_HOME/devin (~/.config/devin)
# and adds one entry per event to config.json:
#
#   "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.config/devin/taw-agent-state.sh' Stop" } ] } ] }
#
# Devin has no exit event: taw notices the pane's shell back at its prompt instead. It always
# exits 0 and prints nothing.

TAW_HOOK_AGENT=devin
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
taw_json sid session_id
[ -n "$sid" ] && taw_hook_resume devin --resume "$sid"
taw_hook_event "${1:-}" "$sid"
exit 0
