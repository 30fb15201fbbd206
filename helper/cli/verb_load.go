package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
	"github.com/taw-tmux/taw/helper/watch"
	"github.com/urfave/cli/v2"
)

// taw load is what taw.tmux runs when the plugin is sourced: every feature's part of loading
// (hooks, keys, options, the watcher) is one loadStep, listed in loadSteps. taw unload undoes
// them. A step that fails is reported on the status line and the others still run.

// loadContext is what every step gets.
type loadContext struct {
	F         *Factory
	Client    *tmux.Client
	Settings  tmuxconf.Settings
	Bin       string // absolute path of the taw binary the plugin runs
	PluginDir string
	Announce  string // what taw.tmux has to say (its build), said with the load's own news
}

type loadStep struct {
	name   string
	run    func(ctx context.Context, l *loadContext) error // optional
	hooks  func(l *loadContext) map[string][]string        // optional: global hooks wanted
	keys   func(l *loadContext) []tmuxconf.Binding         // optional: keys wanted
	unload func(ctx context.Context, l *loadContext) error // optional
}

// loadSteps run in this order on load, and in reverse on unload.
var loadSteps = []loadStep{
	noticeStep,
	publishBinStep,
	herdrEnvStep,
	herdrSocketStep,
	watcherStep,
	attentionStep,
	sessionAutosaveStep,
	sessionRestoreOnStartStep,
	pluginsLoadStep,
}

var publishBinStep = loadStep{
	name: "publish the binary",
	run: func(ctx context.Context, l *loadContext) error {
		_, err := l.Client.Run(ctx, tmux.Cmd{"set-option", "-gq", tmuxconf.BinOption, l.Bin})
		return err
	},
	unload: func(ctx context.Context, l *loadContext) error {
		cmds := append([]tmux.Cmd{{"set-option", "-gqu", tmuxconf.BinOption}}, tmux.UnsetWakeCmds(panestate.SignalChannel, watch.WakeChannel)...)
		_, err := l.Client.Run(ctx, cmds...)
		return err
	},
}

func newLoadContext(ctx context.Context, f *Factory, pluginDir string) (*loadContext, error) {
	c := f.Tmux()
	settings, err := tmuxconf.ReadSettings(ctx, c)
	if err != nil {
		return nil, err
	}
	bin, err := f.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the taw binary: %w", err)
	}
	if b, err := filepath.EvalSymlinks(bin); err == nil {
		bin = b
	}
	return &loadContext{F: f, Client: c, Settings: settings, Bin: bin, PluginDir: pluginDir}, nil
}

func loadFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "plugin-dir", Usage: "the plugin's `<dir>`"},
		&cli.StringFlag{Name: "announce", Usage: "`<text>` to say with what the load has to say (taw.tmux says what its build did)"},
	}
}

func (f *Factory) load(c *cli.Context) error {
	l, err := newLoadContext(c.Context, f, c.String("plugin-dir"))
	if err != nil {
		return err
	}
	l.Announce = c.String("announce")
	return loadRun(c.Context, l)
}

func (f *Factory) unload(c *cli.Context) error {
	l, err := newLoadContext(c.Context, f, "")
	if err != nil {
		return err
	}
	return unloadRun(c.Context, l)
}

func loadRun(ctx context.Context, l *loadContext) error {
	var failed, warnings []string
	warnings = append(warnings, l.Settings.Problems()...)
	// A runtime folder someone else planted would silence every report: say it, and where taw
	// keeps its files instead.
	if p := filelock.RuntimeProblem(l.F.Getenv, ""); p != "" {
		warnings = append(warnings, p)
	}
	if all, err := l.Client.Output(ctx, "show-options", "-g"); err == nil {
		warnings = append(warnings, tmuxconf.OptionProblems(all)...)
	}
	hooks := map[string][]string{}
	var keys []tmuxconf.Binding
	for _, s := range loadSteps {
		if s.run != nil {
			if err := s.run(ctx, l); err != nil {
				failed = append(failed, s.name+": "+err.Error())
			}
		}
		if s.hooks != nil {
			for name, cmds := range s.hooks(l) {
				hooks[name] = append(hooks[name], cmds...)
			}
		}
		if s.keys != nil {
			keys = append(keys, s.keys(l)...)
		}
	}
	if err := tmuxconf.SetHooks(ctx, l.Client, hooks); err != nil {
		failed = append(failed, "hooks: "+err.Error())
	}
	if err := unbindKeys(ctx, l.Client); err != nil {
		failed = append(failed, "keys: "+err.Error())
	}
	skipped, err := tmuxconf.BindKeys(ctx, l.Client, keys)
	if err != nil {
		failed = append(failed, "keys: "+err.Error())
	}
	for _, k := range skipped {
		warnings = append(warnings, keyLeftAlone(k))
	}
	problems := append(append([]string{}, failed...), warnings...)
	said := problems
	if l.Announce != "" {
		said = append([]string{l.Announce}, problems...)
	}
	status := ""
	if len(said) > 0 {
		status = "taw: " + strings.Join(said, "; ")
	}
	// What is new is shown, problems first (a status line is one line); what the last load said
	// already is only kept in the status option, so a reload does not repeat a warning.
	var show []string
	if status != l.Settings[statusOption] {
		show = append(show, problems...)
	}
	// The welcome goes with the first load in a server, and again while no client has seen it.
	if l.Settings.On(tmuxconf.SettingWelcome) && (l.Settings[tmuxconf.BinOption] == "" || strings.Contains(l.Settings[noticeOption], welcomeText(l.Settings, tawHint(l.F)))) {
		show = append(show, welcomeText(l.Settings, tawHint(l.F)))
	}
	if status != l.Settings[statusOption] && l.Announce != "" {
		show = append(show, l.Announce)
	}
	cmds := []tmux.Cmd{{"set-option", "-gqu", statusOption}}
	if status != "" {
		cmds = []tmux.Cmd{{"set-option", "-gq", statusOption, status}}
	}
	if _, err := l.Client.Run(ctx, cmds...); err != nil {
		return err
	}
	if len(show) > 0 {
		if err := say(ctx, l.Client, "taw: "+strings.Join(show, " · ")); err != nil {
			return err
		}
	} else if l.Settings[noticeOption] != "" {
		// A load with nothing new to say: what an earlier one kept for the next client is stale.
		if _, err := l.Client.Run(ctx, tmux.Cmd{"set-option", "-gqu", noticeOption}); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return Errorf(coded.LoadFailed, "%s", status)
	}
	// Warnings do not fail the load: it is done, with defaults where a setting was bad.
	for _, w := range warnings {
		fmt.Fprintf(l.F.IO.ErrOut, "taw: %s\n", w)
	}
	return nil
}

