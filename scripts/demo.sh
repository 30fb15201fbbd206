#!/usr/bin/env bash
# make demo: a tmux server of its own (socket taw-demo) with taw loaded and a pane that reports a
# state, so a newcomer sees taw work without touching their own tmux.
set -eu
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "demo: $*" >&2; exit 2; }
command -v tmux >/dev/null 2>&1 || fail "tmux is not installed"
[ -x "$root/bin/taw" ] || fail "bin/taw is missing: run make first"

export PATH="$root/bin:$PATH"
tmux -L taw-demo -f /dev/null new-session -d -s taw-demo -c "$root" 2>/dev/null || true
tmux -L taw-demo run-shell "$root/taw.tmux"
tmux -L taw-demo send-keys -t taw-demo: "$root/bin/taw pane report-agent %calling --source demo --agent demo --state working --message hello && $root/bin/taw pane get %calling" Enter
if [ -t 1 ] && [ -z "${CI:-}" ]; then
	exec tmux -L taw-demo attach -t taw-demo
fi
sleep 1
tmux -L taw-demo capture-pane -p -t taw-demo: | grep -v '^$'
echo "demo: tmux -L taw-demo attach to look around; tmux -L taw-demo kill-server to end it"
