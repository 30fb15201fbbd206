package tests

import (
	"bytes"
	"context"
	"fmt"
	"github.com/taw-tmux/taw/tests/testrun"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/session"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
)

// typingShells are the shells a restore types into, each started the way a pane starts one.
// .ci/run installs them from Debian.
var typingShells = []struct{ name, prog, pkg string }{
	{"bash", "bash", "bash"},
	{"zsh", "zsh", "zsh"},
	{"fish", "fish", "fish"},
	{"dash", "dash", "dash"},
	{"sh", "sh", "dash"},
	{"ksh", "ksh93", "ksh"},
	{"mksh", "mksh", "mksh"},
}

// TestRestoreTypingIntoRealShells types commands the resume rules accept into each real shell in
// a real tmux pane, with the keys a restore sends (session.TypeKeys, for the shell the pane is
// found to run), and wants the argv the program receives byte for byte. Hand-picked hostile
// commands come first, then random ones drawn from every byte class the rules allow;
// TAW_TYPING_ARGVS sets how many random ones each shell gets (10 by default).
func TestRestoreTypingIntoRealShells(t *testing.T) {
	n := 10
	if v := os.Getenv("TAW_TYPING_ARGVS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatalf("TAW_TYPING_ARGVS=%q: %v", v, err)
		}
	}
	// Not t.TempDir: fish may still write its history into home as the server goes down.
	dir, err := os.MkdirTemp("", "tawtyping")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "bin")
	home := filepath.Join(dir, "home")
	// fish's first interactive start generates completions from every man page in the background,
	// minutes of CPU on a small machine, unless the folder they go in is there already.
	for _, d := range []string{bin, home, filepath.Join(home, ".local/share/fish/generated_completions")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The program the commands run writes its argv, NUL-separated, then renames the file into
	// place, so a file that is there is whole.
	dump := "#!/bin/sh\n: > \"$ARGDUMP_OUT.part\"\n[ $# -eq 0 ] || printf '%s\\0' \"$@\" > \"$ARGDUMP_OUT.part\"\nmv \"$ARGDUMP_OUT.part\" \"$ARGDUMP_OUT\"\n"
	if err := os.WriteFile(filepath.Join(bin, "argdump"), []byte(dump), 0o755); err != nil {
		t.Fatal(err)
	}
	// An empty .zshrc keeps zsh from starting its first-run menu.
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}

	sock, err := os.MkdirTemp("", "tawty")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sock)
	name, stop := startTmux(t, "typing", sock, 200, 50)
	defer stop()
	c := &tmux.Client{Global: []string{"-L", name}}
	ctx := context.Background()

	seed := time.Now().UnixNano()
	if v := os.Getenv("TAW_TYPING_SEED"); v != "" {
		seed, _ = strconv.ParseInt(v, 10, 64)
	}
	t.Logf("seed %d (TAW_TYPING_SEED to repeat)", seed)

	for _, sh := range typingShells {
		t.Run(sh.name, func(t *testing.T) {
			path := testrun.Program(t, sh.prog, sh.pkg)
			out := filepath.Join(dir, sh.name+".argv")
			env := []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + home, "TERM=screen", "LANG=C.UTF-8", "ARGDUMP_OUT=" + out}
			if sh.prog == "mksh" || sh.prog == "ksh93" {
				env = append(env, "ENV=/dev/null")
			}
			paneLine, err := c.Output(ctx, "new-window", "-P", "-F", "#{pane_id} #{pane_pid}", "-t", "s:", "env -i "+strings.Join(env, " ")+" "+path)
			if err != nil {
				t.Fatal(err)
			}
			pane, pidText, _ := strings.Cut(paneLine, " ")
			pid, _ := strconv.Atoi(pidText)
			rng := rand.New(rand.NewSource(seed + int64(len(sh.name))))
			passed, refused := 0, 0
			argvs := hostileArgvs()
			for i := 0; i < n; i++ {
				argvs = append(argvs, randomArgv(rng, sh.name == "fish"))
			}
			for i := 0; i < len(argvs); i++ {
				argv := argvs[i]
				if err := report.ValidateResume(argv, nil); err != nil {
					t.Fatalf("argv %d is not one the rules accept: %v", i, err)
				}
				waitPrompt(t, c, pane, pid)
				keys, err := session.TypeKeys(ctx, c, pane, argv)
				if err != nil {
					if sh.name != "fish" || !strings.Contains(err.Error(), "fish drops") {
						t.Fatalf("argv %d: %v", i, err)
					}
					// Refused, as it must be: draw another, so fish gets as many typed.
					refused++
					if refused < 20*n {
						argvs = append(argvs, randomArgv(rng, true))
					}
					continue
				}
				_ = os.Remove(out)
				if _, err := c.Run(ctx, keys...); err != nil {
					t.Fatal(err)
				}
				got := waitFile(t, c, pane, out, i)
				want := []byte(strings.Join(argv[1:], "\x00"))
				if len(argv) > 1 {
					want = append(want, 0)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("argv %d arrived wrong in %s: %s", i, sh.name, firstDifference(argv[1:], strings.Split(strings.TrimSuffix(string(got), "\x00"), "\x00")))
				}
				passed++
			}
			t.Logf("%s: %d of %d commands typed arrived byte for byte (%d more refused: characters fish drops)", sh.name, passed, len(argvs)-refused, refused)
			if sh.name == "fish" {
				if got, _, _ := session.PaneShell(ctx, c, pane); got != shellquote.Fish {
					t.Errorf("the fish pane was taken for %v", got)
				}
			}
		})
	}
}

