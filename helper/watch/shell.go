package watch

import (
	"path"
	"strings"

	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/shellquote"
)

// IsInteractiveShell says whether a process is a shell waiting at its prompt rather than a shell
// running a script or a -c command (sh -c 'agent …' is how tmux starts a pane's command): its
// program is a shell and every argument is a flag other than -c.
func IsInteractiveShell(p procinfo.Proc) bool {
	argv := p.Argv
	if len(argv) == 0 || argv[0] == "" {
		// No arguments to read: a process caught in the middle of exec (a pane's new command,
		// whose name is already the shell's while its arguments are not there yet) or a zombie.
		// Clearing an agent on that would be a guess; the next look reads it whole.
		return false
	}
	name := path.Base(argv[0])
	name = strings.TrimPrefix(name, "-") // a login shell's argv[0]
	if !shellquote.IsShell(name) {
		return false
	}
	for _, a := range argvTail(argv) {
		if !strings.HasPrefix(a, "-") || a == "-" {
			return false // a script
		}
		if !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "c") {
			return false // -c command (also -lc, -ic)
		}
	}
	return true
}

func argvTail(argv []string) []string {
	if len(argv) < 2 {
		return nil
	}
	return argv[1:]
}
