package events

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/watch"
)

func names(es []Event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

func TestFromTransition(t *testing.T) {
	tests := []struct {
		name                   string
		fromA, fromS, toA, toS string
		gone                   bool
		want                   []string
	}{
		{"appears working", "", "", "claude", "working", false, []string{"agent_appeared", "state_changed"}},
		{"appears blocked", "", "", "claude", "blocked", false, []string{"agent_appeared", "state_changed", "blocked"}},
		{"working to blocked", "claude", "working", "claude", "blocked", false, []string{"state_changed", "blocked"}},
		{"finishes a turn", "claude", "working", "claude", "idle", false, []string{"state_changed", "finished"}},
		{"idle to working", "claude", "idle", "claude", "working", false, []string{"state_changed"}},
		{"another agent takes the pane", "codex", "idle", "claude", "idle", false, []string{"agent_gone", "agent_appeared", "state_changed"}},
		{"agent leaves", "claude", "idle", "", "", false, []string{"agent_gone"}},
		{"pane closes", "claude", "working", "", "", true, []string{"agent_gone"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FromTransition(watch.Transition{PaneID: "%1", FromAgent: tt.fromA, FromState: tt.fromS, ToAgent: tt.toA, ToState: tt.toS, Gone: tt.gone})
			if !reflect.DeepEqual(names(got), tt.want) {
				t.Errorf("events = %v, want %v", names(got), tt.want)
			}
		})
	}
}

func TestEventFields(t *testing.T) {
	at := time.UnixMilli(1700000000123)
	p := panestate.Pane{ID: "%4", SessionName: "work", SessionID: "$2", WindowID: "@7", WindowIndex: 1, PaneIndex: 2,
		Options: map[string]string{panestate.OptSource: "integration:claude", panestate.OptReportedKind: "claude", panestate.OptMessage: "Allow?"}}
	es := FromTransition(watch.Transition{PaneID: "%4", FromAgent: "claude", FromState: "working", ToAgent: "claude", ToState: "blocked", Pane: p, At: at})
	want := `{"event":"blocked","pane_id":"%4","target":"work:1.2","session":"work","session_id":"$2","window_id":"@7","agent":"claude","state":"blocked","from_agent":"claude","from_state":"working","source":"integration:claude","message":"Allow?","pane_closed":false,"at":1700000000123}`
	if got := es[1].JSON(); got != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
	// A screen-read agent's source says so; a gone agent names the one that left.
	p.Options = map[string]string{}
	es = FromTransition(watch.Transition{PaneID: "%4", FromAgent: "codex", FromState: "idle", ToAgent: "claude", ToState: "idle", Pane: p, At: at})
	if es[0].Name != "agent_gone" || es[0].Agent != "codex" || es[0].State != "" || es[0].Source != "" {
		t.Errorf("agent_gone = %+v", es[0])
	}
	if es[1].Source != SourceScreen {
		t.Errorf("source = %q, want %q", es[1].Source, SourceScreen)
	}
}

func TestJobs(t *testing.T) {
	cfg := config.Default()
	cfg.Hooks.Commands = []config.Hook{{On: "blocked", Command: []string{"a"}}, {On: "*", Command: []string{"b"}}, {On: "finished", Command: []string{"c"}}}
	plug := plugins.Plugin{Entry: plugins.Entry{ID: "p", Path: "/plug", Enabled: true}, Manifest: plugins.Manifest{
		Events: []plugins.Event{{On: "blocked", Command: []string{"./on-blocked"}, Timeout: config.Duration{Duration: 3 * time.Second}}},
	}}
	pane := panestate.Pane{ID: "%4", SessionID: "$2", WindowID: "@7", Options: map[string]string{}}
	base := []string{"PATH=/bin", "HERDR_PANE_ID=%calling", "HERDR_ENV=1", "TMUX_PANE=%0", "TAW_PANE=%9"}
	getenv := func(k string) string { return map[string]string{"HOME": "/h"}[k] }
	jobs := Jobs([]watch.Transition{{PaneID: "%4", FromAgent: "claude", FromState: "working", ToAgent: "claude", ToState: "blocked", Pane: pane}}, cfg, []plugins.Plugin{plug}, "/bin/taw", getenv, base)
	var argv []string
	for _, j := range jobs {
		argv = append(argv, j.Argv[0])
	}
	// state_changed: b; blocked: a, b, the plugin's.
	if want := []string{"b", "a", "b", "/plug/on-blocked"}; !reflect.DeepEqual(argv, want) {
		t.Fatalf("jobs run %v, want %v", argv, want)
	}
	env := strings.Join(jobs[1].Env, "\n")
	for _, want := range []string{"TAW_PANE=%4", "HERDR_PANE_ID=%4", "HERDR_TAB_ID=@7", "HERDR_WORKSPACE_ID=$2", "TAW_EVENT_NAME=blocked", "TAW_AGENT=claude", "TAW_STATE=blocked", "TAW_SOURCE=screen", "PATH=/bin"} {
		if !strings.Contains(env+"\n", want+"\n") {
			t.Errorf("hook env lacks %s:\n%s", want, env)
		}
	}
	for _, bad := range []string{"%calling", "HERDR_ENV=", "TMUX_PANE=", "TAW_PANE=%9"} {
		if strings.Contains(env, bad) {
			t.Errorf("hook env holds %s:\n%s", bad, env)
		}
	}
	pj := jobs[3]
	penv := strings.Join(pj.Env, "\n")
	for _, want := range []string{"HERDR_ENV=1", "HERDR_BIN_PATH=/bin/taw", "HERDR_PLUGIN_ID=p", "HERDR_PLUGIN_EVENT=blocked", "TAW_PLUGIN_ROOT=/plug", "HERDR_PANE_ID=%4"} {
		if !strings.Contains(penv+"\n", want+"\n") {
			t.Errorf("plugin env lacks %s:\n%s", want, penv)
		}
	}
	if pj.Dir != "/plug" || pj.Timeout != 3*time.Second || jobs[0].Timeout != 10*time.Second {
		t.Errorf("dir %q timeouts %v %v", pj.Dir, pj.Timeout, jobs[0].Timeout)
	}
}
