package badges

import (
	"context"
	"strings"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Snippet is what taw appends to a window format: a space and the window's badge when the window
// has an agent, nothing otherwise. Its exact text is its tag: taw takes out only this.
const Snippet = "#{?#{" + attention.OptWindowState + "}, #{" + attention.OptWindowBadge + "},}"

// Formats are the global options the snippet goes into.
var Formats = []string{"window-status-format", "window-status-current-format"}

// StatusSnippet is what taw appends to status-right: a space and the agents' summary when there
// are agents, nothing otherwise. Its exact text is its tag, as Snippet's is.
const StatusSnippet = "#{?#{" + attention.OptSummary + "}, #{" + attention.OptSummary + "},}"

// StatusFormats are the global options StatusSnippet goes into.
var StatusFormats = []string{"status-right"}

// Insert is format with the snippet at its end, or format itself when the snippet is there.
func Insert(format string) string { return insert(format, Snippet) }

// Remove is format without taw's snippet (its last occurrence), or format itself without one.
func Remove(format string) string { return remove(format, Snippet) }

func insert(format, snippet string) string {
	if strings.Contains(format, snippet) {
		return format
	}
	return format + snippet
}

func remove(format, snippet string) string {
	i := strings.LastIndex(format, snippet)
	if i < 0 {
		return format
	}
	return format[:i] + format[i+len(snippet):]
}

// InsertStatus is status-right with the summary appended, or as it is when it shows the summary
// already (taw's snippet, or the person's own #{@agent-wizard-summary}).
func InsertStatus(format string) string {
	if strings.Contains(format, attention.OptSummary) {
		return format
	}
	return format + StatusSnippet
}

// RemoveStatus is status-right without taw's snippet; the person's own use of the summary stays.
func RemoveStatus(format string) string { return remove(format, StatusSnippet) }

// Apply puts the snippet in (on) or takes it out (off) of every global window format, in at most
// two tmux calls; a format already as wanted is not written.
func Apply(ctx context.Context, c *tmux.Client, on bool) error {
	return apply(ctx, c, Formats, on, Insert, Remove)
}

// ApplyStatus appends the summary to status-right (on) or takes it out (off), as Apply does.
func ApplyStatus(ctx context.Context, c *tmux.Client, on bool) error {
	return apply(ctx, c, StatusFormats, on, InsertStatus, RemoveStatus)
}

func apply(ctx context.Context, c *tmux.Client, formats []string, on bool, insertFn, removeFn func(string) string) error {
	values, err := c.GlobalOptions(ctx, formats...)
	if err != nil {
		return err
	}
	var cmds []tmux.Cmd
	for i, f := range formats {
		if i >= len(values) {
			break
		}
		cur := values[i]
		want := removeFn(cur)
		if on {
			want = insertFn(cur)
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
