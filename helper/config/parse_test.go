package config

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name       string
		file       string
		wantResume bool
		wantErr    string // substring of the only problem; "" for none
	}{
		{"empty file is defaults", "", true, ""},
		{"resume off", "[session]\nresume_agents_on_restore = false\n", false, ""},
		{"unknown key keeps the known ones", "[session]\nresume_agents_on_restore = false\nbogus = 1\n", false, "cfg.toml:3: unknown key session.bogus"},
		{"bad value falls back to defaults", "[session]\n\nresume_agents_on_restore = \"no\"\n", true, "cfg.toml:3:"},
		{"broken syntax", "[session\n", true, "cfg.toml:1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, problems := Parse("cfg.toml", []byte(tt.file))
			if cfg.Session.ResumeAgentsOnRestore != tt.wantResume {
				t.Errorf("resume_agents_on_restore = %v, want %v", cfg.Session.ResumeAgentsOnRestore, tt.wantResume)
			}
			switch {
			case tt.wantErr == "" && len(problems) > 0:
				t.Errorf("unexpected problems: %v", problems)
			case tt.wantErr != "" && (len(problems) != 1 || !strings.Contains(problems[0].Error(), tt.wantErr)):
				t.Errorf("problems = %v, want one containing %q", problems, tt.wantErr)
			}
		})
	}
}
