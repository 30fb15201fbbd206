package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

// taw plugin action run, pane open and popup open: a plugin's entries, started for a pane.

// pluginOpenVerb declares action run, pane open and popup open.
func pluginOpenVerb(f *Factory, name, kind, usage string) *cli.Command {
	flags := []cli.Flag{&cli.StringFlag{Name: flagPane, Usage: "the `<pane>` it is for (default: the calling pane)"}}
	args := "<plugin>.<" + kind + "> [--pane <pane>]"
	if kind == "popup" {
		flags = append(flags, &cli.StringFlag{Name: flagClient, Usage: "the `<client>` to show it on (default: tmux's choice)"})
		args += " [--client <client>]"
	}
	return verb(name, args, usage, oneArg(fmt.Sprintf("plugin %s %s takes one %s: taw plugin %s %s %s", kind, name, kind, kind, name, args), func(c *cli.Context, qualified string) error {
		p, entry, err := findEntry(f, qualified)
		if err != nil {
			return err
		}
		switch kind {
		case "action":
			return pluginActionRun(c.Context, f, p, entry, c.String(flagPane))
		case "pane":
			return pluginPaneOpen(c.Context, f, p, entry, c.String(flagPane))
		default:
			return pluginPopupOpen(c.Context, f, p, entry, c.String(flagPane), c.String(flagClient))
		}
	}), flags...)
}

// pluginEntry is the entry of one of p's lists (its actions, panes or popups) with the id.
func pluginEntry[E any](p plugins.Plugin, kind string, entries []E, id string, idOf func(*E) string) (*E, error) {
	var found *E
	for i := range entries {
		if idOf(&entries[i]) == id {
			found = &entries[i]
		}
	}
	if found == nil {
		return nil, Errorf(coded.PluginNotFound, "plugin %s has no %s %q", p.ID, kind, id)
	}
	return found, nil
}

func hooksTimeout(f *Factory) time.Duration {
	cfg, _ := config.Load(f.Getenv)
	return cfg.Hooks.Timeout.Duration
}

func pluginActionRun(ctx context.Context, f *Factory, p plugins.Plugin, id, pane string) error {
	action, err := pluginEntry(p, "action", p.Manifest.Actions, id, func(e *plugins.Action) string { return e.ID })
	if err != nil {
		return err
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
		return Errorf(coded.PluginCommandFailed, "plugin %s action %s: %v", p.ID, id, r.Err)
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
	return "exec " + shellquote.QuotedLine(words)
}

func pluginPaneOpen(ctx context.Context, f *Factory, p plugins.Plugin, id, pane string) error {
	entry, err := pluginEntry(p, "pane", p.Manifest.Panes, id, func(e *plugins.Pane) string { return e.ID })
	if err != nil {
		return err
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
	entry, err := pluginEntry(p, "popup", p.Manifest.Popups, id, func(e *plugins.Popup) string { return e.ID })
	if err != nil {
		return err
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
	if feat, _ := f.Tmux().Features(ctx); entry.Title != "" && feat.PopupTitle {
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
