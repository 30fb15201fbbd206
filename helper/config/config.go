package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/xdg"
)

// Config is the whole file. Every key is documented, with its default, in DefaultFile and the
// README.
type Config struct {
	Session Session `toml:"session"`
	Notify  Notify  `toml:"notify"`
	Hooks   Hooks   `toml:"hooks"`
	Plugins Plugins `toml:"plugins"`
}

// Session is the [session] table: save and restore.
type Session struct {
	// ResumeAgentsOnRestore: restore types each pane's resume command (default true).
	ResumeAgentsOnRestore bool `toml:"resume_agents_on_restore"`
}

// Notify is the [notify] table: when taw tells the user about an agent, and how.
type Notify struct {
	Enabled      bool     `toml:"enabled"`
	Blocked      bool     `toml:"blocked"`
	Finished     bool     `toml:"finished"`
	RecheckDelay Duration `toml:"recheck_delay"`
	RateLimit    Duration `toml:"rate_limit"`

	TmuxMessage         bool     `toml:"tmux_message"`
	TmuxMessageDuration Duration `toml:"tmux_message_duration"`
	Bell                bool     `toml:"bell"`
	Terminal            bool     `toml:"terminal"`
	TerminalProtocol    Choice   `toml:"terminal_protocol"`
	TerminalPassthrough Choice   `toml:"terminal_passthrough"`
	Desktop             bool     `toml:"desktop"`
	Sound               bool     `toml:"sound"`
	SoundCommand        []string `toml:"sound_command"`

	// Agents turns notifications off (false) or on for one agent, by its name.
	Agents map[string]bool `toml:"agents"`
}

// AgentOn says whether notifications are on for the agent.
func (n Notify) AgentOn(agent string) bool {
	on, ok := n.Agents[agent]
	return !ok || on
}

// Hooks is the [hooks] table: the user's commands run on agent events.
type Hooks struct {
	Timeout  Duration `toml:"timeout"`
	Commands []Hook   `toml:"commands"`
}

// Hook is one [[hooks.commands]] entry.
type Hook struct {
	On      string   `toml:"on"`      // an event name, or "*" for every event
	Command []string `toml:"command"` // argv, run without a shell
}

// Plugins is the [plugins] table.
type Plugins struct {
	Enabled bool `toml:"enabled"`
}

// Event names, shared by [hooks] and plugins' [[events]].
const (
	EventStateChanged  = "state_changed"
	EventBlocked       = "blocked"
	EventFinished      = "finished"
	EventAgentAppeared = "agent_appeared"
	EventAgentGone     = "agent_gone"
	EventAny           = "*"
)

// Events lists every event, in the order the docs show them.
var Events = []string{EventStateChanged, EventBlocked, EventFinished, EventAgentAppeared, EventAgentGone}

// herdrEvents maps herdr's event names onto taw's, so a manifest written for herdr needs no edit.
var herdrEvents = map[string]string{
	"pane.agent_status_changed": EventStateChanged,
	"pane.agent_detected":       EventAgentAppeared,
}

// CanonicalEvent returns taw's name for an event name (taw's own, "*" or herdr's), ok false for
// a name that is none of them.
func CanonicalEvent(name string) (string, bool) {
	if name == EventAny {
		return name, true
	}
	for _, e := range Events {
		if e == name {
			return e, true
		}
	}
	e, ok := herdrEvents[name]
	return e, ok
}

// Default is the configuration with no file.
func Default() Config {
	return Config{
		Session: Session{ResumeAgentsOnRestore: true},
		Notify: Notify{
			Enabled:             true,
			Blocked:             true,
			Finished:            true,
			RecheckDelay:        Duration{time.Second},
			RateLimit:           Duration{5 * time.Second},
			TmuxMessage:         true,
			TmuxMessageDuration: Duration{5 * time.Second},
			Bell:                false,
			Terminal:            false,
			TerminalProtocol:    Choice{Value: "auto", allowed: terminalProtocols},
			TerminalPassthrough: Choice{Value: "auto", allowed: passthroughModes},
			Desktop:             true,
			Sound:               false,
			SoundCommand:        []string{},
			Agents:              map[string]bool{},
		},
		Hooks:   Hooks{Timeout: Duration{10 * time.Second}},
		Plugins: Plugins{Enabled: true},
	}
}

var (
	terminalProtocols = []string{"auto", "osc9", "osc777", "osc99"}
	passthroughModes  = []string{"auto", "on", "off"}
)

// Path is where the file lives: $XDG_CONFIG_HOME/taw/config.toml, else ~/.config/taw/config.toml.
func Path(getenv func(string) string) string {
	return filepath.Join(xdg.ConfigHome(getenv), "taw", "config.toml")
}

// MaxFileBytes is the largest configuration file taw reads; a config is a few KiB.
const MaxFileBytes = 1 << 20

// Load reads the file. It always returns a usable configuration; problems say what was wrong.
func Load(getenv func(string) string) (Config, []error) {
	path := Path(getenv)
	data, err := filelock.ReadFile(path, MaxFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Default(), []error{fmt.Errorf("read %s: %w", path, err)}
	}
	return Parse(path, data)
}
