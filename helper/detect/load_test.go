package detect

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/agents"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func writeOverride(t *testing.T, dir, name, text string) string {
	t.Helper()
	d := filepath.Join(dir, "taw", "agent-detection")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(d, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadOverrides(t *testing.T) {
	cfg := t.TempDir()
	path := writeOverride(t, cfg, "claude.toml", `agent = "claude"
[[rule]]
id = "mine"
state = "blocked"
contains = "custom prompt"
`)
	writeOverride(t, cfg, "README.txt", "not a rule file")
	rs, errs := Load(env("XDG_CONFIG_HOME", cfg, "HOME", "/nonexistent"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := rs.Set("claude").Source; got != path {
		t.Errorf("claude rules from %s, want the override %s", got, path)
	}
	if got := rs.Classify("claude", screen("custom prompt")); got.RuleID != "mine" {
		t.Errorf("override rule: %+v", got)
	}
	// The override replaces the whole file: the embedded rules are gone for claude…
	if got := rs.Classify("claude", screen("Do you want to proceed?", "❯ 1. Yes", "  2. No")); got.RuleID != FallbackIdle {
		t.Errorf("embedded rule still active: %+v", got)
	}
	// …and kept for every other agent.
	if got := rs.Set("codex").Source; got != "embedded rules/codex.toml" {
		t.Errorf("codex rules from %s", got)
	}
}

func TestLoadHomeFallback(t *testing.T) {
	home := t.TempDir()
	path := writeOverride(t, filepath.Join(home, ".config"), "codex.toml", "agent = \"codex\"\n")
	rs, errs := Load(env("HOME", home))
	if len(errs) > 0 || rs.Set("codex").Source != path {
		t.Errorf("errs %v, source %s, want %s", errs, rs.Set("codex").Source, path)
	}
	// A relative XDG_CONFIG_HOME is ignored, as the spec says.
	if got := OverrideDir(env("XDG_CONFIG_HOME", "rel", "HOME", home)); got != filepath.Join(home, ".config", "taw", "agent-detection") {
		t.Errorf("OverrideDir = %s", got)
	}
	if got := OverrideDir(env()); got != "" {
		t.Errorf("no HOME: OverrideDir = %q", got)
	}
}

func TestLoadBrokenOverride(t *testing.T) {
	cfg := t.TempDir()
	path := writeOverride(t, cfg, "kiro.toml", "agent = \"kiro\"\n\n[[rule]]\nid = \"x\"\nstate = \"stuck\"\ncontains = \"y\"\n")
	writeOverride(t, cfg, "nobody.toml", "agent = \"nobody\"\n")
	rs, errs := Load(env("XDG_CONFIG_HOME", cfg))
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want two", errs)
	}
	joined := errs[0].Error() + "\n" + errs[1].Error()
	for _, want := range []string{
		path + `:5: rule "x": invalid state "stuck"`,
		"(taw's own rules for kiro stay in use)",
		"nobody.toml:1: agent \"nobody\" is not one taw detects (rule files are for: claude, codex,",
		"(file ignored)",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors %q lack %q", joined, want)
		}
	}
	if got := rs.Set("kiro").Source; got != "embedded rules/kiro.toml" {
		t.Errorf("kiro rules from %s, want the embedded ones kept", got)
	}
}

func TestEmbeddedRules(t *testing.T) {
	for _, id := range []string{"claude", "claude-code"} {
		data, ok := EmbeddedRules(id)
		if !ok || !strings.Contains(string(data), `agent = "claude"`) {
			t.Errorf("EmbeddedRules(%q) = %v", id, ok)
		}
	}
	if _, ok := EmbeddedRules("crush"); ok {
		t.Error("crush has no rules")
	}
}

// Garbage and mangled rule files must come back as errors, never as panics, and a parsed set must
// classify any screen.
func TestParseRulesGarbage(t *testing.T) {
	seed, _ := EmbeddedRules("claude")
	rnd := rand.New(rand.NewSource(1))
	alphabet := []byte("[]{}=\"'\\#\n ,.-_az019\u2500\xff{}()|*+?^$")
	for i := 0; i < 3000; i++ {
		data := append([]byte(nil), seed...)
		for n := rnd.Intn(8); n >= 0; n-- {
			pos := rnd.Intn(len(data))
			switch rnd.Intn(3) {
			case 0:
				data[pos] = alphabet[rnd.Intn(len(alphabet))]
			case 1:
				data = append(data[:pos], data[min(len(data), pos+rnd.Intn(40)):]...)
			default:
				data = append(data[:pos], append([]byte(strings.Repeat(string(alphabet[rnd.Intn(len(alphabet))]), rnd.Intn(5)+1)), data[pos:]...)...)
			}
			if len(data) == 0 {
				data = []byte("x")
			}
		}
		set, err := ParseRules("claude.toml", data)
		if err == nil {
			set.Classify(Screen{Lines: []string{"Do you want to proceed?", "❯ 1. Yes", "──────────", "❯", "──────────"}, Title: "✳ x"})
		} else if !strings.HasPrefix(err.Error(), "claude.toml") {
			t.Fatalf("error without the file name: %v", err)
		}
	}
	random := make([]byte, 512)
	for i := 0; i < 500; i++ {
		rnd.Read(random)
		_, _ = ParseRules("claude.toml", random[:rnd.Intn(len(random))])
	}
}

func FuzzParseRules(f *testing.F) {
	for _, id := range []string{"claude", "codex", "kiro", "muse"} {
		data, _ := EmbeddedRules(id)
		f.Add(data)
	}
	f.Add([]byte("agent = \"claude\"\n[[rule]]\nid=\"a\"\nstate=\"idle\"\nany=[{all=[{regex='x'}]}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := ParseRules("claude.toml", data)
		if err == nil {
			set.Classify(Screen{Lines: strings.Split(string(data), "\n"), Title: string(data)})
		}
	})
}

func TestEveryDetectedAgentHasRules(t *testing.T) {
	rs, errs := Load(env())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, a := range agents.Detected() {
		if rs.Set(a.ID) == nil {
			t.Errorf("no rules/%s.toml", a.ID)
		}
	}
	if got, want := len(rs.Agents()), len(agents.Detected()); got != want {
		t.Errorf("%d rule files for %d detected agents", got, want)
	}
}
