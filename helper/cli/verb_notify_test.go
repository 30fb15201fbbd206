package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/notify"
	"github.com/taw-tmux/taw/helper/plugins"
	ucli "github.com/urfave/cli/v2"
)

// runVerb runs one verb through the app, as Main would, with buffers for output.
func runVerb(t *testing.T, cmd *ucli.Command, args string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := &Factory{Getenv: func(string) string { return "" }, IO: IO{Out: &out, ErrOut: &errOut}}
	app := NewApp(f)
	app.Commands = []*ucli.Command{cmd}
	setUsageErrors(app.Commands)
	err := app.Run(intersperse(app, strings.Fields(args)))
	return out.String(), err
}

func TestNewNotifyTestCommand(t *testing.T) {
	tests := []struct {
		args     string
		wantKind notify.Kind
		wantPane string
		wantErr  string
		wantExit int
	}{
		{"taw test", notify.KindBlocked, "", "", 0},
		{"taw test --kind finished --pane %3", notify.KindFinished, "%3", "", 0},
		{"taw test --kind done", "", "", `invalid --kind "done" (expected: blocked|finished)`, ExitError},
		{"taw test extra", "", "", "notify test takes no arguments", ExitUsage},
	}
	for _, tt := range tests {
		var got *notifyTestOptions
		_, err := runVerb(t, newNotifyTestCommand(&Factory{}, func(o *notifyTestOptions) error { got = o; return nil }), tt.args)
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
	var got *configCheckOptions
	cmd := newConfigCheckCommand(&Factory{}, func(o *configCheckOptions) error { got = o; return nil })
	if _, err := runVerb(t, cmd, "taw check --file x.toml"); err != nil || got.File != "x.toml" {
		t.Errorf("--file: %v %+v", err, got)
	}
	if _, err := runVerb(t, cmd, "taw check x.toml"); err == nil || AsError(err).Exit != ExitUsage {
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
