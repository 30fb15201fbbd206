package mcpserver

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/panectl"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Options say which server the tools act on, and how.
type Options struct {
	Tmux       *tmux.Client
	LockDir    string
	CallerPane string // the pane the MCP client runs in ($TMUX_PANE), "" outside tmux
	ReadOnly   bool
	Version    string
}

// Wait limits: a tool call that waits gives up after its timeout_seconds, this by default.
const (
	defaultWait = 5 * time.Minute
	maxWait     = time.Hour
)

type tools struct {
	o      Options
	agents *agentctl.Ctl
	panes  *panectl.Ctl
}

// New is the MCP server with taw's tools.
func New(o Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "taw", Version: o.Version}, &mcp.ServerOptions{
		Instructions: "taw's tools see and drive the coding agents and panes of one tmux server. " +
			"A pane is named %N (or session:window.pane); an agent by its pane, or by its name (claude, codex, ...) when only one runs. " +
			"States: idle, done (idle with a finished turn nobody looked at), working, blocked (waiting on a dialog), unknown.",
	})
	t := &tools{o: o, agents: &agentctl.Ctl{Tmux: o.Tmux, LockDir: o.LockDir, CallerPane: o.CallerPane}, panes: &panectl.Ctl{Tmux: o.Tmux}}
	read := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "agent_list", Annotations: read,
		Description: "List every coding agent of the tmux server: its pane, target, agent, state and, when blocked, the dialog it waits on."}, t.agentList)
	mcp.AddTool(s, &mcp.Tool{Name: "agent_get", Annotations: read,
		Description: "Show one agent, named by its pane (%N) or by its agent's name when only one runs. Refuses a pane that runs no agent, or a name several panes run (agent_target_ambiguous)."}, t.agentGet)
	mcp.AddTool(s, &mcp.Tool{Name: "agent_read", Annotations: read,
		Description: "Read an agent's screen as plain text: the visible screen, or its last `lines` lines with the history. Refuses a pane that runs no agent."}, t.agentRead)
	mcp.AddTool(s, &mcp.Tool{Name: "agent_wait", Annotations: read,
		Description: "Wait until an agent is in one of the states in `until` (default idle, done or blocked), then show it. Ends with timeout after timeout_seconds (default 300), and with agent_not_running when the agent leaves or its pane closes. With changed, only a state reached after the wait starts counts."}, t.agentWait)
	mcp.AddTool(s, &mcp.Tool{Name: "pane_read", Annotations: read,
		Description: "Read a pane's text: source visible (the screen), recent (default: the last 80 rows with the history, or `lines`), recent_unwrapped or detection. Escape sequences are never included."}, t.paneRead)
	if o.ReadOnly {
		return s
	}
	mcp.AddTool(s, &mcp.Tool{Name: "agent_start",
		Description: "Start a known coding agent (claude, codex, gemini, ...) with optional args: in a new window (default), a split of the calling pane (place split_right or split_down) or an existing pane at its shell prompt (pane). Waits until the agent is ready for input (default). Refuses an unknown agent, a pane that runs something other than a shell (busy), a cwd that is not an absolute folder, and arguments that cannot be typed as they are."}, t.agentStart)
	mcp.AddTool(s, &mcp.Tool{Name: "agent_prompt",
		Description: "Type a prompt into an agent's input as one paste and submit it. Refuses an agent blocked on a dialog (agent_blocked: answer it with agent_answer) or one that is not at its input (agent_not_ready: wait for idle first), and text with control characters. With wait, then waits like agent_wait for a state reached after the prompt (default: the end of the turn)."}, t.agentPrompt)
	mcp.AddTool(s, &mcp.Tool{Name: "agent_answer",
		Description: "Answer the dialog a blocked agent waits on: one of option (its number, as agent_get lists), yes, no or text (typed into the option that takes text). Only the dialog on screen is answered: it refuses an agent that is not blocked (agent_not_blocked), a dialog that changed since it was shown or that taw cannot read (prompt_changed), and an option the dialog does not have; nothing is typed then."}, t.agentAnswer)
	mcp.AddTool(s, &mcp.Tool{Name: "pane_split",
		Description: "Split a pane (default the calling pane) right or down; the new pane starts `command` as an argument vector, directly and without a shell, or the default shell when none is given. Refuses a cwd that is not an absolute folder, variables that are not NAME=value, and a ratio outside 0..1. Returns the new pane's id."}, t.paneSplit)
	mcp.AddTool(s, &mcp.Tool{Name: "pane_run",
		Description: "Type one command line into a pane (at its shell prompt) and press Enter. It is typed into whatever runs there: read the pane first. Refuses a line with a newline or control characters."}, t.paneRun)
	return s
}

// Run serves the tools on stdin and stdout until the client goes or ctx ends.
func Run(ctx context.Context, o Options) error {
	return New(o).Run(ctx, &mcp.StdioTransport{})
}

// Agent is an agent as the tools show it.
type Agent struct {
	PaneID string         `json:"pane_id"`
	Target string         `json:"target"`
	Agent  string         `json:"agent"`
	State  string         `json:"state"`
	Cwd    string         `json:"cwd,omitempty"`
	Prompt *prompt.Prompt `json:"prompt,omitempty" jsonschema:"the dialog a blocked agent waits on"`
}

func agentOf(p panestate.Pane) Agent {
	state := attention.Shown(p)
	if state == "" {
		state = "unknown"
	}
	return Agent{PaneID: p.ID, Target: p.Target(), Agent: p.Agent(), State: state, Cwd: p.Cwd, Prompt: prompt.Decode(p.Options[panestate.OptPrompt])}
}

// failure is a tool's error as the client reads it: the code first.
func failure(err error) error {
	if code := coded.CodeOf(err); code != "" {
		return fmt.Errorf("%s: %v", code, err)
	}
	return err
}

func waitFor(seconds float64) (time.Duration, error) {
	switch {
	case seconds < 0:
		return 0, fmt.Errorf("invalid_argument: timeout_seconds cannot be negative")
	case seconds == 0:
		return defaultWait, nil
	}
	d := time.Duration(seconds * float64(time.Second))
	return min(d, maxWait), nil
}
