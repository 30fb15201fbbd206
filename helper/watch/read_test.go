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
		"taw-clients-n",
		"c1\x1f/dev/pts/1\x1f$0\x1f%0\x1fattached,focused\x1f0\x1f0",
		"taw-settings-n\x1f250ms\x1f5s",
		"",
	}, "\n")
	d := parseLook(out, "n")
	if len(d.panes) != 0 || len(d.bad) != 1 {
		t.Errorf("panes %d bad %d, want 0 and 1", len(d.panes), len(d.bad))
	}
	if len(d.clients) != 1 || d.clients[0].PaneID != "%0" {
		t.Errorf("clients = %+v", d.clients)
	}
	if d.settings["@agent-wizard-watch-interval"] != "250ms" || d.settings["@agent-wizard-restore-grace"] != "5s" {
		t.Errorf("settings = %v", d.settings)
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

// The look lists every pane's facts, then the options only of the panes that hold any: a pane
// with no options row has every option, empty, and both kinds of pane are whole.
func TestParseLookJoinsOptionsToPanes(t *testing.T) {
	row := func(id string) string {
		vals := make([]string, len(lookFields.Names()))
		vals[0] = id
		return strings.Join(vals, tmux.FieldSep)
	}
	opts := make([]string, len(lookOptions.Names()))
	opts[0] = "%2"
	for i, n := range lookOptions.Names() {
		switch n {
		case panestate.OptName:
			opts[i] = "claude"
		case panestate.OptHeld:
			opts[i] = "1"
		}
	}
	out := strings.Join([]string{
		row("%1"), row("%2"),
		"taw-options-n",
		strings.Join(opts, tmux.FieldSep),
		"taw-clients-n",
		"taw-settings-n\x1f\x1f",
		"",
	}, "\n")
	d := parseLook(out, "n")
	if len(d.panes) != 2 || len(d.bad) != 0 || !d.complete {
		t.Fatalf("panes %d bad %q complete %t", len(d.panes), d.bad, d.complete)
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
	filter := func(cmds []tmux.Cmd) string {
		if c := cmds[2]; len(c) > 3 && c[2] == "-f" {
			return c[3]
		}
		return ""
	}
	if got := filter(lookCmds("n", false)); got != "#{!=:#{"+panestate.OptHeld+"},}" {
		t.Errorf("a look's options filter = %q, want the mark alone", got)
	}
	full := filter(lookCmds("n", true))
	for _, o := range []string{panestate.OptName, panestate.OptRestored, panestate.OptResume, panestate.OptDone, panestate.OptSeq} {
		if !strings.Contains(full, "#{"+o+"}") {
			t.Errorf("a full look's filter %q does not test %s", full, o)
		}
	}
	opts := func(id string, set map[string]string) string {
		vals := make([]string, len(lookOptions.Names()))
		vals[0] = id
		for i, n := range lookOptions.Names() {
			vals[i] += set[n]
		}
		return strings.Join(vals, tmux.FieldSep)
	}
	out := strings.Join([]string{
		"taw-options-n",
		opts("%1", map[string]string{panestate.OptName: "claude", panestate.OptHeld: "1"}),
		opts("%2", map[string]string{panestate.OptRestored: "5"}),
		opts("%3", map[string]string{panestate.OptHeld: "1"}), // held once, nothing now
		"taw-clients-n",
		"taw-settings-n\x1f\x1f",
		"",
	}, "\n")
	if d := parseLook(out, "n"); !reflect.DeepEqual(d.unmarked, []string{"%2"}) {
		t.Errorf("unmarked = %q, want only %%2", d.unmarked)
	}
}
