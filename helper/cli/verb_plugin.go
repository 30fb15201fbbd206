package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/urfave/cli/v2"
)

// taw plugin list|link|unlink|enable|disable, action run, pane open, popup open, and two hidden
// verbs the others start: supervise (runs a command detached, under its time limit) and exec
// (starts a plugin's pane or popup command with its own environment).

// Stable error codes of the plugin verbs.
const (
	CodePluginNotFound      = "plugin_not_found"
	CodePluginInvalid       = "plugin_invalid"
	CodePluginExists        = "plugin_exists"
	CodePluginDisabled      = "plugin_disabled"
	CodePluginCommandFailed = "plugin_command_failed"
	CodePluginRegistry      = "plugin_registry_invalid"
)

const (
	flagPluginJSON     = "json"
	flagPluginDisabled = "disabled"
	flagPluginPane     = "pane"
	flagPluginClient   = "client"
)

func newPluginCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "plugin",
		Usage: "link, list and run plugins (folders with a taw-plugin.toml)",
		Subcommands: []*cli.Command{
			newPluginListCommand(f),
			newPluginLinkCommand(f),
			newPluginIDCommand(f, "unlink", "forget a linked plugin (its folder is left as it is)", pluginUnlink),
			newPluginIDCommand(f, "enable", "enable a linked plugin", pluginSetEnabled(true)),
			newPluginIDCommand(f, "disable", "disable a linked plugin: nothing of it runs", pluginSetEnabled(false)),
			{Name: "action", Usage: "a plugin's actions", Subcommands: []*cli.Command{newPluginOpenCommand(f, "run", "action", "run a plugin's action")}},
			{Name: "pane", Usage: "a plugin's panes", Subcommands: []*cli.Command{newPluginOpenCommand(f, "open", "pane", "open a plugin's pane beside a pane (or in a window)")}},
			{Name: "popup", Usage: "a plugin's popups", Subcommands: []*cli.Command{newPluginOpenCommand(f, "open", "popup", "open a plugin's popup over a client")}},
			newPluginSuperviseCommand(f),
			newPluginExecCommand(f),
		},
	}
}

func (f *Factory) registryPath() string { return plugins.RegistryPath(f.Getenv) }

func (f *Factory) readRegistry() (plugins.Registry, error) {
	r, err := plugins.ReadRegistry(f.registryPath())
	if err != nil {
		return r, Errorf(CodePluginRegistry, "%v", err)
	}
	return r, nil
}

// pluginView is one plugin in taw plugin list --json.
type pluginView struct {
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

func newPluginListCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list linked plugins",
		ArgsUsage: "[--json]",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: flagPluginJSON, Usage: "one JSON object per plugin, one a line"}},
		Action: func(c *cli.Context) error {
			if positional, _, _ := splitArgs(c); len(positional) > 0 {
				return UsageErrorf("plugin list takes no arguments: taw plugin list [--json]")
			}
			if _, err := f.readRegistry(); err != nil {
				return err
			}
			all, err := plugins.Load(f.Getenv)
			if err != nil {
				return Errorf(CodePluginRegistry, "%v", err)
			}
			views := make([]pluginView, 0, len(all))
			for _, p := range all {
				v := pluginView{ID: p.ID, Name: p.Manifest.Name, Version: p.Manifest.Version, Enabled: p.Enabled, Path: p.Path,
					Actions: []string{}, Panes: []string{}, Popups: []string{}, Problems: []string{}}
				for _, a := range p.Manifest.Actions {
					v.Actions = append(v.Actions, p.ID+"."+a.ID)
				}
				for _, a := range p.Manifest.Panes {
					v.Panes = append(v.Panes, p.ID+"."+a.ID)
				}
				for _, a := range p.Manifest.Popups {
					v.Popups = append(v.Popups, p.ID+"."+a.ID)
				}
				for _, e := range p.Problems {
					v.Problems = append(v.Problems, e.Error())
				}
				views = append(views, v)
			}
			if c.Bool(flagPluginJSON) {
				for _, v := range views {
					if err := writeJSONLine(f.IO.Out, v); err != nil {
						return err
					}
				}
				return nil
			}
			if f.IO.StdoutTTY {
				if len(views) == 0 {
					_, err := fmt.Fprintln(f.IO.Out, "no plugins linked: taw plugin link <folder>")
					return err
				}
				tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tSTATE\tVERSION\tNAME\tPATH")
				for _, v := range views {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", v.ID, pluginState(v), v.Version, v.Name, v.Path)
				}
				return tw.Flush()
			}
			for _, v := range views {
				fmt.Fprintf(f.IO.Out, "%s\t%s\t%s\t%s\t%s\n", v.ID, pluginState(v), v.Version, v.Name, v.Path)
			}
			return nil
		},
	}
}

