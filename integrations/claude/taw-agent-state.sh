#!/bin/sh
# taw-integration-version: 2
#
# Claude Code hook: tells taw what Claude Code is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure,
# PermissionRequest, PermissionDenied, Notification, SubagentStart, SubagentStop, PreCompact,
# PostCompact, Stop, StopFailure, SessionEnd. The event name is the first argument; the payload is the
# JSON Claude Code writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install claude` copies this script to $CLAUDE_CONFIG_DIR/hooks (~/.claude/hooks) and
# registers one entry per event in settings.json, for example:
#
#   "hooks": {
#     "Stop": [
#       { "hooks": [ { "type": "command", "command": "sh '/home/me/.claude/hooks/taw-agent-state.sh' Stop", "timeout": 10 } ] }
#     ]
#   }
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=claude
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
