#!/bin/sh
# taw-integration-version: 2
#
# Devin CLI hook: tells taw what Devin CLI is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PermissionRequest, Stop. Devin has
# no exit event: taw sees the pane's shell back at its prompt instead. The event name is the first argument; the payload is the
# JSON Devin CLI writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install devin` copies this script to $XDG_CONFIG_HOME/devin (~/.config/devin) and
# registers one entry per event in config.json, for example:
#
#   "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.config/devin/taw-agent-state.sh' Stop" } ] } ] }
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=devin
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