func pluginState(v pluginView) string {
	switch {
	case len(v.Problems) > 0:
		return "broken"
	case v.Enabled:
		return "enabled"
	}
	return "disabled"
}

func newPluginLinkCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:      "link",
		Usage:     "link the plugin in a folder (its taw-plugin.toml is checked first)",
		ArgsUsage: "<folder> [--disabled]",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: flagPluginDisabled, Usage: "link it disabled"}},
		Action: func(c *cli.Context) error {
			positional, _, _ := splitArgs(c)
			if len(positional) != 1 {
				return UsageErrorf("plugin link takes one folder: taw plugin link <folder> [--disabled]")
			}
			dir, err := filepath.Abs(positional[0])
			if err != nil {
				return Errorf(CodeInvalidArgument, "folder %s: %v", positional[0], err)
			}
			if d, err := filepath.EvalSymlinks(dir); err == nil {
				dir = d
			}
			m, problems := plugins.ReadManifest(dir)
			if len(problems) > 0 {
				msgs := make([]string, len(problems))
				for i, p := range problems {
					msgs[i] = p.Error()
				}
				return Errorf(CodePluginInvalid, "not linked: %s", strings.Join(msgs, "; "))
			}
			reg, err := f.readRegistry()
			if err != nil {
				return err
			}
			enabled := !c.Bool(flagPluginDisabled)
			if i, ok := reg.Find(m.ID); ok {
				if reg.Plugins[i].Path != dir {
					return Errorf(CodePluginExists, "a plugin with the id %q is linked from %s already: unlink it first (taw plugin unlink %s)", m.ID, reg.Plugins[i].Path, m.ID)
				}
				reg.Plugins[i].Enabled = enabled
			} else {
				reg.Plugins = append(reg.Plugins, plugins.Entry{ID: m.ID, Path: dir, Enabled: enabled})
			}
			if err := plugins.WriteRegistry(f.registryPath(), reg); err != nil {
				return Errorf(CodePluginRegistry, "write %s: %v", f.registryPath(), err)
			}
			return writeJSONLine(f.IO.Out, map[string]any{"ok": true, "id": m.ID, "path": dir, "enabled": enabled})
		},
	}
}

func newPluginIDCommand(f *Factory, name, usage string, apply func(reg *plugins.Registry, i int)) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     usage,
		ArgsUsage: "<id>",
		Action: func(c *cli.Context) error {
			positional, _, _ := splitArgs(c)
			if len(positional) != 1 {
				return UsageErrorf("plugin %s takes one plugin id: taw plugin %s <id>", name, name)
			}
			reg, err := f.readRegistry()
			if err != nil {
				return err
			}
			i, ok := reg.Find(positional[0])
			if !ok {
				return Errorf(CodePluginNotFound, "no plugin %q is linked: taw plugin list shows the linked ones", positional[0])
			}
			apply(&reg, i)
			if err := plugins.WriteRegistry(f.registryPath(), reg); err != nil {
				return Errorf(CodePluginRegistry, "write %s: %v", f.registryPath(), err)
			}
			return writeJSONLine(f.IO.Out, map[string]any{"ok": true, "id": positional[0]})
		},
	}
}

func pluginUnlink(reg *plugins.Registry, i int) {
	reg.Plugins = append(reg.Plugins[:i], reg.Plugins[i+1:]...)
}

func pluginSetEnabled(on bool) func(reg *plugins.Registry, i int) {
	return func(reg *plugins.Registry, i int) { reg.Plugins[i].Enabled = on }
}

