package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/taw-tmux/taw/helper/binlink"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/shellquote"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/taw-tmux/taw/helper/integration"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/integrations"
	"github.com/urfave/cli/v2"
)

// taw integration install|uninstall|status [<agent>...], and the hidden herdr-env verb the
// plugin's load step calls for @agent-wizard-herdr-env.
const (
	flagIntegrationYes    = "yes"
	flagIntegrationLink   = "link"
	flagIntegrationNoLink = "no-link"
	flagHerdrBin          = "bin"
)

type integrationOptions struct {
	Verb    string // install, uninstall or status
	Agents  []string
	Yes     bool
	Link    *bool // install: link taw into ~/.local/bin (nil: ask on a terminal, else only say how)
	JSON    bool
	Manager func() (*integration.Manager, error)
}

func newIntegrationCommand(f *Factory) *cli.Command {
	return group("integration", "install taw's hooks and plugins into coding agents",
		integrationVerb(f, "install", "install the integrations of the agents named, or of those found on PATH",
			&cli.BoolFlag{Name: flagIntegrationYes, Aliases: []string{"y"}, Usage: "install the agents found on PATH without asking"},
			&cli.BoolFlag{Name: flagIntegrationLink, Usage: "link taw into ~/.local/bin when no taw is on PATH, without asking"},
			&cli.BoolFlag{Name: flagIntegrationNoLink, Usage: "do not link taw into ~/.local/bin, and do not ask"}),
		integrationVerb(f, "uninstall", "remove taw's entries and files from the agents named, or from every agent where they are installed"),
		integrationVerb(f, "status", "say where each integration is installed, not installed or outdated",
			jsonFlagSaying("print JSON")),
		hidden(verb("herdr-env", "{on|off} [--bin <path>]", "set (on) or clear (off) the herdr variables in tmux's global environment (@agent-wizard-herdr-env)",
			f.herdrEnv, &cli.StringFlag{Name: flagHerdrBin, Usage: "the taw binary HERDR_BIN_PATH names (an absolute `<path>`); this taw by default"})),
	)
}

func integrationVerb(f *Factory, name, usage string, flags ...cli.Flag) *cli.Command {
	return verb(name, "[<agent>...] ("+strings.Join(integration.IDs(), ", ")+")", usage, func(c *cli.Context) error {
		positional, after, _ := splitArgs(c)
		opts := &integrationOptions{
			Verb: name, Agents: append(positional, after...),
			Yes: name == "install" && c.Bool(flagIntegrationYes), JSON: name == "status" && c.Bool(flagJSON),
			Manager: func() (*integration.Manager, error) { return integrationManager(f) },
		}
		if name == "install" && c.Bool(flagIntegrationLink) && c.Bool(flagIntegrationNoLink) {
			return UsageErrorf("--link and --no-link do not go together")
		}
		if name == "install" && (c.Bool(flagIntegrationLink) || c.Bool(flagIntegrationNoLink)) {
			link := c.Bool(flagIntegrationLink)
			opts.Link = &link
		}
		for _, a := range opts.Agents {
			if _, ok := integration.Lookup(a); !ok {
				return Errorf(coded.UnknownAgent, "unknown agent %q (expected: %s)", a, strings.Join(integration.IDs(), "|"))
			}
		}
		return integrationRun(f, opts)
	}, flags...)
}

func integrationManager(f *Factory) (*integration.Manager, error) {
	home := f.Getenv("HOME")
	if home == "" {
		return nil, Errorf(coded.IntegrationIO, "$HOME is not set: taw finds the agents' config folders under it")
	}
	env := integration.Env{Getenv: f.Getenv, Home: home}
	// The hooks run this taw by its absolute path, so they need no taw on PATH.
	bin, _ := tawBinary(f)
	return &integration.Manager{Env: env, Sources: integrations.FS, StateDir: integration.StateDirFor(env), TawBin: bin}, nil
}

func integrationRun(f *Factory, opts *integrationOptions) error {
	m, err := opts.Manager()
	if err != nil {
		return err
	}
	targets, err := integrationTargets(f, m, opts)
	if err != nil || targets == nil {
		if err == nil && opts.Verb == "install" {
			offerLink(f, opts.Link)
		}
		return err
	}
	if opts.Verb == "status" {
		return integrationStatus(f, m, targets, opts.JSON)
	}
	var failed []error
	for _, t := range targets {
		var res *integration.Result
		var err error
		if opts.Verb == "install" {
			res, err = m.Install(t)
		} else {
			res, err = m.Uninstall(t)
		}
		if err != nil {
			failed = append(failed, fmt.Errorf("%s: %w", t.ID, err))
			continue
		}
		printIntegrationResult(f, m, t, opts.Verb, res)
	}
	if opts.Verb == "install" {
		offerLink(f, opts.Link)
	}
	return integrationError(failed)
}

