package cli

import (
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// verbHelp is how each verb's help ends: one example to copy, and the page of the documentation
// that tells the rest (README.md's verb table names the same pages).
var verbHelp = map[string][2]string{
	"pane report-agent":         {"taw pane report-agent \"$TMUX_PANE\" --source my-agent --agent my-agent --state working --seq 1", "docs/reporting.md"},
	"pane report-agent-session": {"taw pane report-agent-session \"$TMUX_PANE\" --source my-agent --agent my-agent --agent-session-id 42 -- my-agent --resume 42", "docs/reporting.md"},
	"pane release-agent":        {"taw pane release-agent \"$TMUX_PANE\" --source my-agent --agent my-agent", "docs/reporting.md"},
	"pane get":                  {"taw pane get %3 --json", "docs/reading.md"},
	"pane explain":              {"taw pane explain %3", "docs/detection.md"},
	"pane list":                 {"taw pane list --session work", "docs/reading.md"},
	"integration install":       {"taw integration install claude codex --link", "docs/integrations.md"},
	"integration uninstall":     {"taw integration uninstall claude", "docs/integrations.md"},
	"integration status":        {"taw integration status --json", "docs/integrations.md"},
	"agent list":                {"taw agent list", "docs/reading.md"},
	"agent get":                 {"taw agent get claude", "docs/reading.md"},
	"agent wait":                {"taw agent wait claude --until idle --until blocked --timeout 10m", "docs/reading.md"},
	"agent next":                {"taw agent next", "docs/reading.md"},
	"agent focus":               {"taw agent focus claude", "docs/reading.md"},
	"agent start":               {"taw agent start claude --wait -- --model opus", "docs/acting.md"},
	"agent prompt":              {"taw agent prompt claude 'fix the failing test' --wait", "docs/acting.md"},
	"agent read":                {"taw agent read claude --lines 20", "docs/acting.md"},
	"agent answer":              {"taw agent answer claude --option 1", "docs/acting.md"},
	"popup":                     {"taw popup --open", "docs/reading.md"},
	"session save":              {"taw session save --name before-upgrade", "docs/sessions.md"},
	"session restore":           {"taw session restore --name before-upgrade", "docs/sessions.md"},
	"session list":              {"taw session list", "docs/sessions.md"},
	"session delete":            {"taw session delete before-upgrade", "docs/sessions.md"},
	"session import-resurrect":  {"taw session import-resurrect ~/.local/share/tmux/resurrect/last", "docs/sessions.md"},
	"watch":                     {"taw watch --once --json", "docs/watcher.md"},
	"detect":                    {"taw agent read claude | taw detect - --agent claude", "docs/detection.md"},
	"config default":            {"mkdir -p ~/.config/taw && taw config default > ~/.config/taw/config.toml", "docs/config-notifications.md"},
	"config path":               {"taw config path", "docs/config-notifications.md"},
	"config check":              {"taw config check", "docs/config-notifications.md"},
	"notify test":               {"taw notify test --kind finished", "docs/config-notifications.md"},
	"plugin list":               {"taw plugin list", "docs/hooks-plugins.md"},
	"plugin link":               {"taw plugin link ~/src/my-plugin", "docs/hooks-plugins.md"},
	"plugin unlink":             {"taw plugin unlink my-plugin", "docs/hooks-plugins.md"},
	"plugin enable":             {"taw plugin enable my-plugin", "docs/hooks-plugins.md"},
	"plugin disable":            {"taw plugin disable my-plugin", "docs/hooks-plugins.md"},
	"plugin action run":         {"taw plugin action run my-plugin.hello", "docs/hooks-plugins.md"},
	"plugin pane open":          {"taw plugin pane open my-plugin.log", "docs/hooks-plugins.md"},
	"plugin popup open":         {"taw plugin popup open my-plugin.menu", "docs/hooks-plugins.md"},
	"status":                    {"taw status", "docs/setup.md"},
	"load":                      {"taw load", "docs/setup.md"},
	"unload":                    {"taw unload", "README.md#uninstall"},
	"mux serve":                 {"taw mux serve", "docs/mux.md"},
	"mux call":                  {"taw mux call '\"ListPanes\"'", "docs/mux.md"},
	"mux attach":                {"taw mux attach p1", "docs/mux.md"},
	"version":                   {"taw version", "README.md"},
	"pane split":                {"taw pane split %3 --direction right -- npm test", "docs/orchestration.md"},
	"pane run":                  {"taw pane run %4 'make test'", "docs/orchestration.md"},
	"pane read":                 {"taw pane read %4 --source recent --lines 40", "docs/orchestration.md"},
	"pane send-text":            {"taw pane send-text %4 'yes'", "docs/orchestration.md"},
	"pane send-keys":            {"taw pane send-keys %4 Enter", "docs/orchestration.md"},
	"pane wait-output":          {"taw pane wait-output %4 --match 'tests passed' --timeout 60000", "docs/orchestration.md"},
	"pane current":              {"taw pane current", "docs/orchestration.md"},
	"pane close":                {"taw pane close %4", "docs/orchestration.md"},
	"wait agent-status":         {"taw wait agent-status claude --status done --timeout 600000", "docs/orchestration.md"},
	"wait output":               {"taw wait output %4 --regex 'PASS|FAIL'", "docs/orchestration.md"},
	"workspace list":            {"taw workspace list", "docs/orchestration.md"},
	"workspace get":             {"taw workspace get '$1'", "docs/orchestration.md"},
	"workspace create":          {"taw workspace create --cwd ~/src/app --label app", "docs/orchestration.md"},
	"workspace focus":           {"taw workspace focus '$1'", "docs/orchestration.md"},
	"tab list":                  {"taw tab list --workspace '$1'", "docs/orchestration.md"},
	"tab create":                {"taw tab create --workspace '$1' --label tests", "docs/orchestration.md"},
	"worktree list":             {"taw worktree list --cwd ~/src/app", "docs/orchestration.md"},
	"worktree create":           {"taw worktree create --cwd ~/src/app --branch fix-login", "docs/orchestration.md"},
	"worktree remove":           {"taw worktree remove --workspace '$2'", "docs/orchestration.md"},
	"notification show":         {"taw notification show 'build done' --body 'all tests pass' --sound done", "docs/orchestration.md"},
	"events":                    {"taw events --json --filter state=blocked", "docs/orchestration.md"},
	"mcp":                       {"claude mcp add taw -- taw mcp", "docs/orchestration.md"},
	"agent send":                {"taw agent send claude 'now run the tests'", "docs/orchestration.md"},
}

// setHelpTails ends the help of every verb of verbHelp under prefix with its example and page.
func setHelpTails(prefix string, cmds []*cli.Command) {
	for _, c := range cmds {
		name := strings.TrimSpace(prefix + " " + c.Name)
		if len(c.Subcommands) > 0 {
			setHelpTails(name, c.Subcommands)
			continue
		}
		// A switch that is off unless given needs no "(default: false)".
		for _, fl := range c.Flags {
			if bf, ok := fl.(*cli.BoolFlag); ok && !bf.Value {
				bf.DisableDefaultText = true
			}
		}
		h, ok := verbHelp[name]
		if !ok || c.CustomHelpTemplate != "" {
			continue
		}
		// The example goes in as a quoted template string: its braces and quotes are text.
		c.CustomHelpTemplate = cli.CommandHelpTemplate + "\nEXAMPLE:\n   {{" + strconv.Quote(h[0]) + "}}\n\nMORE:\n   " + h[1] + " in taw's repository\n"
	}
}
