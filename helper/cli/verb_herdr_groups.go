package cli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// herdr's verb groups taw did not have: wait, workspace, tab and worktree, each answered by the
// herdr socket's handler (see herdrCall).

func newWaitCommand(f *Factory) *cli.Command {
	return group("wait", "herdr's waits: for an agent's state, or a pane's output",
		verb("agent-status", "<pane|agent> --status <state>... [--timeout MS]", "wait until an agent is in a state (idle, done, working, blocked, unknown), then print it as JSON",
			oneArg("wait agent-status takes one target: taw wait agent-status <pane|agent> --status <state>", f.waitAgentStatus),
			untilFlagNamed(flagStatus, "a `<state>` that ends the wait (repeatable; default idle, done and blocked)"),
			timeoutFlag("give up after `<ms>` (milliseconds, or a duration); default never")),
		verb("output", "<pane> (--match TEXT | --regex RE) [--source S] [--lines N] [--timeout MS]", "wait until a line of a pane's text matches (as pane wait-output)",
			oneArg("wait output takes one pane: taw wait output <pane> (--match TEXT | --regex RE)", f.paneWaitOutput), waitOutputFlags()...),
	)
}

func untilFlagNamed(name, usage string) cli.Flag {
	return &cli.StringSliceFlag{Name: name, Usage: usage}
}

func (f *Factory) waitAgentStatus(c *cli.Context, target string) error {
	params := map[string]any{"target": target}
	var until []string
	for _, s := range c.StringSlice(flagStatus) {
		until = append(until, splitWords(s)...)
	}
	if len(until) > 0 {
		params["until"] = until
	}
	if err := timeoutParam(c, params); err != nil {
		return err
	}
	return f.herdrPrint(c.Context, "agent.wait", params)
}

func newWorkspaceCommand(f *Factory) *cli.Command {
	return group("workspace", "herdr's workspaces, which are tmux sessions",
		verb("list", "", "list the sessions as herdr's workspaces", f.herdrNoArgs("workspace list", "workspace.list")),
		verb("get", "<workspace>", "print one session as a workspace", oneArgOnly("workspace get takes one workspace", func(c *cli.Context, id string) error {
			return f.herdrPrint(c.Context, "workspace.get", map[string]any{"workspace_id": id})
		})),
		verb("create", "[--cwd DIR] [--label NAME] [--env K=V]... [--focus]", "make a detached session", f.workspaceCreate,
			append([]cli.Flag{
				&cli.StringFlag{Name: flagCwd, Usage: "start in `<dir>`"},
				&cli.StringFlag{Name: flagLabel, Usage: "name the session `<name>`"},
				envFlag(),
			}, focusFlags()...)...),
		verb("focus", "<workspace>", "show a session on the attached clients", oneArgOnly("workspace focus takes one workspace", func(c *cli.Context, id string) error {
			return f.herdrPrint(c.Context, "workspace.focus", map[string]any{"workspace_id": id})
		})),
	)
}

func (f *Factory) workspaceCreate(c *cli.Context) error {
	if positional, after, _ := splitArgs(c); len(positional)+len(after) > 0 {
		return UsageErrorf("workspace create takes no arguments: taw workspace create [--cwd DIR] [--label NAME]")
	}
	params, err := layoutParams(c)
	if err != nil {
		return err
	}
	return f.herdrPrint(c.Context, "workspace.create", params)
}

func layoutParams(c *cli.Context) (map[string]any, error) {
	params := map[string]any{}
	if c.IsSet(flagCwd) {
		params["cwd"] = absPath(c.String(flagCwd))
	}
	if c.IsSet(flagLabel) {
		params["label"] = c.String(flagLabel)
	}
	if c.IsSet(flagWorkspace) {
		params["workspace_id"] = c.String(flagWorkspace)
	}
	if c.IsSet(flagEnv) {
		env, err := envParam(c)
		if err != nil {
			return nil, err
		}
		params["env"] = env
	}
	focus, err := focusParam(c)
	if err != nil {
		return nil, err
	}
	params["focus"] = focus
	return params, nil
}

func workspaceFlag() cli.Flag {
	return &cli.StringFlag{Name: flagWorkspace, Usage: "in workspace (session) `<id>`; default the calling pane's"}
}