// offerLink puts taw on PATH when it is not there, with the person's consent (--link, or yes to
// the question on a terminal): the hooks need no taw on PATH, but the person typing taw does.
// Without consent it says how, in words that work as written.
func offerLink(f *Factory, link *bool) {
	bin, err := tawBinary(f)
	if err != nil || tawOnPath(f, bin) {
		return
	}
	home := f.Getenv("HOME")
	dir := binlink.Dir(home)
	if link == nil && f.IO.StdoutTTY {
		fmt.Fprintf(f.IO.Out, "taw is not on PATH: link it into %s? [y/N] ", dir)
		answer, _ := bufio.NewReader(f.IO.In).ReadString('\n')
		yes := strings.ToLower(strings.TrimSpace(answer)) == "y" || strings.ToLower(strings.TrimSpace(answer)) == "yes"
		link = &yes
	}
	if link == nil || !*link {
		fmt.Fprintf(f.IO.Out, "note: taw is not on PATH: %s integration install --link links it into %s\n", shellquote.Quoted(bin), dir)
		return
	}
	made, err := binlink.Link(home, bin)
	switch {
	case err != nil:
		fmt.Fprintf(f.IO.Out, "note: taw was not linked: %v\n", err)
		return
	case made:
		fmt.Fprintf(f.IO.Out, "linked %s to %s\n", filepath.Join(dir, "taw"), bin)
	}
	if !pathHolds(f.Getenv("PATH"), dir) {
		fmt.Fprintf(f.IO.Out, "note: %s is not on your PATH: add it (in ~/.profile: PATH=\"$HOME/.local/bin:$PATH\"), then open a new shell\n", dir)
	}
}

// tawOnPath says whether the taw a shell finds on PATH is this one.
func tawOnPath(f *Factory, bin string) bool {
	p, err := f.LookPath("taw")
	return err == nil && binlink.Same(p, bin)
}

func pathHolds(path, dir string) bool {
	for _, d := range filepath.SplitList(path) {
		if filepath.Clean(d) == dir {
			return true
		}
	}
	return false
}

// tawHint is how a hint names taw so that it works as written: taw when the taw on PATH is this
// one, else its absolute path.
func tawHint(f *Factory) string {
	bin, err := tawBinary(f)
	if err != nil || tawOnPath(f, bin) {
		return "taw"
	}
	return shellquote.Quoted(bin)
}

// integrationTargets resolves the agents a verb works on: those named, else for install the ones
// on PATH (offered first on a terminal), for uninstall the ones installed, for status all.
func integrationTargets(f *Factory, m *integration.Manager, opts *integrationOptions) ([]*integration.Target, error) {
	var targets []*integration.Target
	for _, a := range opts.Agents {
		t, _ := integration.Lookup(a)
		targets = append(targets, t)
	}
	if len(targets) > 0 {
		return targets, nil
	}
	for i := range integration.Targets {
		t := &integration.Targets[i]
		switch opts.Verb {
		case "status":
			targets = append(targets, t)
		case "install":
			if onPath(f, t) != "" {
				targets = append(targets, t)
			}
		case "uninstall":
			if st, err := m.Status(t); err == nil && st.State != integration.StateNotInstalled {
				targets = append(targets, t)
			}
		}
	}
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.ID
	}
	switch {
	case opts.Verb == "install" && len(targets) == 0:
		fmt.Fprintf(f.IO.Out, "found no agent on PATH that taw integrates with; name one: %s integration install <agent> (%s)\n", tawHint(f), strings.Join(integration.IDs(), ", "))
		return nil, nil
	case opts.Verb == "install":
		fmt.Fprintf(f.IO.Out, "found on PATH: %s\n", strings.Join(names, ", "))
		if f.IO.StdoutTTY && !opts.Yes {
			fmt.Fprintf(f.IO.Out, "install their integrations? [Y/n] ")
			answer, _ := bufio.NewReader(f.IO.In).ReadString('\n')
			if a := strings.ToLower(strings.TrimSpace(answer)); a != "" && a != "y" && a != "yes" {
				fmt.Fprintln(f.IO.Out, "nothing installed")
				return nil, nil
			}
		}
	case opts.Verb == "uninstall" && len(targets) == 0:
		fmt.Fprintln(f.IO.Out, "no integration is installed")
		return nil, nil
	}
	return targets, nil
}

