// Package tests runs taw end to end: each testscript script in testdata/ gets a tmux server of
// its own (an isolated -L socket started with -f /dev/null), with the real taw binary and tmux on
// its PATH.
package tests

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/taw-tmux/taw/helper/cli"
)

func TestMain(m *testing.M) {
	programs := map[string]func(){
		"taw": func() { os.Exit(cli.Main(cli.System())) },
	}
	for name, run := range standIns {
		programs[name] = run
	}
	testscript.Main(m, programs)
}
