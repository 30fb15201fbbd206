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

// docLines are the table rows of a docs page (lines starting with "|", trimmed).
func docLines(t *testing.T, page string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", page))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		}
	}
	return rows
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

// Every catalogue agent has its rows in the docs' tables, and the tables say what the catalogue
// says: a new agent's missing row is named here.
func TestEveryAgentHasItsDocsRows(t *testing.T) {
	detection := docLines(t, "detection.md")
	integrations := docLines(t, "integrations.md")
	resumes := tableAfter(t, "sessions.md", "Otherwise taw uses its own command for that agent")
	stale := tableAfter(t, "integrations.md", "Which states each agent's hooks can leave standing")
	for _, a := range agents.Known {
		id := "`" + a.ID + "`"
		if _, ok := rowWith(detection, func(r string) bool { return strings.HasPrefix(r, "| "+id+" | "+a.Display+" |") }); !ok {
			t.Errorf("docs/detection.md: no row | %s | %s | … in the agents table", id, a.Display)
		}
		if a.Resume != nil {
			if _, ok := rowWith(resumes, func(r string) bool { return strings.Contains(r, id) && strings.Contains(r, a.Resume.Arg) }); !ok {
				t.Errorf("docs/sessions.md: the resume table has no row for %s with %q", id, a.Resume.Arg)
			}
		}
		if !a.Integration {
			continue
		}
		row, ok := rowWith(integrations, func(r string) bool { return strings.HasPrefix(r, "| "+a.Display+" ("+id) })
		if !ok {
			t.Errorf("docs/integrations.md: the agents table has no row | %s (%s) | …", a.Display, id)
		} else if a.Resume != nil {
			cmd := "`" + a.Resume.Program + " " + a.Resume.Arg
			if !a.Resume.Glued {
				cmd += " "
			}
			if !strings.Contains(row, cmd) {
				t.Errorf("docs/integrations.md: %s's row does not give its resume command as the catalogue does (%s…`)", id, cmd)
			}
		}
		if _, ok := rowWith(integrations, func(r string) bool { return strings.HasPrefix(r, "| "+id+" | ") }); !ok {
			t.Errorf("docs/integrations.md: the table of where each integration goes has no row | %s | …", id)
		}
		want := "none"
		if stands := a.Stands(); len(stands) > 0 {
			var parts []string
			for _, st := range stands {
				parts = append(parts, st+" → "+strings.Join(a.Corrections[st], ", "))
			}
			want = strings.Join(parts, "; ")
		}
		row, ok = rowWith(stale, func(r string) bool { return strings.Contains(strings.Split(r, "|")[1], id) })
		if !ok {
			t.Errorf("docs/integrations.md: the table of states hooks leave standing has no row naming %s (catalogue: %s)", id, want)
		} else if got := strings.TrimSpace(strings.Split(row, "|")[2]); got != want {
			t.Errorf("docs/integrations.md: %s's hooks leave %q standing, the catalogue's Corrections say %q", id, got, want)
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
