package plugins

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/taw-tmux/taw/helper/config"
)

// ManifestName is the manifest's file name in a plugin's folder.
const ManifestName = "taw-plugin.toml"

// Manifest is a plugin's taw-plugin.toml.
type Manifest struct {
	ID          string   `toml:"id"`
	Name        string   `toml:"name"`
	Version     string   `toml:"version"`
	Description string   `toml:"description"`
	Actions     []Action `toml:"actions"`
	Startup     []Run    `toml:"startup"`
	Events      []Event  `toml:"events"`
	Panes       []Pane   `toml:"panes"`
	Popups      []Popup  `toml:"popups"`
}

// Action is a command run on demand: bound to a key or run with taw plugin action run.
type Action struct {
	ID          string          `toml:"id"`
	Title       string          `toml:"title"`
	Description string          `toml:"description"`
	Command     []string        `toml:"command"`
	Key         string          `toml:"key"`
	KeyTable    string          `toml:"key_table"`
	Timeout     config.Duration `toml:"timeout"`
}

// Run is a [[startup]] command, run when the plugin loads.
type Run struct {
	Command []string        `toml:"command"`
	Timeout config.Duration `toml:"timeout"`
}

// Event is an [[events]] command, run on an agent event ([hooks]'s events).
type Event struct {
	On      string          `toml:"on"`
	Command []string        `toml:"command"`
	Timeout config.Duration `toml:"timeout"`
}

// Pane is a command shown in a tmux pane: a split beside the pane it is opened from, or a window.
type Pane struct {
	ID        string   `toml:"id"`
	Title     string   `toml:"title"`
	Command   []string `toml:"command"`
	Placement string   `toml:"placement"` // right (default), below or window
	Size      string   `toml:"size"`      // cells or a percentage, for a split
	Key       string   `toml:"key"`
	KeyTable  string   `toml:"key_table"`
}

// Popup is a command shown in tmux's display-popup over the client.
type Popup struct {
	ID       string   `toml:"id"`
	Title    string   `toml:"title"`
	Command  []string `toml:"command"`
	Width    string   `toml:"width"`  // cells or a percentage; 80% when empty
	Height   string   `toml:"height"` // cells or a percentage; 80% when empty
	Key      string   `toml:"key"`
	KeyTable string   `toml:"key_table"`
}

var (
	pluginIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._:-]{0,63}$`) })
	localIDPattern  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_:-]{1,64}$`) })
	sizePattern     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[1-9][0-9]{0,3}%?$`) })
	keyPattern      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^\s"'\\]{1,32}$`) })
)

// ReadManifest reads and checks the manifest in dir. Problems name the line; a manifest with
// problems is not used.
func ReadManifest(dir string) (Manifest, []error) {
	path := filepath.Join(dir, ManifestName)
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return Manifest{}, []error{fmt.Errorf("%s: no %s here: a plugin is a folder with a %s manifest", dir, ManifestName, ManifestName)}
		}
		return Manifest{}, []error{fmt.Errorf("read %s: %w", path, err)}
	}
	return ParseManifest(path, data)
}

