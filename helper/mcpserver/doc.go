// Package mcpserver serves taw's verbs as MCP tools on stdio, for a coding agent to see, start,
// prompt, answer and wait for other agents, and to split, run in and read panes. Each tool acts
// through agentctl and panectl, with their checks: no prompt typed into a dialog, only the
// dialog on screen answered, commands started without a shell. Read-only, it offers only the
// tools that change nothing.
package mcpserver
