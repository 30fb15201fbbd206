#!/bin/sh
# taw-integration-version: 2
#
# Droid hook: tells taw what Droid is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Notification, SubagentStop,
# PreCompact, Stop, SessionEnd. The event name is the first argument; the payload is the
# JSON Droid writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install droid` copies this script to ~/.factory/hooks and
# registers one entry per event in settings.json, for example:
#
#   "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.factory/hooks/taw-agent-state.sh' Stop", "timeout": 10 } ] } ] }
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=droid
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
