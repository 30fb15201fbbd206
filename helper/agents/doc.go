// Package agents is taw's catalogue of the coding agents it knows, the one place each agent is
// described: its canonical name (the id used in options, JSON, rule files and integration
// folders), the name shown to people, the aliases it goes by, the program and package names it
// is recognised by in a pane, the command that reopens one of its sessions, and whether taw ships
// an integration for it. Every other table (integration targets, session resume, rule files)
// refers to it by id; a test checks that they do.
package agents
