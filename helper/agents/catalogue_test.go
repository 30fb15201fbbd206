package agents_test

import (
	"io/fs"
	"os"
	"path/filepath"
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

// tableAfter is the rows of the first table after the line holding heading.
func tableAfter(t *testing.T, page, heading string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", page))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), heading)
	if !ok {
		t.Fatalf("docs/%s has no %q", page, heading)
	}
	var rows []string
	for _, l := range strings.Split(rest, "\n")[1:] {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		} else if len(rows) > 0 {
			break
		}
	}
	return rows
}

func rowWith(rows []string, ok func(string) bool) (string, bool) {
	for _, r := range rows {
		if ok(r) {
			return r, true
		}
	}
	return "", false
}

// Every catalogue agent has its one hand-written row in the docs, in docs/detection.md's table
// of agents (what taw recognises it by, in words), and the table names no agent the catalogue
// lacks. Everything else the docs say of each agent is generated from the catalogue (see
// TestDocsTables), but for an agent whose integration is a plugin: the plugin's events are its
// own, described by hand in docs/integrations.md's table of plugin events.
func TestEveryAgentHasItsDocsRows(t *testing.T) {
	agentsTable := tableAfter(t, "detection.md", "## Agents")
	for _, r := range agentsTable[2:] {
		cells := strings.Split(r, "|")
		id := strings.Trim(strings.TrimSpace(cells[1]), "`")
		if a, ok := agents.Lookup(id); !ok || a.ID != id {
			t.Errorf("docs/detection.md: the agents table has a row for %q, which is no catalogue id", id)
		}
	}
	plugins := tableAfter(t, "integrations.md", "Where the integration is a plugin")
	versions := checkedVersions(t)
	for _, a := range agents.Known {
		id := "`" + a.ID + "`"
		if _, ok := rowWith(agentsTable, func(r string) bool { return strings.HasPrefix(r, "| "+id+" | "+a.Display+" |") }); !ok {
			t.Errorf("docs/detection.md: the agents table has no row | %s | %s | … (what taw recognises it by)", id, a.Display)
		}
		if !a.Integration || a.Hooks != nil {
			continue
		}
		row, ok := rowWith(plugins, func(r string) bool { return strings.HasPrefix(r, "| "+a.Display+" ("+id+") |") })
		if !ok {
			t.Errorf("docs/integrations.md: the table of plugin events has no row | %s (%s) | %s | … (the events its plugin reports)",
				a.Display, id, versionChecked(versions, a.ID))
		} else if got := strings.TrimSpace(strings.Split(row, "|")[2]); got != versionChecked(versions, a.ID) {
			t.Errorf("docs/integrations.md: %s's plugin row says version %q checked, tests/agents/agents.json %q", id, got, versionChecked(versions, a.ID))
		}
	}
}

// Every file an integration installs is in integrations/: an agent's hook script that was never
// written is named here, not at its first install.
func TestIntegrationFilesAreEmbedded(t *testing.T) {
	for _, tg := range integration.Targets {
		for _, f := range tg.Files {
			if f.Source == "" {
				continue
			}
			if _, err := fs.Stat(integrations.FS, f.Source); err != nil {
				t.Errorf("%s installs integrations/%s, which is not there", tg.ID, f.Source)
			}
		}
	}
}
