#!/bin/sh
# taw-integration-version: 2
#
# Grok hook: tells taw what Grok is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SessionEnd. The session is
# $GROK_SESSION_ID, else the payload's. The event name is the first argument; the payload is the
# JSON Grok writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install grok` copies this script to $GROK_CONFIG_DIR/hooks (~/.grok/hooks) and
# writes hooks/taw-agent-state.json beside it, for example:
#
#   { "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.grok/hooks/taw-agent-state.sh' Stop", "timeout": 5 } ] } ] } }
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=grok
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