// findEntry finds plugin.entry among the linked plugins; the plugin must be enabled and sound.
func findEntry(f *Factory, qualified string) (plugins.Plugin, string, error) {
	i := strings.LastIndex(qualified, ".")
	if i <= 0 || i == len(qualified)-1 {
		return plugins.Plugin{}, "", InvalidValuef("name it as <plugin>.<id>, such as notes.open: %q has no dot", qualified)
	}
	id, entry := qualified[:i], qualified[i+1:]
	if cfg, _ := config.Load(f.Getenv); !cfg.Plugins.Enabled {
		return plugins.Plugin{}, "", Errorf(CodePluginDisabled, "plugins are off ([plugins] enabled = false in %s)", config.Path(f.Getenv))
	}
	all, err := plugins.Load(f.Getenv)
	if err != nil {
		return plugins.Plugin{}, "", Errorf(CodePluginRegistry, "%v", err)
	}
	for _, p := range all {
		if p.ID != id {
			continue
		}
		if !p.OK() {
			return p, "", Errorf(CodePluginInvalid, "plugin %s cannot run: %v", id, p.Problems[0])
		}
		if !p.Enabled {
			return p, "", Errorf(CodePluginDisabled, "plugin %s is disabled: taw plugin enable %s", id, id)
		}
		return p, entry, nil
	}
	return plugins.Plugin{}, "", Errorf(CodePluginNotFound, "no plugin %q is linked: taw plugin list shows the linked ones", id)
}

// invocation names the pane a command runs for: --pane, else the calling pane, else none.
func invocation(ctx context.Context, f *Factory, arg string, calling bool) (spawn.Invocation, error) {
	if arg == "" {
		if !calling || f.Getenv("TMUX_PANE") == "" {
			return spawn.Invocation{}, nil
		}
		arg = CallingPane
	}
	id, err := f.ResolvePane(ctx, arg)
	if err != nil {
		return spawn.Invocation{}, err
	}
	return paneIDs(ctx, f.Tmux(), id)
}

func paneIDs(ctx context.Context, c *tmux.Client, id string) (spawn.Invocation, error) {
	out, err := c.Output(ctx, "display-message", "-p", "-t", id, "#{pane_id} #{window_id} #{session_id}")
	if err != nil {
		return spawn.Invocation{}, err
	}
	fields := strings.Fields(out)
	if len(fields) != 3 || fields[0] != id {
		return spawn.Invocation{}, Errorf(CodePaneNotFound, "can't find pane: %s", id)
	}
	return spawn.Invocation{PaneID: fields[0], WindowID: fields[1], SessionID: fields[2]}, nil
}

func (f *Factory) bin() string {
	bin, err := f.Executable()
	if err != nil {
		return "taw"
	}
	if b, err := filepath.EvalSymlinks(bin); err == nil {
		return b
	}
	return bin
}

// newPluginOpenCommand builds action run, pane open and popup open.
func newPluginOpenCommand(f *Factory, verb, kind, usage string) *cli.Command {
	flags := []cli.Flag{&cli.StringFlag{Name: flagPluginPane, Usage: "the `<pane>` it is for (default: the calling pane)"}}
	args := "<plugin>.<" + kind + "> [--pane <pane>]"
	if kind == "popup" {
		flags = append(flags, &cli.StringFlag{Name: flagPluginClient, Usage: "the `<client>` to show it on (default: tmux's choice)"})
		args += " [--client <client>]"
	}
	return &cli.Command{
		Name:      verb,
		Usage:     usage,
		ArgsUsage: args,
		Flags:     flags,
		Action: func(c *cli.Context) error {
			positional, _, _ := splitArgs(c)
			if len(positional) != 1 {
				return UsageErrorf("plugin %s %s takes one %s: taw plugin %s %s %s", kind, verb, kind, kind, verb, args)
			}
			p, entry, err := findEntry(f, positional[0])
			if err != nil {
				return err
			}
			switch kind {
			case "action":
				return pluginActionRun(c.Context, f, p, entry, c.String(flagPluginPane))
			case "pane":
				return pluginPaneOpen(c.Context, f, p, entry, c.String(flagPluginPane))
			default:
				return pluginPopupOpen(c.Context, f, p, entry, c.String(flagPluginPane), c.String(flagPluginClient))
			}
		},
	}
}

func hooksTimeout(f *Factory) time.Duration {
	cfg, _ := config.Load(f.Getenv)
	return cfg.Hooks.Timeout.Duration
}

