package cli

import (
	"fmt"

	"github.com/taw-tmux/taw/helper/session"
	"github.com/urfave/cli/v2"
)

type sessionDeleteOptions struct {
	Name string
	JSON bool
}

func (f *Factory) sessionDelete(c *cli.Context, name string) error {
	if err := session.CheckName(name); err != nil {
		return err
	}
	opts := &sessionDeleteOptions{Name: name, JSON: c.Bool(flagJSON)}
	return f.runOr(opts, func() error { return sessionDeleteRun(f, opts) })
}

func sessionDeleteRun(f *Factory, opts *sessionDeleteOptions) error {
	removed, err := sessionStore(f).Delete(opts.Name)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSONLine(f.IO.Out, struct {
			OK      bool   `json:"ok"`
			Name    string `json:"name"`
			Removed int    `json:"removed"`
		}{true, opts.Name, removed})
	}
	_, err = fmt.Fprintf(f.IO.Out, "deleted save %q (%s)\n", opts.Name, sessionPlural(removed, "file"))
	return err
}
