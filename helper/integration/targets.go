package integration

import (
	"path/filepath"
	"strings"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/xdg"
)

// Env is what the targets read to find each agent's config folder.
type Env struct {
	Getenv func(string) string
	Home   string
}

func (e Env) get(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(name)
}

// lookup is get with HOME answered by Home, for the XDG folders.
func (e Env) lookup(name string) string {
	if name == "HOME" {
		return e.Home
	}
	return e.get(name)
}

func (e Env) xdgConfig() string { return xdg.ConfigHome(e.lookup) }

// firstEnv is the first of the variables that is set, else the path under the home folder.
func firstEnv(e Env, fallback string, names ...string) string {
	for _, n := range names {
		if v := e.get(n); v != "" {
			return v
		}
	}
	return filepath.Join(e.Home, fallback)
}

// Target is one agent taw integrates with.
type Target struct {
	ID       string   // taw's name for it: taw integration install <ID>, --source integration:<ID>
	Name     string   // what people call it
	Programs []string // commands whose presence on PATH means the agent is installed
	// DirEnv names the environment variables that move the agent's config folder, in the order
	// the agent reads them (for the docs and status).
	DirEnv []string
	Dir    func(Env) string
	Files  []File
	// Configs are the agent's own files taw registers its entries in.
	Configs []Config
	// Obsolete are files an earlier taw installed where this one installs nothing: install and
	// uninstall remove them (and their folder, when it is left empty).
	Obsolete []string
	// InstallNote, when set, is told to the person after an install that changed something.
	InstallNote string
}

// File is one file taw writes into the agent's folder.
type File struct {
	Path   string // relative to the agent's folder
	Source string // in integrations.FS; its include lines are expanded on install
	Exec   bool
	// Generate builds the content instead, for a hook file of taw's own that names the
	// installed script's absolute path.
	Generate func(p Paths) []byte
	// OwnDir: the file's folder is taw's alone and goes with the file.
	OwnDir bool
	// Doc, when set, says what the file is, for the docs' table of where each integration goes.
	Doc string
}

// Config is an edit of one of the agent's config files.
type Config struct {
	Path    string // relative to the agent's folder
	Install func(doc []byte, p Paths) ([]byte, error)
	Remove  func(doc []byte, p Paths) ([]byte, error)
	// Note, when set, explains a setting taw found but leaves to the user.
	Note func(doc []byte) string
	// Doc, when set, says what taw changes in the file, for the docs' table of where each
	// integration goes.
	Doc string
}

// Paths are a target's resolved locations.
type Paths struct {
	Dir    string // the agent's config folder
	Script string // absolute path of the installed hook script, "" for plugins
}

// Command is how a config runs taw's hook script for event.
func (p Paths) Command(event string) string {
	return "sh " + shellquote.Quoted(p.Script) + " " + event
}

// ours recognises the command of any taw hook script.
func ours(cmd string) bool { return strings.Contains(cmd, "taw-agent-state") }

const hookScript = agents.HookScript

func groupedHooks(events []string, timeout int) (func([]byte, Paths) ([]byte, error), func([]byte, Paths) ([]byte, error)) {
	return func(doc []byte, p Paths) ([]byte, error) {
			return AddHooks(doc, events, p.Command, ours, true, timeout)
		}, func(doc []byte, p Paths) ([]byte, error) {
			return RemoveHooks(doc, ours, true)
		}
}

func hookTarget(id string, dirEnv []string, dir func(Env) string, script, config string, events []string, timeout int) Target {
	install, remove := groupedHooks(events, timeout)
	return Target{
		ID: id, DirEnv: dirEnv, Dir: dir,
		Files: []File{{Path: script, Source: id + "/" + hookScript, Exec: true}},
		Configs: []Config{{Path: config, Install: install, Remove: remove,
			Doc: "one entry per event under `hooks`; comments and formatting kept"}},
	}
}

// selfContained is a hook file of taw's own in a folder the agent reads every file of.
func selfContained(id string, dirEnv []string, dir func(Env) string, gen func(Paths) []byte) Target {
	return Target{
		ID: id, DirEnv: dirEnv, Dir: dir,
		Files: []File{
			{Path: "hooks/" + hookScript, Source: id + "/" + hookScript, Exec: true},
			{Path: "hooks/taw-agent-state.json", Generate: gen, Doc: "its own hook file"},
		},
	}
}

