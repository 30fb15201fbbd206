// Package integration installs, removes and reports taw's integrations for coding agents: the
// hook scripts and plugins under integrations/, and the entries in each agent's own config that
// load them. Config edits are functions over bytes that change only what taw adds, so an
// uninstall gives back the file as it was. It also sets tmux's global environment for agents
// that report to herdr themselves (herdrenv.go).
package integration
