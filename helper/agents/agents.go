package agents

import (
	"strings"
	"sync"
)

// Agent is one known coding agent.
type Agent struct {
	ID      string   // canonical name: "claude"
	Display string   // what people see: "Claude Code"
	Aliases []string // other names it goes by: program names, reported labels

	// Detected is false for an agent taw knows only when it reports itself: it is never named
	// from the process in front of a pane, and has no screen rules.
	Detected bool
	// Programs are the executable names (argv[0] or comm, without directory and extension) that
	// are this agent.
	Programs []string
	// Packages are npm package names (with scope) and Python distribution or module names whose
	// scripts are this agent, for launchers such as node, npx, python -m and uv run.
	Packages []string
	// PathHints are fragments of a script or executable path that only this agent's files contain,
	// for installs that run a bundled runtime from a directory of their own.
	PathHints []string

	// Resume is how the agent reopens one of its sessions, nil when it has no such command.
	Resume *Resume
	// Integration: taw ships hooks or a plugin for the agent (integrations/<id>, installed by
	// taw integration install <id>).
	Integration bool
	// Hooks: the integration is a hook script, and this is how its events report.
	Hooks *Hooks
	// Corrections are the gaps in the agent's own hooks: for each state taw's integration can
	// report and then leave standing after the agent has moved on, the states its screen (by a
	// rule of the agent's own, never the fallback) may replace it with. See watch.Decide.
	Corrections map[string][]string
	// Unsaid is what the current version's hooks or plugin events leave unsaid, in one clause for
	// the docs' table of Corrections (why they are what they are); every agent with an
	// integration has one.
	Unsaid string
	// DialogSettleMillis is how long one of its dialogs must have been up before an answer's
	// keys go, for an agent that drops keys while it draws a dialog; 0: DefaultDialogSettle.
	DialogSettleMillis int
}

// DefaultDialogSettle is how long, in milliseconds, a dialog must have been up before an
// answer's keys go, for an agent whose entry says nothing.
const DefaultDialogSettle = 500

// DialogSettle is DialogSettleMillis or the default.
func (a *Agent) DialogSettle() int {
	if a.DialogSettleMillis > 0 {
		return a.DialogSettleMillis
	}
	return DefaultDialogSettle
}

// ScreenCorrects says whether a screen showing state may replace the state taw's own
// integration for the agent reported.
func (a *Agent) ScreenCorrects(reported, screen string) bool {
	for _, s := range a.Corrections[reported] {
		if s == screen {
			return true
		}
	}
	return false
}

// Stands are the states the agent's hooks can leave standing after it has moved on (the keys of
// Corrections), in the order idle, working, blocked.
func (a *Agent) Stands() []string {
	var out []string
	for _, s := range []string{"idle", "working", "blocked"} {
		if _, ok := a.Corrections[s]; ok {
			out = append(out, s)
		}
	}
	return out
}

// What the current versions' hooks leave unsaid is each entry's Unsaid. Droid and Kimi have
// Claude Code's gaps, but no rule reads their own prompt yet (no screen of the real agents has
// been captured at it): only the spinner may correct them.
var toWorkingOnly = map[string][]string{"blocked": {"working"}}

var claudeGaps = map[string][]string{
	"working": {"idle"},
	"blocked": {"idle", "working"},
}

// What the hooks of Claude Code, and of the agents whose hooks copy its, leave unsaid: working
// and blocked stand at the prompt after Esc or a declined permission, and blocked stands while
// an allowed command runs.
const (
	claudeUnsaid    = "no hook fires when the person presses Esc during a turn or answers a permission, until the allowed command ends"
	claudeUnsaidToo = "the hooks have Claude Code's gaps, but no rule reads the agent's own prompt yet"
	pluginUnsaid    = "the plugin's events report every change"
)

// Resume is an agent's command for reopening one session: Program, then Arg and the session's
// id, as two words ("claude --resume <id>", "codex resume <id>") or glued into one
// ("copilot --resume=<id>").
type Resume struct {
	Program string
	Arg     string
	Glued   bool
	// File: the agent reopens a session by its file where one is known (pi, omp).
	File bool
}

// Argv is the command that reopens the session with this id or file, nil when neither is
// known.
func (r *Resume) Argv(id, file string) []string {
	v := id
	if r.File && file != "" {
		v = file
	}
	if v == "" {
		return nil
	}
	if r.Glued {
		return []string{r.Program, r.Arg + v}
	}
	return []string{r.Program, r.Arg, v}
}