// events are the hook events of agent id that taw registers, from the catalogue.
func events(id string) []string {
	if h := agents.HooksOf(id); h != nil {
		return h.Events
	}
	panic("integration target " + id + " has no hook events in the agent catalogue")
}

// settingsTarget is the install of the common shape the catalogue describes for agent id.
func settingsTarget(a *agents.Agent) Target {
	st := a.Hooks.Settings
	var dirEnv []string
	if st.DirEnv != "" {
		dirEnv = []string{st.DirEnv}
	}
	return hookTarget(a.ID, dirEnv, func(e Env) string { return firstEnv(e, st.Home, dirEnv...) },
		st.Script, st.File, a.Hooks.Events, st.Timeout)
}

func ompDir(e Env) string {
	if d := e.get("PI_CODING_AGENT_DIR"); d != "" {
		return d
	}
	if d := e.get("PI_CONFIG_DIR"); d != "" {
		return filepath.Join(e.Home, d, "agent")
	}
	return filepath.Join(e.Home, ".omp", "agent")
}

// Targets is every agent taw integrates with, in the order status lists them.
var Targets = fromCatalogue([]Target{
	fromSettings("claude"),
	func() Target {
		t := hookTarget("codex", []string{"CODEX_HOME"},
			func(e Env) string { return firstEnv(e, ".codex", "CODEX_HOME") },
			// Codex clamps a hook timeout above 3 s (Interrupt, SessionEnd) and warns at every
			// start; the script returns at once anyway.
			hookScript, "hooks.json", events("codex"), 3)
		t.Configs[0].Doc += "; timeout 3 s, the most Codex accepts without a warning"
		t.Configs = append(t.Configs, Config{
			Path: "config.toml",
			Doc:  "`hooks = true` in `[features]`: a value the user set is left, with a note, and the `codex_hooks = true` line an earlier taw added is taken out",
			// Codex runs hooks by default; [features] hooks says so for any older default. The
			// codex_hooks line an earlier taw added goes: Codex warns at every start while it is
			// there.
			Install: func(doc []byte, _ Paths) ([]byte, error) {
				doc, err := RemoveTaggedLines(doc)
				if err != nil {
					return nil, err
				}
				out, _, err := EnableTOMLFeature(doc, "hooks")
				return out, err
			},
			Remove: func(doc []byte, _ Paths) ([]byte, error) { return RemoveTaggedLines(doc) },
			Note: func(doc []byte) string {
				var notes []string
				if _, other, err := EnableTOMLFeature(doc, "hooks"); err == nil && other {
					notes = append(notes, "config.toml sets [features] hooks to something other than true: Codex runs no hooks until it is true")
				}
				if m, err := decodeTOML(doc); err == nil && hasFeature(m, "codex_hooks") {
					notes = append(notes, "config.toml still sets the deprecated [features] codex_hooks, which Codex warns about at every start: remove that line")
				}
				return strings.Join(notes, "; ")
			},
		})
		t.InstallNote = "Codex runs new or changed hooks only once you trust them: at Codex's next start, accept taw's hooks in the dialog it shows (or review them with /hooks)"
		return t
	}(),
	selfContained("copilot", []string{"COPILOT_HOME"},
		func(e Env) string { return firstEnv(e, ".copilot", "COPILOT_HOME") }, copilotHookFile),
	{
		ID: "cursor", DirEnv: []string{"CURSOR_CONFIG_DIR"},
		Dir:   func(e Env) string { return firstEnv(e, ".cursor", "CURSOR_CONFIG_DIR") },
		Files: []File{{Path: hookScript, Source: "cursor/" + hookScript, Exec: true}},
		Configs: []Config{{
			Path: "hooks.json",
			Doc:  "`{\"version\": 1, \"hooks\": {...}}`",
			Install: func(doc []byte, p Paths) ([]byte, error) {
				return addCursorHooks(doc, p)
			},
			Remove: func(doc []byte, _ Paths) ([]byte, error) { return removeCursorHooks(doc) },
		}},
	},
	fromSettings("droid"),
	withDoc(hookTarget("gemini", []string{"GEMINI_CLI_HOME"},
		func(e Env) string {
			if d := e.get("GEMINI_CLI_HOME"); d != "" {
				return filepath.Join(d, ".gemini")
			}
			return filepath.Join(e.Home, ".gemini")
		},
		"hooks/"+hookScript, "settings.json", events("gemini"), 10000), // Gemini's timeout is in milliseconds
		"; timeout in milliseconds"),
	selfContained("grok", []string{"GROK_CONFIG_DIR", "GROK_HOME"},
		func(e Env) string { return firstEnv(e, ".grok", "GROK_CONFIG_DIR", "GROK_HOME") }, grokHookFile),
	{
		ID: "kimi", DirEnv: []string{"KIMI_CODE_HOME"},
		Dir:   func(e Env) string { return firstEnv(e, ".kimi-code", "KIMI_CODE_HOME") },
		Files: []File{{Path: "hooks/" + hookScript, Source: "kimi/" + hookScript, Exec: true}},
		Configs: []Config{{
			Path: "config.toml",
			Doc:  "a block of `[[hooks]]` tables between `# >>> taw integration` and `# <<< taw integration`",
			Install: func(doc []byte, p Paths) ([]byte, error) {
				evs := events("kimi")
				hooks := make([]KimiHook, len(evs))
				for i, ev := range evs {
					hooks[i] = KimiHook{Event: ev, Command: p.Command(ev), Timeout: 10}
				}
				return SetTOMLBlock(doc, hooks)
			},
			Remove: func(doc []byte, _ Paths) ([]byte, error) { return RemoveTOMLBlock(doc) },
		}},
	},
	fromSettings("qodercli"),
	hookTarget("devin", []string{"XDG_CONFIG_HOME"},
		func(e Env) string { return filepath.Join(e.xdgConfig(), "devin") },
		hookScript, "config.json", events("devin"), 0),
	{
		ID: "hermes", DirEnv: []string{"HERMES_HOME"},
		Dir: func(e Env) string { return firstEnv(e, ".hermes", "HERMES_HOME") },
		Files: []File{
			{Path: "plugins/taw-agent-state/__init__.py", Source: "hermes/__init__.py", OwnDir: true, Doc: "Python"},
			{Path: "plugins/taw-agent-state/plugin.yaml", Source: "hermes/plugin.yaml", OwnDir: true},
		},
		Configs: []Config{{
			Path:    "config.yaml",
			Doc:     "`taw-agent-state` in `plugins.enabled`",
			Install: func(doc []byte, _ Paths) ([]byte, error) { return EnableYAMLPlugin(doc, "taw-agent-state") },
			Remove:  func(doc []byte, _ Paths) ([]byte, error) { return DisableYAMLPlugin(doc, "taw-agent-state") },
		}},
	},
	{
		ID: "opencode", DirEnv: []string{"OPENCODE_CONFIG_DIR", "XDG_CONFIG_HOME"},
		Dir: func(e Env) string {
			if d := e.get("OPENCODE_CONFIG_DIR"); d != "" {
				return d
			}
			return filepath.Join(e.xdgConfig(), "opencode")
		},
		Files: []File{
			// OpenCode loads {plugin,plugins}/*.{js,ts}, never a subfolder: both APIs' files sit there.
			{Path: "plugins/taw-agent-state.js", Source: "opencode/v1/taw-agent-state.js",
				Doc: "first plugin API: a function returning hooks"},
			{Path: "plugins/taw-agent-state-v2.js", Source: "opencode/v2/index.js",
				Doc: "second API: `{id, setup(ctx)}` with `ctx.event.subscribe()`"},
		},
		Obsolete: []string{"plugins/taw-agent-state-v2/index.js"},
	},
	{
		ID: "kilo", DirEnv: []string{"KILO_CONFIG_DIR", "XDG_CONFIG_HOME"},
		Dir: func(e Env) string {
			if d := e.get("KILO_CONFIG_DIR"); d != "" {
				return d
			}
			return filepath.Join(e.xdgConfig(), "kilo")
		},
		Files: []File{{Path: "plugin/taw-agent-state.js", Source: "kilo/taw-agent-state.js"}},
	},
	{
		ID: "pi", DirEnv: []string{"PI_CODING_AGENT_DIR"},
		Dir:   func(e Env) string { return firstEnv(e, filepath.Join(".pi", "agent"), "PI_CODING_AGENT_DIR") },
		Files: []File{{Path: "extensions/taw-agent-state.ts", Source: "pi/taw-agent-state.ts"}},
	},
	{
		ID: "omp", DirEnv: []string{"PI_CODING_AGENT_DIR", "PI_CONFIG_DIR"},
		Dir:   ompDir,
		Files: []File{{Path: "extensions/taw-omp-agent-state.ts", Source: "omp/taw-agent-state.ts"}},
	},
})

