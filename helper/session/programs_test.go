package session

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestProgramRules(t *testing.T) {
	vimSession := func(p string) bool { return p == filepath.Join("/proj", "Session.vim") }
	for _, tt := range []struct {
		name            string
		ours, resurrect string
		argv            []string
		dir             string
		want            []string // nil: not started
	}{
		{"default list, exact first word", "", "", []string{"less", "/var/log/syslog"}, "/", []string{"less", "/var/log/syslog"}},
		{"a path as the first word matches its name", "", "", []string{"/usr/bin/tail", "-f", "log"}, "/", []string{"/usr/bin/tail", "-f", "log"}},
		{"not on the list", "", "", []string{"ssh", "host"}, "/", nil},
		{"a name that only starts like one on the list", "", "", []string{"lesskey"}, "/", nil},
		{"our words add to the list", "ssh", "", []string{"ssh", "-p", "22", "host"}, "/", []string{"ssh", "-p", "22", "host"}},
		{"resurrect's setting when ours is unset", "", `"~rails server"`, []string{"bundle", "exec", "rails", "server"}, "/", []string{"bundle", "exec", "rails", "server"}},
		{"ours wins over resurrect's", "ssh", "psql", []string{"psql"}, "/", nil},
		{"name->command", `"~rails server->rails server"`, "", []string{"ruby", "bin/rails", "server", "-p", "3000"}, "/", []string{"rails", "server"}},
		{"->command * keeps the arguments", `"npm->npm run dev *"`, "", []string{"npm", "--port", "8"}, "/", []string{"npm", "run", "dev", "--port", "8"}},
		{"all", "all", "", []string{"make", "watch"}, "/", []string{"make", "watch"}},
		{"resurrect's :all:", "", ":all:", []string{"make"}, "/", []string{"make"}},
		{"none", "none", "", []string{"vim"}, "/", nil},
		{"resurrect's false", "", "false", []string{"vim"}, "/", nil},
		{"vim with a Session.vim", "", "", []string{"vim", "notes.txt"}, "/proj", []string{"vim", "-S", "Session.vim"}},
		{"nvim with a Session.vim", "", "", []string{"nvim"}, "/proj", []string{"nvim", "-S", "Session.vim"}},
		{"vim given a session keeps it", "", "", []string{"vim", "-S", "other.vim"}, "/proj", []string{"vim", "-S", "other.vim"}},
		{"vim without one", "", "", []string{"vim", "notes.txt"}, "/elsewhere", []string{"vim", "notes.txt"}},
		{"an empty argv", "all", "", nil, "/", nil},
	} {
		got, ok := ParsePrograms(tt.ours, tt.resurrect).Restart(tt.argv, tt.dir, vimSession)
		if ok != (tt.want != nil) || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Restart(%q) = %q %v, want %q", tt.name, tt.argv, got, ok, tt.want)
		}
	}
}

func TestTypedLine(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		want string // "" for refused
	}{
		{[]string{"less", "a b", "$HOME", "x;y"}, "less 'a b' '$HOME' 'x;y'"},
		{[]string{"tail", "-f", "/var/log/x.log"}, "tail -f /var/log/x.log"},
		{[]string{"show", "it's"}, ""},                 // the quoting cannot carry an apostrophe
		{[]string{"show", "a\nb"}, ""},                 // nor a control character
		{[]string{"show", "\xff"}, ""},                 // nor bytes that are not UTF-8
		{[]string{"", "x"}, ""},                        // no command
		{[]string{"x", strings.Repeat("a", 9000)}, ""}, // too long
	} {
		got, err := TypedLine(tt.argv)
		if (err != nil) != (tt.want == "") || got != tt.want {
			t.Errorf("TypedLine(%q) = %q, %v; want %q", tt.argv, got, err, tt.want)
		}
	}
}

func TestPlanProgramsAfterAgents(t *testing.T) {
	withProgram := agentPane("/a", "S0", "my-agent", "--resume", "S0")
	withProgram.Program = &Program{Argv: []string{"vim", "x"}, Dir: "/a"}
	d := doc(Session{Name: "w", Windows: []Window{{Index: 0, Layout: "", Panes: []Pane{
		withProgram,
	}}, {Index: 1, Panes: []Pane{{Dir: "/b", Program: &Program{Argv: []string{"less", "f"}, Dir: "/b"}}}},
		{Index: 2, Panes: []Pane{{Dir: "/c", Program: &Program{Argv: []string{"make"}, Dir: "/c"}}}},
		{Index: 3, Panes: []Pane{{Dir: "/d", Program: &Program{Argv: []string{"less", "it's"}, Dir: "/d"}}}},
	}})
	p := PlanRestore(d, NoServer(), PlanOptions{ResumeAgents: true, Programs: ParsePrograms("", "")})
	if len(p.Typing) != 2 || p.Typing[0].Resume == nil || p.Typing[0].Line != "my-agent --resume S0" ||
		p.Typing[1].Resume != nil || p.Typing[1].Line != "less f" {
		t.Fatalf("the agent's resume command wins over its program, less is started, make is not: %+v", p.Typing)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0].Note, "apostrophe") {
		t.Fatalf("a program the line cannot carry is said: %+v", p.Notes)
	}
	p = PlanRestore(d, NoServer(), PlanOptions{ResumeAgents: false, Programs: ParsePrograms("none", "")})
	if len(p.Typing) != 0 {
		t.Fatalf("none starts nothing: %+v", p.Typing)
	}
}
