package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

// taw plugin action run, pane open and popup open: a plugin's entries, started for a pane.

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
	return "exec " + shellquote.QuotedLine(words)
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