// onPath is the first of the agent's programs found on PATH, "" when none is.
func onPath(f *Factory, t *integration.Target) string {
	for _, p := range t.Programs {
		if path, err := f.LookPath(p); err == nil {
			return path
		}
	}
	return ""
}

func printIntegrationResult(f *Factory, m *integration.Manager, t *integration.Target, verb string, res *integration.Result) {
	short := func(p string) string {
		if rel, err := filepath.Rel(res.Dir, p); err == nil {
			return rel
		}
		return p
	}
	var files []string
	for _, p := range res.Changed {
		files = append(files, short(p))
	}
	version := m.Version(t)
	switch {
	case verb == "install" && len(files) == 0:
		fmt.Fprintf(f.IO.Out, "%s: already installed (v%s) in %s\n", t.ID, version, res.Dir)
	case verb == "install":
		fmt.Fprintf(f.IO.Out, "%s: installed v%s in %s: %s\n", t.ID, version, res.Dir, strings.Join(files, ", "))
	case len(files) == 0:
		fmt.Fprintf(f.IO.Out, "%s: not installed in %s\n", t.ID, res.Dir)
	default:
		fmt.Fprintf(f.IO.Out, "%s: uninstalled from %s: %s\n", t.ID, res.Dir, strings.Join(files, ", "))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(f.IO.Out, "%s: note: %s\n", t.ID, n)
	}
}

// integrationError turns the failures of a multi-agent run into one coded error: the code of
// the first, every message.
func integrationError(failed []error) error {
	if len(failed) == 0 {
		return nil
	}
	code := coded.IntegrationIO
	var pe *integration.ParseError
	var ce *integration.ConflictError
	switch {
	case errors.As(failed[0], &pe):
		code = coded.ConfigInvalid
	case errors.As(failed[0], &ce):
		code = coded.IntegrationConflict
	}
	msgs := make([]string, len(failed))
	for i, e := range failed {
		msgs[i] = e.Error()
		if errors.As(e, &pe) {
			msgs[i] += " (taw cannot read it and left it as it is: fix it, then run the command again)"
		}
	}
	return Errorf(code, "%s", strings.Join(msgs, "; "))
}

type integrationStatusView struct {
	Agent     string   `json:"agent"`
	Name      string   `json:"name"`
	State     string   `json:"state"`
	Installed *string  `json:"installed_version"`
	Current   string   `json:"current_version"`
	Dir       string   `json:"dir"`
	Files     []string `json:"files"`
	OnPath    *string  `json:"on_path"`
	Notes     []string `json:"notes"`
	Error     *string  `json:"error"`
	// Reach is how the installed hook finds taw: installed (the path the install wrote into
	// it), server (the tmux server's @agent-wizard-bin), path (taw on PATH) or none; null when
	// nothing is installed. Taw is the binary it finds.
	Reach *string `json:"reach"`
	Taw   *string `json:"taw"`
}

// Ways a hook finds taw, in the order it tries them.
const (
	reachInstalled = "installed"
	reachServer    = "server"
	reachPath      = "path"
	reachNone      = "none"
)

// hookReach says how an installed hook or plugin finds taw, the way its own code does: the taw
// that installed it, else the tmux server's @agent-wizard-bin, else taw on PATH.
func hookReach(f *Factory, installed string, serverBin func() string) (string, string) {
	if isExecutable(installed) {
		return reachInstalled, installed
	}
	if bin := serverBin(); bin != "" && isExecutable(bin) {
		return reachServer, bin
	}
	if p, err := f.LookPath("taw"); err == nil {
		return reachPath, p
	}
	return reachNone, ""
}

