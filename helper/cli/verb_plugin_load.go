package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/tmuxconf"
)

// taw load's part for plugins: the config file's problems shown, startup commands, keys.

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
