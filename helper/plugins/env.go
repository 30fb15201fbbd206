package plugins

import (
	"path/filepath"

	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/xdg"
)

// Env is the environment of one of the plugin's processes: base cleaned by spawn.Env (nothing of
// tmux's global HERDR_* reaches it), the invocation's pane, window and session under taw's and
// herdr's names (none without a pane), the plugin's own variables under both names (so a plugin
// written for herdr runs), and extra.
func Env(getenv func(string) string, base []string, p Plugin, bin string, inv spawn.Invocation, extra map[string]string) []string {
	vars := map[string]string{
		"TAW_BIN":                 bin,
		"TAW_PLUGIN_ID":           p.ID,
		"TAW_PLUGIN_ROOT":         p.Path,
		"TAW_PLUGIN_CONFIG_DIR":   ConfigDir(getenv, p.ID),
		"TAW_PLUGIN_STATE_DIR":    StateDir(getenv, p.ID),
		"HERDR_ENV":               "1",
		"HERDR_BIN_PATH":          bin,
		"HERDR_PLUGIN_ID":         p.ID,
		"HERDR_PLUGIN_ROOT":       p.Path,
		"HERDR_PLUGIN_CONFIG_DIR": ConfigDir(getenv, p.ID),
		"HERDR_PLUGIN_STATE_DIR":  StateDir(getenv, p.ID),
	}
	for k, v := range extra {
		vars[k] = v
	}
	return spawn.Env(base, inv, vars)
}

// ConfigDir is a plugin's own configuration folder: $XDG_CONFIG_HOME/taw/plugins/<id>.
func ConfigDir(getenv func(string) string, id string) string {
	return filepath.Join(xdg.ConfigHome(getenv), "taw", "plugins", id)
}

// StateDir is a plugin's own state folder: $XDG_STATE_HOME/taw/plugins/<id>.
func StateDir(getenv func(string) string, id string) string {
	return filepath.Join(xdg.StateHome(getenv), "taw", "plugins", id)
}
