package xdg

import "testing"

func TestBaseFolders(t *testing.T) {
	tests := []struct {
		name                string
		env                 map[string]string
		config, data, state string
	}{
		{"the variables", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s"}, "/c", "/d", "/s"},
		{"the home folder", map[string]string{"HOME": "/h"}, "/h/.config", "/h/.local/share", "/h/.local/state"},
		{"relative variables are ignored", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "c", "XDG_DATA_HOME": "./d", "XDG_STATE_HOME": "s/"}, "/h/.config", "/h/.local/share", "/h/.local/state"},
		{"no home: relative defaults", nil, ".config", ".local/share", ".local/state"},
	}
	for _, tt := range tests {
		getenv := func(k string) string { return tt.env[k] }
		if got := ConfigHome(getenv); got != tt.config {
			t.Errorf("%s: ConfigHome = %q, want %q", tt.name, got, tt.config)
		}
		if got := DataHome(getenv); got != tt.data {
			t.Errorf("%s: DataHome = %q, want %q", tt.name, got, tt.data)
		}
		if got := StateHome(getenv); got != tt.state {
			t.Errorf("%s: StateHome = %q, want %q", tt.name, got, tt.state)
		}
	}
}
