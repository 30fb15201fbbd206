package integration

import (
	"context"
	"strings"

	"github.com/taw-tmux/taw/helper/tmux"
)

// The three variables @agent-wizard-herdr-env sets in tmux's global environment, for agents
// that report to herdr on their own once they see them.
const (
	HerdrEnv    = "HERDR_ENV"
	HerdrBin    = "HERDR_BIN_PATH"
	HerdrPaneID = "HERDR_PANE_ID"
	// CallingPane is the pane word every taw pane verb reads from $TMUX_PANE: tmux hands every
	// pane the one global value, so it cannot hold each pane's own id.
	CallingPane = "%calling"
)

// ApplyHerdrEnv turns the herdr variables in tmux's global environment on or off.
//
// On: the terminal's own HERDR_* values (those terminalEnv has, which a tmux started inside
// herdr copied into its global environment) are cleared first, then HERDR_ENV=1,
// HERDR_BIN_PATH=tawBin and HERDR_PANE_ID=%calling are set, replacing any value already there.
// Off: the three are removed, but only while HERDR_PANE_ID is still %calling, so a value someone
// else put there stays. HERDR_SOCKET_PATH is never set: taw has no socket.
func ApplyHerdrEnv(ctx context.Context, c *tmux.Client, on bool, tawBin string, terminalEnv func(string) string) error {
	out, err := c.Output(ctx, "show-environment", "-g")
	if err != nil {
		return err
	}
	global := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if name, value, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "-") {
			global[name] = value
		}
	}
	var cmds []tmux.Cmd
	if on {
		for name := range global {
			if strings.HasPrefix(name, "HERDR_") && terminalEnv != nil && terminalEnv(name) != "" {
				cmds = append(cmds, tmux.Cmd{"set-environment", "-g", "-u", name})
			}
		}
		cmds = append(cmds,
			tmux.Cmd{"set-environment", "-g", HerdrEnv, "1"},
			tmux.Cmd{"set-environment", "-g", HerdrBin, tawBin},
			tmux.Cmd{"set-environment", "-g", HerdrPaneID, CallingPane},
		)
	} else if global[HerdrPaneID] == CallingPane {
		for _, name := range []string{HerdrEnv, HerdrBin, HerdrPaneID} {
			cmds = append(cmds, tmux.Cmd{"set-environment", "-g", "-u", name})
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	_, err = c.Run(ctx, cmds...)
	return err
}

// HerdrSocket is the variable @agent-wizard-herdr-socket adds beside the three: the path of
// taw's herdr socket.
const HerdrSocket = "HERDR_SOCKET_PATH"

// ApplyHerdrSocket puts HERDR_SOCKET_PATH=path in tmux's global environment (on), or removes it
// (off) but only while it is still path: a value someone else put there stays.
func ApplyHerdrSocket(ctx context.Context, c *tmux.Client, path string, on bool) error {
	if on {
		_, err := c.Run(ctx, tmux.Cmd{"set-environment", "-g", HerdrSocket, path})
		return err
	}
	out, err := c.Output(ctx, "show-environment", "-g")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(out, "\n") {
		if line == HerdrSocket+"="+path {
			_, err := c.Run(ctx, tmux.Cmd{"set-environment", "-g", "-u", HerdrSocket})
			return err
		}
	}
	return nil
}
