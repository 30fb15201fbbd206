#!/bin/sh
# taw-integration-version: 2
#
# Gemini CLI hook: tells taw what Gemini CLI is doing in this tmux pane.
#
# Events: SessionStart, BeforeAgent, BeforeTool, AfterTool, AfterAgent, Notification, SessionEnd.
# Gemini runs settings hooks only in a folder the person trusts. The event name is the first argument; the payload is the
# JSON Gemini CLI writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install gemini` copies this script to ~/.gemini/hooks ($GEMINI_CLI_HOME/.gemini) and
# registers one entry per event in settings.json, for example:
#
#   "hooks": { "AfterAgent": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.gemini/hooks/taw-agent-state.sh' AfterAgent", "timeout": 10000 } ] } ] }
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=gemini
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