func newTabCommand(f *Factory) *cli.Command {
	return group("tab", "herdr's tabs, which are tmux windows",
		verb("list", "[--workspace ID]", "list windows as herdr's tabs", func(c *cli.Context) error {
			params := map[string]any{}
			if c.IsSet(flagWorkspace) {
				params["workspace_id"] = c.String(flagWorkspace)
			}
			return f.herdrPrint(c.Context, "tab.list", params)
		}, workspaceFlag()),
		verb("create", "[--workspace ID] [--cwd DIR] [--label NAME] [--env K=V]... [--focus]", "make a window at the end of a session", func(c *cli.Context) error {
			params, err := layoutParams(c)
			if err != nil {
				return err
			}
			return f.herdrPrint(c.Context, "tab.create", params)
		}, append([]cli.Flag{workspaceFlag(),
			&cli.StringFlag{Name: flagCwd, Usage: "start in `<dir>`"},
			&cli.StringFlag{Name: flagLabel, Usage: "name the window `<name>`"},
			envFlag()}, focusFlags()...)...),
	)
}

func newWorktreeCommand(f *Factory) *cli.Command {
	return group("worktree", "herdr's worktrees: a git checkout opened as its own session",
		verb("list", "[--workspace ID | --cwd DIR]", "list the checkouts of the repository", func(c *cli.Context) error {
			params, err := layoutParams(c)
			if err != nil {
				return err
			}
			delete(params, "focus")
			return f.herdrPrint(c.Context, "worktree.list", params)
		}, workspaceFlag(), &cli.StringFlag{Name: flagCwd, Usage: "the repository holding `<dir>`"}),
		verb("create", "[--workspace ID | --cwd DIR] --branch NAME [--base REF] [--path DIR] [--label NAME] [--focus]", "make a git worktree (the branch made from --base when new) and open it as a session", func(c *cli.Context) error {
			params, err := layoutParams(c)
			if err != nil {
				return err
			}
			params["branch"], params["base"] = c.String(flagBranch), c.String(flagBase)
			if c.IsSet(flagPath) {
				params["path"] = absPath(c.String(flagPath))
			}
			return f.herdrPrint(c.Context, "worktree.create", params)
		}, append([]cli.Flag{workspaceFlag(),
			&cli.StringFlag{Name: flagCwd, Usage: "the repository holding `<dir>`"},
			&cli.StringFlag{Name: flagBranch, Usage: "check out branch `<name>`"},
			&cli.StringFlag{Name: flagBase, Usage: "make a new branch from `<ref>` (default HEAD)"},
			&cli.StringFlag{Name: flagPath, Usage: "put the checkout in `<dir>` (default beside the repository)"},
			&cli.StringFlag{Name: flagLabel, Usage: "name the session `<name>`"}}, focusFlags()...)...),
		verb("remove", "--workspace ID [--force]", "git worktree remove the checkout a session is open in, then close the session (the branch stays)", func(c *cli.Context) error {
			if !c.IsSet(flagWorkspace) {
				return UsageErrorf("worktree remove needs --workspace <id>")
			}
			return f.herdrPrint(c.Context, "worktree.remove", map[string]any{"workspace_id": c.String(flagWorkspace), "force": c.Bool(flagForce)})
		}, workspaceFlag(), &cli.BoolFlag{Name: flagForce, Usage: "remove it even with changes git would keep"}),
	)
}

// agentSendVerb is herdr's agent send: a prompt typed and submitted, refused while the agent is
// blocked, answered as herdr's agent_prompted.
func agentSendVerb(f *Factory) *cli.Command {
	return verb("send", "<pane|agent> <text>", "herdr's agent send: type a prompt and submit it (as agent prompt), answered as herdr's JSON", func(c *cli.Context) error {
		positional, _, _ := splitArgs(c)
		if len(positional) != 2 {
			return UsageErrorf("agent send takes a target and the text: taw agent send <pane|agent> <text>")
		}
		return f.herdrPrint(c.Context, "agent.prompt", map[string]any{"target": positional[0], "text": positional[1]})
	})
}

// splitWords reads a comma list ("idle,done") as its words.
func splitWords(s string) []string {
	var out []string
	for _, w := range strings.Split(s, ",") {
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" {
			out = append(out, w)
		}
	}
	return out
}

const (
	flagBody  = "body"
	flagSound = "sound"
)

// newNotificationCommand is herdr's notification show: a program's notice on taw's channels.
func newNotificationCommand(f *Factory) *cli.Command {
	return group("notification", "herdr's notices, sent on the channels [notify] enables",
		verb("show", "<title> [--body <text>] [--sound {none|done|request}]", "send a notice (the bell and the sound command only with a sound)",
			oneArgOnly("notification show takes one title: taw notification show <title> [--body <text>]", func(c *cli.Context, title string) error {
				params := map[string]any{"title": title, "sound": c.String(flagSound)}
				if c.IsSet(flagBody) {
					params["body"] = c.String(flagBody)
				}
				return f.herdrPrint(c.Context, "notification.show", params)
			}),
			&cli.StringFlag{Name: flagBody, Usage: "the notice's `<text>` under its title"},
			&cli.StringFlag{Name: flagSound, Usage: "`<sound>`: none (the default), done or request"}),
	)
}
