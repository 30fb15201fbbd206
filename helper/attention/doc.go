// Package attention is what taw tells the user at a glance: the derived state done (an agent
// finished a turn nobody has looked at yet), the most urgent state of every window and session,
// and a server-wide summary, all kept in tmux options that status lines read for free. A watcher
// observer keeps them current; tmux hooks clear done as soon as the user looks at the pane.
package attention
