package plugins

import "strings"

// Summary is a linked plugin as taw plugin list shows it.
type Summary struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Enabled  bool     `json:"enabled"`
	Path     string   `json:"path"`
	Actions  []string `json:"actions"`
	Panes    []string `json:"panes"`
	Popups   []string `json:"popups"`
	Problems []string `json:"problems"`
}

// Summarize is p's summary: its entries named as the verbs take them (<plugin>.<entry>) and its
// problems as text.
func Summarize(p Plugin) Summary {
	s := Summary{ID: p.ID, Name: p.Manifest.Name, Version: p.Manifest.Version, Enabled: p.Enabled, Path: p.Path,
		Actions:  qualifiedIDs(p.ID, p.Manifest.Actions, func(e *Action) string { return e.ID }),
		Panes:    qualifiedIDs(p.ID, p.Manifest.Panes, func(e *Pane) string { return e.ID }),
		Popups:   qualifiedIDs(p.ID, p.Manifest.Popups, func(e *Popup) string { return e.ID }),
		Problems: []string{}}
	for _, e := range p.Problems {
		s.Problems = append(s.Problems, e.Error())
	}
	return s
}

// State is broken for a plugin with problems, else enabled or disabled.
func (s Summary) State() string {
	switch {
	case len(s.Problems) > 0:
		return "broken"
	case s.Enabled:
		return "enabled"
	}
	return "disabled"
}

// qualifiedIDs are the ids of a plugin's entries as the verbs take them: <plugin>.<entry>
// (SplitQualified reads them).
func qualifiedIDs[E any](plugin string, entries []E, idOf func(*E) string) []string {
	ids := []string{}
	for i := range entries {
		ids = append(ids, plugin+"."+idOf(&entries[i]))
	}
	return ids
}

// SplitQualified reads an entry's id as the verbs take it, <plugin>.<entry>: the plugin's id may
// hold dots, the entry's may not.
func SplitQualified(qualified string) (plugin, entry string, ok bool) {
	i := strings.LastIndex(qualified, ".")
	if i <= 0 || i == len(qualified)-1 {
		return "", "", false
	}
	return qualified[:i], qualified[i+1:], true
}
