// Package tests runs taw end to end: each testscript script in testdata/ gets a tmux server of
// its own (an isolated -L socket started with -f /dev/null), with the real taw binary and tmux on
// its PATH.
package tests

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/taw-tmux/taw/helper/cli"
	"github.com/taw-tmux/taw/tests/testrun"
)

// TestMain makes the programs a script can run (taw, and the stand-ins) and keeps every server
// and folder the tests make under one run folder, removed however the run ends.
func TestMain(m *testing.M) {
	testrun.Begin()
	programs := map[string]func(){
		"taw": func() { os.Exit(cli.Main(cli.System())) },
	}
	for name, run := range standIns {
		programs[name] = run
	}
	testscript.Main(m, programs)
}

// standIns are programs the session scripts run in panes where the real one cannot run in a test
// (ssh needs a host): real executables, so the process's argv is exactly what was typed, as a real
// ssh's is (a script would show its interpreter first).
var standIns = map[string]func(){
	// ssh: says where it would connect, then waits like a session does.
	"ssh": func() { standIn("connected (stand-in for ssh) to " + strings.Join(os.Args[1:], " ")) },
	// show-args: prints its arguments, one a line, then waits.
	"show-args": func() { standIn("args: " + strings.Join(os.Args[1:], "|")) },
}

func standIn(say string) {
	fmt.Println(say)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	os.Exit(0)
}