// withDoc adds more to what the docs say of the target's first config edit.
func withDoc(t Target, more string) Target {
	t.Configs[0].Doc += more
	return t
}

// fromSettings is the install of the common shape of agent id, as its catalogue entry describes.
func fromSettings(id string) Target {
	a, ok := agents.Lookup(id)
	if !ok || a.Hooks == nil || a.Hooks.Settings == nil {
		panic("integration target " + id + " has no Hooks.Settings in the agent catalogue")
	}
	return settingsTarget(a)
}

// fromCatalogue gives each target its agent's display name and program names from the agent
// catalogue, where they are written once, and adds after them every agent of the catalogue whose
// install has the common shape (Hooks.Settings) and is not in ts: such an agent needs no code
// here.
func fromCatalogue(ts []Target) []Target {
	listed := map[string]bool{}
	for _, t := range ts {
		listed[t.ID] = true
	}
	for i := range agents.Known {
		if a := &agents.Known[i]; a.Hooks != nil && a.Hooks.Settings != nil && !listed[a.ID] {
			ts = append(ts, settingsTarget(a))
		}
	}
	for i := range ts {
		a, ok := agents.Lookup(ts[i].ID)
		if !ok || a.ID != ts[i].ID {
			panic("integration target " + ts[i].ID + " is not an id of the agent catalogue")
		}
		ts[i].Name, ts[i].Programs = a.Display, a.Programs
	}
	return ts
}