// keyLeftAlone says which key taw did not take and the exact setting that chooses another.
func keyLeftAlone(k tmuxconf.Skipped) string {
	return fmt.Sprintf("left your binding of %s %s alone: choose another key with set -g %s KEY (or none)", k.Table, k.Key, k.Option)
}

// welcomeText is the first load's word on how to see the agents and how to hide the word, short
// enough for an 80-column status line.
func welcomeText(s tmuxconf.Settings, taw string) string {
	see := taw + " agent list shows your agents"
	if key := s.Get(tmuxconf.SettingPopupKey); key != "none" && key != "off" {
		see = "prefix " + key + " shows your agents"
	}
	return see + " (set -g " + tmuxconf.SettingWelcome + " off hides this)"
}

// say shows msg on every attached client for a while, or, when none is attached (tmux is still
// starting), keeps it for the first client that attaches (noticeStep's hook shows it once).
func say(ctx context.Context, c *tmux.Client, msg string) error {
	out, err := c.Output(ctx, "list-clients", "-F", "#{client_name}")
	if err != nil {
		return err
	}
	var clients []string
	for _, name := range strings.Split(out, "\n") {
		if name != "" {
			clients = append(clients, name)
		}
	}
	if len(clients) == 0 {
		_, err = c.Run(ctx, tmux.Cmd{"set-option", "-gq", noticeOption, msg})
		return err
	}
	f, _ := c.Features(ctx)
	cmds := []tmux.Cmd{{"set-option", "-gqu", noticeOption}}
	for _, name := range clients {
		cmds = append(cmds, f.MessageCmd(name, noticeMillis, tmuxfmt.Message(msg)))
	}
	_, err = c.Run(ctx, cmds...)
	return err
}

// statusOption keeps what the last load had to say, readable when no client saw the message.
const statusOption = tmuxconf.StatusOption

const noticeOption = tmuxconf.NoticeOption

// loadedOption is set by taw.tmux once its load (run in the background) is done; unload takes it out.
const loadedOption = tmuxconf.LoadedOption

// noticeMillis is how long a message of the plugin stays on the status line.
const noticeMillis = "10000"

// noticeStep installs the client-attached hook that shows a kept notice once, inside tmux (no
// process is started), and takes the notice away with it.
var noticeStep = loadStep{
	name: "notices",
	hooks: func(l *loadContext) map[string][]string {
		return map[string][]string{"client-attached": {tmuxconf.NoticeHook(noticeMillis)}}
	},
	unload: func(ctx context.Context, l *loadContext) error {
		_, err := l.Client.Run(ctx, tmux.Cmd{"set-option", "-gqu", noticeOption}, tmux.Cmd{"set-option", "-gqu", statusOption},
			tmux.Cmd{"set-option", "-gqu", loadedOption})
		return err
	},
}

// unbindKeys takes out taw's keys and binds back what the person had there before.
func unbindKeys(ctx context.Context, c *tmux.Client) error {
	if err := tmuxconf.UnbindOurs(ctx, c); err != nil {
		return err
	}
	return tmuxconf.RestoreSaved(ctx, c)
}

func unloadRun(ctx context.Context, l *loadContext) error {
	var problems []string
	for i := len(loadSteps) - 1; i >= 0; i-- {
		if s := loadSteps[i]; s.unload != nil {
			if err := s.unload(ctx, l); err != nil {
				problems = append(problems, s.name+": "+err.Error())
			}
		}
	}
	if err := tmuxconf.SetHooks(ctx, l.Client, nil); err != nil {
		problems = append(problems, "hooks: "+err.Error())
	}
	if err := unbindKeys(ctx, l.Client); err != nil {
		problems = append(problems, "keys: "+err.Error())
	}
	if len(problems) > 0 {
		return Errorf(coded.LoadFailed, "taw: %s", strings.Join(problems, "; "))
	}
	return nil
}
