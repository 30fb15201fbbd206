package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/urfave/cli/v2"
)

// taw load is what taw.tmux runs when the plugin is sourced: every feature's part of loading
// (hooks, keys, options, the watcher) is one loadStep, listed in loadSteps. taw unload undoes
// them. A step that fails is reported on the status line and the others still run.

// loadContext is what every step gets.
type loadContext struct {
	F         *Factory
	Client    *tmux.Client
	Settings  tmuxconf.Settings
	Bin       string // absolute path of the taw binary the plugin runs
	PluginDir string
}

type loadStep struct {
	name   string
	run    func(ctx context.Context, l *loadContext) error // optional
	hooks  func(l *loadContext) map[string][]string        // optional: global hooks wanted
	keys   func(l *loadContext) []tmuxconf.Binding         // optional: keys wanted
	unload func(ctx context.Context, l *loadContext) error // optional
}

// loadSteps run in this order on load, and in reverse on unload.
var loadSteps = []loadStep{
	publishBinStep,
	herdrEnvStep,
	watcherStep,
	attentionStep,
	sessionAutosaveStep,
	sessionRestoreOnStartStep,
	pluginsLoadStep,
}

var publishBinStep = loadStep{
	name: "publish the binary",
	run: func(ctx context.Context, l *loadContext) error {
		_, err := l.Client.Run(ctx, tmux.Cmd{"set-option", "-gq", "@agent-wizard-bin", l.Bin})
		return err
	},
	unload: func(ctx context.Context, l *loadContext) error {
		_, err := l.Client.Run(ctx, tmux.Cmd{"set-option", "-gqu", "@agent-wizard-bin"})
		return err
	},
}

func newLoadContext(ctx context.Context, f *Factory, pluginDir string) (*loadContext, error) {
	c := f.Tmux()
	settings, err := tmuxconf.ReadSettings(ctx, c)
	if err != nil {
		return nil, err
	}
	bin, err := f.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the taw binary: %w", err)
	}
	if b, err := filepath.EvalSymlinks(bin); err == nil {
		bin = b
	}
	return &loadContext{F: f, Client: c, Settings: settings, Bin: bin, PluginDir: pluginDir}, nil
}

func newLoadCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:      "load",
		Usage:     "load the plugin into the running tmux server (taw.tmux runs this)",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "plugin-dir", Usage: "the plugin's `folder`"},
		},
		Action: func(c *cli.Context) error {
			l, err := newLoadContext(c.Context, f, c.String("plugin-dir"))
			if err != nil {
				return err
			}
			return loadRun(c.Context, l)
		},
	}
}

func newUnloadCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:      "unload",
		Usage:     "remove everything the plugin added to the running tmux server",
		ArgsUsage: " ",
		Action: func(c *cli.Context) error {
			l, err := newLoadContext(c.Context, f, "")
			if err != nil {
				return err
			}
			return unloadRun(c.Context, l)
		},
	}
}

func loadRun(ctx context.Context, l *loadContext) error {
	var problems []string
	hooks := map[string][]string{}
	var keys []tmuxconf.Binding
	for _, s := range loadSteps {
		if s.run != nil {
			if err := s.run(ctx, l); err != nil {
				problems = append(problems, s.name+": "+err.Error())
			}
		}
		if s.hooks != nil {
			for name, cmds := range s.hooks(l) {
				hooks[name] = append(hooks[name], cmds...)
			}
		}
		if s.keys != nil {
			keys = append(keys, s.keys(l)...)
		}
	}
	if err := tmuxconf.SetHooks(ctx, l.Client, hooks); err != nil {
		problems = append(problems, "hooks: "+err.Error())
	}
	if err := tmuxconf.UnbindOurs(ctx, l.Client); err != nil {
		problems = append(problems, "keys: "+err.Error())
	}
	skipped, err := tmuxconf.BindKeys(ctx, l.Client, keys)
	if err != nil {
		problems = append(problems, "keys: "+err.Error())
	}
	if len(skipped) > 0 {
		problems = append(problems, "left your bindings of "+strings.Join(skipped, ", ")+" alone: choose other keys in the @agent-wizard-…-key options")
	}
	if len(problems) > 0 {
		msg := "taw: " + strings.Join(problems, "; ")
		_, _ = l.Client.Run(ctx, tmux.Cmd{"set-option", "-gq", statusOption, msg}, tmux.Cmd{"display-message", msg})
		return Errorf(CodeLoad, "%s", msg)
	}
	_, err = l.Client.Run(ctx, tmux.Cmd{"set-option", "-gqu", statusOption})
	return err
}

// statusOption keeps the last problem of loading, readable when no client saw the message.
const statusOption = "@agent-wizard-status"

func unloadRun(ctx context.Context, l *loadContext) error {
	var problems []string
	for i := len(loadSteps) - 1; i >= 0; i-- {
		if s := loadSteps[i]; s.unload != nil {
			if err := s.unload(ctx, l); err != nil {
				problems = append(problems, s.name+": "+err.Error())
			}
		}
	}
	if err := tmuxconf.SetHooks(ctx, l.Client, nil); err != nil {
		problems = append(problems, "hooks: "+err.Error())
	}
	if err := tmuxconf.UnbindOurs(ctx, l.Client); err != nil {
		problems = append(problems, "keys: "+err.Error())
	}
	if len(problems) > 0 {
		return Errorf(CodeLoad, "taw: %s", strings.Join(problems, "; "))
	}
	return nil
}

// CodeLoad: a part of loading or unloading the plugin failed.
const CodeLoad = "load_failed"
