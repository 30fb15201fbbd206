#!/bin/sh
# A pretend agent for make demo: it reports to taw the way an agent of your own would, through
# taw pane report-agent, and cycles through working, blocked and idle.
taw=${TAW:-taw}
name=${1:-demo-agent}
seq=0
report() {
	seq=$((seq + 1))
	"$taw" pane report-agent "$TMUX_PANE" --source "demo:$name" --agent "$name" --state "$1" --seq "$seq" --message "$2" >/dev/null 2>&1
	printf '%s: %s (%s)\n' "$name" "$1" "$2"
}
trap '"$taw" pane release-agent "$TMUX_PANE" --source "demo:$name" --agent "$name" --seq $((seq + 1)) >/dev/null 2>&1; exit 0' INT TERM
while :; do
	report working "thinking about the next change"
	sleep 6
	report blocked "Allow editing main.go? (press Enter in this pane)"
	read -r _ </dev/tty 2>/dev/null || sleep 6
	report idle "done, waiting for you"
	sleep 8
done
