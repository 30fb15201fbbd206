#!/bin/sh
# taw-integration-version: 1
#
# Codex hook: tells taw what Codex is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, Stop. The
# event name is the first argument; the payload is the JSON Codex writes to stdin. Codex has no
# exit event: taw sees the pane's shell back at its prompt instead.
#
# `taw integration install codex` copies this script to $CODEX_HOME (~/.codex), adds one entry per
# event to hooks.json and turns hooks on in config.toml:
#
#   hooks.json:   "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.codex/taw-agent-state.sh' Stop", "timeout": 10 } ] } ]
#   config.toml:  [features]
#                 codex_hooks = true
#
# It always exits 0 and prints nothing.

TAW_HOOK_AGENT=codex
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
taw_json sid session_id
# A codex run nested in this session (codex exec from a tool) shares the pane; its hooks carry
# another session than the thread Codex sets in the environment, and are not the pane's agent.
if [ -n "${CODEX_THREAD_ID:-}" ] && [ -n "$sid" ] && [ "$CODEX_THREAD_ID" != "$sid" ]; then
	exit 0
fi
[ -n "$sid" ] && taw_hook_resume codex resume "$sid"
taw_hook_event "${1:-}" "$sid"
exit 0