func pluginActionRun(ctx context.Context, f *Factory, p plugins.Plugin, id, pane string) error {
	var action *plugins.Action
	for i := range p.Manifest.Actions {
		if p.Manifest.Actions[i].ID == id {
			action = &p.Manifest.Actions[i]
		}
	}
	if action == nil {
		return Errorf(CodePluginNotFound, "plugin %s has no action %q", p.ID, id)
	}
	inv, err := invocation(ctx, f, pane, true)
	if err != nil {
		return err
	}
	bin := f.bin()
	job := spawn.Job{
		Label: fmt.Sprintf("plugin %s action %s", p.ID, id),
		Argv:  plugins.Resolve(p.Path, action.Command),
		Env: plugins.Env(f.Getenv, f.Environ(), p, bin, inv, map[string]string{
			"TAW_PLUGIN_ACTION": id, "HERDR_PLUGIN_ACTION_ID": id,
		}),
		Dir:     p.Path,
		Timeout: plugins.Timeout(action.Timeout, hooksTimeout(f)),
		Log:     spawn.LogPath(f.Getenv),
	}
	r := spawn.Supervise(ctx, job, nil, f.IO.Out, f.IO.ErrOut)
	if r.Err != nil {
		return Errorf(CodePluginCommandFailed, "plugin %s action %s: %v", p.ID, id, r.Err)
	}
	return nil
}

// execCommand is the shell line tmux runs in a plugin's pane or popup: taw's exec verb, which
// sets the environment (tmux's global one may hold HERDR_PANE_ID=%calling) and becomes argv.
func execCommand(bin string, p plugins.Plugin, entry string, pane string, argv []string) string {
	words := []string{bin, "plugin", "exec", "--plugin", p.ID, "--entry", entry}
	if pane != "" {
		words = append(words, "--pane", pane)
	}
	words = append(words, "--")
	words = append(words, plugins.Resolve(p.Path, argv)...)
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return "exec " + strings.Join(q, " ")
}

func pluginPaneOpen(ctx context.Context, f *Factory, p plugins.Plugin, id, pane string) error {
	var entry *plugins.Pane
	for i := range p.Manifest.Panes {
		if p.Manifest.Panes[i].ID == id {
			entry = &p.Manifest.Panes[i]
		}
	}
	if entry == nil {
		return Errorf(CodePluginNotFound, "plugin %s has no pane %q", p.ID, id)
	}
	inv, err := invocation(ctx, f, pane, true)
	if err != nil {
		return err
	}
	if inv.PaneID == "" {
		return UsageErrorf("plugin pane open needs a pane to open beside: run it in a tmux pane or give --pane")
	}
	shell := execCommand(f.bin(), p, "pane:"+id, "", entry.Command)
	var cmd tmux.Cmd
	switch entry.Placement {
	case "window":
		cmd = tmux.Cmd{"new-window", "-t", inv.SessionID + ":", "-c", p.Path, "-P", "-F", "#{pane_id}"}
		if entry.Title != "" {
			cmd = append(cmd, "-n", entry.Title)
		}
	default:
		dir := "-h"
		if entry.Placement == "below" {
			dir = "-v"
		}
		cmd = tmux.Cmd{"split-window", dir, "-t", inv.PaneID, "-c", p.Path, "-P", "-F", "#{pane_id}"}
		if entry.Size != "" {
			cmd = append(cmd, "-l", entry.Size)
		}
	}
	cmd = append(cmd, shell)
	c := f.Tmux()
	out, err := c.Output(ctx, cmd...)
	if err != nil {
		return err
	}
	newPane := strings.TrimSpace(out)
	if entry.Title != "" && paneIDPattern.MatchString(newPane) {
		_, _ = c.Run(ctx, tmux.Cmd{"select-pane", "-t", newPane, "-T", entry.Title})
	}
	return writeJSONLine(f.IO.Out, map[string]any{"ok": true, "pane_id": newPane})
}

// popupTimeout bounds how long popup open waits for the popup to close.
const popupTimeout = 24 * time.Hour

