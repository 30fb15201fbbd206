package tmuxconf

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/tmux"
)

// Setting is one @agent-wizard-… option: its name, its default, what it does and what it allows.
// The options table in docs/setup.md mirrors this catalogue.
type Setting struct {
	Name    string
	Default string
	Doc     string
	// Allowed checks a value that is set (not empty); nil allows anything. A value it refuses is
	// named on load with Allows, and the default is used in its place.
	Allowed func(v string) bool
	Allows  string // what Allowed accepts, in words: "on or off"
}

// Catalogue lists every setting. Each feature adds its own entries here, in the order the docs
// show them.
var Catalogue = []Setting{
	{Name: BinOption, Default: "", Doc: "set by the plugin: the absolute path of the taw binary it runs, for other plugins and scripts"},
	{Name: StatusOption, Default: "", Doc: "set by the plugin: what the last load had to say (a build, a bad setting, a key left alone); unset when all is well"},
	{Name: LoadedOption, Default: "", Doc: "set by the plugin when a load is done: the binary it loaded, or none (a first build is under way, or nothing could be loaded: @agent-wizard-status says why); wait for it after sourcing taw.tmux"},
	{Name: SettingStatusLine, Default: "on", Doc: "on: append #{@agent-wizard-summary} (the agents' counts, empty without agents) to status-right; off: take it out again", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingWelcome, Default: "on", Doc: "on: the first load in a server says how to see your agents; off: it says nothing", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingNotify, Default: "", Doc: "on or off: turns notifications on or off, winning over [notify] enabled in the config file; unset follows the file", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingAutosave, Default: "off", Doc: "on: save every session automatically (as the save named default) a few quiet seconds after tmux changes a session, window or pane or an agent comes, goes or reports a new session", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingAutosaveDelay, Default: "5", Doc: "seconds of quiet an automatic save waits for after the last change (0 to 3600)", Allowed: numberIn(0, 3600, false), Allows: "a number of seconds from 0 to 3600"},
	{Name: SettingSessionBackups, Default: "5", Doc: "how many earlier copies of each save taw session save and automatic saves keep (NAME.json.1 the newest; 0 to 100)", Allowed: numberIn(0, 100, true), Allows: "a whole number from 0 to 100"},
	{Name: SettingRestorePrograms, Default: "", Doc: "which programs a restore starts again besides agents: tmux-resurrect's default list (vi vim nvim emacs man less more tail top htop irssi weechat mutt) plus your words (a name, ~text for any command line holding it, name->command to start another command, name->command * to keep the saved arguments), all, or none; unset reads @resurrect-processes"},
	{Name: SettingRestoreVimSessions, Default: "off", Doc: "on: a save records the Session.vim in a vim's folder when you own it and no one else can write it or its folder, and a restore starts that vim with -S and the file, checked again; off: vim starts again with exactly its saved arguments", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingSavePaneContents, Default: "off", Doc: "on: every save keeps each pane's visible contents and scrollback (colours kept, compressed, in the save itself), and a restore shows them in the pane before its shell prompt", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingPaneContentsLines, Default: "2000", Doc: "how many lines of scrollback a save keeps above each pane's visible contents (0 to 100000; 2000 is tmux's default history-limit)", Allowed: numberIn(0, 100000, true), Allows: "a whole number from 0 to 100000"},
	{Name: SettingRestoreOnStart, Default: "off", Doc: "on: when a tmux server starts with the plugin and holds only its first, untouched session, restore the save named default; replace: the same, then that first session goes", Allowed: func(v string) bool { return isSwitch(v) || v == "replace" }, Allows: "on, off or replace"},
	{Name: RestoredOption, Default: "", Doc: "set by the restore on start (server option): what it restored, or why it did not; a server restores on start only once"},
	{Name: SettingPopupKey, Default: "A", Doc: "the key (after the prefix) that opens the agents popup; none: no key", Allowed: isKey, Allows: keyWords},
	{Name: SettingNextKey, Default: "N", Doc: "the key (after the prefix) that goes to the next agent that needs you (blocked, then done); none: no key", Allowed: isKey, Allows: keyWords},
	{Name: SettingWindowBadges, Default: "off", Doc: "on: append each window's agent badge to window-status-format and window-status-current-format (taken out again when off)", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingHerdrEnv, Default: "off", Doc: "on: set HERDR_ENV, HERDR_BIN_PATH and HERDR_PANE_ID=%calling in tmux's global environment so agents that report to herdr report to taw", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingHerdrSocket, Default: "off", Doc: "on: serve herdr's socket protocol on a private socket and set HERDR_SOCKET_PATH beside the three herdr-env variables (which on implies), so agents and hooks that report to herdr through its socket report to taw", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingWatcher, Default: "on", Doc: "on: the plugin starts one pane watcher per server, which names the agent in each pane and reads its state from the screen; off: it stops it", Allowed: isSwitch, Allows: switchWords},
	{Name: SettingWatchInterval, Default: "1s", Doc: "how often the watcher looks at every pane (a Go duration from 100ms to 1m, or seconds), up to four times as often while an agent works or is blocked; hooks, reports and an agent that ends wake it sooner", Allowed: durationIn(100*time.Millisecond, time.Minute), Allows: "a duration from 100ms to 1m, such as 1s or 500ms, or a number of seconds"},
	{Name: SettingRestoreGrace, Default: "30s", Doc: "how long a record a restore put back survives while the pane's shell is still at its prompt waiting for the typed command", Allowed: durationIn(0, time.Hour), Allows: "a duration from 0s to 1h, such as 30s, or a number of seconds"},
	{Name: WatcherPidOption, Default: "", Doc: "set by the watcher (server option): the process id of the server's running watcher"},
	{Name: NoticeOption, Default: "", Doc: "set by the plugin: what a load had to say while no client was attached; the first client to attach shows it once"},
	{Name: SavedKeysOption, Default: "", Doc: "set by the plugin: your own bindings of the keys you chose in the …-key settings, bound back by taw unload"},
}

