package badges

import (
	"context"
	"strings"

	"github.com/taw-tmux/taw/helper/tmux"
)

// Snippet is what taw appends to a window format: a space and the window's badge when the window
// has an agent, nothing otherwise. Its exact text is its tag: taw takes out only this.
const Snippet = "#{?#{@agent_window_state}, #{@agent_window_badge},}"

// Formats are the global options the snippet goes into.
var Formats = []string{"window-status-format", "window-status-current-format"}

// Insert is format with the snippet at its end, or format itself when the snippet is there.
func Insert(format string) string {
	if strings.Contains(format, Snippet) {
		return format
	}
	return format + Snippet
}

// Remove is format without taw's snippet (its last occurrence), or format itself without one.
func Remove(format string) string {
	i := strings.LastIndex(format, Snippet)
	if i < 0 {
		return format
	}
	return format[:i] + format[i+len(Snippet):]
}

// Apply puts the snippet in (on) or takes it out (off) of every global window format, in at most
// two tmux calls; a format already as wanted is not written.
func Apply(ctx context.Context, c *tmux.Client, on bool) error {
	var read []tmux.Cmd
	for _, f := range Formats {
		read = append(read, tmux.Cmd{"show-options", "-gv", f}, tmux.Cmd{"display-message", "-p", endMark})
	}
	out, err := c.Run(ctx, read...)
	if err != nil {
		return err
	}
	values := strings.Split(out, "\n"+endMark+"\n")
	var cmds []tmux.Cmd
	for i, f := range Formats {
		if i >= len(values) {
			break
		}
		cur := values[i]
		want := Remove(cur)
		if on {
			want = Insert(cur)
		}
		if want != cur {
			cmds = append(cmds, tmux.Cmd{"set-option", "-g", f, want})
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	_, err = c.Run(ctx, cmds...)
	return err
}

// endMark separates the values read in one call; a format cannot hold a newline followed by it.
const endMark = "\x1etaw-end\x1e"
