package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
)

// TypedLine is how a restore names an argv it types at the pane's shell prompt, for agents'
// resume commands and for programs alike (what is typed is TypeKeys', quoted for the shell
// there). It refuses an argv the quoting cannot carry (report.CheckWords) so that no word is
// ever read as shell syntax.
func TypedLine(argv []string) (string, error) {
	if len(argv) == 0 || argv[0] == "" {
		return "", fmt.Errorf("no command")
	}
	if err := report.CheckWords(argv); err != nil {
		if refused, ok := err.(*report.ResumeError); ok {
			return "", fmt.Errorf("%s", refused.Reason)
		}
		return "", err
	}
	return shellquote.Line(shellquote.POSIX, argv), nil
}

// PaneShell is the shell family of pane id's own process, and the program's name. The restore
// asks once that process holds the pane's terminal, so it is the shell that reads what is typed.
// The program is read from /proc where there is one (so sh is known for dash or bash, and ksh
// for ksh93 or mksh), else as tmux names the program in front.
func PaneShell(ctx context.Context, c *tmux.Client, id string) (shellquote.Shell, string, error) {
	out, err := c.Output(ctx, "display-message", "-p", "-t", id, "#{pane_pid} #{pane_current_command}")
	if err != nil {
		return shellquote.Unsupported, "", err
	}
	pid, name, _ := strings.Cut(strings.TrimSpace(out), " ")
	if exe, err := os.Readlink("/proc/" + pid + "/exe"); err == nil {
		name = filepath.Base(strings.TrimSuffix(exe, " (deleted)"))
	}
	return shellquote.ForProgram(name), name, nil
}

// KeysFor is the tmux commands that type argv into pane id for shell sh: the command in lines
// short enough for any terminal's line buffer, each followed by Enter.
func KeysFor(id string, sh shellquote.Shell, argv []string) ([]tmux.Cmd, error) {
	lines, err := shellquote.Lines(sh, argv)
	if err != nil {
		return nil, err
	}
	cmds := make([]tmux.Cmd, 0, 2*len(lines))
	for _, l := range lines {
		cmds = append(cmds, tmux.Cmd{"send-keys", "-t", id, "-l", "--", l}, tmux.Cmd{"send-keys", "-t", id, "Enter"})
	}
	return cmds, nil
}

// TypeKeys is KeysFor the shell pane id really runs; an error says why nothing may be typed.
func TypeKeys(ctx context.Context, c *tmux.Client, id string, argv []string) ([]tmux.Cmd, error) {
	sh, name, err := PaneShell(ctx, c, id)
	if err != nil {
		return nil, err
	}
	cmds, err := KeysFor(id, sh, argv)
	if err != nil {
		return nil, fmt.Errorf("the pane runs %s: %w", name, err)
	}
	return cmds, nil
}
