package config

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// OptWarned is the server option holding the hash of the configuration problems already shown,
// so each distinct set of problems is shown once per tmux server, whoever loads the file.
const OptWarned = "@agent_config_warned"

// ProblemsHash identifies a set of problems.
func ProblemsHash(problems []error) string {
	h := sha256.New()
	for _, p := range problems {
		fmt.Fprintln(h, p.Error())
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// WarnText is the one-line message shown for the problems, the home folder written ~ so the
// line number fits on a status line.
func WarnText(problems []error, home string) string {
	msg := "taw: " + problems[0].Error()
	if home != "" && home != "/" {
		msg = strings.ReplaceAll(msg, strings.TrimSuffix(home, "/")+"/", "~/")
	}
	if len(problems) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(problems)-1)
	}
	return msg + "; defaults stand in; run taw config check"
}

// Warn shows the problems on every attached client's status line, once per distinct set of
// problems: it reports shown=false when they were shown before or no client is attached to
// see them (they are shown at a later call then).
func Warn(ctx context.Context, c *tmux.Client, problems []error, home string) (shown bool, err error) {
	if len(problems) == 0 {
		return false, nil
	}
	hash := ProblemsHash(problems)
	out, err := c.Run(ctx,
		tmux.Cmd{"display-message", "-p", "#{" + OptWarned + "}"},
		tmux.Cmd{"list-clients", "-F", "#{client_tty}"})
	if err != nil {
		return false, err
	}
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(rows) == 0 || rows[0] == hash {
		return false, nil
	}
	text := tmuxfmt.Message(WarnText(problems, home))
	f, _ := c.Features(ctx)
	var cmds []tmux.Cmd
	for _, tty := range rows[1:] {
		if tty != "" {
			cmds = append(cmds, f.MessageCmd(tty, "10000", text))
		}
	}
	if len(cmds) == 0 {
		return false, nil
	}
	cmds = append(cmds, tmux.Cmd{"set-option", "-gq", OptWarned, hash})
	_, err = c.Run(ctx, cmds...)
	return err == nil, err
}
