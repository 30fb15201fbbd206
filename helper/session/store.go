package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/xdg"
)

// DefaultName is the save that save, restore and automatic saves use when no name is given.
const DefaultName = "default"

// DefaultBackups is how many earlier copies of a save are kept when no setting says otherwise.
const DefaultBackups = 5

// MaxBackups bounds the setting.
const MaxBackups = 100

var namePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$`) })

// NameError is a save name taw refuses.
type NameError struct{ Name string }

func (e *NameError) Error() string {
	return fmt.Sprintf("invalid save name %q: use 1 to 64 letters, digits, _, - and ., not starting with - or .", e.Name)
}
func (e *NameError) ErrorCode() string { return coded.InvalidArgument }

// CheckName validates a save name: it becomes a file name, so it holds no path.
func CheckName(name string) error {
	if !namePattern().MatchString(name) {
		return &NameError{name}
	}
	return nil
}

// NotFoundError is a save (or an earlier copy of one) that does not exist.
type NotFoundError struct{ Name, What string }

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no %s named %q: run 'taw session list' for the saves there are", e.What, e.Name)
}
func (e *NotFoundError) ErrorCode() string { return coded.SaveNotFound }

// EmptyError is a save of no panes refused because it would replace one that has panes.
type EmptyError struct {
	Name  string
	Panes int
}

func (e *EmptyError) Error() string {
	return fmt.Sprintf("refused to replace save %q, which holds %d panes, with a save of none: pass --force to replace it anyway", e.Name, e.Panes)
}
func (e *EmptyError) ErrorCode() string { return coded.SaveEmpty }

// Store is the folder of saves: NAME.json, its earlier copies NAME.json.1 (the newest) to
// NAME.json.N, and temporary files .NAME.json.tmp-PID-N that a write renames into place.
type Store struct {
	Dir     string
	Backups int // earlier copies kept per save

	// PauseFile, when set, makes Write stop half-way through writing its temporary file: it
	// creates this file and waits to be killed. Tests use it (TAW_TEST_SAVE_PAUSE) to prove that
	// a save killed mid-write leaves the previous one whole.
	PauseFile string
}

// Dir is where saves live: $XDG_DATA_HOME/taw/sessions, else ~/.local/share/taw/sessions.
func Dir(getenv func(string) string) string {
	return filepath.Join(xdg.DataHome(getenv), "taw", "sessions")
}

// Path is the file of a save, or of its earlier copy n (n ≥ 1).
func (s *Store) Path(name string, n int) string {
	p := filepath.Join(s.Dir, name+".json")
	if n > 0 {
		p += "." + strconv.Itoa(n)
	}
	return p
}

// MaxSaveBytes is the largest save taw reads: far more than any server's layout and records.
const MaxSaveBytes = 64 << 20

// Read reads a save, or its earlier copy n.
func (s *Store) Read(name string, n int) (*Document, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	b, err := filelock.ReadFile(s.Path(name, n), MaxSaveBytes)
	if errors.Is(err, fs.ErrNotExist) {
		what := "save"
		if n > 0 {
			what = fmt.Sprintf("earlier copy %d of a save", n)
		}
		return nil, &NotFoundError{Name: name, What: what}
	}
	if err != nil {
		return nil, fmt.Errorf("read save %q: %w", name, err)
	}
	d, err := Decode(b)
	if err != nil {
		hint := ""
		if n == 0 {
			hint = ": restore an earlier copy with --backup 1"
		}
		return nil, &DocumentError{fmt.Sprintf("save %q (%s): %s%s", name, s.Path(name, n), err, hint)}
	}
	return d, nil
}

// WriteResult says what a write did.
type WriteResult struct {
	Path      string
	Unchanged bool // the sessions are the same as the current save's: no earlier copy was pushed out
}

// Write stores d as the save name, atomically: the document goes to a temporary file in the same
// folder, is synced, and is renamed over the old save, so a write killed at any point leaves the
// old save whole. The old save becomes earlier copy 1 (a hard link made before the rename), unless
// the sessions did not change. A document of no panes never replaces one with panes unless force.
func (s *Store) Write(name string, d *Document, force bool) (WriteResult, error) {
	if err := CheckName(name); err != nil {
		return WriteResult{}, err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return WriteResult{}, fmt.Errorf("create %s: %w", s.Dir, err)
	}
	// Writers of one save take turns, so two saves at once cannot interleave their copies.
	unlock, err := s.lock(name)
	if err != nil {
		return WriteResult{}, err
	}
	defer unlock()
	s.removeStaleTemps()
	data, err := Encode(d)
	if err != nil {
		return WriteResult{}, err
	}
	res := WriteResult{Path: s.Path(name, 0)}
	old, oldErr := filelock.ReadFile(res.Path, MaxSaveBytes)
	hasOld := oldErr == nil
	if hasOld {
		if prev, err := Decode(old); err == nil {
			if !force && d.Count().Panes == 0 && prev.Count().Panes > 0 {
				return WriteResult{}, &EmptyError{Name: name, Panes: prev.Count().Panes}
			}
			res.Unchanged = sameSessions(prev, d)
		}
	}
	tmp, err := s.writeTemp(name, data)
	if err != nil {
		return WriteResult{}, err
	}
	defer os.Remove(tmp) // gone already once renamed
	if hasOld && !res.Unchanged && s.Backups > 0 {
		if err := s.rotate(name); err != nil {
			return WriteResult{}, err
		}
	}
	if err := os.Rename(tmp, res.Path); err != nil {
		return WriteResult{}, fmt.Errorf("write save %q: %w", name, err)
	}
	syncDir(s.Dir)
	return res, nil
}

func (s *Store) writeTemp(name string, data []byte) (string, error) {
	f, err := os.CreateTemp(s.Dir, "."+name+".json.tmp-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", fmt.Errorf("write save %q: %w", name, err)
	}
	tmp := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(tmp)
		return "", fmt.Errorf("write save %q: %w", name, err)
	}
	if err := f.Chmod(0o600); err != nil {
		return fail(err)
	}
	if s.PauseFile != "" {
		half := len(data) / 2
		if _, err := f.Write(data[:half]); err != nil {
			return fail(err)
		}
		_ = os.WriteFile(s.PauseFile, []byte(tmp+"\n"), 0o600)
		for {
			time.Sleep(time.Hour) // until the test kills this process
		}
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("write save %q: %w", name, err)
	}
	return tmp, nil
}

// rotate shifts the earlier copies up by one (the oldest beyond Backups goes) and links the
// current save as copy 1. The current save is never moved, so it stays readable throughout.
func (s *Store) rotate(name string) error {
	n := s.Backups
	if n > MaxBackups {
		n = MaxBackups
	}
	_ = os.Remove(s.Path(name, n))
	for k := n - 1; k >= 1; k-- {
		if err := os.Rename(s.Path(name, k), s.Path(name, k+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("keep earlier copy of save %q: %w", name, err)
		}
	}
	// Copies beyond the limit (the setting was lowered) go too.
	for k := n + 1; ; k++ {
		if err := os.Remove(s.Path(name, k)); err != nil {
			break
		}
	}
	if err := os.Link(s.Path(name, 0), s.Path(name, 1)); err != nil {
		return fmt.Errorf("keep earlier copy of save %q: %w", name, err)
	}
	return nil
}

// saveLockWait bounds how long a save or restore waits for another to finish with the same name.
const saveLockWait = 10 * time.Second

func (s *Store) lock(name string) (func(), error) {
	unlock, err := filelock.Lock(filepath.Join(s.Dir, "."+name+".json.lock"), saveLockWait)
	if err != nil {
		return nil, fmt.Errorf("lock save %q: %w", name, err)
	}
	return unlock, nil
}

// removeStaleTemps deletes temporary files left by writers that died (a killed save).
func (s *Store) removeStaleTemps() {
	ents, err := os.ReadDir(s.Dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		i := strings.Index(n, ".json.tmp-")
		if !strings.HasPrefix(n, ".") || i < 0 {
			continue
		}
		pidText, _, _ := strings.Cut(n[i+len(".json.tmp-"):], "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.Remove(filepath.Join(s.Dir, n))
	}
}

func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

func sameSessions(a, b *Document) bool {
	x, err1 := json.Marshal(a.Sessions)
	y, err2 := json.Marshal(b.Sessions)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// Entry is one save as listed.
type Entry struct {
	Name    string    `json:"name"`
	Path    string    `json:"path"`
	SavedAt time.Time `json:"saved_at"`
	Origin  string    `json:"origin"`
	Counts
	Backups int    `json:"backups"`
	Problem string `json:"problem,omitempty"` // why the file cannot be restored
}

// List lists the saves, by name.
func (s *Store) List() ([]Entry, error) {
	ents, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list saves in %s: %w", s.Dir, err)
	}
	backups := map[string]int{}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") {
			continue
		}
		if base, ok := strings.CutSuffix(n, ".json"); ok && CheckName(base) == nil {
			names = append(names, base)
			continue
		}
		if i := strings.LastIndex(n, ".json."); i > 0 {
			if _, err := strconv.Atoi(n[i+len(".json."):]); err == nil {
				backups[n[:i]]++
			}
		}
	}
	sort.Strings(names)
	out := make([]Entry, 0, len(names))
	for _, name := range names {
		e := Entry{Name: name, Path: s.Path(name, 0), Backups: backups[name]}
		if d, err := s.Read(name, 0); err != nil {
			e.Problem = err.Error()
		} else {
			e.SavedAt, e.Origin, e.Counts = d.SavedAt, d.Origin, d.Count()
		}
		out = append(out, e)
	}
	return out, nil
}

// Delete removes a save and its earlier copies.
func (s *Store) Delete(name string) (removed int, err error) {
	if err := CheckName(name); err != nil {
		return 0, err
	}
	if err := os.Remove(s.Path(name, 0)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, &NotFoundError{Name: name, What: "save"}
		}
		return 0, fmt.Errorf("delete save %q: %w", name, err)
	}
	removed = 1
	for k := 1; k <= MaxBackups+1; k++ {
		if os.Remove(s.Path(name, k)) == nil {
			removed++
		}
	}
	_ = os.Remove(filepath.Join(s.Dir, "."+name+".json.lock"))
	syncDir(s.Dir)
	return removed, nil
}
