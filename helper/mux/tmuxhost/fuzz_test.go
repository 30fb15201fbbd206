package tmuxhost

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzSpawnArgv: whatever strings a Spawn carries, either CheckSpawn refuses them (and one of
// them really holds a NUL, or an environment name an "="), or the program receives exactly
// those arguments and that environment value, byte for byte, and nothing else runs on the
// server. The seeds run in every go test.
func FuzzSpawnArgv(f *testing.F) {
	f.Add("300\x00;\x00set-option\x00-g\x00@x\x00y", "b", "V", "v")
	f.Add("done;", `a\;`, "V", ";")
	f.Add(";", "-e", "V", "x\x00;\x00set-option\x00-g\x00@x\x00y")
	f.Add("#{pane_id}", "$HOME ~ \"'", "V", "#(touch /tmp/x)")
	f.Add("line\nnext", "\xff\xfe\x01\x1b[2J", "V", "\r\n")
	f.Add("--", "", "A=B", "1")
	f.Add("{", "}", "", "1")
	f.Add("%if 1", "\\", "V\x00", "1")
	h := startHost(f)
	dir := f.TempDir()
	n := 0
	f.Fuzz(func(t *testing.T, a, b, name, value string) {
		n++
		out := filepath.Join(dir, fmt.Sprintf("argv%d", n))
		script := `printf '%s\0' "$@" > "$0.args"; printf '%s' "$TAW_FUZZ_V" > "$0.env"; : > "$0.done"`
		spec := SpawnSpec{Program: "/bin/sh", Args: []string{"-c", script, out, a, b}, Dir: "/", Rows: 5, Cols: 20,
			Env: [][2]string{{name, value}}}
		if name == "V" {
			spec.Env[0][0] = "TAW_FUZZ_V"
		}
		refused := CheckSpawn(spec)
		bad := strings.ContainsRune(a+b+name+value, 0) || spec.Env[0][0] == "" || strings.ContainsRune(spec.Env[0][0], '=')
		if (refused != "") != bad {
			t.Fatalf("CheckSpawn(%q, %q, %q=%q) = %q", a, b, name, value, refused)
		}
		ctx := context.Background()
		p, err := h.Spawn(ctx, spec, func([]byte) {})
		if bad {
			if err == nil {
				t.Fatalf("Spawn took strings CheckSpawn refuses")
			}
		} else {
			if err != nil {
				t.Fatalf("Spawn: %v", err)
			}
			deadline := time.Now().Add(30 * time.Second)
			for {
				if _, err := os.Stat(out + ".done"); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the program never ran")
				}
				time.Sleep(5 * time.Millisecond)
			}
			args, _ := os.ReadFile(out + ".args")
			if want := a + "\x00" + b + "\x00"; !bytes.Equal(args, []byte(want)) {
				t.Fatalf("the program got arguments %q, want %q", args, want)
			}
			if spec.Env[0][0] == "TAW_FUZZ_V" {
				if env, _ := os.ReadFile(out + ".env"); string(env) != value {
					t.Fatalf("the program got TAW_FUZZ_V=%q, want %q", env, value)
				}
			}
			_ = h.Kill(ctx, p)
		}
		if got, err := h.call(ctx, []string{"show-options", "-gqv", "@x"}); err != nil || got != "" {
			t.Fatalf("a spawn ran a tmux command: @x = %q (%v)", got, err)
		}
	})
}
