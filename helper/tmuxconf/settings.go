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
	{Name: "@agent-wizard-notify", Default: "", Doc: "on or off: turns notifications on or off, winning over [notify] enabled in the config file; unset follows the file"},
	{Name: "@agent-wizard-autosave", Default: "off", Doc: "on: save every session automatically (as the save named default) a few quiet seconds after tmux changes a session, window or pane or an agent comes, goes or reports a new session"},
	{Name: "@agent-wizard-autosave-delay", Default: "5", Doc: "seconds of quiet an automatic save waits for after the last change (0 to 3600)"},
	{Name: "@agent-wizard-session-backups", Default: "5", Doc: "how many earlier copies of each save taw session save and automatic saves keep (NAME.json.1 the newest; 0 to 100)"},
	{Name: "@agent-wizard-restore-programs", Default: "", Doc: "which programs a restore starts again besides agents: tmux-resurrect's default list (vi vim nvim emacs man less more tail top htop irssi weechat mutt) plus your words (a name, ~text for any command line holding it, name->command to start another command, name->command * to keep the saved arguments), all, or none; unset reads @resurrect-processes"},
	{Name: "@agent-wizard-save-pane-contents", Default: "off", Doc: "on: every save keeps each pane's visible contents and scrollback (colours kept, compressed, in the save itself), and a restore shows them in the pane before its shell prompt"},
	{Name: "@agent-wizard-pane-contents-lines", Default: "2000", Doc: "how many lines of scrollback a save keeps above each pane's visible contents (0 to 100000; 2000 is tmux's default history-limit)"},
	{Name: "@agent-wizard-restore-on-start", Default: "off", Doc: "on: when a tmux server starts with the plugin and holds only its first, untouched session, restore the save named default; replace: the same, then that first session goes"},
	{Name: "@agent-wizard-restored", Default: "", Doc: "set by the restore on start (server option): what it restored, or why it did not; a server restores on start only once"},
	{Name: "@agent-wizard-popup-key", Default: "A", Doc: "the key (after the prefix) that opens the agents popup; none: no key"},
	{Name: "@agent-wizard-next-key", Default: "N", Doc: "the key (after the prefix) that goes to the next agent that needs you (blocked, then done); none: no key"},
	{Name: "@agent-wizard-window-badges", Default: "off", Doc: "on: append each window's agent badge to window-status-format and window-status-current-format (taken out again when off)"},
	{Name: "@agent-wizard-herdr-env", Default: "off", Doc: "on: set HERDR_ENV, HERDR_BIN_PATH and HERDR_PANE_ID=%calling in tmux's global environment so agents that report to herdr report to taw"},
	{Name: "@agent-wizard-watcher", Default: "on", Doc: "on: the plugin starts one pane watcher per server, which names the agent in each pane and reads its state from the screen; off: it stops it"},
	{Name: "@agent-wizard-watch-interval", Default: "1s", Doc: "how often the watcher looks at every pane (a Go duration from 100ms to 1m, or seconds); hooks and reports wake it sooner"},
	{Name: "@agent-wizard-restore-grace", Default: "30s", Doc: "how long a record a restore put back survives while the pane's shell is still at its prompt waiting for the typed command"},
	{Name: "@agent-wizard-watcher-pid", Default: "", Doc: "set by the watcher (server option): the process id of the server's running watcher"},
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
