// Package agents is taw's catalogue of the coding agents it knows, the one place each agent is
// described: its canonical name (the id used in options, JSON, rule files and integration
// folders), the name shown to people, the aliases it goes by, the program and package names it
// is recognised by in a pane, the command that reopens one of its sessions, whether taw ships
// an integration for it and, for a hook integration, what its hooks report (Hooks). Every other
// table (integration targets, the hook rules, session resume, rule files, the docs' tables)
// reads it or refers to it by id; tests check that they do.
package agents
