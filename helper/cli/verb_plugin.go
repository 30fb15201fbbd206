package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

// taw plugin: the group, its codes and flags, unlink|enable|disable, and what the verbs share
// (the registry, finding an entry, the pane a verb acts for). Each other verb has a file of its
// own: verb_plugin_list.go, _link.go, _run.go (action run, pane open, popup open), _exec.go (the
// hidden exec and supervise), _load.go (taw load's part).

const (
	flagPluginDisabled = "disabled"
)

func newPluginCommand(f *Factory) *cli.Command {
	return group("plugin", "link, list and run plugins (folders with a taw-plugin.toml)",
		verb("list", "[--json]", "list linked plugins", noArgs(f.pluginList), jsonFlagSaying("one JSON object per plugin, one a line")),
		verb("link", "<folder> [--disabled]", "link the plugin in a folder (its taw-plugin.toml is checked first)",
			oneArg("plugin link takes one folder: taw plugin link <folder> [--disabled]", f.pluginLink), &cli.BoolFlag{Name: flagPluginDisabled, Usage: "link it disabled"}),
		pluginIDVerb(f, "unlink", "forget a linked plugin (its folder is left as it is)", pluginUnlink),
		pluginIDVerb(f, "enable", "enable a linked plugin", pluginSetEnabled(true)),
		pluginIDVerb(f, "disable", "disable a linked plugin: nothing of it runs", pluginSetEnabled(false)),
		group("action", "a plugin's actions", pluginOpenVerb(f, "run", "action", "run a plugin's action")),
		group("pane", "a plugin's panes", pluginOpenVerb(f, "open", "pane", "open a plugin's pane beside a pane (or in a window)")),
		group("popup", "a plugin's popups", pluginOpenVerb(f, "open", "popup", "open a plugin's popup over a client")),
		hidden(verb("supervise", "--label <text> --timeout <duration> --log <file> [--dir <folder>] -- <command>...", "run one command under its time limit, logging a failure (taw runs this)",
			afterDashes("usage: taw plugin supervise --label <text> --timeout <duration> --log <file> [--dir <folder>] -- <command>...", f.pluginSupervise),
			&cli.StringFlag{Name: "label"}, &cli.DurationFlag{Name: "timeout"}, &cli.StringFlag{Name: "log"}, &cli.StringFlag{Name: "dir"})),
		hidden(verb("exec", "--plugin <id> --entry {pane|popup}:<id> [--pane <pane>] -- <command>...", "start a plugin's pane or popup command with its environment (taw runs this)",
			afterDashes(pluginExecUsage, f.pluginExec), &cli.StringFlag{Name: "plugin"}, &cli.StringFlag{Name: "entry"}, &cli.StringFlag{Name: flagPane})),
	)
}

func (f *Factory) registryPath() string { return plugins.RegistryPath(f.Getenv) }

func (f *Factory) readRegistry() (plugins.Registry, error) {
	r, err := plugins.ReadRegistry(f.registryPath())
	if err != nil {
		return r, Errorf(coded.PluginRegistry, "%v", err)
	}
	return r, nil
}

// pluginIDVerb declares a verb that changes one linked plugin's entry in the registry.
func pluginIDVerb(f *Factory, name, usage string, apply func(reg *plugins.Registry, i int)) *cli.Command {
	return verb(name, "<id>", usage, oneArg(fmt.Sprintf("plugin %s takes one plugin id: taw plugin %s <id>", name, name), func(c *cli.Context, id string) error {
		reg, err := f.readRegistry()
		if err != nil {
			return err
		}
		i, ok := reg.Find(id)
		if !ok {
			return Errorf(coded.PluginNotFound, "no plugin %q is linked: taw plugin list shows the linked ones", id)
		}
		apply(&reg, i)
		if err := plugins.WriteRegistry(f.registryPath(), reg); err != nil {
			return Errorf(coded.PluginRegistry, "write %s: %v", f.registryPath(), err)
		}
		return writeJSONLine(f.IO.Out, map[string]any{"ok": true, "id": id})
	}))
}

func pluginUnlink(reg *plugins.Registry, i int) {
	reg.Plugins = append(reg.Plugins[:i], reg.Plugins[i+1:]...)
}

func pluginSetEnabled(on bool) func(reg *plugins.Registry, i int) {
	return func(reg *plugins.Registry, i int) { reg.Plugins[i].Enabled = on }
}

// findEntry finds plugin.entry among the linked plugins; the plugin must be enabled and sound.
func findEntry(f *Factory, qualified string) (plugins.Plugin, string, error) {
	id, entry, ok := plugins.SplitQualified(qualified)
	if !ok {
		return plugins.Plugin{}, "", InvalidValuef("name it as <plugin>.<id>, such as notes.open: %q has no dot", qualified)
	}
	if cfg, _ := config.Load(f.Getenv); !cfg.Plugins.Enabled {
		return plugins.Plugin{}, "", Errorf(coded.PluginDisabled, "plugins are off ([plugins] enabled = false in %s)", config.Path(f.Getenv))
	}
	all, err := plugins.Load(f.Getenv)
	if err != nil {
		return plugins.Plugin{}, "", Errorf(coded.PluginRegistry, "%v", err)
	}
	for _, p := range all {
		if p.ID != id {
			continue
		}
		if !p.OK() {
			return p, "", Errorf(coded.PluginInvalid, "plugin %s cannot run: %v", id, p.Problems[0])
		}
		if !p.Enabled {
			return p, "", Errorf(coded.PluginDisabled, "plugin %s is disabled: taw plugin enable %s", id, id)
		}
		return p, entry, nil
	}
	return plugins.Plugin{}, "", Errorf(coded.PluginNotFound, "no plugin %q is linked: taw plugin list shows the linked ones", id)
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
		return spawn.Invocation{}, Errorf(tmux.CodePaneNotFound, "can't find pane: %s", id)
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
