// Package watch is the pane watcher: one per tmux server, it looks at every pane about once a
// second (and at once when a hook or a report wakes it), names the agent in front of each pane
// from its processes, reads the state of an agent no hook holds from its screen, clears an agent
// whose process has ended, and hands every look to the observers its Config lists (the cli names them).
package watch