// Known is the table, in no particular order. Program and package names come from each agent's
// published install instructions and registry entries.
var Known = []Agent{
	{ID: "claude", Display: "Claude Code", Detected: true,
		Corrections: claudeGaps,
		// 2.1.332 drops a key that comes while it draws a dialog: about 300 ms on a quiet
		// machine, longer under load (an answer 0.6 s after its question was lost).
		DialogSettleMillis: 1200,
		Unsaid:             claudeUnsaid,
		Resume:             &Resume{Program: "claude", Arg: "--resume"}, Integration: true,
		Aliases:   []string{"claude-code", "claude_code", "claudecode"},
		Programs:  []string{"claude"},
		Packages:  []string{"@anthropic-ai/claude-code"},
		PathHints: []string{"/.local/share/claude/versions/", "/.claude/local/"},
		// No hook fires when the person presses Esc during a turn or answers No at a permission.
		Hooks: &Hooks{
			Events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
				"PermissionRequest", "PermissionDenied", "Notification", "SubagentStart", "SubagentStop", "PreCompact",
				"PostCompact", "Stop", "StopFailure", "SessionEnd"},
			SessionKeys: []string{"session_id"}, QuestionTool: "AskUserQuestion", SessionEndKeeps: claudeFamilyKeeps,
			ResumeFlags: []ResumeFlag{{Flag: "--model", Key: "model", Keep: true}, {Flag: "--permission-mode", Key: "permission_mode", Omit: "default"}},
			Settings:    &Settings{Home: ".claude", DirEnv: "CLAUDE_CONFIG_DIR", Script: "hooks/" + HookScript, File: "settings.json", Timeout: 10}}},
	{ID: "codex", Display: "Codex", Detected: true,
		Corrections: claudeGaps,
		Unsaid:      "Interrupt fires on Esc, nothing when an approval is answered",
		Resume:      &Resume{Program: "codex", Arg: "resume"}, Integration: true,
		Aliases:  []string{"codex-cli", "openai-codex"},
		Programs: []string{"codex"},
		Packages: []string{"@openai/codex"},
		// Interrupt fires on Esc, nothing when the person declines an approval.
		Hooks: &Hooks{
			Events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
				"PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "PreModelRequest", "Stop", "Interrupt", "SessionEnd"},
			SessionKeys: []string{"session_id"}, SessionEndKeeps: []string{"clear"}, ThreadEnv: "CODEX_THREAD_ID"}},
	{ID: "gemini", Display: "Gemini CLI", Detected: true,
		Corrections: map[string][]string{"blocked": {"idle", "working"}, "idle": {"working"}},
		Unsaid:      "AfterAgent fires on Esc and on API errors, nothing when a confirmation is answered; 0.61.0 draws nothing for about a second after a shell command is allowed, then its spinner while the command runs",
		Resume:      &Resume{Program: "gemini", Arg: "--resume"}, Integration: true,
		Aliases:  []string{"gemini-cli", "google-gemini"},
		Programs: []string{"gemini"},
		Packages: []string{"@google/gemini-cli"},
		// AfterAgent fires on Esc and on API errors, nothing when a confirmation is declined.
		Hooks: &Hooks{
			Events: []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "Notification", "SessionEnd"},
			Rename: map[string]string{"BeforeAgent": "UserPromptSubmit", "BeforeTool": "PreToolUse", "AfterTool": "PostToolUse",
				"AfterAgent": "Stop"},
			SessionKeys: []string{"session_id"}, QuestionTool: "ask_user", SessionEndKeeps: []string{"clear"}}},
	{ID: "cursor", Display: "Cursor Agent", Detected: true,
		Corrections: claudeGaps,
		Unsaid:      claudeUnsaid,
		Resume:      &Resume{Program: "cursor-agent", Arg: "--resume"}, Integration: true,
		Aliases:   []string{"cursor-agent", "cursor-cli"},
		Programs:  []string{"cursor-agent"},
		PathHints: []string{"/cursor-agent/"},
		// Its hooks have Claude Code's shape, and its gaps.
		Hooks: &Hooks{
			Events: []string{"sessionStart", "beforeSubmitPrompt", "postToolUse", "afterFileEdit", "stop", "sessionEnd"},
			Rename: map[string]string{"sessionStart": "SessionStart", "stop": "Stop", "beforeSubmitPrompt": "UserPromptSubmit",
				"postToolUse": "PostToolUse", "afterFileEdit": "PostToolUse", "sessionEnd": "SessionEnd"},
			SessionKeys: []string{"conversation_id", "session_id"}}},
	{ID: "opencode", Display: "OpenCode", Detected: true,
		Unsaid: pluginUnsaid,
		Resume: &Resume{Program: "opencode", Arg: "--session"}, Integration: true,
		Aliases:  []string{"open-code", "opencode2", "opencode-ai"},
		Programs: []string{"opencode", "opencode2"},
		Packages: []string{"opencode-ai"}},
	{ID: "kilo", Display: "Kilo Code", Detected: true,
		Unsaid: pluginUnsaid,
		Resume: &Resume{Program: "kilo", Arg: "--session"}, Integration: true,
		Aliases:  []string{"kilo-code", "kilocode", "kilo code"},
		Programs: []string{"kilo", "kilocode"},
		Packages: []string{"@kilocode/cli"}},
	{ID: "pi", Display: "pi", Detected: true,
		Corrections: map[string][]string{"idle": {"working"}, "working": {"idle"}},
		Unsaid:      "its turn-ended event fires after each failed attempt of an automatic retry (`Retrying (1/3) in 8s…`), and nothing when the retry is cancelled",
		Resume:      &Resume{Program: "pi", Arg: "--session", File: true}, Integration: true,
		Aliases:  []string{"pi-coding-agent"},
		Programs: []string{"pi"},
		Packages: []string{"@mariozechner/pi-coding-agent", "@earendil-works/pi-coding-agent"}},
	{ID: "omp", Display: "omp", Detected: true,
		Unsaid: pluginUnsaid,
		Resume: &Resume{Program: "omp", Arg: "--resume=", Glued: true, File: true}, Integration: true,
		Aliases:  []string{"oh-my-pi"},
		Programs: []string{"omp"},
		Packages: []string{"@oh-my-pi/pi-coding-agent"}},
	{ID: "copilot", Display: "GitHub Copilot CLI", Detected: true,
		Corrections: claudeGaps,
		Unsaid:      "nothing fires on Esc or on an answered permission, and nothing ends a turn an error ended: errorOccurred fires after every failed attempt of a request it goes on to retry (recoverable, 1.0.102 says of each, the last one too), so taw does not register it",
		Resume:      &Resume{Program: "copilot", Arg: "--resume=", Glued: true}, Integration: true,
		Aliases:  []string{"github-copilot", "copilot-cli", "ghcs"},
		Programs: []string{"copilot"},
		Packages: []string{"@github/copilot"},
		// Nothing fires on Esc or on a declined permission. errorOccurred is not registered: it
		// fires after each failed attempt of a request Copilot retries, while it goes on working.
		Hooks: &Hooks{
			Events: []string{"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "permissionRequest",
				"notification", "agentStop", "subagentStop", "preCompact", "sessionEnd"},
			Rename: map[string]string{
				"sessionStart": "SessionStart", "userPromptSubmitted": "UserPromptSubmit", "preToolUse": "PreToolUse",
				"postToolUse": "PostToolUse", "permissionRequest": "PermissionRequest", "notification": "Notification",
				"agentStop": "Stop", "subagentStop": "SubagentStop", "preCompact": "PreCompact",
				"sessionEnd": "SessionEnd",
			},
			SessionKeys: []string{"sessionId", "session_id"}, QuestionTool: "ask_user"}},
	{ID: "kimi", Display: "Kimi Code CLI", Detected: true,
		Corrections: toWorkingOnly,
		Unsaid:      claudeUnsaidToo,
		Resume:      &Resume{Program: "kimi", Arg: "--session"}, Integration: true,
		Aliases:  []string{"kimi-code", "kimi-cli", "kimi code"},
		Programs: []string{"kimi"},
		Packages: []string{"kimi-cli", "kimi_cli"},
		// Its hooks have Claude Code's shape, and its gaps.
		Hooks: &Hooks{
			Events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "SubagentStart",
				"PreCompact", "Notification", "Stop", "StopFailure", "SessionEnd"},
			SessionKeys: []string{"session_id"}, QuestionTool: "AskUserQuestion", BlockingNotices: []string{"approval", "permission"}}},
	{ID: "kiro", Display: "Kiro CLI", Detected: true,
		Aliases:  []string{"kiro-cli"},
		Programs: []string{"kiro-cli", "kiro-cli-chat", "kiro"}},
	{ID: "droid", Display: "Droid", Detected: true,
		Corrections: toWorkingOnly,
		Unsaid:      claudeUnsaidToo,
		Resume:      &Resume{Program: "droid", Arg: "--resume"}, Integration: true,
		Aliases:  []string{"factory-droid"},
		Programs: []string{"droid"},
		Packages: []string{"@factory/cli"},
		// Its hooks have Claude Code's shape, and its gaps.
		Hooks: &Hooks{
			Events:      []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Notification", "SubagentStop", "PreCompact", "Stop", "SessionEnd"},
			SessionKeys: []string{"session_id"}, QuestionTool: "AskUser", SessionEndKeeps: claudeFamilyKeeps,
			Settings: &Settings{Home: ".factory", Script: "hooks/" + HookScript, File: "settings.json", Timeout: 10}}},
	{ID: "amp", Display: "Amp", Detected: true,
		Aliases:  []string{"amp-local", "ampcode"},
		Programs: []string{"amp"},
		Packages: []string{"@sourcegraph/amp", "@ampcode/cli"}},
	{ID: "grok", Display: "Grok", Detected: true,
		Corrections: claudeGaps,
		Unsaid:      claudeUnsaid,
		Resume:      &Resume{Program: "grok", Arg: "--resume"}, Integration: true,
		Aliases:  []string{"grok-build", "grok-cli"},
		Programs: []string{"grok"},
		Packages: []string{"@vibe-kit/grok-cli"},
		// Its hooks have Claude Code's shape, and its gaps.
		Hooks: &Hooks{
			Events:      []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"},
			SessionKeys: []string{"session_id"}, SessionEnv: "GROK_SESSION_ID", QuestionTool: "AskUserQuestion"}},
	{ID: "hermes", Display: "Hermes Agent", Detected: true,
		Unsaid: pluginUnsaid,
		Resume: &Resume{Program: "hermes", Arg: "--resume"}, Integration: true,
		Aliases:  []string{"hermes-agent"},
		Programs: []string{"hermes", "hermes-agent"},
		Packages: []string{"hermes-agent", "hermes_cli"}},
	{ID: "qodercli", Display: "Qoder CLI", Detected: true,
		Corrections: claudeGaps,
		Unsaid:      claudeUnsaid,
		Resume:      &Resume{Program: "qodercli", Arg: "--resume"}, Integration: true,
		Aliases:  []string{"qoder", "qoder-cli", "qodercn", "qoderclicn"},
		Programs: []string{"qodercli", "qoderclicn"},
		Packages: []string{"@qoder-ai/qodercli"},
		// Its hooks have Claude Code's shape, and its gaps.
		Hooks: &Hooks{
			Events:      []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"},
			SessionKeys: []string{"session_id"}, QuestionTool: "AskUserQuestion", SessionEndKeeps: claudeFamilyKeeps,
			Settings: &Settings{Home: ".qoder", DirEnv: "QODER_CONFIG_DIR", Script: "hooks/" + HookScript, File: "settings.json", Timeout: 10}}},
	{ID: "cline", Display: "Cline", Detected: true,
		Aliases:  []string{"cline-cli"},
		Programs: []string{"cline"},
		Packages: []string{"cline"}},
	{ID: "devin", Display: "Devin CLI", Detected: true,
		Corrections: claudeGaps,
		Unsaid:      claudeUnsaid,
		Resume:      &Resume{Program: "devin", Arg: "--resume"}, Integration: true,
		Aliases:  []string{"devin-cli", "devin cli"},
		Programs: []string{"devin"},
		// Its hooks have Claude Code's shape, and its gaps.
		Hooks: &Hooks{
			Events:      []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest", "Stop"},
			SessionKeys: []string{"session_id"}, QuestionTool: "AskUserQuestion"}},
	{ID: "agy", Display: "Antigravity", Detected: true,
		Resume:   &Resume{Program: "agy", Arg: "--conversation"},
		Aliases:  []string{"antigravity", "antigravity-cli"},
		Programs: []string{"agy", "antigravity-cli"}},
	{ID: "muse", Display: "Muse Code", Detected: true,
		Aliases:  []string{"muse-code", "musecode", "muse-cli"},
		Programs: []string{"muse"}},
	{ID: "aider", Display: "Aider", Detected: true,
		Aliases:  []string{"aider-chat"},
		Programs: []string{"aider"},
		Packages: []string{"aider-chat", "aider"}},
	{ID: "goose", Display: "Goose", Detected: true,
		Aliases:  []string{"goose-cli"},
		Programs: []string{"goose"}},
	// Qwen Code runs as node --expose-gc …/@qwen-code/qwen-code/cli.js, which starts node again.
	{ID: "qwen", Display: "Qwen Code", Detected: true,
		Aliases:  []string{"qwen-code", "qwen_code", "qwencode"},
		Programs: []string{"qwen"},
		Packages: []string{"@qwen-code/qwen-code"}},
	// Continue's CLI runs as node …/@continuedev/cli/dist/cn.js, started from .bin/cn.
	{ID: "continue", Display: "Continue CLI", Detected: true,
		Aliases:  []string{"cn", "continue-cli", "continuedev"},
		Programs: []string{"cn"},
		Packages: []string{"@continuedev/cli"}},
	{ID: "auggie", Display: "Auggie", Detected: true,
		Aliases:  []string{"augment", "augment-code", "augmentcode", "auggie-cli"},
		Programs: []string{"auggie"},
		Packages: []string{"@augmentcode/auggie"}},

	// Known only from their own reports (the seed): a pane running one of them is a plain pane
	// until it reports.
	{ID: "crush", Display: "Crush", Aliases: []string{"charm-crush"}},
	{ID: "command-code", Display: "Command Code", Aliases: []string{"commandcode", "command_code", "command code"}},
	{ID: "prime", Display: "Prime Agent", Aliases: []string{"prime-agent", "primeagent", "prime agent"}},
	{ID: "mastracode", Display: "Mastra Code", Aliases: []string{"mastra-code", "mastra code", "mastra"},
		Resume: &Resume{Program: "mastracode", Arg: "--thread"}},
}