// Lookup finds a target by its agent's id or one of the agent's aliases.
func Lookup(id string) (*Target, bool) {
	id = agents.Canonical(strings.ToLower(id))
	for i := range Targets {
		if Targets[i].ID == id {
			return &Targets[i], true
		}
	}
	return nil, false
}

// IDs lists every target's id.
func IDs() []string {
	ids := make([]string, len(Targets))
	for i, t := range Targets {
		ids[i] = t.ID
	}
	return ids
}

func copilotHookFile(p Paths) []byte {
	type entry struct {
		Type       string `json:"type"`
		Bash       string `json:"bash"`
		TimeoutSec int    `json:"timeoutSec"`
	}
	hooks := map[string][]entry{}
	for _, ev := range events("copilot") {
		hooks[ev] = []entry{{Type: "command", Bash: p.Command(ev), TimeoutSec: 10}}
	}
	return []byte(renderJSON(struct {
		Version int                `json:"version"`
		Hooks   map[string][]entry `json:"hooks"`
	}{1, hooks}, "  ", 0) + "\n")
}

func grokHookFile(p Paths) []byte {
	hooks := map[string][]hookGroup{}
	for _, ev := range events("grok") {
		hooks[ev] = []hookGroup{{Hooks: []hookCommand{{Type: "command", Command: p.Command(ev), Timeout: 5}}}}
	}
	return []byte(renderJSON(struct {
		Hooks map[string][]hookGroup `json:"hooks"`
	}{hooks}, "  ", 0) + "\n")
}

// cursorCreated is what a hooks.json taw created holds once taw's entries are gone.
var cursorCreated = []byte("{\n  \"version\": 1\n}\n")

func addCursorHooks(doc []byte, p Paths) ([]byte, error) {
	if len(strings.TrimSpace(string(doc))) == 0 {
		doc = cursorCreated
	}
	return AddHooks(doc, events("cursor"), p.Command, ours, false, 0)
}

func removeCursorHooks(doc []byte) ([]byte, error) {
	out, err := RemoveHooks(doc, ours, false)
	if err == nil && string(out) == string(cursorCreated) {
		return emptyDoc, nil
	}
	return out, err
}

// hasFeature says whether a decoded TOML config sets features.<key>.
func hasFeature(m map[string]any, key string) bool {
	table, _ := m["features"].(map[string]any)
	_, set := table[key]
	return set
}