// The settings' names, for the code that reads them; what each does is in the Catalogue.
const (
	SettingStatusLine     = "@agent-wizard-status-line"
	SettingWelcome        = "@agent-wizard-welcome"
	SettingNotify         = "@agent-wizard-notify"
	SettingAutosave       = "@agent-wizard-autosave"
	SettingAutosaveDelay  = "@agent-wizard-autosave-delay"
	SettingSessionBackups = "@agent-wizard-session-backups"
	SettingPopupKey       = "@agent-wizard-popup-key"
	SettingNextKey        = "@agent-wizard-next-key"
	SettingWindowBadges   = "@agent-wizard-window-badges"
	SettingHerdrEnv       = "@agent-wizard-herdr-env"
	SettingHerdrSocket    = "@agent-wizard-herdr-socket"
	SettingWatcher        = "@agent-wizard-watcher"
	SettingWatchInterval  = "@agent-wizard-watch-interval"
	SettingRestoreGrace   = "@agent-wizard-restore-grace"

	SettingRestorePrograms    = "@agent-wizard-restore-programs"
	SettingSavePaneContents   = "@agent-wizard-save-pane-contents"
	SettingRestoreVimSessions = "@agent-wizard-restore-vim-sessions"
	SettingPaneContentsLines  = "@agent-wizard-pane-contents-lines"
	SettingRestoreOnStart     = "@agent-wizard-restore-on-start"
)

// The options taw sets for itself (server options), beside BinOption, NoticeOption and
// SavedKeysOption; what each says is in the Catalogue.
const (
	StatusOption     = "@agent-wizard-status"
	LoadedOption     = "@agent-wizard-loaded"
	RestoredOption   = "@agent-wizard-restored"
	WatcherPidOption = "@agent-wizard-watcher-pid"
)

// BinOption is where the plugin publishes the taw binary it runs.
const BinOption = "@agent-wizard-bin"

const (
	switchWords = "on or off"
	keyWords    = "a tmux key name such as A, M-a or F5, or none"
)

