package agents_test

import (
	"io/fs"
	"sort"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/integration"
	"github.com/taw-tmux/taw/helper/session"
	"github.com/taw-tmux/taw/integrations"
)

// The catalogue is the one place an agent is described: every other table names its agents by
// catalogue id and takes names from it, so adding an agent is one entry here plus its rules,
// fixtures and integration.

func TestIntegrationTargetsComeFromTheCatalogue(t *testing.T) {
	targets := map[string]bool{}
	for _, tg := range integration.Targets {
		targets[tg.ID] = true
		a, ok := agents.Lookup(tg.ID)
		if !ok || a.ID != tg.ID {
			t.Errorf("integration target %q is no catalogue id", tg.ID)
			continue
		}
		if !a.Integration {
			t.Errorf("%s has an integration target but its catalogue entry says Integration: false", a.ID)
		}
		if tg.Name != a.Display {
			t.Errorf("%s: target name %q, catalogue display %q", a.ID, tg.Name, a.Display)
		}
		for _, alias := range a.Aliases {
			if got, ok := integration.Lookup(alias); !ok || got.ID != a.ID {
				t.Errorf("integration.Lookup(%q) does not find %s", alias, a.ID)
			}
		}
	}
	for _, a := range agents.Known {
		if a.Integration && !targets[a.ID] {
			t.Errorf("%s says Integration: true but has no integration target", a.ID)
		}
	}
}

func TestEmbeddedIntegrationFoldersAreCatalogueAgents(t *testing.T) {
	ents, err := fs.ReadDir(integrations.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	var dirs, want []string
	for _, e := range ents {
		if e.IsDir() && e.Name() != "lib" {
			dirs = append(dirs, e.Name())
		}
	}
	for _, a := range agents.Known {
		if a.Integration {
			want = append(want, a.ID)
		}
	}
	sort.Strings(dirs)
	sort.Strings(want)
	if strings.Join(dirs, " ") != strings.Join(want, " ") {
		t.Errorf("integration folders %v, catalogue agents with an integration %v", dirs, want)
	}
}

func TestRuleFilesAreForDetectedCatalogueAgents(t *testing.T) {
	rs, errs := detect.Load(func(string) string { return "" })
	for _, err := range errs {
		t.Error(err)
	}
	for _, id := range rs.Agents() {
		if a, ok := agents.Lookup(id); !ok || a.ID != id || !a.Detected {
			t.Errorf("rules/%s.toml is for no detected catalogue agent", id)
		}
	}
}

func TestSessionResumeReadsTheCatalogue(t *testing.T) {
	for _, a := range agents.Known {
		got := session.OwnResume(a.ID, "s-1", "/home/u/s-1.jsonl")
		if a.Resume == nil {
			if got != nil {
				t.Errorf("%s has no resume command in the catalogue, session gives %q", a.ID, got)
			}
			continue
		}
		if len(got) == 0 || got[0] != a.Resume.Program || !strings.Contains(strings.Join(got, " "), "s-1") {
			t.Errorf("%s: session resume %q, catalogue %+v", a.ID, got, *a.Resume)
		}
		for _, alias := range a.Aliases {
			if alt := session.OwnResume(alias, "s-1", ""); len(alt) == 0 || alt[0] != a.Resume.Program {
				t.Errorf("resume by alias %q: %q", alias, alt)
			}
		}
	}
}