// ParseManifest reads a manifest's bytes.
func ParseManifest(path string, data []byte) (Manifest, []error) {
	var m Manifest
	problems := config.Decode(path, data, &m, func() Manifest { return Manifest{} }, "the manifest's keys are listed in taw's README")
	reported := map[int]bool{}
	for _, p := range problems {
		if pr, ok := p.(*config.Problem); ok {
			reported[pr.Line] = true
		}
	}
	lines := config.KeyLines(data)
	bad := func(key, format string, args ...any) {
		line := lines[key]
		for line == 0 && strings.Contains(key, ".") {
			key = key[:strings.LastIndex(key, ".")]
			line = lines[key]
		}
		if !reported[line] || line == 0 {
			problems = append(problems, &config.Problem{Path: path, Line: line, Key: key, Message: fmt.Sprintf(format, args...)})
		}
	}
	switch {
	case m.ID == "":
		bad("id", "no id: give the plugin an id of letters, digits and . : _ -")
	case !pluginIDPattern().MatchString(m.ID):
		bad("id", "bad id %q: use letters, digits and . : _ - (at most 64)", m.ID)
	}
	if strings.TrimSpace(m.Name) == "" {
		bad("name", "no name: give the plugin a name people read")
	}
	if strings.TrimSpace(m.Version) == "" {
		bad("version", "no version: give the plugin a version such as \"0.1.0\"")
	}
	ids := map[string]bool{}
	local := func(kind string, i int, id string) {
		key := fmt.Sprintf("%s.%d.id", kind, i)
		switch {
		case id == "":
			bad(key, "%s %d has no id", kind, i+1)
		case !localIDPattern().MatchString(id):
			bad(key, "bad %s id %q: use letters, digits and : _ - (no dots)", kind, id)
		case ids[kind+"/"+id]:
			bad(key, "two %s have the id %q", kind, id)
		}
		ids[kind+"/"+id] = true
	}
	command := func(kind string, i int, argv []string) {
		if len(argv) == 0 || argv[0] == "" {
			bad(fmt.Sprintf("%s.%d.command", kind, i), "%s %d has no command: give an argv array such as command = [\"./run.sh\"]", kind, i+1)
		}
	}
	key := func(kind string, i int, k string) {
		if k != "" && !keyPattern().MatchString(k) {
			bad(fmt.Sprintf("%s.%d.key", kind, i), "bad key %q: write a tmux key such as \"M-n\" or \"C-g\"", k)
		}
	}
	size := func(kind string, i int, field, v string) {
		if v != "" && !sizePattern().MatchString(v) {
			bad(fmt.Sprintf("%s.%d.%s", kind, i, field), "bad %s %q: write cells such as \"40\" or a percentage such as \"40%%\"", field, v)
		}
	}
	for i, a := range m.Actions {
		local("actions", i, a.ID)
		command("actions", i, a.Command)
		key("actions", i, a.Key)
	}
	for i, s := range m.Startup {
		command("startup", i, s.Command)
	}
	for i, e := range m.Events {
		if _, ok := config.CanonicalEvent(e.On); !ok {
			bad(fmt.Sprintf("events.%d.on", i), "unknown event %q: use one of %s, or \"*\" for every event", e.On, strings.Join(config.Events, ", "))
		}
		command("events", i, e.Command)
	}
	for i, p := range m.Panes {
		local("panes", i, p.ID)
		command("panes", i, p.Command)
		key("panes", i, p.Key)
		size("panes", i, "size", p.Size)
		switch p.Placement {
		case "", "right", "below", "window":
		default:
			bad(fmt.Sprintf("panes.%d.placement", i), "bad placement %q: use right, below or window", p.Placement)
		}
	}
	for i, p := range m.Popups {
		local("popups", i, p.ID)
		command("popups", i, p.Command)
		key("popups", i, p.Key)
		size("popups", i, "width", p.Width)
		size("popups", i, "height", p.Height)
	}
	for i := range m.Events {
		m.Events[i].On, _ = config.CanonicalEvent(m.Events[i].On)
	}
	return m, problems
}

// Timeout is an entry's own time limit, else the default.
func Timeout(own config.Duration, def time.Duration) time.Duration {
	if own.Duration > 0 {
		return own.Duration
	}
	return def
}

// Resolve makes a command's program relative to the plugin's folder when it is a relative path
// ("./run.sh", "bin/run"); a bare name is looked up on PATH.
func Resolve(root string, argv []string) []string {
	out := append([]string(nil), argv...)
	if len(out) > 0 && strings.Contains(out[0], "/") && !filepath.IsAbs(out[0]) {
		out[0] = filepath.Join(root, out[0])
	}
	return out
}