// Lookup finds a setting in the catalogue.
func Lookup(name string) (Setting, bool) {
	for _, s := range Catalogue {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}

// Settings are the values of the catalogue's options as tmux holds them.
type Settings map[string]string

// Get is a setting's value: its default when unset, empty or not one the setting allows.
func (s Settings) Get(name string) string {
	v := strings.TrimSpace(s[name])
	d, _ := Lookup(name)
	if v == "" || (d.Allowed != nil && !d.Allowed(v)) {
		return d.Default
	}
	return v
}

// Set says whether the person set the setting to a value it allows (not left to its default).
func (s Settings) Set(name string) bool {
	v := strings.TrimSpace(s[name])
	d, _ := Lookup(name)
	return v != "" && (d.Allowed == nil || d.Allowed(v))
}

// On says whether a setting reads as on (on, yes, true, 1).
func (s Settings) On(name string) bool {
	switch strings.ToLower(s.Get(name)) {
	case "on", "yes", "true", "1":
		return true
	}
	return false
}

// Problems names every setting whose value is not one it allows, with what is allowed and the
// default used instead, in catalogue order.
func (s Settings) Problems() []string {
	var out []string
	for _, d := range Catalogue {
		v := strings.TrimSpace(s[d.Name])
		if v == "" || d.Allowed == nil || d.Allowed(v) {
			continue
		}
		use := d.Default
		if use == "" {
			use = "unset"
		}
		out = append(out, fmt.Sprintf("%s is %q, which is not %s: using %s", d.Name, v, d.Allows, use))
	}
	return out
}

func isSwitch(v string) bool {
	switch strings.ToLower(v) {
	case "on", "off", "yes", "no", "true", "false", "1", "0":
		return true
	}
	return false
}

// isKey allows what tmux reads as one key, as its key-string.c does: none, or C-, M-, S- (or ^)
// before one printable character or one of tmux's key names (F1 to F12, Enter, Up, ...).
// Anything else would make tmux refuse the binding, and with it the load's other keys.
func isKey(v string) bool {
	if strings.EqualFold(v, "none") {
		return true
	}
	if len(v) > 1 && v[0] == '^' {
		v = v[1:]
	}
	for len(v) > 2 && v[1] == '-' && strings.ContainsRune("CcMmSs", rune(v[0])) {
		v = v[2:]
	}
	if r := []rune(v); len(r) == 1 {
		return r[0] > ' ' && r[0] != 0x7f && r[0] != utf8.RuneError
	}
	for _, name := range keyNames {
		if strings.EqualFold(v, name) {
			return true
		}
	}
	return false
}

// keyNames are the key names every tmux from 3.2a on reads.
var keyNames = strings.Fields("F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12 IC Insert DC Delete Home End NPage PageDown PgDn " +
	"PPage PageUp PgUp Tab BTab Space BSpace Enter Escape Up Down Left Right KP/ KP* KP- KP7 KP8 KP9 KP+ KP4 KP5 KP6 " +
	"KP1 KP2 KP3 KPEnter KP0 KP.")

// tawOwn are the @agent-wizard-… options taw sets for itself beyond the catalogue (a prefix ends
// in -): never the person's misspelling.
var tawOwn = []string{"@agent-wizard-summary", "@agent-wizard-summary-plain", "@agent-wizard-state", "@agent-wizard-count-", "@agent-wizard-wake-"}

// OptionProblems reads the global options as show-options -g prints them (one "name value" a
// line) and names what Problems cannot see: an @agent-wizard-… setting set to nothing (the
// default is used), and a name taw does not know that is one or two letters from one it does.
func OptionProblems(showOptions string) []string {
	var out []string
	for _, line := range strings.Split(showOptions, "\n") {
		name, value, _ := strings.Cut(line, " ")
		if !strings.HasPrefix(name, "@agent-wizard-") {
			continue
		}
		if d, ok := Lookup(name); ok {
			if d.Allowed != nil && (value == "''" || value == `""`) && d.Default != "" {
				out = append(out, fmt.Sprintf("%s is empty, which is not %s: using %s", name, d.Allows, d.Default))
			}
			continue
		}
		if isTawOwn(name) {
			continue
		}
		if near := nearestSetting(name); near != "" {
			out = append(out, fmt.Sprintf("%s is not a setting of taw: did you mean %s? (it is left alone)", name, near))
		}
	}
	return out
}

func isTawOwn(name string) bool {
	for _, own := range tawOwn {
		if name == own || (strings.HasSuffix(own, "-") && strings.HasPrefix(name, own)) {
			return true
		}
	}
	return false
}

// nearestSetting is the catalogue's setting at most two edits from name, or "".
func nearestSetting(name string) string {
	best, bestD := "", 3
	for _, d := range Catalogue {
		if dist := editDistance(name, d.Name); dist < bestD {
			best, bestD = d.Name, dist
		}
	}
	return best
}

// editDistance counts the letters to insert, delete, change or swap with their neighbour to
// make a into b.
func editDistance(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func numberIn(lo, hi float64, whole bool) func(string) bool {
	return func(v string) bool {
		if whole {
			n, err := strconv.Atoi(v)
			return err == nil && float64(n) >= lo && float64(n) <= hi
		}
		n, err := strconv.ParseFloat(v, 64)
		return err == nil && n >= lo && n <= hi
	}
}

// durationIn allows a Go duration (1s, 500ms) or a plain number of seconds within [lo, hi].
func durationIn(lo, hi time.Duration) func(string) bool {
	return func(v string) bool {
		d, err := time.ParseDuration(v)
		if err != nil {
			n, err2 := strconv.ParseFloat(v, 64)
			if err2 != nil {
				return false
			}
			d = time.Duration(n * float64(time.Second))
		}
		return d >= lo && d <= hi
	}
}

// ReadSettings reads every setting of the catalogue from tmux's global options in one call.
func ReadSettings(ctx context.Context, c *tmux.Client) (Settings, error) {
	parts := make([]string, len(Catalogue))
	for i, s := range Catalogue {
		parts[i] = tmux.Text(s.Name)
	}
	out, err := c.Output(ctx, "display-message", "-p", tmux.Row(parts...))
	if err != nil {
		return nil, err
	}
	vals := tmux.DecodeRow(out)
	settings := Settings{}
	for i, s := range Catalogue {
		if i < len(vals) {
			settings[s.Name] = vals[i]
		}
	}
	return settings, nil
}
