package shellquote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestForProgram(t *testing.T) {
	tests := []struct {
		name string
		want Shell
	}{
		{"bash", POSIX}, {"-bash", POSIX}, {"dash", POSIX}, {"sh", POSIX},
		{"zsh", Zsh}, {"-zsh", Zsh}, {"ksh", Ksh93}, {"ksh93", Ksh93}, {"mksh", POSIX},
		{"fish", Fish}, {"-fish", Fish}, {"/usr/bin/fish", Fish},
		{"tcsh", Unsupported}, {"-csh", Unsupported}, {"nu", Unsupported},
		// An unknown program is most likely a POSIX shell under another name.
		{"my-shell", POSIX},
	}
	for _, tt := range tests {
		if got := ForProgram(tt.name); got != tt.want {
			t.Errorf("ForProgram(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestWord(t *testing.T) {
	tests := []struct {
		shell Shell
		word  string
		want  string
	}{
		{POSIX, "my-agent", "my-agent"},
		{POSIX, "--resume=x", "'--resume=x'"}, // = is quoted for zsh
		{POSIX, "a/b:c@d+e%f", "a/b:c@d+e%f"},
		{POSIX, "", "''"},
		{POSIX, "a b", "'a b'"},
		{POSIX, `a\b`, `'a\b'`},
		{POSIX, "$HOME", "'$HOME'"},
		{POSIX, "!!", "'!!'"},
		{POSIX, "k=v", "'k=v'"},
		{POSIX, "a;b", "'a;b'"},
		{POSIX, "*", "'*'"},
		{POSIX, "~", "'~'"},
		{POSIX, "日本", "'日本'"},
		// fish reads \\ inside single quotes as one backslash, and a bare %self as its pid.
		{Fish, `a\b`, `'a\\b'`},
		{Fish, `a\`, `'a\\'`},
		{Fish, "%self", "'%self'"},
		{Fish, "50%", "'50%'"},
		{Fish, "plain", "plain"},
		// zsh's line editor reads a typed U+E000..U+E0FF as one raw byte, so those are escaped.
		{Zsh, "a\ue052b", `'a'$'\uE052''b'`},
		{Zsh, "\ue0ff", `$'\uE0FF'`},
		{Zsh, "\ue100", "'\ue100'"},
		{POSIX, "a\ue052b", "'a\ue052b'"},
		// ksh93's editor scrambles typed multibyte characters: they are all escaped.
		{Ksh93, "a é😀", `'a '$'\u00E9'$'\U0001F600'`},
		{Ksh93, "plain text", "'plain text'"},
	}
	for _, tt := range tests {
		if got := Word(tt.shell, tt.word); got != tt.want {
			t.Errorf("Word(%v, %q) = %q, want %q", tt.shell, tt.word, got, tt.want)
		}
	}
}

func TestLines(t *testing.T) {
	long := strings.Repeat("x", 1200)
	tests := []struct {
		name  string
		shell Shell
		argv  []string
		want  []string
	}{
		{"short stays one line", POSIX, []string{"agent", "--resume", "a b"}, []string{"agent --resume 'a b'"}},
		{"fish short", Fish, []string{"agent", `a\`}, []string{`agent 'a\\'`}},
		{"long word is cut into quoted pieces", POSIX, []string{"agent", long}, []string{
			"agent '" + long[:511-len("agent '")-1] + `'\`,
			"'" + long[503:503+509] + `'\`,
			"'" + long[503+509:] + "'",
		}},
		{"ksh93 lines are ASCII", Ksh93, []string{"agent", strings.Repeat("é", 100)}, []string{
			"agent " + strings.Repeat(`$'\u00E9'`, 56) + `\`,
			strings.Repeat(`$'\u00E9'`, 44),
		}},
		{"words move to the next line whole", POSIX, []string{"agent", strings.Repeat("a", 300), strings.Repeat("b", 300)}, []string{
			"agent " + strings.Repeat("a", 300) + ` \`,
			strings.Repeat("b", 300),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Lines(tt.shell, tt.argv)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("Lines =\n%q\nwant\n%q", got, tt.want)
			}
			for _, l := range got {
				if len(l) > MaxLineBytes {
					t.Errorf("line of %d bytes, more than %d", len(l), MaxLineBytes)
				}
			}
		})
	}
}

// A multibyte character is never cut, and no line of a long command is longer than the limit.
func TestLinesCutsWholeCharacters(t *testing.T) {
	for _, sh := range []Shell{POSIX, Zsh, Ksh93, Fish} {
		argv := []string{"agent", strings.Repeat("日\\\ue000", 1000), strings.Repeat("é", 1000)}
		lines, err := Lines(sh, argv)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range lines {
			if len(l) > MaxLineBytes {
				t.Errorf("%v line %d: %d bytes", sh, i, len(l))
			}
			if !utf8.ValidString(l) || !strings.HasSuffix(l, `\`) && i < len(lines)-1 {
				t.Errorf("%v line %d is cut badly: %q", sh, i, l)
			}
		}
	}
}

func TestLinesRefuses(t *testing.T) {
	if _, err := Lines(Unsupported, []string{"agent"}); err == nil {
		t.Error("Lines typed into an unsupported shell")
	}
	if _, err := Lines(POSIX, []string{"agent", "it's"}); err == nil {
		t.Error("Lines typed an apostrophe")
	}
	// fish drops these characters from what is typed at its prompt.
	for _, r := range []rune{'\uF600', '\uF6FF', '\uFDD0', '\uFDEF'} {
		if _, err := Lines(Fish, []string{"agent", "a" + string(r)}); err == nil {
			t.Errorf("Lines typed U+%04X into fish", r)
		}
		if _, err := Lines(POSIX, []string{"agent", "a" + string(r)}); err != nil {
			t.Errorf("Lines refused U+%04X for a POSIX shell: %v", r, err)
		}
	}
}

// Every part of taw asks the one list whether a program is a shell: the watcher (an agent gone
// back to its prompt), detection (sh -c 'agent …'), a hook finding its pane and agent start
// typing at a prompt.
func TestIsShell(t *testing.T) {
	for _, name := range []string{"sh", "bash", "dash", "ash", "zsh", "ksh", "ksh93", "mksh", "oksh", "pdksh", "yash",
		"osh", "ysh", "fish", "csh", "tcsh", "nu", "elvish", "xonsh", "pwsh", "ion", "-bash", "-zsh", "-sh", "/usr/bin/fish"} {
		if !IsShell(name) {
			t.Errorf("IsShell(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"", "claude", "node", "python3", "busybox", "shell", "bash.sh"} {
		if IsShell(name) {
			t.Errorf("IsShell(%q) = true, want false", name)
		}
	}
}

// A saved resume command is written as a POSIX line and read back by Words.
func TestLineReadBackByWords(t *testing.T) {
	argv := []string{"my-agent", "--resume", "a b", "", "k=v", `"q"`, `\`, "$x;y", "日本 語", "*"}
	line := Line(POSIX, argv)
	got := Words(line)
	if strings.Join(got, "\x00") != strings.Join(argv, "\x00") || len(got) != len(argv) {
		t.Fatalf("Words(%q) = %q, want %q", line, got, argv)
	}
}
