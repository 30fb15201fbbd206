// Package config reads taw's TOML configuration file, $XDG_CONFIG_HOME/taw/config.toml. A missing
// file is all defaults; a bad file never stops taw: Load returns the defaults for what it could not
// read, with problems that name the line.
package config
