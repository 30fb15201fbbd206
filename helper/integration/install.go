package integration

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/xdg"
)

// States status reports.
const (
	StateInstalled    = "installed"
	StateNotInstalled = "not installed"
	StateOutdated     = "outdated"
)

// Manager installs and removes targets on the real file system.
type Manager struct {
	Env Env
	// Sources holds integrations/ (integrations.FS).
	Sources fs.FS
	// StateDir is taw's own folder for backups of the configs it changes and the list of configs
	// it created: $XDG_STATE_HOME/taw/integrations.
	StateDir string
	// TawBin is the absolute path of the taw that installs: the hooks and plugins run it
	// without needing taw on PATH.
	TawBin string
}

// binPlaceholder is where a hook or plugin source takes the installing taw's path.
const binPlaceholder = "__TAW_BIN__"

// embeddableBin is the path as the installed files hold it: inside single quotes in sh and
// double quotes in JavaScript and Python, so a path with a quote, a backslash, a dollar or a
// control character is left out (the hooks then look for taw elsewhere).
func embeddableBin(path string) string {
	if path == "" || !filepath.IsAbs(path) || strings.ContainsAny(path, "'\"\\$`") ||
		strings.IndexFunc(path, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return ""
	}
	return path
}

// StateDirFor is where taw keeps its integration backups.
func StateDirFor(e Env) string {
	return filepath.Join(xdg.StateHome(e.lookup), "taw", "integrations")
}

// ReadOnlyError is a config the person made read-only: taw leaves it as it is.
type ReadOnlyError struct{ Path string }

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s is read-only, so taw leaves it as it is: make it writable (chmod u+w %s) and run again", e.Path, e.Path)
}

// ConflictError is an install that would share its files with another agent's.
type ConflictError struct{ Msg string }

func (e *ConflictError) Error() string { return e.Msg }

// Status is what taw integration status reports for one target.
type Status struct {
	Target    *Target
	Dir       string
	State     string
	Installed string   // the version the installed files carry; "" when none
	Current   string   // the version this taw installs
	Files     []string // what install writes and edits, absolute
	Notes     []string
	// Bin is the taw the installed hook or plugin runs first (the one that installed it), ""
	// when it names none.
	Bin string
}

var installedBin = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`['"]([^'"\n]*)['"][^\n]*taw-installed-bin`)
})

// Result is what an install or uninstall changed.
type Result struct {
	Dir     string
	Changed []string // absolute paths written, edited or removed
	Notes   []string
}

type change struct {
	path    string
	rel     string
	old     []byte
	exists  bool
	data    []byte
	remove  bool
	exec    bool
	config  bool
	ownDir  bool
	created bool // a config taw creates
}

var versionMark = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`taw-integration-version: ([0-9A-Za-z.-]+)`) })

var includeLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^.*taw:include (\S+).*\n`) })

// render is a source file with its include lines replaced by the files they name.
func (m *Manager) render(src string) ([]byte, error) {
	b, err := fs.ReadFile(m.Sources, src)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", src, err)
	}
	var firstErr error
	out := includeLine().ReplaceAllFunc(b, func(line []byte) []byte {
		name := includeLine().FindSubmatch(line)[1]
		inc, err := fs.ReadFile(m.Sources, string(name))
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("include %s in %s: %w", name, src, err)
		}
		return inc
	})
	out = bytes.ReplaceAll(out, []byte(binPlaceholder), []byte(embeddableBin(m.TawBin)))
	return out, firstErr
}

// Version is the version of the integration this taw installs for t.
func (m *Manager) Version(t *Target) string {
	if len(t.Files) == 0 || t.Files[0].Source == "" {
		return ""
	}
	b, err := m.render(t.Files[0].Source)
	if err != nil {
		return ""
	}
	if v := versionMark().FindSubmatch(b); v != nil {
		return string(v[1])
	}
	return ""
}

func (m *Manager) paths(t *Target) Paths {
	dir := t.Dir(m.Env)
	p := Paths{Dir: dir}
	for _, f := range t.Files {
		if f.Exec {
			p.Script = filepath.Join(dir, f.Path)
			break
		}
	}
	return p
}

func readMaybe(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// plan computes every change an install (or, with remove, an uninstall) makes, touching
// nothing; a config it cannot read fails the whole plan.
func (m *Manager) plan(t *Target, remove bool) (Paths, []change, error) {
	p := m.paths(t)
	var changes []change
	for _, f := range t.Files {
		c := change{path: filepath.Join(p.Dir, f.Path), rel: f.Path, exec: f.Exec, ownDir: f.OwnDir}
		var err error
		if c.old, c.exists, err = readMaybe(c.path); err != nil {
			return p, nil, err
		}
		switch {
		case remove:
			c.remove = c.exists
		case f.Generate != nil:
			c.data = f.Generate(p)
		default:
			if c.data, err = m.render(f.Source); err != nil {
				return p, nil, err
			}
		}
		changes = append(changes, c)
	}
	for _, rel := range t.Obsolete {
		c := change{path: filepath.Join(p.Dir, rel), rel: rel, remove: true, ownDir: true}
		var err error
		if c.old, c.exists, err = readMaybe(c.path); err != nil {
			return p, nil, err
		}
		if c.exists {
			changes = append(changes, c)
		}
	}
	created := m.createdConfigs(t)
	for _, cfg := range t.Configs {
		c := change{path: filepath.Join(p.Dir, cfg.Path), rel: cfg.Path, config: true}
		var err error
		if c.old, c.exists, err = readMaybe(c.path); err != nil {
			return p, nil, err
		}
		if remove && !c.exists {
			continue // nothing to take out, and no empty file for the agent to read
		}
		edit := cfg.Install
		if remove {
			edit = cfg.Remove
		}
		c.data, err = edit(c.old, p)
		if remove && err == nil {
			c.data = m.untouched(t, cfg, p, c.old, c.data)
		}
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.File = c.path
			return p, nil, pe
		}
		if err != nil {
			return p, nil, err
		}
		if remove && created[cfg.Path] && isEmptyConfig(c.data) {
			c.remove = c.exists
		}
		c.created = !remove && !c.exists
		changes = append(changes, c)
	}
	return p, changes, nil
}

// untouched is what an uninstall writes back: the copy kept from before the install, byte for
// byte, when the config is still exactly what the install made of it (so an empty "hooks": {}
// of the person's stays), and otherwise removed, what the edit removed.
func (m *Manager) untouched(t *Target, cfg Config, p Paths, current, removed []byte) []byte {
	before, ok, err := readMaybe(filepath.Join(m.StateDir, t.ID, "backup", cfg.Path))
	if err != nil || !ok {
		return removed
	}
	if installed, err := cfg.Install(before, p); err == nil && bytes.Equal(installed, current) && !bytes.Equal(before, current) {
		return before
	}
	return removed
}

func isEmptyConfig(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) == 0 || bytes.Equal(t, []byte("{}"))
}

func (c change) noop() bool {
	if c.remove {
		return !c.exists
	}
	return c.exists && bytes.Equal(c.old, c.data)
}

// Install writes t's files and registers them in its configs; run again, it changes nothing.
func (m *Manager) Install(t *Target) (*Result, error) {
	if err := m.checkShared(t); err != nil {
		return nil, err
	}
	p, changes, err := m.plan(t, false)
	if err != nil {
		return nil, err
	}
	res := &Result{Dir: p.Dir}
	// Files first, so that no config ever names a script that is not there.
	sort.SliceStable(changes, func(i, j int) bool { return !changes[i].config && changes[j].config })
	for _, c := range changes {
		if c.noop() {
			continue
		}
		if err := m.markDirs(t, p.Dir, filepath.Dir(c.path)); err != nil {
			return res, err
		}
		if err := m.apply(t, c); err != nil {
			return res, err
		}
		if c.created {
			if err := m.markCreated(t, c.rel); err != nil {
				return res, err
			}
		}
		if c.remove && c.ownDir {
			_ = os.Remove(filepath.Dir(c.path)) // only when empty
		}
		res.Changed = append(res.Changed, c.path)
	}
	res.Notes = m.notes(t, p)
	if len(res.Changed) > 0 && t.InstallNote != "" {
		res.Notes = append(res.Notes, t.InstallNote)
	}
	return res, nil
}

// Uninstall removes taw's entries from t's configs, then its files.
func (m *Manager) Uninstall(t *Target) (*Result, error) {
	p, changes, err := m.plan(t, true)
	if err != nil {
		return nil, err
	}
	res := &Result{Dir: p.Dir}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].config && !changes[j].config })
	for _, c := range changes {
		if c.noop() {
			continue
		}
		if err := m.apply(t, c); err != nil {
			return res, err
		}
		res.Changed = append(res.Changed, c.path)
		if c.remove && c.ownDir {
			_ = os.Remove(filepath.Dir(c.path)) // only when empty
		}
	}
	// The folders install created go too, deepest first, when nothing else is in them.
	var dirs []string
	for rel := range m.createdConfigs(t) {
		if d, ok := strings.CutPrefix(rel, "dir:"); ok {
			dirs = append(dirs, d)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	for _, d := range dirs {
		_ = os.Remove(d)
	}
	_ = os.Remove(filepath.Join(m.StateDir, t.ID, "created"))
	return res, nil
}

// markDirs records the folders down to dir that do not exist yet (below the home folder), so
// that an uninstall can take away what the install made.
func (m *Manager) markDirs(t *Target, root, dir string) error {
	var missing []string
	home := filepath.Clean(m.Env.Home)
	for d := filepath.Clean(dir); d != home && d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		if rel, err := filepath.Rel(home, d); err != nil || strings.HasPrefix(rel, "..") {
			if rel, err := filepath.Rel(root, d); err != nil || strings.HasPrefix(rel, "..") {
				break
			}
		}
		missing = append(missing, "dir:"+d)
	}
	for _, rel := range missing {
		if err := m.markCreated(t, rel); err != nil {
			return err
		}
	}
	return nil
}

// Status says whether t is installed, and at which version.
func (m *Manager) Status(t *Target) (*Status, error) {
	p, changes, err := m.plan(t, false)
	st := &Status{Target: t, Dir: p.Dir, Current: m.Version(t), State: StateInstalled}
	for _, c := range changes {
		st.Files = append(st.Files, c.path)
	}
	if len(t.Files) > 0 {
		main := filepath.Join(p.Dir, t.Files[0].Path)
		b, ok, _ := readMaybe(main)
		if !ok {
			st.State = StateNotInstalled
			return st, nil
		}
		st.Installed = "unknown"
		if v := versionMark().FindSubmatch(b); v != nil {
			st.Installed = string(v[1])
		}
		if v := installedBin().FindSubmatch(b); v != nil && string(v[1]) != binPlaceholder {
			st.Bin = string(v[1])
		}
	}
	if err != nil {
		return st, err
	}
	for _, c := range changes {
		if !c.noop() {
			st.State = StateOutdated
		}
	}
	st.Notes = m.notes(t, p)
	return st, nil
}

func (m *Manager) notes(t *Target, p Paths) []string {
	var notes []string
	for _, cfg := range t.Configs {
		if cfg.Note == nil {
			continue
		}
		b, _, _ := readMaybe(filepath.Join(p.Dir, cfg.Path))
		if n := cfg.Note(b); n != "" {
			notes = append(notes, n)
		}
	}
	return notes
}

// checkShared refuses to install two targets into one folder (pi and omp both read
// $PI_CODING_AGENT_DIR): each would load the other's extension.
func (m *Manager) checkShared(t *Target) error {
	dir := filepath.Clean(t.Dir(m.Env))
	for i := range Targets {
		o := &Targets[i]
		if o.ID == t.ID || filepath.Clean(o.Dir(m.Env)) != dir {
			continue
		}
		st, err := m.Status(o)
		if err == nil && st.State != StateNotInstalled {
			return &ConflictError{Msg: fmt.Sprintf("%s and %s would share %s, where each would load the other's extension: uninstall %s first, or point one of them elsewhere (%s)", t.ID, o.ID, dir, o.ID, strings.Join(t.DirEnv, ", "))}
		}
	}
	return nil
}

// apply makes one change: a backup of what was there, then an atomic write or a removal.
func (m *Manager) apply(t *Target, c change) error {
	if c.exists {
		if err := filelock.WriteAtomic(filepath.Join(m.StateDir, t.ID, "backup", c.rel), c.old, 0o600); err != nil {
			return fmt.Errorf("back up %s: %w", c.path, err)
		}
	}
	if c.remove {
		if err := os.Remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", c.path, err)
		}
		return nil
	}
	mode := fs.FileMode(0o644)
	if c.exec {
		mode = 0o755
	}
	// A config kept elsewhere and linked in (a dotfiles checkout) is written where it lives, so
	// the link stays a link.
	if c.exists && c.config {
		if real, err := filepath.EvalSymlinks(c.path); err == nil {
			c.path = real
		}
	}
	if c.exists && c.config {
		if fi, err := os.Stat(c.path); err == nil {
			mode = fi.Mode().Perm()
		}
		if mode&0o200 == 0 {
			return &ReadOnlyError{Path: c.path}
		}
	}
	if err := filelock.WriteAtomic(c.path, c.data, mode); err != nil {
		return fmt.Errorf("write %s: %w", c.path, err)
	}
	return nil
}

func (m *Manager) createdConfigs(t *Target) map[string]bool {
	b, _ := os.ReadFile(filepath.Join(m.StateDir, t.ID, "created"))
	out := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" {
			out[l] = true
		}
	}
	return out
}

func (m *Manager) markCreated(t *Target, rel string) error {
	set := m.createdConfigs(t)
	set[rel] = true
	var lines []string
	for k := range set {
		lines = append(lines, k)
	}
	sort.Strings(lines)
	return filelock.WriteAtomic(filepath.Join(m.StateDir, t.ID, "created"), []byte(strings.Join(lines, "\n")+"\n"), 0o600)
}
