package tmuxconf

import (
	"context"
	"strings"

	"github.com/taw-tmux/taw/helper/tmux"
)

// Setting is one @agent-wizard-… option: its name, its default and what it does. The README's
// option table mirrors this catalogue.
type Setting struct {
	Name    string
	Default string
	Doc     string
}

// Catalogue lists every setting. Each feature adds its own entries here, in the order the README
// shows them.
var Catalogue = []Setting{
	{Name: "@agent-wizard-bin", Default: "", Doc: "set by the plugin: the absolute path of the taw binary it runs, for other plugins and scripts"},
	{Name: "@agent-wizard-herdr-env", Default: "off", Doc: "on: set HERDR_ENV, HERDR_BIN_PATH and HERDR_PANE_ID=%calling in tmux's global environment so agents that report to herdr report to taw"},
}

// Lookup finds a setting in the catalogue.
func Lookup(name string) (Setting, bool) {
	for _, s := range Catalogue {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}

// Settings are the values of the catalogue's options, defaults filled in.
type Settings map[string]string

// Get is a setting's value, its default when unset or empty.
func (s Settings) Get(name string) string {
	if v := s[name]; v != "" {
		return v
	}
	d, _ := Lookup(name)
	return d.Default
}

// On says whether a setting reads as on (on, yes, true, 1).
func (s Settings) On(name string) bool {
	switch strings.ToLower(strings.TrimSpace(s.Get(name))) {
	case "on", "yes", "true", "1":
		return true
	}
	return false
}

const sep = "\x1f"

// ReadSettings reads every setting of the catalogue from tmux's global options in one call.
func ReadSettings(ctx context.Context, c *tmux.Client) (Settings, error) {
	parts := make([]string, len(Catalogue))
	for i, s := range Catalogue {
		parts[i] = "#{" + s.Name + "}"
	}
	out, err := c.Output(ctx, "display-message", "-p", strings.Join(parts, sep))
	if err != nil {
		return nil, err
	}
	vals := strings.Split(out, sep)
	settings := Settings{}
	for i, s := range Catalogue {
		if i < len(vals) {
			settings[s.Name] = vals[i]
		}
	}
	return settings, nil
}
