#!/bin/sh
# taw-integration-version: 2
#
# Codex hook: tells taw what Codex is doing in this tmux pane.
#
# Events: SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PreCompact,
# PostCompact, SubagentStart, SubagentStop, PreModelRequest, Stop, Interrupt, SessionEnd. Codex
# runs hooks from a background daemon that keeps the environment of the first Codex started:
# taw finds the pane from the session instead of trusting $TMUX_PANE. Codex runs a new or
# changed hook only after the person trusts it in the dialog Codex shows at its next start. The event name is the first argument; the payload is the
# JSON Codex writes to stdin. How each event maps to a state is `taw hook report`'s (see
# docs/integrations.md).
#
# `taw integration install codex` copies this script to $CODEX_HOME (~/.codex) and
# registers one entry per event in hooks.json, for example:
#
#   hooks.json:   "Stop": [ { "hooks": [ { "type": "command", "command": "sh '/home/me/.codex/taw-agent-state.sh' Stop", "timeout": 10 } ] } ]
#   config.toml:  [features]
#                 hooks = true
#
# It returns at once, always exits 0 and prints nothing: the report runs in the background.

TAW_HOOK_AGENT=codex
. "$(dirname "$0")/../lib/taw-hook.sh" # taw:include lib/taw-hook.sh
