package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every pinned agent is well formed and has screen rules, so the live suite checks something for
// each.
func TestPinned(t *testing.T) {
	list, err := Pinned()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) < 12 {
		t.Errorf("%d agents pinned, want the twelve npm-installable ones at least", len(list))
	}
	seen := map[string]bool{}
	for _, a := range list {
		if seen[a.ID] {
			t.Errorf("%s pinned twice", a.ID)
		}
		seen[a.ID] = true
		for _, p := range a.Packages {
			if v := p[strings.LastIndex(p, "@")+1:]; v == "" || v == "latest" || strings.ContainsAny(v, "^~*x") {
				t.Errorf("%s: %s is not an exact version", a.ID, p)
			}
		}
		rules := filepath.Join("..", "..", "helper", "detect", "rules", a.ID+".toml")
		if _, err := os.Stat(rules); err != nil {
			t.Errorf("%s has no rules file: %v", a.ID, err)
		}
	}
}
