package tmuxconf

import (
	"strings"
	"testing"
)

// A value a setting does not allow reads as its default, and is named with what is allowed.
func TestSettingsCheckedValues(t *testing.T) {
	for _, tt := range []struct {
		name, value, get string
		bad              bool
	}{
		{"@agent-wizard-watch-interval", "5ms", "1s", true},
		{"@agent-wizard-watch-interval", "500ms", "500ms", false},
		{"@agent-wizard-watch-interval", "2", "2", false}, // seconds
		{"@agent-wizard-watch-interval", "2m", "1s", true},
		{"@agent-wizard-autosave-delay", "lots", "5", true},
		{"@agent-wizard-autosave-delay", "0.5", "0.5", false},
		{"@agent-wizard-session-backups", "-4", "5", true},
		{"@agent-wizard-session-backups", "2.5", "5", true},
		{"@agent-wizard-session-backups", "100", "100", false},
		{"@agent-wizard-window-badges", "maybe", "off", true},
		{"@agent-wizard-window-badges", "ON", "ON", false},
		{"@agent-wizard-popup-key", "C-a", "C-a", false},
		{"@agent-wizard-popup-key", "two words", "A", true},
		{"@agent-wizard-restore-grace", "2h", "30s", true},
		{"@agent-wizard-status-line", "", "on", false}, // unset: the default, no problem
	} {
		s := Settings{tt.name: tt.value}
		if got := s.Get(tt.name); got != tt.get {
			t.Errorf("%s %q: Get = %q, want %q", tt.name, tt.value, got, tt.get)
		}
		problems := s.Problems()
		if tt.bad != (len(problems) == 1) {
			t.Errorf("%s %q: problems %q", tt.name, tt.value, problems)
			continue
		}
		if tt.bad && (!strings.HasPrefix(problems[0], tt.name+" is ") || !strings.HasSuffix(problems[0], ": using "+tt.get)) {
			t.Errorf("%s %q: problem %q", tt.name, tt.value, problems[0])
		}
	}
}

func TestSettingsOnAndSet(t *testing.T) {
	s := Settings{"@agent-wizard-autosave": "yes", "@agent-wizard-window-badges": "maybe", "@agent-wizard-popup-key": "C-g"}
	if !s.On("@agent-wizard-autosave") || s.On("@agent-wizard-window-badges") || !s.On("@agent-wizard-status-line") {
		t.Errorf("On: %v", s)
	}
	if !s.Set("@agent-wizard-popup-key") || s.Set("@agent-wizard-next-key") || s.Set("@agent-wizard-window-badges") {
		t.Errorf("Set: %v", s)
	}
}

// Every setting a person sets says what it allows, so a bad value can be named.
func TestEveryCheckedSettingSaysWhatItAllows(t *testing.T) {
	for _, s := range Catalogue {
		if (s.Allowed == nil) != (s.Allows == "") {
			t.Errorf("%s: Allowed and Allows go together", s.Name)
		}
		if s.Allowed != nil && s.Default != "" && !s.Allowed(s.Default) {
			t.Errorf("%s: its default %q is not allowed", s.Name, s.Default)
		}
	}
}

func TestNamedSettingsAreCatalogued(t *testing.T) {
	tests := []struct{ name, want string }{
		{SettingStatusLine, "@agent-wizard-status-line"},
		{SettingWelcome, "@agent-wizard-welcome"},
		{SettingNotify, "@agent-wizard-notify"},
		{SettingAutosave, "@agent-wizard-autosave"},
		{SettingAutosaveDelay, "@agent-wizard-autosave-delay"},
		{SettingSessionBackups, "@agent-wizard-session-backups"},
		{SettingPopupKey, "@agent-wizard-popup-key"},
		{SettingNextKey, "@agent-wizard-next-key"},
		{SettingWindowBadges, "@agent-wizard-window-badges"},
		{SettingHerdrEnv, "@agent-wizard-herdr-env"},
		{SettingHerdrSocket, "@agent-wizard-herdr-socket"},
		{SettingWatcher, "@agent-wizard-watcher"},
		{SettingWatchInterval, "@agent-wizard-watch-interval"},
		{SettingRestoreGrace, "@agent-wizard-restore-grace"},
		{BinOption, "@agent-wizard-bin"},
		{NoticeOption, "@agent-wizard-notice"},
		{SavedKeysOption, "@agent-wizard-saved-keys"},
	}
	for _, tt := range tests {
		// The names are what users type in tmux.conf: a renamed constant must not rename the option.
		if tt.name != tt.want {
			t.Errorf("setting constant = %q, want %q", tt.name, tt.want)
		}
		if _, ok := Lookup(tt.name); !ok {
			t.Errorf("%s is not in the catalogue", tt.name)
		}
	}
}
