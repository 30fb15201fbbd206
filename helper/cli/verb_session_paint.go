package cli

import (
	"bufio"
	"fmt"
	"os"
	"syscall"

	"github.com/taw-tmux/taw/helper/session"
	"github.com/urfave/cli/v2"
)

// taw session paint <file>: a restored pane starts with it. It shows the pane's saved contents,
// cleaned of every escape sequence but colours, then becomes the pane's shell as tmux would have
// started it. It runs nothing of the contents, and whatever goes wrong the pane still gets its
// shell.
func (f *Factory) sessionPaint(c *cli.Context, file string) error {
	return sessionPaintRun(f, file)
}

func sessionPaintRun(f *Factory, file string) error {
	pf, err := session.ReadPaintFile(file)
	if err == nil {
		var contents []byte
		if contents, err = session.ExpandContents(pf.Contents); err == nil {
			w := bufio.NewWriterSize(f.IO.Out, 64<<10)
			_, _ = w.Write(session.CleanContents(contents))
			_, _ = w.WriteString("\n")
			err = w.Flush()
		}
	}
	if err != nil {
		fmt.Fprintln(f.IO.ErrOut, "taw: saved contents not shown:", err)
	}
	shell, command := pf.Shell, pf.ShellCommand
	if shell == "" {
		shell = f.Getenv("SHELL")
	}
	path, argv := session.ShellArgv(shell, command)
	err = syscall.Exec(path, argv, os.Environ())
	// Only reached when the shell could not start: fall back to the plainest one.
	fmt.Fprintf(f.IO.ErrOut, "taw: start %s: %v\n", path, err)
	return syscall.Exec("/bin/sh", []string{"-sh"}, os.Environ())
}
