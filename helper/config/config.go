package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Config is the whole file. Every key is documented, with its default, in the README.
type Config struct {
	Session Session `toml:"session"`
}

// Session is the [session] table: save and restore.
type Session struct {
	// ResumeAgentsOnRestore: restore types each pane's resume command (default true).
	ResumeAgentsOnRestore bool `toml:"resume_agents_on_restore"`
}

// Default is the configuration with no file.
func Default() Config {
	return Config{
		Session: Session{ResumeAgentsOnRestore: true},
	}
}

// Path is where the file lives: $XDG_CONFIG_HOME/taw/config.toml, else ~/.config/taw/config.toml.
func Path(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		dir = filepath.Join(getenv("HOME"), ".config")
	}
	return filepath.Join(dir, "taw", "config.toml")
}

// Load reads the file. It always returns a usable configuration; problems say what was wrong.
func Load(getenv func(string) string) (Config, []error) {
	path := Path(getenv)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Default(), []error{fmt.Errorf("read %s: %w", path, err)}
	}
	return Parse(path, data)
}
