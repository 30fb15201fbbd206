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
	Option   string // the @agent-wizard-…-key setting that chooses this key

}

// SavedKeysOption keeps the person's own bindings of keys they chose for taw in an option (the
// list-keys lines, one a line), so unload can bind them back.
const SavedKeysOption = "@agent-wizard-saved-keys"

// Skipped is a key taw left alone because something of the person's was bound there.
type Skipped struct {
	Table, Key string
	Option     string // the setting that chooses another key
}

// BindKeys binds each key whose slot is free or already taw's (or that the user chose
// explicitly: their binding there is kept in SavedKeysOption first), and reports the keys it
// left alone because something else was bound there.
func BindKeys(ctx context.Context, c *tmux.Client, bindings []Binding) (skipped []Skipped, err error) {
	var cmds []tmux.Cmd
	var saved []string
	for _, b := range bindings {
		if b.Key == "" || b.Key == "none" || b.Key == "off" {
			continue
		}
		current, err := c.KeyBindings(ctx, b.Table, b.Key)
		if err != nil {
			return skipped, err
		}
		if current != "" && !strings.Contains(current, KeyMarker) {
			if !b.Explicit {
				skipped = append(skipped, Skipped{Table: b.Table, Key: b.Key, Option: b.Option})
				continue
			}
			saved = append(saved, strings.Split(current, "\n")...)
		}
		cmds = append(cmds, append(tmux.Cmd{"bind-key", "-T", b.Table, b.Key}, b.Command...))
	}
	if len(saved) > 0 {
		cmds = append([]tmux.Cmd{{"set-option", "-gq", SavedKeysOption, strings.Join(saved, "\n")}}, cmds...)
	}
	if len(cmds) > 0 {
		_, err = c.Run(ctx, cmds...)
	}
	return skipped, err
}

// RestoreSaved binds back the person's bindings that BindKeys replaced, and forgets them.
// Each is a list-keys line, which tmux parses as the command that makes it.
func RestoreSaved(ctx context.Context, c *tmux.Client) error {
	saved, err := c.GlobalOptions(ctx, SavedKeysOption)
	if err != nil || saved[0] == "" {
		return err
	}
	out := saved[0]
	cmds := []tmux.Cmd{{"set-option", "-gqu", SavedKeysOption}}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "bind-key ") {
			cmds = append(cmds, tmux.Cmd{"if-shell", "-F", "1", line})
		}
	}
	_, err = c.Run(ctx, cmds...)
	return err
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
