#!/bin/sh
# taw-integration-version: 2
#
# Kimi Code CLI hook: tells taw what Kimi Code CLI is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure,
# SubagentStart, PreCompact, Notification, Stop, StopFailure, SessionEnd. The event name is the first argument; the payload is the
# JSON Kimi Code CLI writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install kimi` copies this script to $KIMI_CODE_HOME/hooks (~/.kimi-code/hooks) and
# registers one entry per event in config.toml, for example:
#
#   # >>> taw integration
#   [[hooks]]
#   event = "Stop"
#   command = "sh '/home/me/.kimi-code/hooks/taw-agent-state.sh' Stop"
#   timeout = 10
#   # <<< taw integration
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=kimi
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