func pluginPopupOpen(ctx context.Context, f *Factory, p plugins.Plugin, id, pane, client string) error {
	var entry *plugins.Popup
	for i := range p.Manifest.Popups {
		if p.Manifest.Popups[i].ID == id {
			entry = &p.Manifest.Popups[i]
		}
	}
	if entry == nil {
		return Errorf(CodePluginNotFound, "plugin %s has no popup %q", p.ID, id)
	}
	inv, err := invocation(ctx, f, pane, true)
	if err != nil {
		return err
	}
	w, h := entry.Width, entry.Height
	if w == "" {
		w = "80%"
	}
	if h == "" {
		h = "80%"
	}
	cmd := tmux.Cmd{"display-popup", "-E", "-d", p.Path, "-w", w, "-h", h}
	if client != "" {
		cmd = append(cmd, "-c", client)
	}
	if inv.PaneID != "" {
		cmd = append(cmd, "-t", inv.PaneID)
	}
	if entry.Title != "" {
		cmd = append(cmd, "-T", entry.Title)
	}
	cmd = append(cmd, execCommand(f.bin(), p, "popup:"+id, inv.PaneID, entry.Command))
	// display-popup answers when the popup closes, however long the user keeps it open.
	c := f.Tmux()
	c.Timeout = popupTimeout
	if _, err := c.Run(ctx, cmd); err != nil {
		return err
	}
	return writeJSONLine(f.IO.Out, map[string]any{"ok": true})
}

// newPluginExecCommand is the hidden verb a plugin's pane or popup starts with: it builds the
// process's environment, then becomes the plugin's command.
func newPluginExecCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:      "exec",
		Hidden:    true,
		Usage:     "start a plugin's pane or popup command with its environment (taw runs this)",
		ArgsUsage: "--plugin <id> --entry {pane|popup}:<id> [--pane <pane>] -- <command>...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "plugin"},
			&cli.StringFlag{Name: "entry"},
			&cli.StringFlag{Name: flagPluginPane},
		},
		Action: func(c *cli.Context) error {
			_, argv, _ := splitArgs(c)
			if len(argv) == 0 || c.String("plugin") == "" || c.String("entry") == "" {
				return UsageErrorf("usage: taw plugin exec --plugin <id> --entry {pane|popup}:<id> [--pane <pane>] -- <command>...")
			}
			return pluginExecRun(c.Context, f, c.String("plugin"), c.String("entry"), c.String(flagPluginPane), argv)
		},
	}
}

// execProcess replaces taw with the command; a variable so the verb can be read without it.
var execProcess = syscall.Exec

func pluginExecRun(ctx context.Context, f *Factory, id, entry, pane string, argv []string) error {
	all, err := plugins.Load(f.Getenv)
	if err != nil {
		return Errorf(CodePluginRegistry, "%v", err)
	}
	var p *plugins.Plugin
	for i := range all {
		if all[i].ID == id {
			p = &all[i]
		}
	}
	if p == nil {
		return Errorf(CodePluginNotFound, "no plugin %q is linked", id)
	}
	kind, entryID, _ := strings.Cut(entry, ":")
	extra := map[string]string{"TAW_PLUGIN_ENTRY": entryID, "HERDR_PLUGIN_ENTRYPOINT_ID": entryID}
	var inv spawn.Invocation
	switch kind {
	case "pane":
		// The pane's own ids: the process runs in it.
		if own := f.Getenv("TMUX_PANE"); own != "" {
			if inv, err = paneIDs(ctx, f.Tmux(), own); err != nil {
				return err
			}
			extra["TMUX_PANE"] = own
		}
	default:
		// A popup is not a pane: its ids are those of the pane it was opened over.
		if pane != "" {
			if inv, err = paneIDs(ctx, f.Tmux(), pane); err != nil {
				return err
			}
			extra["HERDR_ACTIVE_PANE_ID"], extra["HERDR_ACTIVE_TAB_ID"], extra["HERDR_ACTIVE_WORKSPACE_ID"] = inv.PaneID, inv.WindowID, inv.SessionID
		}
	}
	env := plugins.Env(f.Getenv, f.Environ(), *p, f.bin(), inv, extra)
	path := argv[0]
	if !strings.Contains(path, "/") {
		if path, err = lookPathIn(argv[0], env); err != nil {
			return Errorf(CodePluginCommandFailed, "plugin %s %s: %v", id, entry, err)
		}
	}
	if err := execProcess(path, argv, env); err != nil {
		return Errorf(CodePluginCommandFailed, "plugin %s %s: cannot run %s: %v", id, entry, argv[0], err)
	}
	return nil
}

func lookPathIn(name string, env []string) (string, error) {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(v) {
				cand := filepath.Join(dir, name)
				if st, err := os.Stat(cand); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
					return cand, nil
				}
			}
		}
	}
	return exec.LookPath(name)
}

