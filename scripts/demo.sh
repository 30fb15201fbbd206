#!/usr/bin/env bash
# make demo: a tmux server of its own (socket taw-demo, or $TAW_DEMO_SOCKET) with taw loaded and four pretend agents
# that report their state, one in each state from the first seconds (working, blocked, idle, and
# done: a turn that ended while nobody looked), so a newcomer sees taw work without touching their
# own tmux. On a terminal it attaches; without one it prints what taw shows once every state is
# there.
set -eu
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "demo: $*" >&2; exit 2; }
command -v tmux >/dev/null 2>&1 || fail "tmux is not installed (apt-get install tmux)"
# TAW_DEMO_BIN and TAW_DEMO_SOCKET choose another binary and socket (the tests use both).
taw="${TAW_DEMO_BIN:-$root/bin/taw}"
socket="${TAW_DEMO_SOCKET:-taw-demo}"
[ -x "$taw" ] || fail "$taw is missing: run make first"
agent="$root/scripts/demo-agent.sh"

t() { tmux -L "$socket" "$@"; }
t kill-server 2>/dev/null || true
t -f /dev/null new-session -d -s demo -n shell -c "$root" -x 120 -y 32
t set-environment -g TAW_BIN "$taw"
t set-environment -g TAW "$taw"
t set -g status-right-length 80
t set -g @agent-wizard-window-badges on
t run-shell "$root/taw.tmux"
# The load runs in the background: wait (at most 15 s) until it is done.
i=0
while [ -z "$(t show-options -gqv @agent-wizard-loaded)" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
t new-window -d -t demo:1 -n alpha "$agent alpha working"
t new-window -d -t demo:2 -n beta "$agent beta blocked"
t new-window -d -t demo:3 -n gamma "$agent gamma idle"
t new-window -d -t demo:4 -n delta "$agent delta done"
t send-keys -t demo:0 "clear; $taw agent list" Enter
if [ -t 1 ] && [ -z "${CI:-}" ]; then
	exec tmux -L "$socket" attach -t demo
fi

# No terminal: wait (at most 15 s) until taw shows all four states, then print what it shows.
all=""
for _ in $(seq 1 150); do
	states="$("$taw" -L "$socket" agent list --json 2>/dev/null | grep -o '"state":"[a-z]*"' | sort -u | tr -d '\n')"
	case $states in
	*'"blocked"'*'"done"'*'"idle"'*'"working"'*) all=yes && break ;;
	esac
	sleep 0.1
done
[ -n "$all" ] || echo "demo: not every state showed within 15 s; this is what taw shows:"
t new-window -d -t demo:9 -n list "$taw agent list; sleep 60"
for _ in $(seq 1 50); do
	t capture-pane -p -t demo:9 | grep -q . && break
	sleep 0.1
done
t capture-pane -p -t demo:9 | grep -v '^$'
t kill-window -t demo:9
echo "status line: $(t display-message -p '#{@agent-wizard-summary-plain}')"
echo "demo: tmux -L $socket attach to look around (prefix A opens the agents popup);"
echo "      tmux -L $socket kill-server ends it"
