#!/bin/sh
# taw-integration-version: 2
#
# Qoder CLI hook: tells taw what Qoder CLI is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SessionEnd. The event name is the first argument; the payload is the
# JSON Qoder CLI writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install qodercli` copies this script to $QODER_CONFIG_DIR/hooks (~/.qoder/hooks) and
# registers one entry per event in settings.json, for example:
#
#   "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.qoder/hooks/taw-agent-state.sh' Stop", "timeout": 10 } ] } ] }
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=qodercli
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