// waitPrompt waits until the pane's shell holds its terminal again and the cursor has stayed put
// between two looks: the shell is at its prompt, as the restore waits for it.
func waitPrompt(t *testing.T, c *tmux.Client, pane string, pid int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		front, _, _ := procinfo.ShellInFront(pid)
		cur, _ := c.Output(context.Background(), "display-message", "-p", "-t", pane, "#{cursor_x},#{cursor_y}")
		if front && cur != "0,0" && cur == last {
			return
		}
		last = cur
		time.Sleep(30 * time.Millisecond)
	}
	screen, _ := c.Output(context.Background(), "capture-pane", "-p", "-t", pane)
	t.Fatalf("the shell in %s showed no prompt within 20s:\n%s", pane, screen)
}

func waitFile(t *testing.T, c *tmux.Client, pane, path string, i int) []byte {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil {
			return b
		}
		time.Sleep(10 * time.Millisecond)
	}
	screen, _ := c.Output(context.Background(), "capture-pane", "-p", "-t", pane)
	t.Fatalf("argv %d never ran (no %s within 20s):\n%s", i, path, abbrev(screen))
	return nil
}

// hostileArgvs are commands that broke restores before: words fish reads inside single quotes,
// its %self, and commands longer than a terminal's line buffer.
func hostileArgvs() [][]string {
	return [][]string{
		{"argdump", `a\`, " ; touch /tmp/x ; echo ", `b\`, "c"},
		{"argdump", `a\\b`, `\`, `\\`, "%self", "%self%self", "50%"},
		{"argdump", "", "-", "--", "~", "~root", "!!", "!$", "a=b", "$HOME", "`id`", "$(id)", "*", "{a,b}", "#x", "^x", "a;b", "&", "|", ">x", "<x", "(x)", `"`},
		{"argdump", strings.Repeat("a", 8192-len("argdump")-1)},
		// fish redraws a long line of spaces slowly (40s for 8 KiB), so this one is shorter.
		{"argdump", strings.Repeat(" ", 3000)},
		{"argdump", strings.Repeat(`\`, 7000)},
		{"argdump", strings.Repeat("日本", 1300)},
		{"argdump", strings.Repeat(`"`, 4000), strings.Repeat("'"[0:0]+"x ", 1000)},
	}
}

// runeClasses are the kinds of character a word may hold under the resume rules, each drawn
// from: printable ASCII but the apostrophe, Latin-1, combining marks, invisible formatting
// (zero-width joiners, right-to-left overrides), the line and paragraph separators, CJK,
// emoji, private use, non-characters and the astral planes.
var runeClasses = []func(r *rand.Rand) rune{
	func(r *rand.Rand) rune {
		for {
			if c := rune(0x20 + r.Intn(0x7f-0x20)); c != '\'' {
				return c
			}
		}
	},
	func(r *rand.Rand) rune { return []rune(` \"$!%=;&|<>()*?[]{}~#^`)[r.Intn(23)] },
	func(r *rand.Rand) rune { return rune(0xa0 + r.Intn(0x60)) },
	func(r *rand.Rand) rune { return rune(0x300 + r.Intn(0x70)) },
	func(r *rand.Rand) rune {
		return []rune{0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2069, 0xfeff, 0x00ad}[r.Intn(14)]
	},
	func(r *rand.Rand) rune { return []rune{0x2028, 0x2029, 0x85 + 0x100}[r.Intn(3)] },
	func(r *rand.Rand) rune { return rune(0x4e00 + r.Intn(0x5000)) },
	func(r *rand.Rand) rune { return rune(0x1f300 + r.Intn(0x300)) },
	func(r *rand.Rand) rune { return rune(0xe000 + r.Intn(0x1900)) },
	func(r *rand.Rand) rune { return []rune{0xfffe, 0xffff, 0xfdd0, 0xfffd, 0x10ffff}[r.Intn(5)] },
	func(r *rand.Rand) rune { return rune(0x10000 + r.Intn(0xf0000)) },
}

// randomArgv is a command the resume rules accept: argdump and up to 63 words, at most 8 KiB.
// forFish makes nine in ten of them free of the characters fish drops, so fish is typed into
// as often as the others, and the tenth shows it refused.
func randomArgv(r *rand.Rand, forFish bool) []string {
	spare := forFish && r.Intn(10) != 0
	argv := []string{"argdump"}
	budget := 8192 - len("argdump")
	words := r.Intn(64)
	for i := 0; i < words && budget > 1; i++ {
		max := 40
		if r.Intn(8) == 0 {
			max = 3000 // now and then a word longer than a line buffer's share
		}
		n := r.Intn(max)
		class := runeClasses[r.Intn(len(runeClasses))]
		var w strings.Builder
		for j := 0; j < n; j++ {
			c := class(r)
			if r.Intn(4) == 0 {
				c = runeClasses[r.Intn(len(runeClasses))](r)
			}
			if spare && ((c >= 0xf600 && c <= 0xf73f) || (c >= 0xfdd0 && c <= 0xfdef)) {
				c = 'x'
			}
			if w.Len()+len(string(c))+1 > budget {
				break
			}
			w.WriteRune(c)
		}
		argv = append(argv, w.String())
		budget -= w.Len() + 1
	}
	for report.ValidateResume(argv, nil) != nil {
		argv = argv[:len(argv)-1] // too long once quoted for tmux: drop words until it fits
	}
	return argv
}

// firstDifference describes where two argvs first differ, briefly enough to read.
func firstDifference(sent, got []string) string {
	for i := 0; i < len(sent) || i < len(got); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("%d words arrived of %d; word %d (%d bytes) and after are missing", len(got), len(sent), i+1, len(sent[i]))
		case i >= len(sent):
			return fmt.Sprintf("%d words arrived, %d sent; extra word %q", len(got), len(sent), abbrev(got[i]))
		case sent[i] != got[i]:
			s, g := []rune(sent[i]), []rune(got[i])
			j := 0
			for j < len(s) && j < len(g) && s[j] == g[j] {
				j++
			}
			from := max(0, j-8)
			return fmt.Sprintf("word %d differs at character %d: sent …%q…, got …%q…", i+1, j, string(s[from:min(len(s), j+8)]), string(g[from:min(len(g), j+8)]))
		}
	}
	return "no difference"
}
