#!/bin/sh
# A pretend agent for make demo: it reports to taw the way an agent of your own would, through
# taw pane report-agent. demo-agent.sh NAME START: START is the state it shows first (working,
# blocked, idle, or done: a short turn that ends while nobody looks), then it cycles through
# working, blocked and idle.
taw=${TAW:-taw}
name=${1:-demo-agent}
start=${2:-working}
seq=0
report() {
	seq=$((seq + 1))
	"$taw" pane report-agent "$TMUX_PANE" --source "demo:$name" --agent "$name" --state "$1" --seq "$seq" --message "$2" >/dev/null 2>&1
	printf '%s: %s (%s)\n' "$name" "$1" "$2"
}
working() { report working "thinking about the next change"; sleep "${1:-8}"; }
blocked() {
	report blocked "Allow editing main.go? (press Enter in this pane)"
	# A real agent waits for the person; the pretend one gives up after a while.
	if [ -t 0 ]; then read -r _; else sleep 10; fi
}
# idle: the message says whether a turn just ended (done until you look) or none has begun.
idle() { report idle "${1:-ready for a prompt}"; sleep 10; }
trap '"$taw" pane release-agent "$TMUX_PANE" --source "demo:$name" --agent "$name" --seq $((seq + 1)) >/dev/null 2>&1; exit 0' INT TERM
case $start in
blocked) blocked ;;
idle) idle ;;
done) working 1.5 && idle "turn finished" ;;
esac
while :; do
	working
	blocked
	idle "turn finished"
done
