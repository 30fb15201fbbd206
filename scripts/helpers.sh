# Shell glue shared by taw.tmux and scripts/: finding the helper binary. Sourced, not run.

# __taw_message says something on the status line and keeps it in @agent-wizard-status, where it
# can still be read when no client was attached to see it.
__taw_message() {
	command tmux set-option -gq @agent-wizard-status "taw: $*" \; display-message "taw: $*"
}

# __taw_stale DIR: the bundled binary is missing or older than the sources it is built from.
__taw_stale() {
	[ ! -x "$1/bin/taw" ] && return 0
	[ -n "$(find "$1/helper" "$1/integrations" "$1/go.mod" "$1/go.sum" -newer "$1/bin/taw" -print -quit 2>/dev/null)" ]
}

# __taw_build DIR: build the bundled binary with the Go toolchain (nothing is downloaded but Go
# modules, and only when they are not in the module cache yet).
__taw_build() {
	mkdir -p "$1/bin"
	(cd "$1" && go build -trimpath -tags urfave_cli_no_docs -o bin/taw.new ./helper) >"$1/bin/build.log" 2>&1 &&
		mv -f "$1/bin/taw.new" "$1/bin/taw"
}

# __taw_find_helper DIR prints the taw binary to run: $TAW_BIN when set, else the bundled one
# (built when missing or stale), else taw on PATH. It says on the status line what is wrong.
__taw_find_helper() {
	local dir=$1
	if [ -n "${TAW_BIN:-}" ]; then
		[ -x "$TAW_BIN" ] && { echo "$TAW_BIN"; return 0; }
		__taw_message "TAW_BIN is $TAW_BIN, which is not an executable: fix or unset it"
		return 1
	fi
	if __taw_stale "$dir"; then
		if command -v go >/dev/null 2>&1; then
			__taw_message "building the helper, once (a few seconds)…"
			if ! __taw_build "$dir"; then
				__taw_message "building the helper failed: see $dir/bin/build.log"
				[ -x "$dir/bin/taw" ] || return 1
			fi
		elif [ ! -x "$dir/bin/taw" ]; then
			if command -v taw >/dev/null 2>&1; then
				command -v taw
				return 0
			fi
			__taw_message "Go is not installed, so the helper cannot be built: install Go and reload, or put a taw binary on PATH"
			return 1
		fi
	fi
	echo "$dir/bin/taw"
}
