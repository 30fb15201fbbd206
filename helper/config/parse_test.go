package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name       string
		file       string
		wantResume bool
		wantErr    string // substring of the only problem; "" for none
	}{
		{"empty file is defaults", "", true, ""},
		{"resume off", "[session]\nresume_agents_on_restore = false\n", false, ""},
		{"unknown key keeps the known ones", "[session]\nresume_agents_on_restore = false\nbogus = 1\n", false, "cfg.toml:3: unknown key session.bogus"},
		{"bad value falls back to defaults", "[session]\n\nresume_agents_on_restore = \"no\"\n", true, "cfg.toml:3: bad value for session.resume_agents_on_restore: a TOML string is not what this key takes: write true or false"},
		{"broken syntax", "[session\n", true, "cfg.toml:1:"},
		{"broken syntax loses the good keys too", "[session]\nresume_agents_on_restore = false\n[notify\n", true, "cfg.toml:3:"},
		{"bad duration", "[notify]\nrecheck_delay = \"soon\"\n", true, `cfg.toml:2: bad value for notify.recheck_delay: "soon" is not a duration`},
		{"negative duration", "[notify]\nrecheck_delay = \"-1s\"\n", true, `cfg.toml:2: bad value for notify.recheck_delay`},
		{"integer duration", "[notify]\nrate_limit = 5\n", true, `cfg.toml:2: bad value for notify.rate_limit: a TOML integer is not what this key takes: write a duration such as "5s"`},
		{"bad choice", "[notify]\nterminal_protocol = \"osc8\"\n", true, `cfg.toml:2: bad value for notify.terminal_protocol: "osc8" is not one of auto, osc9, osc777, osc99`},
		{"bad agent switch", "[notify.agents]\nclaude = \"off\"\n", true, `cfg.toml:2: bad value for notify.agents.claude`},
		{"hook with unknown event", "[[hooks.commands]]\non = \"done\"\ncommand = [\"x\"]\n", true, `cfg.toml:2: unknown event "done"`},
		{"hook without command", "[[hooks.commands]]\non = \"blocked\"\n", true, `cfg.toml:2: hook 1 has no command`},
		{"hook with empty command", "[[hooks.commands]]\non = \"blocked\"\ncommand = [\"x\"]\n[[hooks.commands]]\non = \"finished\"\ncommand = []\n", true, `cfg.toml:6: hook 2 has no command`},
		{"unknown key in a hook", "[[hooks.commands]]\non = \"blocked\"\ncommand = [\"x\"]\nshell = true\n", true, `cfg.toml:4: unknown key hooks.commands.shell`},
		{"hook command of numbers", "[[hooks.commands]]\non = \"blocked\"\ncommand = [1]\n", true, `cfg.toml:3: bad value for hooks.commands.command: a TOML integer is not what this key takes: write an array of strings`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, problems := Parse("cfg.toml", []byte(tt.file))
			if cfg.Session.ResumeAgentsOnRestore != tt.wantResume {
				t.Errorf("resume_agents_on_restore = %v, want %v", cfg.Session.ResumeAgentsOnRestore, tt.wantResume)
			}
			switch {
			case tt.wantErr == "" && len(problems) > 0:
				t.Errorf("unexpected problems: %v", problems)
			case tt.wantErr != "" && (len(problems) != 1 || !strings.Contains(problems[0].Error(), tt.wantErr)):
				t.Errorf("problems = %v, want one containing %q", problems, tt.wantErr)
			}
		})
	}
}

func TestParseReportsEveryBadLine(t *testing.T) {
	file := `[notify]
enabled = false
recheck_delay = "later"
bell = "loud"
rate_limit = "2s"
colour = "red"
`
	cfg, problems := Parse("c.toml", []byte(file))
	var got []string
	for _, p := range problems {
		got = append(got, p.Error()[:strings.Index(p.Error(), ": ")])
	}
	if want := []string{"c.toml:3", "c.toml:4", "c.toml:6"}; !reflect.DeepEqual(got, want) {
		t.Errorf("problem lines = %v, want %v (%v)", got, want, problems)
	}
	if cfg.Notify.Enabled || cfg.Notify.RateLimit.Duration != 2*time.Second {
		t.Errorf("good keys not applied: enabled=%v rate_limit=%v", cfg.Notify.Enabled, cfg.Notify.RateLimit)
	}
	if cfg.Notify.RecheckDelay.Duration != time.Second || cfg.Notify.Bell {
		t.Errorf("bad keys did not keep their defaults: %v %v", cfg.Notify.RecheckDelay, cfg.Notify.Bell)
	}
}

