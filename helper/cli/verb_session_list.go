package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/taw-tmux/taw/helper/session"
	"github.com/urfave/cli/v2"
)

type sessionListOptions struct{ JSON bool }

func (f *Factory) sessionList(c *cli.Context) error {
	return sessionListRun(f, &sessionListOptions{JSON: wantJSON(f, c)})
}

func sessionListRun(f *Factory, opts *sessionListOptions) error {
	entries, err := sessionStore(f).List()
	if err != nil {
		return err
	}
	if entries == nil {
		entries = []session.Entry{}
	}
	if opts.JSON {
		return writeJSONLine(f.IO.Out, struct {
			OK    bool            `json:"ok"`
			Saves []session.Entry `json:"saves"`
		}{true, entries})
	}
	row := func(e session.Entry) []any {
		saved := "-"
		if !e.SavedAt.IsZero() {
			saved = e.SavedAt.Local().Format("2006-01-02 15:04:05")
		}
		if e.Problem != "" {
			saved = "unreadable"
		}
		return []any{e.Name, saved, e.Origin, e.Sessions, e.Windows, e.Panes, e.Agents, e.Backups}
	}
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSAVED\tBY\tSESSIONS\tWINDOWS\tPANES\tAGENTS\tBACKUPS")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\n", row(e)...)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Why a save is unreadable is too long for its column: said under the table.
	for _, e := range entries {
		if e.Problem != "" {
			fmt.Fprintf(f.IO.Out, "%s is unreadable: %s\n", e.Name, e.Problem)
		}
	}
	return nil
}
