#!/bin/sh
# taw-integration-version: 1
#
# Grok hook: tells taw what Grok is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SessionEnd. The event
# name is the first argument; the payload is the JSON Grok writes to stdin.
#
# `taw integration install grok` copies this script to ~/.grok/hooks ($GROK_CONFIG_DIR or
# $GROK_HOME when set) and writes beside it a hook file of taw's own, taw-agent-state.json, that
# Grok loads with every other *.json there:
#
#   { "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.grok/hooks/taw-agent-state.sh' Stop", "timeout": 5 } ] } ] } }
#
# It always exits 0 and prints nothing.

TAW_HOOK_AGENT=grok
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh

taw_hook_payload
# Grok names its session in the environment of every hook; the payload carries it too.
sid=${GROK_SESSION_ID:-}
[ -n "$sid" ] || taw_json sid session_id
[ -n "$sid" ] && taw_hook_resume grok --resume "$sid"
taw_hook_event "${1:-}" "$sid"
exit 0
