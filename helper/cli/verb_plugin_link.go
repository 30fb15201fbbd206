package cli

import (
	"path/filepath"
	"strings"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/urfave/cli/v2"
)

// taw plugin link: a folder whose taw-plugin.toml checks out joins the registry.

func (f *Factory) pluginLink(c *cli.Context, folder string) error {
	dir, err := filepath.Abs(folder)
	if err != nil {
		return Errorf(coded.InvalidArgument, "folder %s: %v", folder, err)
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	m, problems := plugins.ReadManifest(dir)
	if len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.Error()
		}
		return Errorf(coded.PluginInvalid, "not linked: %s", strings.Join(msgs, "; "))
	}
	reg, err := f.readRegistry()
	if err != nil {
		return err
	}
	enabled := !c.Bool(flagPluginDisabled)
	if i, ok := reg.Find(m.ID); ok {
		if reg.Plugins[i].Path != dir {
			return Errorf(coded.PluginExists, "a plugin with the id %q is linked from %s already: unlink it first (taw plugin unlink %s)", m.ID, reg.Plugins[i].Path, m.ID)
		}
		reg.Plugins[i].Enabled = enabled
	} else {
		reg.Plugins = append(reg.Plugins, plugins.Entry{ID: m.ID, Path: dir, Enabled: enabled})
	}
	if err := plugins.WriteRegistry(f.registryPath(), reg); err != nil {
		return Errorf(coded.PluginRegistry, "write %s: %v", f.registryPath(), err)
	}
	return writeJSONLine(f.IO.Out, map[string]any{"ok": true, "id": m.ID, "path": dir, "enabled": enabled})
}
