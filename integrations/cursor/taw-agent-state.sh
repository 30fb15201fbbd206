#!/bin/sh
# taw-integration-version: 2
#
# Cursor Agent hook: tells taw what Cursor Agent is doing in this tmux pane.
#
# Events: sessionStart, beforeSubmitPrompt, postToolUse, afterFileEdit, stop, sessionEnd. The event name is the first argument; the payload is the
# JSON Cursor Agent writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install cursor` copies this script to $CURSOR_CONFIG_DIR (~/.cursor) and
# registers one entry per event in hooks.json, for example:
#
#   { "version": 1, "hooks": { "stop": [ { "command": "sh '/home/me/.cursor/taw-agent-state.sh' stop" } ] } }
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=cursor
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
