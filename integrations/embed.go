// Package integrations holds the hook scripts and plugins taw installs into coding agents, one
// folder per agent, and the code they share under lib/. `taw integration install` writes them
// out of this embedded copy.
package integrations

import "embed"

// FS is every folder here: each agent's and lib/. Files starting with an underscore
// (Hermes's __init__.py) are kept too.
//
//go:embed all:*
var FS embed.FS
