package session

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestCleanContents(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain\ttext\n", "plain\ttext\n"},
		{"\x1b[1;31mred\x1b[0m \x1b[38:5:208mo\x1b[m", "\x1b[1;31mred\x1b[0m \x1b[38:5:208mo\x1b[m"}, // colours stay
		{"a\x1b]0;title\x07b", "ab"},            // a title change goes
		{"a\x1b]52;c;cHduZWQ=\x1b\\b", "ab"},    // so does a clipboard write
		{"a\x1bP+q544e\x1b\\b", "ab"},           // and a device query
		{"a\x1b[2Jb\x1b[6nc\x1b[?1049h", "abc"}, // clear, cursor report, alternate screen
		{"a\x1b[>0mb", "ab"},                    // CSI m with a private marker is no SGR
		{"a\rb\x08c\x00d\x07e\x7f", "abcde"},    // other control bytes
		{"a\xc2\x9b31mb", "a31mb"},              // C1 CSI
		{"bad \xff byte", "bad \ufffd byte"},
		{"ünï cødé", "ünï cødé"},
		{"cut\x1b[1;3", "cut"},
		{"cut\x1b", "cut"},
	} {
		got := string(CleanContents([]byte(tt.in)))
		if got != tt.want+"\x1b[0m" {
			t.Errorf("CleanContents(%q) = %q, want %q", tt.in, got, tt.want+"\x1b[0m")
		}
	}
}

func TestCompressContents(t *testing.T) {
	if CompressContents([]byte("  \n\n\n")) != nil {
		t.Fatal("a blank pane keeps nothing")
	}
	z := CompressContents([]byte("$ ls\nfile\n$ \n\n\n"))
	b, err := ExpandContents(z)
	if err != nil || string(b) != "$ ls\nfile\n$" {
		t.Fatalf("ExpandContents = %q %v", b, err)
	}
	if _, err := ExpandContents([]byte("not gzip")); err == nil {
		t.Fatal("bad contents are refused")
	}
}

func TestPaintFile(t *testing.T) {
	lock := t.TempDir()
	pf := PaintFile{Contents: CompressContents([]byte("hello")), Shell: "/bin/bash", ShellCommand: "exec /bin/sh"}
	path, err := WritePaintFile(lock, pf)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("paint file mode %v", st.Mode())
	}
	if st, _ := os.Stat(filepath.Dir(path)); st.Mode().Perm() != 0o700 {
		t.Fatalf("paint folder mode %v", st.Mode())
	}
	got, err := ReadPaintFile(path)
	if err != nil || !reflect.DeepEqual(got, pf) {
		t.Fatalf("ReadPaintFile = %+v %v", got, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("a paint file is read once")
	}
	// A link, a file others can read, and a file elsewhere are refused.
	target, _ := WritePaintFile(lock, pf)
	link := filepath.Join(filepath.Dir(target), "pane-link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPaintFile(link); err == nil {
		t.Fatal("a link is not followed")
	}
	if err := os.Chmod(target, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPaintFile(target); err == nil {
		t.Fatal("a file others may read is refused")
	}
	other := filepath.Join(t.TempDir(), "pane-x")
	_ = os.WriteFile(other, []byte("{}"), 0o600)
	if _, err := ReadPaintFile(other); err == nil {
		t.Fatal("a file outside the paint folder is refused")
	}
}

func TestShellArgv(t *testing.T) {
	for _, tt := range []struct {
		shell, cmd, path string
		argv             []string
	}{
		{"/bin/bash", "", "/bin/bash", []string{"-bash"}},
		{"/usr/bin/zsh", "exec /bin/sh", "/usr/bin/zsh", []string{"zsh", "-c", "exec /bin/sh"}},
		{"", "", "/bin/sh", []string{"-sh"}},
		{"bash", "", "/bin/sh", []string{"-sh"}}, // only an absolute shell, as tmux checks
	} {
		path, argv := ShellArgv(tt.shell, tt.cmd)
		if path != tt.path || !reflect.DeepEqual(argv, tt.argv) {
			t.Errorf("ShellArgv(%q, %q) = %q %q", tt.shell, tt.cmd, path, argv)
		}
	}
}

func TestDecideOnStart(t *testing.T) {
	now := time.Unix(1000, 0)
	fresh := func() StartState {
		return StartState{ServerStarted: now.Add(-2 * time.Second), Sessions: []StartSession{{ID: "$0", Name: "0", Windows: 1, Panes: []StartPane{{PID: 9}}}}}
	}
	atPrompt := func(int) bool { return true }
	if ok, why := DecideOnStart(fresh(), now, atPrompt); !ok {
		t.Fatalf("a fresh server restores: %s", why)
	}
	for name, change := range map[string]func(*StartState){
		"restored already": func(s *StartState) { s.Restored = "taw restored …" },
		"started long ago": func(s *StartState) { s.ServerStarted = now.Add(-2 * MaxStartAge) },
		"no session yet":   func(s *StartState) { s.Sessions = nil },
		"a second session": func(s *StartState) { s.Sessions = append(s.Sessions, StartSession{Name: "mine", Windows: 1}) },
		"a second window":  func(s *StartState) { s.Sessions[0].Windows = 2 },
		"a second pane":    func(s *StartState) { s.Sessions[0].Panes = append(s.Sessions[0].Panes, StartPane{}) },
		"output scrolled":  func(s *StartState) { s.Sessions[0].Panes[0].History = 3 },
	} {
		st := fresh()
		change(&st)
		if ok, _ := DecideOnStart(st, now, atPrompt); ok {
			t.Errorf("%s: restored", name)
		}
	}
	if ok, _ := DecideOnStart(fresh(), now, func(int) bool { return false }); ok {
		t.Error("a pane running a program is in use")
	}
	for v, want := range map[string]OnStartMode{"on": OnStartOn, "replace": OnStartReplace, "": OnStartOff, "off": OnStartOff, "bogus": OnStartOff} {
		if got := ParseOnStart(v); got != want {
			t.Errorf("ParseOnStart(%q) = %v", v, got)
		}
	}
}