// newPluginSuperviseCommand is the hidden verb spawn.Start runs: the job in the foreground of a
// detached process, its time limit enforced and a failure logged.
func newPluginSuperviseCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:      "supervise",
		Hidden:    true,
		Usage:     "run one command under its time limit, logging a failure (taw runs this)",
		ArgsUsage: "--label <text> --timeout <duration> --log <file> [--dir <folder>] -- <command>...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "label"},
			&cli.DurationFlag{Name: "timeout"},
			&cli.StringFlag{Name: "log"},
			&cli.StringFlag{Name: "dir"},
		},
		Action: func(c *cli.Context) error {
			_, argv, _ := splitArgs(c)
			if len(argv) == 0 {
				return UsageErrorf("usage: taw plugin supervise --label <text> --timeout <duration> --log <file> [--dir <folder>] -- <command>...")
			}
			job := spawn.Job{Label: c.String("label"), Argv: argv, Env: f.Environ(), Dir: c.String("dir"), Timeout: c.Duration("timeout"), Log: c.String("log")}
			spawn.Supervise(context.Background(), job, nil, nil, nil)
			return nil
		},
	}
}

// pluginsLoadStep is taw load's part for this feature: the configuration file's problems are
// shown once, each enabled plugin's [[startup]] commands start (detached, with no pane), and
// the keys of its actions, panes and popups are bound where free.
var pluginsLoadStep = loadStep{
	name: "config and plugins",
	run: func(ctx context.Context, l *loadContext) error {
		cfg, problems := config.Load(l.F.Getenv)
		if len(problems) > 0 {
			_, _ = config.Warn(ctx, l.Client, problems, l.F.Getenv("HOME"))
		}
		if !cfg.Plugins.Enabled {
			return nil
		}
		all, err := plugins.Load(l.F.Getenv)
		if err != nil {
			return err
		}
		var broken []string
		for _, p := range all {
			if p.Enabled && !p.OK() {
				broken = append(broken, fmt.Sprintf("plugin %s: %v", p.ID, p.Problems[0]))
			}
		}
		logPath := spawn.LogPath(l.F.Getenv)
		for _, p := range plugins.Runnable(all) {
			for i, s := range p.Manifest.Startup {
				job := spawn.Job{
					Label: fmt.Sprintf("plugin %s startup %d", p.ID, i+1),
					Argv:  plugins.Resolve(p.Path, s.Command),
					Env: plugins.Env(l.F.Getenv, l.F.Environ(), p, l.Bin, spawn.Invocation{}, map[string]string{
						"TAW_PLUGIN_EVENT": "startup", "HERDR_PLUGIN_EVENT": "startup",
					}),
					Dir:     p.Path,
					Timeout: plugins.Timeout(s.Timeout, cfg.Hooks.Timeout.Duration),
					Log:     logPath,
				}
				if err := spawn.Start(l.Bin, job); err != nil {
					broken = append(broken, fmt.Sprintf("%s: cannot start: %v", job.Label, err))
				}
			}
		}
		if len(broken) > 0 {
			return fmt.Errorf("%s", strings.Join(broken, "; "))
		}
		return nil
	},
	keys: func(l *loadContext) []tmuxconf.Binding {
		cfg, _ := config.Load(l.F.Getenv)
		if !cfg.Plugins.Enabled {
			return nil
		}
		all, err := plugins.Load(l.F.Getenv)
		if err != nil {
			return nil
		}
		var keys []tmuxconf.Binding
		bind := func(table, key, name string, args ...string) {
			if key == "" {
				return
			}
			if table == "" {
				table = "prefix"
			}
			keys = append(keys, tmuxconf.Binding{Table: table, Key: key, Command: tmuxconf.KeyShell(l.Bin, name, args...)})
		}
		for _, p := range plugins.Runnable(all) {
			for _, a := range p.Manifest.Actions {
				q := p.ID + "." + a.ID
				bind(a.KeyTable, a.Key, "plugin-action:"+q, "plugin", "action", "run", q, "--pane", "#{pane_id}")
			}
			for _, a := range p.Manifest.Panes {
				q := p.ID + "." + a.ID
				bind(a.KeyTable, a.Key, "plugin-pane:"+q, "plugin", "pane", "open", q, "--pane", "#{pane_id}")
			}
			for _, a := range p.Manifest.Popups {
				q := p.ID + "." + a.ID
				bind(a.KeyTable, a.Key, "plugin-popup:"+q, "plugin", "popup", "open", q, "--pane", "#{pane_id}", "--client", "#{client_name}")
			}
		}
		return keys
	},
}
