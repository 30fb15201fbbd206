package session

import (
	"github.com/taw-tmux/taw/helper/filelock"

	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/helper/watch"
)

// DefaultAutosaveDelay is the quiet time a change waits for before it is saved.
const DefaultAutosaveDelay = 5 * time.Second

// AutosaveDelay reads the delay setting (seconds); bad values fall back to the default.
func AutosaveDelay(s tmuxconf.Settings) time.Duration {
	n, err := strconv.ParseFloat(strings.TrimSpace(s.Get(tmuxconf.SettingAutosaveDelay)), 64)
	if err != nil || n < 0 || n > 3600 {
		return DefaultAutosaveDelay
	}
	return time.Duration(n * float64(time.Second))
}

// Autosaver debounces automatic saves across every process that asks for one (each tmux hook
// runs its own taw, and the watcher asks from its own process): a request marks the server dirty
// in a stamp file, and whoever holds the server's autosave lock waits until the marks stop
// changing for the delay, saves once, and checks again after letting go of the lock, so a mark
// made while it saved is never lost.
type Autosaver struct {
	Client  *tmux.Client
	LockDir string
	Store   *Store
	Now     func() time.Time
	Sleep   func(time.Duration)
}

func (a *Autosaver) stampPath() string { return filepath.Join(a.LockDir, "autosave.stamp") }
func (a *Autosaver) savedPath() string { return filepath.Join(a.LockDir, "autosave.saved") }
func (a *Autosaver) lockPath() string  { return filepath.Join(a.LockDir, "autosave.lock") }

// Request marks the server changed and, unless another process is already waiting to save, waits
// for the quiet time and saves.
func (a *Autosaver) Request(ctx context.Context) error {
	if err := filelock.PrivateDir(a.LockDir); err != nil {
		return err
	}
	if err := a.mark(); err != nil {
		return err
	}
	for {
		unlock, ok := a.tryLock()
		if !ok {
			return nil // the holder will see the mark
		}
		saved, err := a.saveWhenQuiet(ctx)
		unlock()
		if err != nil {
			return err
		}
		if a.read(a.stampPath()) == saved {
			return nil
		}
	}
}

func (a *Autosaver) mark() error {
	v := strconv.FormatInt(a.Now().UnixNano(), 10) + "-" + strconv.Itoa(os.Getpid())
	return writeSmall(a.stampPath(), v)
}

// saveWhenQuiet waits until the stamp has not moved for the delay (at most ten delays in all),
// then saves; it returns the stamp the save covers.
func (a *Autosaver) saveWhenQuiet(ctx context.Context) (string, error) {
	settings, err := tmuxconf.ReadSettings(ctx, a.Client)
	if err != nil {
		return "", err
	}
	stamp := a.read(a.stampPath())
	if !settings.On(tmuxconf.SettingAutosave) {
		return stamp, nil
	}
	delay := AutosaveDelay(settings)
	for i := 0; i < 10; i++ {
		a.Sleep(delay)
		next := a.read(a.stampPath())
		if next == stamp {
			break
		}
		stamp = next
	}
	captured, err := Capture(ctx, a.Client, a.Now(), "autosave")
	if err != nil {
		return "", err
	}
	store := *a.Store
	store.Backups = captured.Backups
	if _, err := store.Write(DefaultName, captured.Doc, false); err != nil {
		var empty *EmptyError
		if !errors.As(err, &empty) {
			return "", err
		}
	}
	return stamp, writeSmall(a.savedPath(), stamp)
}

func (a *Autosaver) tryLock() (func(), bool) {
	unlock, held, err := filelock.TryLock(a.lockPath())
	if err != nil || held {
		return nil, false
	}
	return unlock, true
}

func (a *Autosaver) read(path string) string {
	b, _ := filelock.ReadFile(path, 4096)
	return strings.TrimSpace(string(b))
}

func writeSmall(path, v string) error {
	tmp := path + ".tmp-" + strconv.Itoa(os.Getpid())
	_ = os.Remove(tmp) // a leftover of a killed process of the same pid
	f, err := filelock.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(v + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// The watcher's part: a pane's agent, its holder, its session or its resume command changing is
// a change worth saving, as much as a tmux event is.

// AutosaveObserver asks for an automatic save when a pane's agent facts change.
type AutosaveObserver struct {
	// Getenv is the environment the saves read (XDG_DATA_HOME for the store).
	Getenv func(string) string

	mu       sync.Mutex
	last     map[string]string
	inFlight bool
}

func (o *AutosaveObserver) Name() string { return "automatic saves" }

// Observe compares each pane's agent facts with the previous look; on a change it asks for an
// automatic save in the background (the request itself checks that autosave is on).
func (o *AutosaveObserver) Observe(_ context.Context, l *watch.Look) {
	facts := make(map[string]string, len(l.Panes))
	for _, p := range l.Panes {
		var b strings.Builder
		for _, k := range []string{panestate.OptName, panestate.OptSource, panestate.OptReportedKind, panestate.OptSessionID, panestate.OptSessionPath, panestate.OptResume} {
			b.WriteString(p.Options[k])
			b.WriteByte(0)
		}
		facts[p.ID] = b.String()
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	changed := o.last != nil && !sameFacts(o.last, facts)
	o.last = facts
	if !changed || l.Client == nil {
		return
	}
	c := l.Client
	a := &Autosaver{
		Client:  c,
		LockDir: panestate.LockDir(tmux.SocketPath(c.Global, o.Getenv), o.Getenv),
		Store:   &Store{Dir: Dir(o.Getenv)},
		Now:     time.Now,
		Sleep:   time.Sleep,
	}
	if o.inFlight {
		_ = a.mark() // the request under way sees it before it saves
		return
	}
	o.inFlight = true
	go func() {
		defer func() { o.mu.Lock(); o.inFlight = false; o.mu.Unlock() }()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		if err := a.Request(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "taw: automatic save:", err)
		}
	}()
}

func sameFacts(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
