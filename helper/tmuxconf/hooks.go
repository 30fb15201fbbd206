package tmuxconf

import (
	"context"
	"strings"

	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// HookMarker tags every hook command taw installs, so it can find exactly its own.
const HookMarker = "TAW_HOOK="

// HookCommand is the tmux command a hook runs: taw in the background, its output discarded
// (run-shell would otherwise show it in the pane), tagged with the event name.
func HookCommand(bin, event string, args ...string) string {
	return "run-shell -b " + tmuxfmt.QuoteString(taggedShell(HookMarker, event, bin, args))
}

// taggedShell is the /bin/sh line of a hook or key: a marker naming what it is for, the taw
// binary and its arguments quoted, and its output discarded.
func taggedShell(marker, name, bin string, args []string) string {
	var sh strings.Builder
	sh.WriteString(marker + name + " ")
	sh.WriteString(shellquote.Quoted(bin))
	for _, a := range args {
		sh.WriteByte(' ')
		sh.WriteString(shellquote.Quoted(a))
	}
	sh.WriteString(" >/dev/null 2>&1")
	return sh.String()
}

// Hook is one member of a global hook array.
type Hook struct {
	Name    string // pane-exited
	Index   string // 0
	Command string
	Window  bool // a window hook (pane-exited, pane-focus-in, …): kept with the window options
}

// hookMarkerLine separates the session hooks from the window hooks in ListHooks' one call.
const hookMarkerLine = "::taw window hooks::"

// ListHooks reads every global hook, the session ones and the window ones, in one call: tmux keeps
// hooks such as pane-exited with the window options, where show-hooks -g does not look.
func ListHooks(ctx context.Context, c *tmux.Client) ([]Hook, error) {
	hooks, _, err := listHooks(ctx, c)
	return hooks, err
}

// listHooks is ListHooks, and every hook the server knows, set or not: show-hooks lists each
// one, and releases differ in which they have (client-focus-in and client-focus-out are 3.3's).
func listHooks(ctx context.Context, c *tmux.Client) (hooks []Hook, known map[string]bool, err error) {
	out, err := c.Run(ctx, tmux.Cmd{"show-hooks", "-g"}, tmux.Cmd{"display-message", "-p", hookMarkerLine}, tmux.Cmd{"show-hooks", "-gw"})
	if err != nil {
		return nil, nil, err
	}
	known = map[string]bool{}
	window := false
	for _, line := range strings.Split(out, "\n") {
		if line == hookMarkerLine {
			window = true
			continue
		}
		if f := strings.Fields(line); len(f) > 0 {
			name, _, _ := strings.Cut(f[0], "[")
			known[name] = true
		}
		head, cmd, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		name, idx, ok := strings.Cut(head, "[")
		if !ok || !strings.HasSuffix(idx, "]") {
			continue
		}
		hooks = append(hooks, Hook{Name: name, Index: strings.TrimSuffix(idx, "]"), Command: cmd, Window: window})
	}
	return hooks, known, nil
}

// SignalCommand is a hook that signals a taw wait-for channel from within tmux: no process is
// started, which matters for hooks that fire on every window or pane switch.
func SignalCommand(channel string) string { return tmux.SignalCommand(channel) }

// NoticeOption holds what a load had to say while no client was attached to see it.
const NoticeOption = "@agent-wizard-notice"

// noticePrefix starts the notice hook, as tmux prints it back.
const noticePrefix = `if-shell -F "#{` + NoticeOption + `}" `

// NoticeHook is the client-attached hook that shows a kept notice once, inside tmux (no process
// is started), and takes the notice away with it.
func NoticeHook(millis string) string {
	show := "display-message -d " + millis + " " + tmuxfmt.QuoteString("#{"+NoticeOption+"}") + " ; set-option -gqu " + NoticeOption
	return "if-shell -F " + tmuxfmt.QuoteString("#{"+NoticeOption+"}") + " " + tmuxfmt.QuoteString(show)
}

// Ours says whether a hook command is one taw installed.
func Ours(command string) bool {
	return strings.Contains(command, HookMarker) || tmux.IsSignalCommand(command) ||
		strings.HasPrefix(command, noticePrefix)
}

// SetHooks makes taw's global hooks exactly want (hook name → commands): taw's old members are
// unset and the new ones appended after the user's, in one tmux call. Re-running it changes
// nothing; the user's own members are never touched.
func SetHooks(ctx context.Context, c *tmux.Client, want map[string][]string) error {
	hooks, known, err := listHooks(ctx, c)
	if err != nil {
		return err
	}
	var cmds []tmux.Cmd
	for _, h := range hooks {
		if Ours(h.Command) {
			flags := "-gu"
			if h.Window {
				flags = "-gwu"
			}
			cmds = append(cmds, tmux.Cmd{"set-hook", flags, h.Name + "[" + h.Index + "]"})
		}
	}
	for _, name := range sortedKeys(want) {
		if len(known) > 0 && !known[name] {
			continue // a hook this release does not have: its event never fires here
		}
		for _, command := range want[name] {
			cmds = append(cmds, tmux.Cmd{"set-hook", "-ga", name, command})
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	_, err = c.Run(ctx, cmds...)
	return err
}
