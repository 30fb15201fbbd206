package cli

import (
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/filelock"

	"errors"
	"fmt"
	"os"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/urfave/cli/v2"
)

// taw config default|check|path: the TOML configuration file.

const flagConfigFile = "file"

type configCheckOptions struct {
	File string // "" is the file taw reads
}

func newConfigCommand(f *Factory) *cli.Command {
	return group("config", "print the default configuration file, or check yours",
		configPrintVerb(f, "default", "print a configuration file with every key at its default, commented",
			func() string { return config.DefaultFile }),
		configPrintVerb(f, "path", "print where taw reads its configuration file",
			func() string { return config.Path(f.Getenv) + "\n" }),
		verb("check", "[--file <path>]", "report unknown keys and bad values of the configuration file, with their lines",
			noArgs(f.configCheck), &cli.StringFlag{Name: flagConfigFile, Usage: "check the file at `<path>` instead of the one taw reads"}),
	)
}

func configPrintVerb(f *Factory, name, usage string, text func() string) *cli.Command {
	return verb(name, " ", usage, noArgs(func(c *cli.Context) error {
		_, err := fmt.Fprint(f.IO.Out, text())
		return err
	}))
}

func (f *Factory) configCheck(c *cli.Context) error {
	opts := &configCheckOptions{File: c.String(flagConfigFile)}
	return f.runOr(opts, func() error { return configCheckRun(f, opts) })
}

func configCheckRun(f *Factory, opts *configCheckOptions) error {
	path := opts.File
	if path == "" {
		path = config.Path(f.Getenv)
	}
	data, err := filelock.ReadFile(path, config.MaxFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		if opts.File != "" {
			return Errorf(coded.ConfigInvalid, "%s: no such file", path)
		}
		_, err := fmt.Fprintf(f.IO.Out, "%s: no file: taw uses the defaults (taw config default prints them)\n", path)
		return err
	}
	if err != nil {
		return Errorf(coded.ConfigInvalid, "read %s: %v", path, err)
	}
	_, problems := config.Parse(path, data)
	if len(problems) == 0 {
		_, err := fmt.Fprintf(f.IO.Out, "%s: fine\n", path)
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(f.IO.Out, p.Error())
	}
	s := "s"
	if len(problems) == 1 {
		s = ""
	}
	return Errorf(coded.ConfigInvalid, "%s: %d problem%s: taw uses the defaults for what it could not read; fix the lines above", path, len(problems), s)
}
