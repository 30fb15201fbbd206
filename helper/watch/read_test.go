package watch

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

func TestParseClient(t *testing.T) {
	tests := []struct {
		row  string
		want Client
		ok   bool
	}{
		{"c1\x1f/dev/pts/1\x1f$0\x1f%3\x1fattached,focused,UTF-8\x1f0\x1f0",
			Client{TTY: "/dev/pts/1", Session: "$0", PaneID: "%3", Focused: true}, true},
		// focus-events on and the terminal lost focus: no "focused" flag.
		{"c1\x1f/dev/pts/1\x1f$0\x1f%3\x1fattached,UTF-8\x1f0\x1f0",
			Client{TTY: "/dev/pts/1", Session: "$0", PaneID: "%3"}, true},
		// flags unknown: taken as focused.
		{"c1\x1f/dev/pts/2\x1f$1\x1f%4\x1f\x1f1\x1f0",
			Client{TTY: "/dev/pts/2", Session: "$1", PaneID: "%4", Focused: true, ReadOnly: true}, true},
		{"c2\x1f\x1f$0\x1f%0\x1fattached,focused,control-mode\x1f0\x1f1",
			Client{Session: "$0", PaneID: "%0", Focused: true, Control: true}, true},
		{"c3\x1f/dev/pts/3\x1f\x1f\x1f\x1f0\x1f0", Client{}, false}, // not attached yet
		{"garbage", Client{}, false},
	}
	for _, tt := range tests {
		got, ok := parseClient(tt.row)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseClient(%q) = %+v, %t; want %+v, %t", tt.row, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseCaptures(t *testing.T) {
	out := "taw-screen-n %1\nline a\n\nline b\ntaw-screen-n %2\nx\ntaw-screen-n %3\n"
	screens, order := parseCaptures(out, "n")
	if !reflect.DeepEqual(order, []string{"%1", "%2", "%3"}) {
		t.Fatalf("order = %q", order)
	}
	if !reflect.DeepEqual(screens["%1"], []string{"line a", "", "line b"}) || !reflect.DeepEqual(screens["%2"], []string{"x"}) {
		t.Errorf("screens = %q", screens)
	}
	if len(screens["%3"]) != 0 {
		t.Errorf("a failed capture has no lines, got %q", screens["%3"])
	}
}

func TestParseLookSections(t *testing.T) {
	out := strings.Join([]string{
		"not a pane row",
		"taw-settings-n\x1f250ms\x1f5s",
		"",
	}, "\n")
	d := parseLook(out, "n")
	if len(d.panes) != 0 || len(d.bad) != 1 || !d.complete {
		t.Errorf("panes %d bad %d complete %t, want 0, 1 and true", len(d.panes), len(d.bad), d.complete)
	}
	if d.settings["@agent-wizard-watch-interval"] != "250ms" || d.settings["@agent-wizard-restore-grace"] != "5s" {
		t.Errorf("settings = %v", d.settings)
	}
	if d := parseLook("", "n"); d.settings != nil {
		t.Errorf("a look that read no settings has settings %v: the watcher would take the defaults", d.settings)
	}
}

// The clients are read apart from the look, and only rows of attached clients count.
func TestParseClients(t *testing.T) {
	out := "c1\x1f/dev/pts/1\x1f$0\x1f%0\x1fattached,focused\x1f0\x1f0\nc3\x1f/dev/pts/3\x1f\x1f\x1f\x1f0\x1f0\n"
	if got := parseClients(out); len(got) != 1 || got[0].PaneID != "%0" {
		t.Errorf("clients = %+v, want the one attached", got)
	}
	if got := clientsCmd(); got[0] != "list-clients" {
		t.Errorf("clientsCmd = %q", got)
	}
}

// An idle look is one command in the person's message log: the panes. The options, the settings
// and the clients are not read in it.
func TestALookIsOneCommand(t *testing.T) {
	cmds := lookCmds("n", false, false)
	if len(cmds) != 1 || cmds[0][0] != "list-panes" {
		t.Fatalf("a look's commands: %q, want one list-panes", cmds)
	}
	if got := len(lookCmds("n", true, true)); got != 4 {
		t.Errorf("a full look has %d commands, want 4 (panes, marker, options, settings)", got)
	}
}

// The look's screens follow its panes in the same call; they are no pane rows.
func TestParseLookStopsAtTheScreens(t *testing.T) {
	out := "taw-screen-n %1\nsome screen line\n"
	d := parseLook(out, "n")
	if len(d.bad) != 0 || !d.complete {
		t.Errorf("bad %q complete %t: screen lines read as panes", d.bad, d.complete)
	}
}

func TestParseInterval(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", time.Second, true},
		{"500ms", 500 * time.Millisecond, true},
		{"2", 2 * time.Second, true},
		{"1ms", time.Second, false}, // out of range: the default, as load reports
		{"1h", time.Second, false},
		{"soon", time.Second, false},
	}
	for _, tt := range tests {
		got, ok := parseInterval(tt.in, time.Second)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseInterval(%q) = %s, %t; want %s, %t", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// display-message runs its text through strftime, where %5 is a conversion: the marker must
// carry the pane id with its % doubled, or a capture is filed under the wrong pane (or none).
func TestCaptureMarkersSurviveStrftime(t *testing.T) {
	cmds := captureCmds("n", []string{"%5", "%12"})
	if got := cmds[0][2]; got != "taw-screen-n %%5" {
		t.Errorf("marker = %q, want the %% doubled", got)
	}
	if got := cmds[3]; got[len(got)-1] != "%12" {
		t.Errorf("capture target = %q", got)
	}
}

// The look lists every pane's facts, and the options only of the panes marked as holding some:
// a pane whose row stops short has every option, empty, and both kinds of pane are whole.
func TestParseLookJoinsOptionsToPanes(t *testing.T) {
	brief := func(id string) string {
		vals := make([]string, len(lookFields.Fields))
		vals[0] = id
		return strings.Join(vals, tmux.FieldSep)
	}
	names := lookRows.Names()
	vals := make([]string, len(names))
	vals[0] = "%2"
	for i, n := range names {
		switch n {
		case panestate.OptName:
			vals[i] = "claude"
		case panestate.OptHeld:
			vals[i] = "1"
		}
	}
	out := strings.Join([]string{brief("%1"), strings.Join(vals, tmux.FieldSep), ""}, "\n")
	d := parseLook(out, "n")
	if len(d.panes) != 2 || len(d.bad) != 0 {
		t.Fatalf("panes %d bad %q", len(d.panes), d.bad)
	}
	plain, agent := d.panes[0], d.panes[1]
	if agent.Agent() != "claude" || plain.Agent() != "" {
		t.Errorf("agents %q and %q, want \"\" and claude", plain.Agent(), agent.Agent())
	}
	if _, ok := agent.Options[panestate.OptHeld]; ok {
		t.Errorf("the mark is among the options, so a write's fresh read never equals the look's")
	}
	for _, p := range d.panes {
		for _, o := range panestate.Options {
			if _, ok := p.Options[o]; !ok {
				t.Errorf("pane %s lacks option %s: it cannot be written", p.ID, o)
			}
		}
	}
}

// A look reads the options of the marked panes; the first look and every fullEvery-th read those
// of every pane that holds any of taw's, marked or not, and name the ones to mark.
func TestLookReadsMarkedPanesAndFullLooksFindTheUnmarked(t *testing.T) {
	if got := lookCmds("n", false, false)[0]; !strings.Contains(got[len(got)-1], "#{?#{!=:#{"+panestate.OptHeld+"},},") {
		t.Errorf("a look's row %q does not stop short of the options for an unmarked pane", got[len(got)-1])
	}
	full := lookCmds("n", true, false)[2][3]
	for _, o := range []string{panestate.OptName, panestate.OptRestored, panestate.OptResume, panestate.OptDone, panestate.OptSeq} {
		if !strings.Contains(full, "#{"+o+"}") {
			t.Errorf("a full look's filter %q does not test %s", full, o)
		}
	}
	opts := func(id string, set map[string]string) string {
		vals := make([]string, len(fullOptions.Names()))
		vals[0] = id
		for i, n := range fullOptions.Names() {
			vals[i] += set[n]
		}
		return strings.Join(vals, tmux.FieldSep)
	}
	out := strings.Join([]string{
		"taw-options-n",
		opts("%1", map[string]string{panestate.OptName: "claude", panestate.OptHeld: "1"}),
		opts("%2", map[string]string{panestate.OptRestored: "5"}),
		opts("%3", map[string]string{panestate.OptHeld: "1"}), // held once, nothing now
		"taw-settings-n\x1f\x1f",
		"",
	}, "\n")
	if d := parseLook(out, "n"); !reflect.DeepEqual(d.unmarked, []string{"%2"}) {
		t.Errorf("unmarked = %q, want only %%2", d.unmarked)
	}
}
