package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/urfave/cli/v2"
)

// The hidden verbs the others start: exec (a plugin's pane or popup command, with its own
// environment) and supervise (a command run detached, under its time limit, logged).

const pluginExecUsage = "usage: taw plugin exec --plugin <id> --entry {pane|popup}:<id> [--pane <pane>] -- <command>..."

// pluginExec is the hidden verb a plugin's pane or popup starts with: it builds the
// process's environment, then becomes the plugin's command.
func (f *Factory) pluginExec(c *cli.Context, command []string) error {
	if c.String("plugin") == "" || c.String("entry") == "" {
		return UsageErrorf("%s", pluginExecUsage)
	}
	return pluginExecRun(c.Context, f, c.String("plugin"), c.String("entry"), c.String(flagPane), command)
}

// execProcess replaces taw with the command; a variable so the verb can be read without it.
var execProcess = syscall.Exec

func pluginExecRun(ctx context.Context, f *Factory, id, entry, pane string, argv []string) error {
	all, err := plugins.Load(f.Getenv)
	if err != nil {
		return Errorf(coded.PluginRegistry, "%v", err)
	}
	var p *plugins.Plugin
	for i := range all {
		if all[i].ID == id {
			p = &all[i]
		}
	}
	if p == nil {
		return Errorf(coded.PluginNotFound, "no plugin %q is linked", id)
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
			return Errorf(coded.PluginCommandFailed, "plugin %s %s: %v", id, entry, err)
		}
	}
	if err := execProcess(path, argv, env); err != nil {
		return Errorf(coded.PluginCommandFailed, "plugin %s %s: cannot run %s: %v", id, entry, argv[0], err)
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

// pluginSupervise is the hidden verb spawn.Start runs: the job in the foreground of a
// detached process, its time limit enforced and a failure logged.
func (f *Factory) pluginSupervise(c *cli.Context, command []string) error {
	job := spawn.Job{Label: c.String("label"), Argv: command, Env: f.Environ(), Dir: c.String("dir"), Timeout: c.Duration("timeout"), Log: c.String("log")}
	spawn.Supervise(context.Background(), job, nil, nil, nil)
	return nil
}
