package cli

import (
	"fmt"
	"time"

	"github.com/taw-tmux/taw/helper/events"
	"github.com/urfave/cli/v2"
)

const flagFilter = "filter"

func eventsVerb(f *Factory) *cli.Command {
	return verb("events", "[--json] [--filter <filter>]...", "print one line per change until interrupted: agents appearing, changing state, finishing and going; panes made and closed",
		f.events, jsonFlagSaying("one JSON object per event, one a line (the default when piped)"),
		&cli.StringSliceFlag{Name: flagFilter, Usage: "keep only `<filter>`: an event's name, pane=%N, agent=NAME or state=STATE (repeatable, or joined with commas)"})
}

func (f *Factory) events(c *cli.Context) error {
	if positional, after, _ := splitArgs(c); len(positional)+len(after) > 0 {
		return UsageErrorf("events takes no arguments: taw events [--json] [--filter <filter>]...")
	}
	filter, err := events.ParseFilter(c.StringSlice(flagFilter))
	if err != nil {
		return InvalidValuef("%v", err)
	}
	if filter.Pane != "" {
		if filter.Pane, err = f.ResolvePane(c.Context, filter.Pane); err != nil {
			return err
		}
	}
	asJSON := wantJSON(f, c)
	return events.Stream(c.Context, f.Tmux(), func(es []events.Event) error {
		for _, e := range es {
			if !filter.Keep(e) {
				continue
			}
			if asJSON {
				if err := writeJSONLine(f.IO.Out, e); err != nil {
					return err
				}
				continue
			}
			line := fmt.Sprintf("%s %-14s %s %s", time.UnixMilli(e.At).Format("15:04:05"), e.Name, e.PaneID, e.Target)
			if e.Agent != "" {
				line += " " + e.Agent
			}
			if e.State != "" {
				line += " " + e.State
			}
			if e.Prompt != nil {
				line += ": " + e.Prompt.Summary()
			}
			if _, err := fmt.Fprintln(f.IO.Out, visibleText(line)); err != nil {
				return err
			}
		}
		return nil
	})
}
