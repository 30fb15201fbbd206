package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/urfave/cli/v2"
)

// taw plugin list: every linked plugin, its state and what it offers.

func (f *Factory) pluginList(c *cli.Context) error {
	if _, err := f.readRegistry(); err != nil {
		return err
	}
	all, err := plugins.Load(f.Getenv)
	if err != nil {
		return Errorf(coded.PluginRegistry, "%v", err)
	}
	views := make([]plugins.Summary, 0, len(all))
	for _, p := range all {
		views = append(views, plugins.Summarize(p))
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
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", v.ID, v.State(), v.Version, v.Name, v.Path)
		}
		return tw.Flush()
	}
	for _, v := range views {
		fmt.Fprintf(f.IO.Out, "%s\t%s\t%s\t%s\t%s\n", v.ID, v.State(), v.Version, v.Name, v.Path)
	}
	return nil
}
