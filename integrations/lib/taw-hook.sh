# taw-hook.sh: the logic every taw hook script shares. The scripts source it from the
# repository; `taw integration install` pastes it in place of their include line, so an
# installed script stands alone.
#
# A script sets TAW_HOOK_AGENT, reads the agent's JSON payload with taw_hook_payload and reports
# with taw_hook_state or taw_hook_release. Nothing here writes to the agent's stdout or stderr,
# nothing fails the agent, and the report itself runs in the background.

TAW_HOOK_SOURCE="integration:${TAW_HOOK_AGENT}"
TAW_HOOK_PAYLOAD=""
TAW_HOOK_RESUME=""
# The blanks JSON allows between tokens (space, tab, newline, carriage return), written out:
# a $(printf) would cost a process on every event.
__taw_ws=' 	
'

# taw_hook_payload reads the hook's JSON from stdin.
taw_hook_payload() {
	[ -t 0 ] && return 0
	TAW_HOOK_PAYLOAD=$(cat 2>/dev/null)
}

# taw_json VAR KEY sets VAR to the first string value of "KEY" in the payload (top-level keys
# come first in every agent's payload), "" when there is none. Plain parameter expansion: a hook
# runs on every event, and each process it starts is time the agent waits. Escaped quotes end
# the value: ids and names never hold them.
taw_json() {
	__taw_rest=$TAW_HOOK_PAYLOAD
	__taw_val=
	while :; do
		case $__taw_rest in *"\"$2\""*) ;; *) break ;; esac
		__taw_rest=${__taw_rest#*"\"$2\""}
		# Only a key is followed by a colon; a mention of the name inside a value is skipped.
		__taw_rest=${__taw_rest#"${__taw_rest%%[!$__taw_ws]*}"}
		case $__taw_rest in :*) ;; *) continue ;; esac
		__taw_rest=${__taw_rest#:}
		__taw_rest=${__taw_rest#"${__taw_rest%%[!$__taw_ws]*}"}
		case $__taw_rest in \"*)
			__taw_rest=${__taw_rest#\"}
			__taw_val=${__taw_rest%%\"*}
			;;
		esac
		break
	done
	eval "$1=\$__taw_val"
}

# taw_hook_resume NAME ARG... sets the command that resumes the session, when NAME is a command
# on PATH (taw refuses a command it cannot find, and would drop the state with it).
taw_hook_resume() {
	command -v "$1" >/dev/null 2>&1 || return 0
	TAW_HOOK_RESUME=
	for __taw_word in "$@"; do
		TAW_HOOK_RESUME="$TAW_HOOK_RESUME$__taw_word
"
	done
}

# __taw_now_ns sets __taw_seq to the nanoseconds since the epoch, the seq every shell hook sends:
# from bash's clock when the shell has one, else date (GNU), else perl.
__taw_now_ns() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		__taw_seq="${EPOCHREALTIME%[.,]*}${EPOCHREALTIME#*[.,]}000"
		return
	fi
	__taw_seq=$(date +%s%N 2>/dev/null)
	case $__taw_seq in
	*[!0-9]* | "") __taw_seq=$(perl -MTime::HiRes=time -e 'printf("%.0f\n", time() * 1e9)' 2>/dev/null) ;;
	esac
}

# __taw_ready says whether a report can go anywhere: inside a tmux pane, with taw on PATH.
__taw_ready() {
	[ -n "${TMUX_PANE:-}" ] || return 1
	command -v taw >/dev/null 2>&1
}

# __taw_paths sets the folder of the per-pane files (private to the user) and this pane's key:
# the tmux server's pid (from $TMUX: socket,pid,session) and the pane's number, since two
# servers can both have a pane %1.
__taw_paths() {
	[ -n "${__taw_key:-}" ] && return 0
	__taw_dir="${TMPDIR:-/tmp}/taw-hooks-${LOGNAME:-${USER:-$(id -u 2>/dev/null)}}"
	if [ ! -d "$__taw_dir" ]; then
		(umask 077 && mkdir -p "$__taw_dir") 2>/dev/null || return 1
	fi
	__taw_server=${TMUX#*,}
	__taw_key="${__taw_server%%,*}-${TMUX_PANE#%}"
}

# taw_hook_remember NAME VALUE keeps a value for this pane's later hooks (an option that only
# the session's first event carries); taw_hook_recall NAME prints it back.
taw_hook_remember() {
	__taw_ready && __taw_paths || return 0
	printf '%s\n' "$2" >"$__taw_dir/$__taw_key.$1" 2>/dev/null
}

# taw_hook_recall VAR NAME sets VAR to what taw_hook_remember kept, "" when nothing.
taw_hook_recall() {
	__taw_val=
	if __taw_ready && __taw_paths; then
		read -r __taw_val 2>/dev/null <"$__taw_dir/$__taw_key.$2"
	fi
	eval "$1=\$__taw_val"
}

# __taw_queue VERB ARG... records this report as the pane's latest and delivers it in the
# background. Reports queue on a per-pane lock; one that finds a newer report recorded when its
# turn comes is dropped, so only the latest state of a burst reaches taw.
__taw_queue() {
	__taw_ready || return 0
	__taw_now_ns
	[ -n "$__taw_seq" ] || return 0
	__taw_paths || return 0
	__taw_latest="$__taw_dir/$__taw_key.latest"
	# Written in place: a deliverer that reads it half-written drops its report, and the newer
	# one being written delivers its own.
	printf '%s\n' "$__taw_seq" >"$__taw_latest" 2>/dev/null || return 0
	(__taw_deliver "$@") </dev/null >/dev/null 2>&1 &
}

__taw_deliver() {
	__taw_lock="$__taw_dir/$__taw_key.lock"
	__taw_tries=0
	until mkdir "$__taw_lock" 2>/dev/null; do
		# The folder itself is gone (a cleaned temporary directory): nothing to wait for.
		[ -d "$__taw_dir" ] || return 0
		__taw_tries=$((__taw_tries + 1))
		# A holder that died leaves its lock: every 5 s the lock is taken over. After 15 s this
		# report gives up; a later one says the same thing, and a waiter never lives on.
		[ "$__taw_tries" -gt 300 ] && return 0
		[ $((__taw_tries % 100)) -eq 0 ] && rm -rf "$__taw_lock"
		sleep 0.05 2>/dev/null || sleep 1
	done
	__taw_now=
	read -r __taw_now 2>/dev/null <"$__taw_latest"
	if [ "$__taw_now" = "$__taw_seq" ]; then
		__taw_verb=$1
		shift
		if command -v timeout >/dev/null 2>&1; then
			timeout 5 taw pane "$__taw_verb" "$TMUX_PANE" --seq "$__taw_seq" "$@"
		else
			taw pane "$__taw_verb" "$TMUX_PANE" --seq "$__taw_seq" "$@"
		fi
	fi
	rmdir "$__taw_lock" 2>/dev/null
}

# taw_hook_state STATE [SESSION_ID] reports the agent's state, with its session and the resume
# command set by taw_hook_resume when there is one.
taw_hook_state() {
	__taw_state=$1
	__taw_sid=${2:-}
	if [ -n "$__taw_sid" ] && [ -n "$TAW_HOOK_RESUME" ]; then
		__taw_old_ifs=$IFS
		IFS='
'
		# shellcheck disable=SC2086 # one resume word per line
		set -- $TAW_HOOK_RESUME
		IFS=$__taw_old_ifs
		__taw_queue report-agent --source "$TAW_HOOK_SOURCE" --agent "$TAW_HOOK_AGENT" \
			--state "$__taw_state" --agent-session-id "$__taw_sid" -- "$@"
	elif [ -n "$__taw_sid" ]; then
		__taw_queue report-agent --source "$TAW_HOOK_SOURCE" --agent "$TAW_HOOK_AGENT" \
			--state "$__taw_state" --agent-session-id "$__taw_sid"
	else
		__taw_queue report-agent --source "$TAW_HOOK_SOURCE" --agent "$TAW_HOOK_AGENT" \
			--state "$__taw_state"
	fi
}

# taw_hook_release hands the pane back to taw when the user quits the agent.
taw_hook_release() {
	__taw_queue release-agent --source "$TAW_HOOK_SOURCE" --agent "$TAW_HOOK_AGENT"
}

# taw_hook_event EVENT SESSION_ID maps the event names the Claude Code family of hook systems
# shares (Codex, Droid, Qoder, Devin, Kimi and Grok use them too) and answers 1 for any other
# name, which the script then maps itself.
taw_hook_event() {
	case $1 in
	SessionStart | Stop | StopFailure) taw_hook_state idle "$2" ;;
	UserPromptSubmit | PostToolUse | PostToolUseFailure | PreCompact | PostCompact | SubagentStart)
		taw_hook_state working "$2" ;;
	PreToolUse)
		# A question to the user goes through the agent's AskUserQuestion tool.
		taw_json __taw_tool tool_name
		case $__taw_tool in
		AskUserQuestion) taw_hook_state blocked "$2" ;;
		*) taw_hook_state working "$2" ;;
		esac
		;;
	PermissionRequest) taw_hook_state blocked "$2" ;;
	SessionEnd)
		# /clear ends one session and starts the next in the same process: that is no quit.
		taw_json __taw_reason reason
		case $__taw_reason in
		clear) ;;
		*) taw_hook_release ;;
		esac
		;;
	*) return 1 ;;
	esac
	return 0
}
