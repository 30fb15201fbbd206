package panectl

import (
	"reflect"
	"testing"
)

func TestTmuxKeys(t *testing.T) {
	got, err := TmuxKeys([]string{"a", "enter", "esc", "escape", "ctrl+c", "control+j", "C-d", "alt+x", "shift+tab", "f12", "minus", "backtick", "ctrl+alt+k", "space", "é", "up"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "Enter", "Escape", "Escape", "C-c", "C-j", "C-d", "M-x", "BTab", "F12", "-", "`", "C-M-k", "Space", "é", "Up"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("keys = %q\nwant %q", got, want)
	}
	// One bad key refuses the call: nothing would be sent.
	for _, bad := range [][]string{{"a", "prefix+c"}, {"hyper+a"}, {"f0"}, {"f123"}, {"\x1b"}, {"ctrl+"}, {""}, {"enterx"}, {}} {
		if k, err := TmuxKeys(bad); err == nil {
			t.Errorf("TmuxKeys(%q) = %q, want a refusal", bad, k)
		}
	}
}

func TestChecks(t *testing.T) {
	for _, ok := range []string{"echo hi", "line one\nline two\tand a tab", "ünïcode ✓"} {
		if err := CheckText("t", ok); err != nil {
			t.Errorf("CheckText(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"\x1b[2J", "a\rb", "\x00", "\x7f", "\u009b31m", "\xff"} {
		if CheckText("t", bad) == nil {
			t.Errorf("CheckText(%q) took it", bad)
		}
	}
	if CheckLabel("a:b", true) == nil || CheckLabel("a.b", true) == nil || CheckLabel("a.b", false) != nil || CheckLabel("x\ny", false) == nil || CheckLabel(" ", false) == nil {
		t.Error("CheckLabel takes or refuses the wrong labels")
	}
	if CheckEnv(map[string]string{"GOOD_1": "v"}) != nil || CheckEnv(map[string]string{"A;B": "v"}) == nil || CheckEnv(map[string]string{"1A": "v"}) == nil || CheckEnv(map[string]string{"A": "x\ny"}) == nil {
		t.Error("CheckEnv takes or refuses the wrong variables")
	}
	if CheckArgv([]string{""}) == nil || CheckArgv([]string{"a\x00b"}) == nil || CheckArgv([]string{"sh", "-c", "a; b"}) != nil {
		t.Error("CheckArgv takes or refuses the wrong commands")
	}
	if _, err := CheckDir("relative"); err == nil {
		t.Error("CheckDir took a relative folder")
	}
	if _, err := CheckDir("/nonexistent-folder-of-taw"); err == nil {
		t.Error("CheckDir took a missing folder")
	}
}

func TestSpawnArgs(t *testing.T) {
	// One word goes through env, which runs it as one program: tmux would hand it to a shell.
	got, err := spawnArgs("", map[string]string{"B": "2", "A": "1"}, []string{"rm -rf ~; x"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"-e", "A=1", "-e", "B=2", "--", "env", "--", "rm -rf ~; x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("spawnArgs = %q, want %q", got, want)
	}
	got, _ = spawnArgs("", nil, []string{"printf", "%s", "a b"})
	if want := []string{"--", "printf", "%s", "a b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("spawnArgs = %q, want %q", got, want)
	}
}
