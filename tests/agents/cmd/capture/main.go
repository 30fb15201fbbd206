// Command capture reads one agent pane, prints taw's verdict, and with -screen records it as a
// fixture: capture -L SOCKET -t PANE -agent ID [-want STATE -version V -screen NAME -dir DIR].
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/taw-tmux/taw/tests/agents/capture"
)

func main() {
	socket := flag.String("L", "taw-live", "tmux socket name")
	target := flag.String("t", "", "pane to read")
	agent := flag.String("agent", "", "agent id whose rules read the screen")
	want := flag.String("want", "", "state the screen must read as (idle, working, blocked)")
	version := flag.String("version", "", "agent version, for the fixture's name")
	screen := flag.String("screen", "", "screen name; records a fixture when set")
	dir := flag.String("dir", "helper/detect/testdata", "fixture folder (one folder per agent inside)")
	flag.Parse()
	if *target == "" || *agent == "" {
		fmt.Fprintln(os.Stderr, "capture: -t PANE and -agent ID are required")
		os.Exit(2)
	}
	s, err := capture.Take(capture.Tmux{Socket: *socket}, *target, *agent)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
		os.Exit(1)
	}
	fmt.Printf("%s\n# title: %s\n=> %s rule=%s region=%s evidence=%q\n", s.Text(), s.Screen.Title, s.Verdict.State, s.Verdict.RuleID, s.Verdict.Region, s.Verdict.Evidence)
	if *screen != "" {
		if *want == "" || *version == "" {
			fmt.Fprintln(os.Stderr, "capture: -screen needs -want and -version")
			os.Exit(2)
		}
		p, err := capture.Write(filepath.Join(*dir, *agent), *version, *screen, *want, s)
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture:", err)
			os.Exit(1)
		}
		fmt.Println("recorded", p)
	}
	if *want != "" && s.Verdict.State != *want {
		fmt.Printf("MISMATCH: want %s\n", *want)
		os.Exit(3)
	}
}
