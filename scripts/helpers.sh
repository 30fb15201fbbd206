# Shell glue shared by taw.tmux and scripts/: finding, building and loading the helper binary.
# Sourced, not run.

# __taw_say MESSAGE keeps MESSAGE in @agent-wizard-status and shows it: on every attached client at
# once, or, when none is attached (tmux is starting), to the first client that attaches (the
# client-attached hook taw load installs shows @agent-wizard-notice once).
__taw_say() {
	local msg="taw: $*" clients c
	clients="$(command tmux list-clients -F '#{client_name}' 2>/dev/null)"
	if [ -z "$clients" ]; then
		command tmux set-option -gq @agent-wizard-status "$msg" \; set-option -gq @agent-wizard-notice "$msg"
		return 0
	fi
	command tmux set-option -gq @agent-wizard-status "$msg" \; set-option -gqu @agent-wizard-notice
	# display-message reads its text as a format and a strftime string: # and % are doubled.
	local shown=${msg//#/##}
	shown=${shown//%/%%}
	# tmux 3.2a's display-message cannot name a client (-c takes no value there): then the
	# message goes to the client tmux picks.
	while IFS= read -r c; do
		command tmux display-message -d 10000 -c "$c" "$shown" 2>/dev/null ||
			command tmux display-message -d 10000 "$shown" 2>/dev/null
	done <<EOF
$clients
EOF
}

# __taw_stale DIR: the bundled binary is missing or older than the sources it is built from.
__taw_stale() {
	[ ! -x "$1/bin/taw" ] && return 0
	[ -n "$(find "$1/helper" "$1/integrations" "$1/go.mod" "$1/go.sum" -newer "$1/bin/taw" -print -quit 2>/dev/null)" ]
}

# __taw_version DIR is the version the built binary reports: git describe of the plugin's
# checkout (TPM clones it), else the tag in DIR/VERSION, else dev.
__taw_version() {
	local v
	v="$(git -C "$1" describe --tags --always --dirty 2>/dev/null)"
	[ -z "$v" ] && [ -r "$1/VERSION" ] && v="$(head -n 1 "$1/VERSION")"
	echo "${v:-dev}"
}

# __taw_build DIR builds the bundled binary with the Go toolchain that is installed: GOTOOLCHAIN=local,
# so an older Go fails (and says so in the log) rather than downloading a newer toolchain. Nothing
# is downloaded but Go modules missing from the module cache. CGO_ENABLED=0 makes a static binary,
# which starts sooner (no dynamic loader, no libc).
__taw_build() {
	local version
	version="$(__taw_version "$1")"
	mkdir -p "$1/bin"
	(cd "$1" && GOTOOLCHAIN=local CGO_ENABLED=0 nice -n 19 go build -trimpath -tags urfave_cli_no_docs \
		-ldflags "-X github.com/taw-tmux/taw/helper/cli.Version=$version" -o bin/taw.new ./helper) >"$1/bin/build.log" 2>&1 &&
		mv -f "$1/bin/taw.new" "$1/bin/taw"
}

# __taw_load BIN DIR [NEWS] asks BIN to load the plugin, and to say NEWS with what the load has to
# say. A taw too old to know --announce (exit 2) loads without it, and the news is said here.
__taw_load() {
	__TAW_LOADED=$1
	[ -z "${3:-}" ] && { "$1" load --plugin-dir "$2" >/dev/null 2>&1; return 0; }
	"$1" load --plugin-dir "$2" --announce "$3" >/dev/null 2>&1
	[ $? -eq 2 ] && "$1" load --plugin-dir "$2" >/dev/null 2>&1 && __taw_say "$3"
	return 0
}

# __taw_on_path prints taw on PATH, when there is one that is not the bundled binary.
__taw_on_path() {
	local p
	p="$(command -v taw 2>/dev/null)" || return 1
	[ "$p" = "$1/bin/taw" ] && return 1
	echo "$p"
}

# __taw_build_and_load DIR LOADED runs in the background: it builds the bundled binary, loads it
# and says so. LOADED is the binary loaded while it built (the older bundled one, else taw on
# PATH, "" when none), which stays when the build fails. A lock folder keeps a reload from starting a second build.
__taw_build_and_load() {
	local dir=$1 loaded=$2 lock="$1/bin/build.lock"
	mkdir -p "$dir/bin"
	if ! mkdir "$lock" 2>/dev/null; then
		# A build that is still running finishes the job; one that died leaves its lock behind.
		kill -0 "$(cat "$lock/pid" 2>/dev/null)" 2>/dev/null && return 0
		rm -rf "$lock" && mkdir "$lock" 2>/dev/null || return 0
	fi
	echo "${BASHPID:-$$}" >"$lock/pid"
	[ -z "$loaded" ] && __taw_say "building the helper in the background; it loads when done (seconds, or minutes on a busy machine)"
	if __taw_building "$dir"; then
		if __taw_lock "$dir"; then
			__taw_load "$dir/bin/taw" "$dir" "built the helper ($("$dir/bin/taw" version 2>/dev/null)) and loaded it"
			__taw_loaded "$dir/bin/taw"
			__taw_unlock "$dir"
		fi
	elif [ -n "$loaded" ]; then
		__taw_say "building the helper failed (see $dir/bin/build.log; Go 1.25 or newer is needed): still using the one loaded ($loaded)"
	else
		__taw_say "building the helper failed: see $dir/bin/build.log (Go 1.25 or newer is needed), or put a taw binary on PATH and reload"
	fi
	rm -rf "$lock"
}

# __taw_building DIR is __taw_build that says every 10 s, as long as a message shows (__taw_say),
# that it still runs and for how long, so a slow build is never silent. Its end is said after.
__taw_building() {
	local build i=0 start=$SECONDS
	__taw_build "$1" &
	build=$!
	while kill -0 "$build" 2>/dev/null; do
		sleep 1
		i=$((i + 1))
		[ $((i % 10)) -eq 0 ] && kill -0 "$build" 2>/dev/null &&
			__taw_say "still building the helper ($((SECONDS - start)) s so far); it loads when done"
	done
	wait "$build"
}

# __taw_lock DIR takes the load lock (a folder holding the holder's pid), so that two
# loads (a re-source while one runs, a build that finishes) never run at once: it waits for a
# running holder (bounded, 60 s) and takes over a lock whose holder is gone.
__taw_lock() {
	local lock i=0
	lock="$(__taw_lock_path "$1")"
	mkdir -p "$1/bin" 2>/dev/null
	until mkdir "$lock" 2>/dev/null; do
		if ! kill -0 "$(cat "$lock/pid" 2>/dev/null)" 2>/dev/null; then
			# The pid is written just after mkdir: a lock without one is only gone once it stays so.
			[ -e "$lock/pid" ] || [ $i -ge 20 ] && rm -rf "$lock"
		fi
		i=$((i + 1))
		[ $i -ge 1200 ] && return 1
		sleep 0.05
	done
	echo "${BASHPID:-$$}" >"$lock/pid"
}

__taw_unlock() { rm -rf "$(__taw_lock_path "$1")"; }

# __taw_lock_path DIR is the load lock of the tmux server taw.tmux runs in (TMUX names its
# socket): loads into two servers do not wait for each other.
__taw_lock_path() {
	echo "$1/bin/load-$(printf %s "${TMUX%%,*}" | cksum | cut -d ' ' -f 1).lock"
}

# __taw_loaded BIN marks the load as done in @agent-wizard-loaded: the binary loaded, or none
# (nothing to load yet: a build runs, or @agent-wizard-status says what is missing).
__taw_loaded() {
	command tmux set-option -gq @agent-wizard-loaded "${1:-none}"
}

# __taw_start_detached DIR is what taw.tmux runs: tmux waits for nothing of taw's. It clears
# @agent-wizard-loaded (the one tmux command run while tmux waits) and runs the load in a detached
# process, its output closed, under the load lock; the load sets @agent-wizard-loaded when done.
# The load reads the @agent-wizard-… settings when it runs, a moment after the plugin line: the
# settings set before that line are seen (TPM: before run tpm), later lines may be missed.
__taw_start_detached() {
	command tmux set-option -gqu @agent-wizard-loaded 2>/dev/null
	if command -v setsid >/dev/null 2>&1; then
		setsid bash -c '. "$1/scripts/helpers.sh" && __taw_start_locked "$1"' taw-load "$1" >/dev/null 2>&1 </dev/null &
	else
		(__taw_start_locked "$1") >/dev/null 2>&1 </dev/null &
	fi
}

# __taw_config_read waits (bounded, 10 s) until the server has a session. A server that is
# starting reads its whole tmux.conf before it makes the session it was started for, so a load
# that starts with the server sees every setting of tmux.conf, those after the plugin's line too.
__taw_config_read() {
	local i=0
	while [ -z "$(command tmux list-sessions -F x 2>/dev/null)" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

__taw_start_locked() {
	__taw_config_read
	__taw_lock "$1" || { __taw_say "another load of the plugin has run for over a minute: remove $(__taw_lock_path "$1") and reload"; __taw_loaded; return 0; }
	__TAW_LOADED=""
	__taw_start "$1"
	__taw_loaded "$__TAW_LOADED"
	__taw_unlock "$1"
}

# __taw_start DIR loads the plugin without ever making tmux wait for a build: $TAW_BIN when set,
# else the bundled binary when it is up to date; otherwise it loads what there is at once (the
# older bundled binary, else taw on PATH) and builds in the background, loading the new binary
# when it is done.
__taw_start() {
	local dir=$1 now=""
	if [ -n "${TAW_BIN:-}" ]; then
		if [ -x "$TAW_BIN" ]; then
			__taw_load "$TAW_BIN" "$dir"
			return 0
		fi
		__taw_say "TAW_BIN is $TAW_BIN, which is not an executable: fix or unset it"
		return 0
	fi
	if ! __taw_stale "$dir"; then
		__taw_load "$dir/bin/taw" "$dir"
		return 0
	fi
	if [ -x "$dir/bin/taw" ]; then
		now="$dir/bin/taw"
	else
		now="$(__taw_on_path "$dir")"
	fi
	if ! command -v go >/dev/null 2>&1; then
		if [ -n "$now" ]; then
			__taw_load "$now" "$dir"
		else
			__taw_say "Go is not installed, so the helper cannot be built: install Go and reload, or put a taw binary on PATH"
		fi
		return 0
	fi
	# With a binary to load now, it says that a build runs; without one, the build job says so
	# itself, so that not even a message keeps tmux waiting.
	[ -n "$now" ] && __taw_load "$now" "$dir" "building the helper in the background; using $now until it is done"
	# Detached, its output closed, so run-shell (and tmux's start) does not wait for it.
	if command -v setsid >/dev/null 2>&1; then
		setsid bash -c '. "$1/scripts/helpers.sh" && __taw_build_and_load "$1" "$2"' taw-build "$dir" "$now" >/dev/null 2>&1 </dev/null &
	else
		(__taw_build_and_load "$dir" "$now") >/dev/null 2>&1 </dev/null &
	fi
}
