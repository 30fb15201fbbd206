package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/urfave/cli/v2"
)

// taw plugin list: every linked plugin, its state and what it offers.

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

func (f *Factory) pluginList(c *cli.Context) error {
	if _, err := f.readRegistry(); err != nil {
		return err
	}
	all, err := plugins.Load(f.Getenv)
	if err != nil {
		return Errorf(coded.PluginRegistry, "%v", err)
	}
	views := make([]pluginView, 0, len(all))
	for _, p := range all {
		v := pluginView{ID: p.ID, Name: p.Manifest.Name, Version: p.Manifest.Version, Enabled: p.Enabled, Path: p.Path,
			Actions:  qualifiedIDs(p.ID, p.Manifest.Actions, func(e *plugins.Action) string { return e.ID }),
			Panes:    qualifiedIDs(p.ID, p.Manifest.Panes, func(e *plugins.Pane) string { return e.ID }),
			Popups:   qualifiedIDs(p.ID, p.Manifest.Popups, func(e *plugins.Popup) string { return e.ID }),
			Problems: []string{}}
		for _, e := range p.Problems {
			v.Problems = append(v.Problems, e.Error())
		}
		views = append(views, v)
	}
	if c.Bool(flagJSON) {
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

// qualifiedIDs are the ids of a plugin's entries as the verbs take them: <plugin>.<entry>.
func qualifiedIDs[E any](plugin string, entries []E, idOf func(*E) string) []string {
	ids := []string{}
	for i := range entries {
		ids = append(ids, plugin+"."+idOf(&entries[i]))
	}
	return ids
}