func TestParseHooks(t *testing.T) {
	file := `[hooks]
timeout = "2s"
[[hooks.commands]]
on = "blocked"
command = ["a", "b"]
[[hooks.commands]]
on = "pane.agent_detected"
command = ["c"]
`
	cfg, problems := Parse("c.toml", []byte(file))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	want := []Hook{{On: "blocked", Command: []string{"a", "b"}}, {On: "agent_appeared", Command: []string{"c"}}}
	if !reflect.DeepEqual(cfg.Hooks.Commands, want) || cfg.Hooks.Timeout.Duration != 2*time.Second {
		t.Errorf("hooks = %+v", cfg.Hooks)
	}
}

func TestDefaultFileIsTheDefaults(t *testing.T) {
	cfg, problems := Parse("default.toml", []byte(DefaultFile))
	if len(problems) > 0 {
		t.Fatalf("taw config default does not parse cleanly: %v", problems)
	}
	if !reflect.DeepEqual(cfg, Default()) {
		t.Errorf("taw config default parses to\n%+v\nwant\n%+v", cfg, Default())
	}
	// Every key of the Config type is written in the default file.
	lines := KeyLines([]byte(DefaultFile))
	for _, key := range keysOf(reflect.TypeOf(Config{}), "") {
		if _, ok := lines[key]; !ok {
			t.Errorf("key %s is not in the default file", key)
		}
	}
	for key := range expect {
		if strings.HasPrefix(key, "hooks.commands") {
			continue
		}
		if _, ok := lines[key]; !ok {
			t.Errorf("expect names %s, which is not in the default file", key)
		}
	}
}

// keysOf lists the dotted keys of a config type, leaving out arrays of tables (shown commented).
func keysOf(t reflect.Type, prefix string) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := prefix + f.Tag.Get("toml")
		ft := f.Type
		switch {
		case ft.Kind() == reflect.Struct && ft != reflect.TypeOf(Duration{}) && ft != reflect.TypeOf(Choice{}):
			keys = append(keys, keysOf(ft, name+".")...)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
		default:
			keys = append(keys, name)
		}
	}
	return keys
}

func TestKeyLines(t *testing.T) {
	file := "a = 1\n[t]\nb = 2\n[[arr]]\nc = 3\n[[arr]]\n\nc = 4\n[arr.sub]\nd = 5\n"
	got := KeyLines([]byte(file))
	want := map[string]int{"a": 1, "t": 2, "t.b": 3, "arr.0": 4, "arr.0.c": 5, "arr.1": 6, "arr.1.c": 8, "arr.1.sub": 9, "arr.1.sub.d": 10}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("KeyLines = %v, want %v", got, want)
	}
}

// FuzzParse: no input makes Parse panic, and every problem names the file.
func FuzzParse(f *testing.F) {
	f.Add(DefaultFile)
	f.Add("[notify]\nrecheck_delay = 5\n[[hooks.commands]]\non = \"x\"\n")
	f.Add("[[hooks.commands]]\ncommand = [1, \"a\"]\n[hooks.commands.x]\n")
	f.Fuzz(func(t *testing.T, file string) {
		_, problems := Parse("f.toml", []byte(file))
		for _, p := range problems {
			if !strings.HasPrefix(p.Error(), "f.toml") {
				t.Errorf("problem without the file: %v", p)
			}
		}
	})
}

// Problems come in the order of their lines, whichever check found them.
func TestParseProblemsInLineOrder(t *testing.T) {
	file := "[notify]\nsond = true\nrate_limit = 5\nrecheck_delay = \"soon\"\n[[hooks.commands]]\non = \"done\"\ncommand = [\"x\"]\n[session]\nbogus = 1\n"
	_, problems := Parse("cfg.toml", []byte(file))
	var lines []int
	for _, p := range problems {
		lines = append(lines, problemLine(p))
	}
	want := []int{2, 3, 4, 6, 9}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("problem lines = %v, want %v: %v", lines, want, problems)
	}
}
