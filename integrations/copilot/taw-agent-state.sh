#!/bin/sh
# taw-integration-version: 2
#
# GitHub Copilot CLI hook: tells taw what GitHub Copilot CLI is doing in this tmux pane.
#
# Events: sessionStart, userPromptSubmitted, preToolUse, postToolUse, permissionRequest,
# notification, agentStop, subagentStop, preCompact, sessionEnd. The event name is the first argument; the payload is the
# JSON GitHub Copilot CLI writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install copilot` copies this script to $COPILOT_HOME/hooks (~/.copilot/hooks) and
# writes hooks/taw-agent-state.json beside it, for example:
#
#   { "version": 1, "hooks": { "agentStop": [ { "type": "command", "bash": "sh '/home/me/.copilot/hooks/taw-agent-state.sh' agentStop", "timeoutSec": 10 } ] } }
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=copilot
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