func isExecutable(path string) bool {
	if path == "" {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

func integrationStatus(f *Factory, m *integration.Manager, targets []*integration.Target, asJSON bool) error {
	views := make([]integrationStatusView, 0, len(targets))
	// The server's @agent-wizard-bin is asked for once, and only when a hook needs it.
	asked, server := false, ""
	serverBin := func() string {
		if !asked {
			asked = true
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if out, err := f.Tmux().Output(ctx, "show-options", "-gqv", tmuxconf.BinOption); err == nil {
				server = strings.TrimSpace(out)
			}
		}
		return server
	}
	for _, t := range targets {
		st, err := m.Status(t)
		v := integrationStatusView{Agent: t.ID, Name: t.Name, State: st.State, Installed: nullable(st.Installed),
			Current: st.Current, Dir: st.Dir, Files: st.Files, OnPath: nullable(onPath(f, t)), Notes: st.Notes}
		if v.Files == nil {
			v.Files = []string{}
		}
		if v.Notes == nil {
			v.Notes = []string{}
		}
		if err != nil {
			msg := err.Error()
			v.Error = &msg
		}
		if st.State != integration.StateNotInstalled {
			how, bin := hookReach(f, st.Bin, serverBin)
			v.Reach, v.Taw = &how, nullable(bin)
			if how == reachNone {
				self, _ := tawBinary(f)
				v.Notes = append(v.Notes, fmt.Sprintf("its hook cannot reach taw (%s is gone, the tmux server names no @agent-wizard-bin and taw is not on PATH): run %s integration install %s again, or put taw on PATH", or(nullable(st.Bin)), self, t.ID))
			}
		}
		views = append(views, v)
	}
	if asJSON {
		return writeJSONLine(f.IO.Out, views)
	}
	if !f.IO.StdoutTTY {
		for _, v := range views {
			fmt.Fprintf(f.IO.Out, "%s\t%s\t%s\t%s\t%s\t%s\n", v.Agent, v.State, or(v.Installed), v.Current, v.Dir, or(v.Reach))
		}
		return nil
	}
	w := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "AGENT\tSTATE\tINSTALLED\tCURRENT\tREACHES TAW\tFOLDER")
	for _, v := range views {
		state := v.State
		if v.Error != nil {
			state += " (" + *v.Error + ")"
		}
		reach := or(v.Reach)
		if v.Taw != nil {
			reach += " (" + *v.Taw + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", v.Agent, state, or(v.Installed), v.Current, reach, v.Dir)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, v := range views {
		for _, n := range v.Notes {
			fmt.Fprintf(f.IO.Out, "%s: note: %s\n", v.Agent, n)
		}
	}
	return nil
}

// or is a nullable string for a table cell, "-" for none.
func or(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

type herdrEnvOptions struct {
	On  bool
	Bin string
}

func (f *Factory) herdrEnv(c *cli.Context) error {
	positional, _, _ := splitArgs(c)
	if len(positional) != 1 || (positional[0] != "on" && positional[0] != "off") {
		return InvalidValuef("herdr-env takes on or off: taw integration herdr-env {on|off}")
	}
	opts := &herdrEnvOptions{On: positional[0] == "on", Bin: c.String(flagHerdrBin)}
	if opts.Bin == "" {
		bin, err := tawBinary(f)
		if err != nil {
			return err
		}
		opts.Bin = bin
	}
	if !filepath.IsAbs(opts.Bin) {
		return Errorf(coded.InvalidArgument, "--bin %q is not an absolute path: HERDR_BIN_PATH must name taw from any folder", opts.Bin)
	}
	return integration.ApplyHerdrEnv(c.Context, f.Tmux(), opts.On, opts.Bin, f.Getenv)
}

// tawBinary is the absolute path of the taw that runs: the path it was started by (found on PATH
// when it was started by name), not the file a symlink leads to, so that an upgrade in place
// keeps working.
func tawBinary(f *Factory) (string, error) {
	if len(f.Args) > 0 && f.Args[0] != "" {
		arg0 := f.Args[0]
		if strings.ContainsRune(arg0, filepath.Separator) {
			if abs, err := filepath.Abs(arg0); err == nil {
				return abs, nil
			}
		} else if p, err := f.LookPath(arg0); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				return abs, nil
			}
		}
	}
	exe, err := f.Executable()
	if err != nil {
		return "", Errorf(coded.Internal, "find taw's own path: %v", err)
	}
	return exe, nil
}

// herdrEnvStep applies @agent-wizard-herdr-env when the plugin loads: on sets HERDR_ENV,
// HERDR_BIN_PATH (the binary the plugin runs) and HERDR_PANE_ID=%calling in tmux's global
// environment after clearing the terminal's own herdr values; off, or unload, removes the three
// while HERDR_PANE_ID is still %calling. The load runs under tmux's global environment, so that
// is where the terminal's values are read from.
var herdrEnvStep = loadStep{
	name: "herdr environment",
	run: func(ctx context.Context, l *loadContext) error {
		on := l.Settings.On(tmuxconf.SettingHerdrEnv) || l.Settings.On(tmuxconf.SettingHerdrSocket) // the socket needs the three
		return integration.ApplyHerdrEnv(ctx, l.Client, on, l.Bin, l.F.Getenv)
	},
	unload: func(ctx context.Context, l *loadContext) error {
		return integration.ApplyHerdrEnv(ctx, l.Client, false, l.Bin, l.F.Getenv)
	},
}
