#!/usr/bin/env bash
# taw makes tmux agent-aware. Load it with TPM (set -g @plugin '…/taw', then prefix + I) or with
# run-shell /path/to/taw/taw.tmux in tmux.conf. The work is done by the Go helper: this file only
# finds (or builds) it and asks it to load.
CURRENT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/helpers.sh
. "$CURRENT_DIR/scripts/helpers.sh"

main() {
	local bin
	bin="$(__taw_find_helper "$CURRENT_DIR")" || return 0
	"$bin" load --plugin-dir "$CURRENT_DIR" >/dev/null 2>&1 || true
}
main
