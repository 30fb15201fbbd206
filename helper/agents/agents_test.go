package agents

import (
	"strings"
	"testing"
)

func TestTableIsConsistent(t *testing.T) {
	names := map[string]string{}
	programs := map[string]string{}
	packages := map[string]string{}
	for _, a := range Known {
		if a.ID == "" || a.Display == "" || a.ID != strings.ToLower(a.ID) {
			t.Errorf("%+v: id must be lower case and display set", a)
		}
		for _, n := range append([]string{a.ID}, a.Aliases...) {
			if other, dup := names[strings.ToLower(n)]; dup {
				t.Errorf("name %q is both %s and %s", n, other, a.ID)
			}
			names[strings.ToLower(n)] = a.ID
		}
		if !a.Detected && (len(a.Programs) > 0 || len(a.Packages) > 0 || len(a.PathHints) > 0) {
			t.Errorf("%s is report-only but has process names", a.ID)
		}
		if a.Detected && len(a.Programs) == 0 && len(a.Packages) == 0 {
			t.Errorf("%s is detected but has no program or package", a.ID)
		}
		for _, p := range a.Programs {
			if other, dup := programs[p]; dup {
				t.Errorf("program %q is both %s and %s", p, other, a.ID)
			}
			programs[p] = a.ID
		}
		for _, p := range a.Packages {
			if other, dup := packages[strings.ToLower(p)]; dup {
				t.Errorf("package %q is both %s and %s", p, other, a.ID)
			}
			packages[strings.ToLower(p)] = a.ID
		}
	}
	if n := len(Detected()); n < 22 {
		t.Errorf("%d detected agents, want at least 22", n)
	}
}

func TestLookup(t *testing.T) {
	tests := []struct{ name, want string }{
		{"claude", "claude"}, {" Claude-Code ", "claude"}, {"cursor-agent", "cursor"},
		{"antigravity", "agy"}, {"qoder", "qodercli"}, {"GitHub-Copilot", "copilot"},
		{"kiro-cli", "kiro"}, {"muse-code", "muse"}, {"hermes-agent", "hermes"},
		{"command-code", "command-code"}, {"commandcode", "command-code"}, {"prime-agent", "prime"}, {"crush", "crush"},
	}
	for _, tt := range tests {
		a, ok := Lookup(tt.name)
		if !ok || a.ID != tt.want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", tt.name, a, ok, tt.want)
		}
	}
	if _, ok := Lookup("my-bot"); ok {
		t.Error("my-bot is not known")
	}
	if got := Canonical(" my-bot "); got != "my-bot" {
		t.Errorf("Canonical keeps an unknown label: got %q", got)
	}
	if got := Canonical("Claude-Code"); got != "claude" {
		t.Errorf("Canonical(Claude-Code) = %q", got)
	}
}

func TestReportOnlyAgentsAreNeverDetected(t *testing.T) {
	for _, id := range []string{"crush", "command-code", "prime"} {
		a, ok := Lookup(id)
		if !ok || a.Detected {
			t.Errorf("%s: known %v, detected %v; want known and report-only", id, ok, ok && a.Detected)
		}
		if _, ok := ByProgram(id); ok {
			t.Errorf("ByProgram(%q) found it", id)
		}
	}
	if _, ok := ByPackage("@charmland/crush"); ok {
		t.Error("crush's package must not name it")
	}
}

func TestByPackageAndPath(t *testing.T) {
	if a, ok := ByPackage("@Anthropic-AI/Claude-Code"); !ok || a.ID != "claude" {
		t.Errorf("ByPackage ignores case: %v %v", a, ok)
	}
	if a, ok := ByPath("/home/u/.local/share/cursor-agent/versions/1/index.js"); !ok || a.ID != "cursor" {
		t.Errorf("ByPath = %v %v", a, ok)
	}
	if _, ok := ByPath("/usr/bin/node"); ok {
		t.Error("ByPath matched a plain path")
	}
}

func TestResumeArgv(t *testing.T) {
	tests := []struct {
		r        Resume
		id, file string
		want     string
	}{
		{Resume{Program: "claude", Arg: "--resume"}, "abc", "", "claude --resume abc"},
		{Resume{Program: "codex", Arg: "resume"}, "abc", "/f", "codex resume abc"},
		{Resume{Program: "copilot", Arg: "--resume=", Glued: true}, "abc", "", "copilot --resume=abc"},
		// pi and omp take their session file when there is one, else the id.
		{Resume{Program: "pi", Arg: "--session", File: true}, "abc", "/s/a.jsonl", "pi --session /s/a.jsonl"},
		{Resume{Program: "pi", Arg: "--session", File: true}, "abc", "", "pi --session abc"},
		{Resume{Program: "omp", Arg: "--resume=", Glued: true, File: true}, "", "/s/a.jsonl", "omp --resume=/s/a.jsonl"},
		{Resume{Program: "claude", Arg: "--resume"}, "", "/f", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(tt.r.Argv(tt.id, tt.file), " "); got != tt.want {
			t.Errorf("%+v (%q, %q) = %q, want %q", tt.r, tt.id, tt.file, got, tt.want)
		}
	}
}
