package spawn

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestEnv(t *testing.T) {
	base := []string{"PATH=/bin", "HOME=/h", "HERDR_PANE_ID=%calling", "HERDR_ENV=1", "HERDR_BIN_PATH=/x", "TMUX_PANE=%0", "TMUX=/s,1,0", "TAW_PANE=%9", "TAW_PLUGIN_ID=old"}
	tests := []struct {
		name  string
		inv   Invocation
		extra map[string]string
		want  []string
	}{
		{"no pane: none of the ids", Invocation{}, nil, []string{"HOME=/h", "PATH=/bin", "TMUX=/s,1,0"}},
		{"a pane: its ids under both names", Invocation{"%3", "@2", "$1"}, map[string]string{"TAW_AGENT": "claude"}, []string{
			"HERDR_PANE_ID=%3", "HERDR_TAB_ID=@2", "HERDR_WORKSPACE_ID=$1", "HOME=/h", "PATH=/bin",
			"TAW_AGENT=claude", "TAW_PANE=%3", "TAW_SESSION=$1", "TAW_WINDOW=@2", "TMUX=/s,1,0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Env(base, tt.inv, tt.extra); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Env =\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
}

func TestSupervise(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "hooks.log")
	env := os.Environ()

	var out bytes.Buffer
	r := Supervise(context.Background(), Job{Label: "ok", Argv: []string{"sh", "-c", "echo hi"}, Env: env, Log: log}, nil, &out, nil)
	if r.Err != nil || r.Exit != 0 || out.String() != "hi\n" {
		t.Errorf("ok: %+v %q", r, out.String())
	}

	r = Supervise(context.Background(), Job{Label: "fails", Argv: []string{"sh", "-c", "echo why >&2; exit 3"}, Env: env, Log: log}, nil, nil, nil)
	if r.Exit != 3 || r.Err == nil {
		t.Errorf("fails: %+v", r)
	}

	start := time.Now()
	r = Supervise(context.Background(), Job{Label: "hangs", Argv: []string{"sh", "-c", "sleep 30 & wait"}, Env: env, Timeout: 200 * time.Millisecond, Log: log}, nil, nil, nil)
	if !r.TimedOut || time.Since(start) > 5*time.Second {
		t.Errorf("hangs: %+v after %s", r, time.Since(start))
	}

	r = Supervise(context.Background(), Job{Label: "missing", Argv: []string{"/no/such/program"}, Env: env, Log: log}, nil, nil, nil)
	if r.Err == nil || r.Exit != -1 {
		t.Errorf("missing: %+v", r)
	}

	data, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	want := []string{
		`fails: ["sh" "-c" "echo why >&2; exit 3"]: exit status 3: output: why`,
		`hangs: ["sh" "-c" "sleep 30 & wait"]: timed out after 200ms: killed`,
		`missing: ["/no/such/program"]: cannot start /no/such/program: no such file or directory`,
	}
	if len(lines) != len(want) {
		t.Fatalf("log:\n%s", data)
	}
	for i, w := range want {
		if !strings.HasSuffix(lines[i], " "+w) {
			t.Errorf("log line %d = %q, want it to end %q", i+1, lines[i], w)
		}
	}
}

func TestLogPath(t *testing.T) {
	env := map[string]string{"HOME": "/h"}
	if got := LogPath(func(k string) string { return env[k] }); got != "/h/.local/state/taw/hooks.log" {
		t.Errorf("LogPath = %s", got)
	}
	env["XDG_STATE_HOME"] = "/s"
	if got := LogPath(func(k string) string { return env[k] }); got != "/s/taw/hooks.log" {
		t.Errorf("LogPath = %s", got)
	}
}