// claudeFamilyKeeps are the SessionEnd reasons after which Claude Code, and agents whose hooks
// copy its, go on in the same process.
var claudeFamilyKeeps = []string{"clear", "resume", "compact"}

// HookScript is the name of the hook script taw installs into an agent.
const HookScript = "taw-agent-state.sh"

// The indexes are built on first use: most taw processes look up no agent at all.
var byName = sync.OnceValue(func() map[string]*Agent {
	m := map[string]*Agent{}
	for i := range Known {
		a := &Known[i]
		m[a.ID] = a
		for _, alias := range a.Aliases {
			m[alias] = a
		}
	}
	return m
})

// byProgram and byPackage index only detected agents: a report-only agent must never be named
// from a process.
var byProgramAndPackage = sync.OnceValues(func() (map[string]*Agent, map[string]*Agent) {
	prog, pkg := map[string]*Agent{}, map[string]*Agent{}
	for i := range Known {
		a := &Known[i]
		if !a.Detected {
			continue
		}
		for _, p := range a.Programs {
			prog[p] = a
		}
		for _, p := range a.Packages {
			pkg[strings.ToLower(p)] = a
		}
	}
	return prog, pkg
})

// Lookup finds a known agent by its id or an alias, ignoring case.
func Lookup(name string) (*Agent, bool) {
	a, ok := byName()[strings.ToLower(strings.TrimSpace(name))]
	return a, ok
}

