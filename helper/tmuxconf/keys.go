package tmuxconf

import (
	"context"
	"sort"
	"strings"

	"github.com/taw-tmux/taw/helper/tmux"
)

// KeyMarker tags the commands of taw's key bindings.
const KeyMarker = "TAW_KEY="

// Binding is one key taw wants bound.
type Binding struct {
	Table   string // prefix, root, …
	Key     string
	Command []string // a tmux command; it must contain KeyMarker somewhere (see KeyShell)
	// Explicit: the user chose this key in an option, so it is bound even over another binding.
	Explicit bool
}

// BindKeys binds each key whose slot is free or already taw's (or that the user chose
// explicitly), and reports the keys it left alone because something else was bound there.
func BindKeys(ctx context.Context, c *tmux.Client, bindings []Binding) (skipped []string, err error) {
	var cmds []tmux.Cmd
	for _, b := range bindings {
		if b.Key == "" || b.Key == "none" || b.Key == "off" {
			continue
		}
		current, _ := c.Output(ctx, "list-keys", "-T", b.Table, b.Key)
		if current != "" && !strings.Contains(current, KeyMarker) && !b.Explicit {
			skipped = append(skipped, b.Table+" "+b.Key)
			continue
		}
		cmds = append(cmds, append(tmux.Cmd{"bind-key", "-T", b.Table, b.Key}, b.Command...))
	}
	if len(cmds) > 0 {
		_, err = c.Run(ctx, cmds...)
	}
	return skipped, err
}

// UnbindOurs removes every key binding whose command carries KeyMarker.
func UnbindOurs(ctx context.Context, c *tmux.Client) error {
	out, err := c.Output(ctx, "list-keys")
	if err != nil {
		return err
	}
	var cmds []tmux.Cmd
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, KeyMarker) {
			continue
		}
		f := strings.Fields(line)
		// bind-key [-r] -T table key command…
		for i := 0; i+2 < len(f); i++ {
			if f[i] == "-T" {
				cmds = append(cmds, tmux.Cmd{"unbind-key", "-T", f[i+1], f[i+2]})
				break
			}
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	_, err = c.Run(ctx, cmds...)
	return err
}

// KeyShell is a run-shell command for a binding: taw with args, tagged, in the background.
func KeyShell(bin, name string, args ...string) []string {
	return []string{"run-shell", "-b", taggedShell(KeyMarker, name, bin, args)}
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
