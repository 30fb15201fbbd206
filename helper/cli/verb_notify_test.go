package cli

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/notify"
	"github.com/taw-tmux/taw/helper/plugins"
)

// parseArgs runs one command line through the app, as Main would, with env as the environment and
// buffers for output, and hands the options the verb parsed to parsed in place of running it.
func parseArgs(t *testing.T, env map[string]string, args string, parsed func(any) error) error {
	t.Helper()
	var out, errOut bytes.Buffer
	f := &Factory{Getenv: func(k string) string { return env[k] }, IO: IO{Out: &out, ErrOut: &errOut}, parsed: parsed}
	app := NewApp(f)
	return app.Run(intersperse(app, strings.Fields(args)))
}

// runParsed runs one command line and returns the options the verb parsed.
func runParsed(t *testing.T, args string) (any, error) {
	t.Helper()
	var parsed any
	err := parseArgs(t, nil, args, func(opts any) error { parsed = opts; return nil })
	return parsed, err
}

// parsedInto is a Factory.parsed that keeps a verb's options in the one of ptrs (each the
// address of an *xOptions) that has their type.
func parsedInto(ptrs ...any) func(any) error {
	return func(opts any) error {
		for _, p := range ptrs {
			if v := reflect.ValueOf(p).Elem(); v.Type() == reflect.TypeOf(opts) {
				v.Set(reflect.ValueOf(opts))
			}
		}
		return nil
	}
}

func TestNewNotifyTestCommand(t *testing.T) {
	tests := []struct {
		args     string
		wantKind notify.Kind
		wantPane string
		wantErr  string
		wantExit int
	}{
		{"taw notify test", notify.KindBlocked, "", "", 0},
		{"taw notify test --kind finished --pane %3", notify.KindFinished, "%3", "", 0},
		{"taw notify test --kind done", "", "", `invalid --kind "done" (expected: blocked|finished)`, ExitError},
		{"taw notify test extra", "", "", "notify test takes no arguments", ExitUsage},
	}
	for _, tt := range tests {
		parsed, err := runParsed(t, tt.args)
		got, _ := parsed.(*notifyTestOptions)
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || AsError(err).Exit != tt.wantExit {
				t.Errorf("%s: err = %v, want %q with exit %d", tt.args, err, tt.wantErr, tt.wantExit)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.args, err)
		case got.Kind != tt.wantKind || got.Pane != tt.wantPane:
			t.Errorf("%s: options = %+v", tt.args, got)
		}
	}
}

func TestNewConfigCheckCommand(t *testing.T) {
	parsed, err := runParsed(t, "taw config check --file x.toml")
	if got, _ := parsed.(*configCheckOptions); err != nil || got == nil || got.File != "x.toml" {
		t.Errorf("--file: %v %+v", err, got)
	}
	if _, err := runParsed(t, "taw config check x.toml"); err == nil || AsError(err).Exit != ExitUsage {
		t.Errorf("a positional argument: err = %v, want a usage error", err)
	}
}

func TestExecCommand(t *testing.T) {
	p := pluginFor("/plug dir")
	got := execCommand("/bin/taw", p, "pane:side", "", []string{"./run", "it's"})
	want := `exec '/bin/taw' 'plugin' 'exec' '--plugin' 'demo' '--entry' 'pane:side' '--' '/plug dir/run' 'it'\''s'`
	if got != want {
		t.Errorf("execCommand =\n%s\nwant\n%s", got, want)
	}
}

func pluginFor(dir string) plugins.Plugin {
	return plugins.Plugin{Entry: plugins.Entry{ID: "demo", Path: dir, Enabled: true}}
}
