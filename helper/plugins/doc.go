// Package plugins reads taw plugins: a folder with a taw-plugin.toml manifest (actions, startup
// commands, event hooks, panes and popups) and the registry of linked plugins,
// $XDG_DATA_HOME/taw/plugins.json. Running a plugin's commands is package spawn's job; opening
// its panes and popups is the cli's.
package plugins
