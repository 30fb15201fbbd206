#!/usr/bin/env bash
# taw makes tmux agent-aware. Load it with TPM (set -g @plugin '…/taw', then prefix + I) or with
# run-shell /path/to/taw/taw.tmux in tmux.conf. The work is done by the Go helper: this file only
# finds it and asks it to load. tmux never waits for a build: a missing or stale helper is built
# in the background and loaded when it is done (scripts/helpers.sh).
CURRENT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/helpers.sh
. "$CURRENT_DIR/scripts/helpers.sh"

main() {
	__taw_start_detached "$CURRENT_DIR"
}
main
