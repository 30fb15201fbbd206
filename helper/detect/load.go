package detect

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/xdg"
)

//go:embed rules/*.toml
var embedded embed.FS

// Rules is every agent's compiled screen rules.
type Rules struct {
	sets map[string]*RuleSet
}

// Load reads the embedded rules and the user's overrides: a file
// $XDG_CONFIG_HOME/taw/agent-detection/<agent>.toml (or ~/.config/… when XDG_CONFIG_HOME is
// unset) replaces that agent's embedded rules as a whole. A broken override is reported in the
// errors and the embedded rules stay in use; the errors never stop the rest from loading.
// getenv is os.Getenv outside tests.
func Load(getenv func(string) string) (*Rules, []error) {
	rs, errs := loadEmbedded()
	dir := OverrideDir(getenv)
	if dir == "" {
		return rs, errs
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("read rule overrides: %w", err))
		}
		return rs, errs
	}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		file := filepath.Join(dir, e.Name())
		set, err := readOverride(file)
		if err != nil {
			if id := strings.TrimSuffix(e.Name(), ".toml"); rs.sets[id] != nil {
				err = fmt.Errorf("%w (taw's own rules for %s stay in use)", err, id)
			} else {
				err = fmt.Errorf("%w (file ignored)", err)
			}
			errs = append(errs, err)
			continue
		}
		rs.sets[set.Agent] = set
	}
	return rs, errs
}

// OverrideDir is where the user's rule files go, or "" when neither XDG_CONFIG_HOME nor HOME is
// set.
func OverrideDir(getenv func(string) string) string {
	dir := xdg.ConfigHome(getenv)
	if !filepath.IsAbs(dir) {
		return ""
	}
	return filepath.Join(dir, "taw", "agent-detection")
}

func readOverride(file string) (*RuleSet, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("read rule override: %w", err)
	}
	defer f.Close()
	// Read one byte past the limit so that ParseRules sees a file too big rather than a cut one.
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read rule override %s: %w", file, err)
	}
	return ParseRules(file, data)
}

func loadEmbedded() (*Rules, []error) {
	rs := &Rules{sets: map[string]*RuleSet{}}
	var errs []error
	ents, _ := fs.ReadDir(embedded, "rules")
	for _, e := range ents {
		name := path.Join("rules", e.Name())
		data, err := embedded.ReadFile(name)
		if err == nil {
			var set *RuleSet
			if set, err = ParseRules(name, data); err == nil {
				set.Source = "embedded " + name
				rs.sets[set.Agent] = set
				continue
			}
		}
		errs = append(errs, err) // a bug in taw's own files: the tests keep this from shipping
	}
	return rs, errs
}

// Set is one agent's rules, or nil when taw has none.
func (rs *Rules) Set(agentID string) *RuleSet {
	if rs == nil {
		return nil
	}
	return rs.sets[agentID]
}

// Agents lists the agents that have rules, sorted.
func (rs *Rules) Agents() []string {
	var ids []string
	for id := range rs.sets {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// EmbeddedRules is the text of taw's own rule file for an agent, for users who start an
// override from it.
func EmbeddedRules(agentID string) ([]byte, bool) {
	a, ok := agents.Lookup(agentID)
	if !ok {
		return nil, false
	}
	data, err := embedded.ReadFile("rules/" + a.ID + ".toml")
	return data, err == nil
}
