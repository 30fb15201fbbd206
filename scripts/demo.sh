#!/usr/bin/env bash
# make demo: a tmux server of its own (socket taw-demo) with taw loaded and two pretend agents
# that report their state, so a newcomer sees taw work without touching their own tmux.
set -eu
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "demo: $*" >&2; exit 2; }
command -v tmux >/dev/null 2>&1 || fail "tmux is not installed (apt-get install tmux)"
[ -x "$root/bin/taw" ] || fail "bin/taw is missing: run make first"

t() { tmux -L taw-demo "$@"; }
t kill-server 2>/dev/null || true
t -f /dev/null new-session -d -s demo -n shell -c "$root" -x 120 -y 32
t set-environment -g TAW_BIN "$root/bin/taw"
t set-environment -g TAW "$root/bin/taw"
t set -g status-right '#{@agent-wizard-summary} | prefix A: agents, prefix N: next '
t set -g status-right-length 80
t run-shell "$root/taw.tmux"
t new-window -d -t demo:1 -n alpha "$root/scripts/demo-agent.sh alpha"
t new-window -d -t demo:2 -n beta "sleep 3; $root/scripts/demo-agent.sh beta"
t send-keys -t demo:0 "$root/bin/taw agent list" Enter
if [ -t 1 ] && [ -z "${CI:-}" ]; then
	exec tmux -L taw-demo attach -t demo
fi
sleep 4
t new-window -d -t demo:9 -n list "$root/bin/taw agent list; sleep 60"
for _ in 1 2 3 4 5 6 7 8 9 10; do
	sleep 0.5
	t capture-pane -p -t demo:9 | grep -q . && break
done
t capture-pane -p -t demo:9 | grep -v '^$'
t kill-window -t demo:9
echo "demo: tmux -L taw-demo attach to look around (prefix A opens the agents popup);"
echo "      tmux -L taw-demo kill-server ends it"
