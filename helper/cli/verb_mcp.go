package cli

import (
	"github.com/taw-tmux/taw/helper/mcpserver"
	"github.com/urfave/cli/v2"
)

const flagReadOnly = "read-only"

func mcpVerb(f *Factory) *cli.Command {
	return verb("mcp", "[--read-only]", "serve taw's verbs as MCP tools on stdin and stdout, for a coding agent (docs/orchestration.md)",
		f.mcp, &cli.BoolFlag{Name: flagReadOnly, Usage: "offer only the tools that change nothing (list, get, read, wait)"})
}

func (f *Factory) mcp(c *cli.Context) error {
	if positional, after, _ := splitArgs(c); len(positional)+len(after) > 0 {
		return UsageErrorf("mcp takes no arguments: taw mcp [--read-only]")
	}
	return mcpserver.Run(c.Context, mcpserver.Options{
		Tmux: f.Tmux(), LockDir: f.LockDir(), CallerPane: f.Getenv("TMUX_PANE"),
		ReadOnly: c.Bool(flagReadOnly), Version: Version,
	})
}
