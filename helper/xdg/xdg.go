// Package xdg is the one reading of the XDG base directory rules: where the user's
// configuration, data and state go. A variable counts only when it holds an absolute path, as the
// specification says; otherwise the folder is the default under $HOME.
package xdg

import "path/filepath"

// ConfigHome is $XDG_CONFIG_HOME, else ~/.config.
func ConfigHome(getenv func(string) string) string {
	return base(getenv, "XDG_CONFIG_HOME", ".config")
}

// DataHome is $XDG_DATA_HOME, else ~/.local/share.
func DataHome(getenv func(string) string) string {
	return base(getenv, "XDG_DATA_HOME", ".local", "share")
}

// StateHome is $XDG_STATE_HOME, else ~/.local/state.
func StateHome(getenv func(string) string) string {
	return base(getenv, "XDG_STATE_HOME", ".local", "state")
}

func base(getenv func(string) string, name string, underHome ...string) string {
	if d := getenv(name); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(append([]string{getenv("HOME")}, underHome...)...)
}
