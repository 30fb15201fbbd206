// Package integrations holds the hook scripts and plugins taw installs into coding agents, one
// folder per agent, and the code they share under lib/. `taw integration install` writes them
// out of this embedded copy.
package integrations

import "embed"

// FS is every agent's folder and lib/. Hermes's __init__.py is named on its own, since a
// folder pattern skips files that start with an underscore.
//
//go:embed lib claude codex copilot cursor droid gemini grok kimi qodercli devin kilo pi omp
//go:embed opencode/v1 opencode/v2 hermes/plugin.yaml hermes/__init__.py
var FS embed.FS
