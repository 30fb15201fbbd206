package config

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestLiveReadsTheFileAgainWhenItChanges(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": dir}
	live := &Live{Getenv: func(k string) string { return env[k] }}
	ctx := context.Background()
	if cfg := live.Get(ctx, nil); !cfg.Notify.Enabled {
		t.Fatal("no file: want the defaults")
	}
	path := filepath.Join(dir, "taw", "config.toml")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("[notify]\nenabled = false\n[notify.agents]\nclaude-code = false\n"), 0o644)
	cfg := live.Get(ctx, nil)
	if cfg.Notify.Enabled {
		t.Error("the new file was not read")
	}
	if cfg.Notify.AgentOn("claude") {
		t.Error("an agent's alias did not switch the agent off")
	}
	os.WriteFile(path, []byte("[notify]\nenabled = true\n"), 0o644)
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(path, later, later)
	if cfg := live.Get(ctx, nil); !cfg.Notify.Enabled {
		t.Error("the changed file was not read again")
	}
}
