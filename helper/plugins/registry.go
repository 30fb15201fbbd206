package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/xdg"
)

// Entry is one linked plugin in the registry.
type Entry struct {
	ID      string `json:"id"`
	Path    string `json:"path"` // the plugin's folder, absolute
	Enabled bool   `json:"enabled"`
}

// Registry is the file of linked plugins.
type Registry struct {
	Version int     `json:"version"`
	Plugins []Entry `json:"plugins"`
}

// RegistryPath is $XDG_DATA_HOME/taw/plugins.json, else ~/.local/share/taw/plugins.json.
func RegistryPath(getenv func(string) string) string {
	return filepath.Join(xdg.DataHome(getenv), "taw", "plugins.json")
}

// ReadRegistry reads the registry; a missing file is an empty one.
func ReadRegistry(path string) (Registry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Registry{Version: 1}, nil
	}
	if err != nil {
		return Registry{}, err
	}
	var r Registry
	if err := json.Unmarshal(data, &r); err != nil {
		return Registry{}, fmt.Errorf("%s is not a plugin registry (%v): fix it or remove it, then link your plugins again", path, err)
	}
	return r, nil
}

// WriteRegistry writes the registry atomically: a temporary file beside it, synced, renamed over
// it, so a crash leaves the old registry or the new one, never half of one.
func WriteRegistry(path string, r Registry) error {
	r.Version = 1
	sort.Slice(r.Plugins, func(i, j int) bool { return r.Plugins[i].ID < r.Plugins[j].ID })
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return filelock.WriteAtomic(path, append(data, '\n'), 0o600)
}

// Find returns the entry with the id.
func (r Registry) Find(id string) (int, bool) {
	for i, e := range r.Plugins {
		if e.ID == id {
			return i, true
		}
	}
	return -1, false
}

// Plugin is a linked plugin with its manifest read.
type Plugin struct {
	Entry
	Manifest Manifest
	Problems []error // a plugin with problems is listed but never run
}

// OK says whether the plugin can run.
func (p Plugin) OK() bool { return len(p.Problems) == 0 }

// Load reads every linked plugin's manifest.
func Load(getenv func(string) string) ([]Plugin, error) {
	reg, err := ReadRegistry(RegistryPath(getenv))
	if err != nil {
		return nil, err
	}
	out := make([]Plugin, 0, len(reg.Plugins))
	for _, e := range reg.Plugins {
		m, problems := ReadManifest(e.Path)
		if len(problems) == 0 && m.ID != e.ID {
			problems = []error{fmt.Errorf("%s: the manifest's id is %q now, but the plugin was linked as %q: link it again", filepath.Join(e.Path, ManifestName), m.ID, e.ID)}
		}
		out = append(out, Plugin{Entry: e, Manifest: m, Problems: problems})
	}
	return out, nil
}

// Runnable is the enabled plugins without problems.
func Runnable(all []Plugin) []Plugin {
	var out []Plugin
	for _, p := range all {
		if p.Enabled && p.OK() {
			out = append(out, p)
		}
	}
	return out
}

// Live keeps the linked plugins of a long-running process, read again when the registry or a
// manifest changes.
type Live struct {
	Getenv func(string) string

	mu      sync.Mutex
	sig     string
	plugins []Plugin
}

// Get returns the runnable plugins.
func (l *Live) Get() []Plugin {
	l.mu.Lock()
	defer l.mu.Unlock()
	getenv := l.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	sig := stamp(RegistryPath(getenv))
	for _, p := range l.plugins {
		sig += stamp(filepath.Join(p.Path, ManifestName))
	}
	if sig == l.sig && l.plugins != nil {
		return Runnable(l.plugins)
	}
	all, err := Load(getenv)
	if err != nil {
		all = []Plugin{}
	}
	l.plugins = all
	l.sig = stamp(RegistryPath(getenv))
	for _, p := range all {
		l.sig += stamp(filepath.Join(p.Path, ManifestName))
	}
	return Runnable(all)
}

func stamp(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return path + ":-;"
	}
	return fmt.Sprintf("%s:%d:%d;", path, st.Size(), st.ModTime().UnixNano())
}