// Canonical is the id of a known agent named name, or name itself (trimmed) for one taw does not
// know: a reported label of an agent of its own is kept as it was given.
func Canonical(name string) string {
	if a, ok := Lookup(name); ok {
		return a.ID
	}
	return strings.TrimSpace(name)
}

// ByProgram finds the detected agent whose executable is named name (a base name without
// directory or extension). Program names are case-sensitive, as on Linux.
func ByProgram(name string) (*Agent, bool) {
	byProgram, _ := byProgramAndPackage()
	a, ok := byProgram[name]
	return a, ok
}

// ByPackage finds the detected agent published as package name (npm "@scope/name" or a Python
// distribution or module name), ignoring case.
func ByPackage(name string) (*Agent, bool) {
	_, byPackage := byProgramAndPackage()
	a, ok := byPackage[strings.ToLower(name)]
	return a, ok
}

// ByPath finds the detected agent whose install path contains one of its PathHints.
func ByPath(path string) (*Agent, bool) {
	for i := range Known {
		a := &Known[i]
		if !a.Detected {
			continue
		}
		for _, h := range a.PathHints {
			if strings.Contains(path, h) {
				return a, true
			}
		}
	}
	return nil, false
}

// Detected lists the agents taw names from a pane's processes, in table order.
func Detected() []*Agent {
	var out []*Agent
	for i := range Known {
		if Known[i].Detected {
			out = append(out, &Known[i])
		}
	}
	return out
}
