package session

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestProgramRules(t *testing.T) {
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
		{"vim keeps exactly its saved argv", "", "", []string{"vim", "notes.txt"}, "/proj", []string{"vim", "notes.txt"}},
		{"vim given a session keeps it", "", "", []string{"vim", "-S", "other.vim"}, "/proj", []string{"vim", "-S", "other.vim"}},
		{"an empty argv", "all", "", nil, "/", nil},
	} {
		got, ok := ParsePrograms(tt.ours, tt.resurrect).Restart(tt.argv)
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

// A Session.vim recorded at save time is given to vim only with the setting on and the file
// still found safe at restore; otherwise vim starts with exactly its saved argv, and a note says why.
func TestPlanVimSession(t *testing.T) {
	d := doc(Session{Name: "w", Windows: []Window{{Index: 0, Panes: []Pane{{Dir: "/p",
		Program: &Program{Argv: []string{"vim", "-n", "notes.txt"}, Dir: "/p", VimSession: "/p/Session.vim"}}}}}})
	ok := func(string) error { return nil }
	planted := func(string) error { return errors.New("others can write the file /p/Session.vim (mode 0666)") }
	for _, tt := range []struct {
		name  string
		on    bool
		check func(string) error
		want  string
		note  string
	}{
		{"off", false, ok, "vim -n notes.txt", "is off"},
		{"on and safe", true, ok, "vim -S /p/Session.vim", ""},
		{"on, unsafe now", true, planted, "vim -n notes.txt", "others can write"},
		{"on, no check", true, nil, "vim -n notes.txt", "cannot be checked"},
	} {
		p := PlanRestore(d, NoServer(), PlanOptions{Programs: ParsePrograms("", ""), VimSessions: tt.on, CheckVimSession: tt.check})
		if len(p.Typing) != 1 || p.Typing[0].Line != tt.want {
			t.Errorf("%s: typed %+v, want %q", tt.name, p.Typing, tt.want)
		}
		if got := len(p.Notes) > 0 && strings.Contains(p.Notes[0].Note, tt.note); tt.note != "" && !got || tt.note == "" && len(p.Notes) > 0 {
			t.Errorf("%s: notes %+v, want one saying %q", tt.name, p.Notes, tt.note)
		}
	}
}

func TestCheckVimSession(t *testing.T) {
	uid := os.Getuid()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "Session.vim")
	if err := os.WriteFile(path, []byte("edit x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckVimSession(path, uid); err != nil {
		t.Fatalf("the user's own private file: %v", err)
	}
	if err := CheckVimSession(path, uid+1); err == nil || !strings.Contains(err.Error(), "not to you") {
		t.Errorf("another user's file: %v", err)
	}
	if err := os.Chmod(path, 0o664); err != nil {
		t.Fatal(err)
	}
	if err := CheckVimSession(path, uid); err == nil || !strings.Contains(err.Error(), "others can write the file") {
		t.Errorf("a group-writable file: %v", err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o1777); err != nil {
		t.Fatal(err)
	}
	if err := CheckVimSession(path, uid); err == nil || !strings.Contains(err.Error(), "others can write the folder") {
		t.Errorf("a shared folder: %v", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "Session.vim")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if err := CheckVimSession(link, uid); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a link: %v", err)
	}
}
