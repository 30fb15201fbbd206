// Package agents holds what taw's live suite needs to run the real coding agents: the pinned list
// of their npm packages (agents.json), how each is installed into the project's own cache folder,
// and, in live_test.go (build tag liveagents, run by make test-agents), the flows that drive each
// one through its screens in a real tmux pane against the stand-in model server.
package agents

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

//go:embed agents.json
var pinned []byte

// Agent is one pinned agent.
type Agent struct {
	ID       string   `json:"id"`       // taw's agent id, which names its rules and fixtures
	Packages []string `json:"packages"` // npm package specs, each with its exact version
	Version  string   `json:"version"`  // the version the fixtures are named with
	Bin      string   `json:"bin"`      // the program in node_modules/.bin
	Script   string   `json:"script"`   // or the file node runs, under node_modules
}

// Pinned is the list in agents.json.
func Pinned() ([]Agent, error) {
	var doc struct {
		Agents []Agent `json:"agents"`
	}
	if err := json.Unmarshal(pinned, &doc); err != nil {
		return nil, fmt.Errorf("agents.json: %v", err)
	}
	for _, a := range doc.Agents {
		if a.ID == "" || a.Version == "" || len(a.Packages) == 0 || (a.Bin == "") == (a.Script == "") {
			return nil, fmt.Errorf("agents.json: agent %q needs id, version, packages and one of bin or script", a.ID)
		}
		for _, p := range a.Packages {
			if at := strings.LastIndex(p, "@"); at <= 0 {
				return nil, fmt.Errorf("agents.json: package %q of %s has no pinned version", p, a.ID)
			}
		}
	}
	return doc.Agents, nil
}

// Dir is the agent's own install folder inside the cache.
func (a Agent) Dir(cache string) string { return filepath.Join(cache, a.ID+"-"+a.Version) }

// Command is the argv that starts the agent from its install folder.
func (a Agent) Command(cache string) []string {
	mods := filepath.Join(a.Dir(cache), "node_modules")
	if a.Script != "" {
		return []string{"node", filepath.Join(mods, a.Script)}
	}
	return []string{filepath.Join(mods, ".bin", a.Bin)}
}

// Install puts the agent's packages into its own folder in the cache (never globally), once: a
// marker file records a finished install of exactly these packages.
func (a Agent) Install(ctx context.Context, cache string) error {
	dir := a.Dir(cache)
	marker := filepath.Join(dir, ".installed")
	want := strings.Join(a.Packages, " ") + "\n"
	if got, err := os.ReadFile(marker); err == nil && string(got) == want {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	args := append([]string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error"}, a.Packages...)
	cmd := exec.CommandContext(ctx, "npm", args...)
	// npm's own update check is an auto-updater too.
	cmd.Env = append(os.Environ(), "NPM_CONFIG_UPDATE_NOTIFIER=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm install %s: %v\n%s", strings.Join(a.Packages, " "), err, out)
	}
	return os.WriteFile(marker, []byte(want), 0o644)
}
