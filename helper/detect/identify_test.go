package detect

import (
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/procinfo"
)

func proc(pid int, comm string, argv ...string) procinfo.Proc {
	return procinfo.Proc{PID: pid, PPID: 1, PGID: pid, TPGID: pid, Comm: comm, Argv: argv}
}

func withEnv(p procinfo.Proc, kv ...string) procinfo.Proc {
	p.Env = map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		p.Env[kv[i]] = kv[i+1]
	}
	return p
}

func TestIdentify(t *testing.T) {
	tests := []struct {
		name   string
		leader procinfo.Proc
		group  []procinfo.Proc
		want   string
		why    string // a fragment of the reason
	}{
		// Plain programs and shells at work are no agent.
		{name: "vim", leader: proc(10, "vim", "vim", "main.go"), want: ""},
		{name: "shell at prompt", leader: proc(10, "bash", "-bash"), want: ""},
		{name: "node app", leader: proc(10, "node", "node", "server.js"), want: ""},
		{name: "node eval", leader: proc(10, "node", "node", "-e", "require('claude')"), want: ""},
		{name: "python script", leader: proc(10, "python3", "python3", "manage.py", "runserver"), want: ""},
		{name: "python -c", leader: proc(10, "python3", "python3", "-c", "import aider"), want: ""},
		{name: "make", leader: proc(10, "make", "make", "test"), want: ""},
		{name: "empty", leader: procinfo.Proc{}, want: ""},

		// Native executables, by argv[0] and by comm.
		{name: "claude", leader: proc(10, "claude", "claude", "--resume", "abc"), want: "claude", why: `program "claude"`},
		{name: "claude full path", leader: proc(10, "claude", "/home/ana/.local/bin/claude"), want: "claude"},
		{name: "claude native version dir", leader: proc(10, "2.1.63", "/home/ana/.local/share/claude/versions/2.1.63"), want: "claude", why: "path"},
		{name: "codex", leader: proc(10, "codex", "codex"), want: "codex"},
		{name: "kiro", leader: proc(10, "kiro-cli", "kiro-cli", "chat"), want: "kiro"},
		{name: "kiro chat child", leader: proc(10, "kiro-cli-chat", "kiro-cli-chat", "chat", "--resume"), want: "kiro"},
		{name: "muse", leader: proc(10, "muse", "muse"), want: "muse"},
		{name: "goose", leader: proc(10, "goose", "goose", "session"), want: "goose"},
		{name: "droid", leader: proc(10, "droid", "/usr/local/bin/droid"), want: "droid"},
		{name: "agy", leader: proc(10, "agy", "agy"), want: "agy"},
		{name: "qodercli", leader: proc(10, "qodercli", "qodercli"), want: "qodercli"},
		{name: "windows shim name", leader: proc(10, "copilot.exe", "C:/tools/copilot.exe"), want: "copilot"},
		// A process that rewrote its argv still has its comm.
		{name: "rewritten argv", leader: proc(10, "devin", "devin: session 4"), want: "devin", why: "comm"},

		// Node launchers, by the package directory of the script.
		{name: "claude npm", leader: proc(10, "node", "node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"), want: "claude", why: "@anthropic-ai/claude-code"},
		{name: "codex npm", leader: proc(10, "node", "/usr/bin/node", "/home/ana/.npm-global/lib/node_modules/@openai/codex/bin/codex.js"), want: "codex"},
		{name: "gemini relaunch", leader: proc(10, "node", "node", "--max-old-space-size=8192", "--no-warnings=DEP0040", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js"), want: "gemini"},
		{name: "node require flag", leader: proc(10, "node", "node", "-r", "/opt/trace.js", "/usr/lib/node_modules/@github/copilot/index.js"), want: "copilot"},
		{name: "copilot npm loader", leader: proc(10, "node", "node", "--enable-source-maps", "/usr/lib/node_modules/@github/copilot/npm-loader.js"), want: "copilot"},
		{name: "pi npm", leader: proc(10, "node", "node", "/home/ana/.local/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"), want: "pi"},
		{name: "omp bun", leader: proc(10, "bun", "bun", "/home/ana/.bun/install/global/node_modules/@oh-my-pi/pi-coding-agent/src/cli.ts"), want: "omp"},
		{name: "opencode wrapper", leader: proc(10, "node", "node", "/usr/lib/node_modules/opencode-ai/bin/opencode"), want: "opencode"},
		{name: "kilo nested platform package", leader: proc(10, "kilo", "/usr/lib/node_modules/@kilocode/cli/node_modules/@kilocode/cli-linux-x64/bin/kilo"), want: "kilo"},
		{name: "amp", leader: proc(10, "node", "node", "/usr/lib/node_modules/@sourcegraph/amp/dist/main.js"), want: "amp"},
		{name: "cline", leader: proc(10, "node", "node", "/usr/lib/node_modules/cline/dist/cli.mjs"), want: "cline"},
		{name: "qoder npm", leader: proc(10, "node", "node", "/usr/lib/node_modules/@qoder-ai/qodercli/bin/qodercli.js"), want: "qodercli"},
		{name: "droid npm", leader: proc(10, "node", "node", "/usr/lib/node_modules/@factory/cli/bin/droid"), want: "droid"},
		{name: "grok npm", leader: proc(10, "node", "node", "/usr/lib/node_modules/@vibe-kit/grok-cli/dist/index.js"), want: "grok"},
		// Cursor runs its own node from its install directory under its program name.
		{name: "cursor bundled node", leader: proc(10, "node", "cursor-agent", "--use-system-ca", "/home/ana/.local/share/cursor-agent/versions/2025.11.06/index.js"), want: "cursor"},
		{name: "cursor via agent symlink", leader: proc(10, "node", "agent", "--use-system-ca", "/home/ana/.local/share/cursor-agent/versions/2025.11.06/index.js"), want: "cursor", why: "/cursor-agent/"},
		{name: "script by name", leader: proc(10, "node", "node", "/home/ana/bin/claude"), want: "claude", why: "script"},
		{name: "deno run", leader: proc(10, "deno", "deno", "run", "-A", "/home/ana/.cache/deno/npm/registry.npmjs.org/node_modules/@anthropic-ai/claude-code/cli.js"), want: "claude"},

		// Package runners.
		{name: "npx", leader: proc(10, "npm exec @anth", "npm", "exec", "@anthropic-ai/claude-code"), want: "claude"},
		{name: "npx -y version", leader: proc(10, "node", "npx", "-y", "@openai/codex@latest"), want: "codex", why: "@openai/codex"},
		{name: "npx --package", leader: proc(10, "node", "npx", "--package", "@google/gemini-cli", "gemini"), want: "gemini"},
		{name: "bunx", leader: proc(10, "bun", "bunx", "@github/copilot"), want: "copilot"},
		{name: "bun x", leader: proc(10, "bun", "bun", "x", "opencode-ai@latest"), want: "opencode"},
		{name: "pnpm dlx", leader: proc(10, "node", "pnpm", "dlx", "@qoder-ai/qodercli"), want: "qodercli"},
		{name: "npx unknown", leader: proc(10, "node", "npx", "-y", "cowsay", "hi"), want: ""},

		// Python launchers.
		{name: "aider console script", leader: proc(10, "aider", "/home/ana/.local/share/uv/tools/aider-chat/bin/python", "/home/ana/.local/bin/aider"), want: "aider", why: "script"},
		{name: "python -m aider", leader: proc(10, "python3", "python3", "-m", "aider", "--model", "sonnet"), want: "aider", why: "-m aider"},
		{name: "python -m submodule", leader: proc(10, "python3.12", "python3.12", "-u", "-m", "aider.main"), want: "aider"},
		{name: "python site-packages", leader: proc(10, "python3", "python3", "/usr/lib/python3/dist-packages/kimi_cli/__main__.py"), want: "kimi"},
		{name: "kimi uv tool", leader: proc(10, "kimi", "/home/ana/.local/share/uv/tools/kimi-cli/bin/python3", "/home/ana/.local/bin/kimi"), want: "kimi"},
		{name: "hermes", leader: proc(10, "python3", "/home/ana/.hermes/venv/bin/python3", "/home/ana/.local/bin/hermes"), want: "hermes"},
		{name: "uvx", leader: proc(10, "uvx", "uvx", "--from", "aider-chat", "aider"), want: "aider"},
		{name: "uv tool run", leader: proc(10, "uv", "uv", "tool", "run", "--python", "3.12", "kimi-cli"), want: "kimi"},
		{name: "uv run", leader: proc(10, "uv", "uv", "run", "--with", "rich", "aider"), want: "aider"},
		{name: "pipx run", leader: proc(10, "pipx", "pipx", "run", "aider-chat"), want: "aider"},

		// Shell wrappers.
		{name: "sh -c exec", leader: proc(10, "sh", "sh", "-c", `exec claude --dangerously-skip-permissions "$@"`), want: "claude", why: "sh runs"},
		{name: "bash -lc with env", leader: proc(10, "bash", "bash", "-lc", "FOO=1 codex --model o3"), want: "codex"},
		{name: "bash script named after agent", leader: proc(10, "bash", "bash", "/home/ana/.local/bin/cursor-agent"), want: "cursor"},
		{name: "env wrapper", leader: proc(10, "env", "env", "-u", "DEBUG", "TERM=xterm", "gemini"), want: "gemini"},
		{name: "nohup", leader: proc(10, "nohup", "nohup", "goose", "session"), want: "goose"},
		{name: "sh -c other", leader: proc(10, "sh", "sh", "-c", "make test; claude"), want: ""},

		// A wrapper leads the group and the agent is its child.
		{name: "wrapper child", leader: proc(10, "op", "op", "run", "--", "claude"),
			group: []procinfo.Proc{proc(10, "op", "op", "run", "--", "claude"), {PID: 11, PPID: 10, PGID: 10, Comm: "claude", Argv: []string{"claude"}}},
			want:  "claude", why: "pid 11"},
		// The leader wins over its children: an agent's tool calls run in its group.
		{name: "leader over child", leader: proc(10, "claude", "claude"),
			group: []procinfo.Proc{{PID: 11, PPID: 10, PGID: 10, Comm: "codex", Argv: []string{"codex", "exec", "hi"}}},
			want:  "claude", why: "pid 10"},

		// Environment hints.
		{name: "hint", leader: withEnv(proc(10, "sandbox", "sandbox-run", "--", "agent"), "TAW_AGENT", "codex"), want: "codex", why: "TAW_AGENT=codex"},
		{name: "herdr hint", leader: withEnv(proc(10, "docker", "docker", "run", "-it", "img"), "HERDR_AGENT", "claude-code"), want: "claude", why: "HERDR_AGENT"},
		{name: "taw hint first", leader: withEnv(proc(10, "x", "x"), "HERDR_AGENT", "codex", "TAW_AGENT", "kiro"), want: "kiro"},
		{name: "hint beats program", leader: withEnv(proc(10, "claude", "claude"), "TAW_AGENT", "gemini"), want: "gemini"},
		{name: "hint on a child", leader: proc(10, "firejail", "firejail", "x"),
			group: []procinfo.Proc{withEnv(procinfo.Proc{PID: 11, PGID: 10, Comm: "x", Argv: []string{"x"}}, "TAW_AGENT", "muse")}, want: "muse"},
		{name: "unknown hint ignored", leader: withEnv(proc(10, "claude", "claude"), "TAW_AGENT", "my-bot"), want: "claude"},

		// Launch forms as the real programs show them in a pane (procfs read back from a tmux
		// pane running each one from its npm install folder).
		{name: "copilot native binary run directly", leader: procinfo.Proc{PID: 10, PGID: 10, Comm: "MainThread",
			Argv: []string{"/c/node_modules/.bin/copilot-linux-x64"}, Exe: "/c/node_modules/@github/copilot-linux-x64/copilot"},
			want: "copilot", why: "copilot-linux-x64"},
		{name: "copilot native binary, exe only", leader: procinfo.Proc{PID: 10, PGID: 10, Comm: "MainThread",
			Argv: []string{"copilot-x"}, Exe: "/c/node_modules/@github/copilot-linux-x64/copilot"},
			want: "copilot", why: "a build of @github/copilot"},
		{name: "copilot binary by package path", leader: proc(10, "MainThread", "/c/node_modules/@github/copilot-linux-x64/copilot"), want: "copilot"},
		{name: "copilot darwin build", leader: proc(10, "MainThread", "/c/node_modules/@github/copilot-darwin-arm64/copilot-bin"), want: "copilot"},
		{name: "qwen bin script", leader: proc(10, "node", "node", "/q/node_modules/.bin/qwen"), want: "qwen"},
		{name: "qwen relaunch", leader: proc(10, "node", "/usr/bin/node", "--expose-gc", "/q/node_modules/@qwen-code/qwen-code/cli.js"), want: "qwen", why: "@qwen-code/qwen-code"},
		{name: "auggie", leader: proc(10, "node", "node", "/a/node_modules/.bin/auggie"), want: "auggie"},
		{name: "continue", leader: proc(10, "node", "node", "/a/node_modules/.bin/cn"), want: "continue"},
		{name: "continue package", leader: proc(10, "node", "node", "/a/node_modules/@continuedev/cli/dist/cn.js"), want: "continue"},
		{name: "auggie package", leader: proc(10, "node", "node", "/a/node_modules/@augmentcode/auggie/augment.mjs"), want: "auggie"},
		// npm exec sets its process title: the whole command line is one word.
		{name: "npx title", leader: proc(10, "npm exec auggie", "npm exec auggie"), want: "auggie", why: "process title"},
		{name: "npm exec title package", leader: proc(10, "npm exec @qwen-", "npm exec @qwen-code/qwen-code"), want: "qwen"},
		{name: "npx title, agent later in the group", leader: proc(10, "npm exec cowsay", "npm exec cowsay"),
			group: []procinfo.Proc{proc(10, "npm exec cowsay", "npm exec cowsay"),
				{PID: 11, PPID: 10, PGID: 10, Comm: "sh", Argv: []string{"sh", "-c", "claude"}}},
			want: "claude", why: "pid 11"},
		{name: "npx title unknown", leader: proc(10, "npm exec cowsay", "npm exec cowsay hi"), want: ""},
		{name: "pnpm dlx title", leader: proc(10, "node", "pnpm dlx @openai/codex"), want: "codex"},
		{name: "bunx path", leader: proc(10, "bun", "/home/a/.bun/bin/bunx", "@google/gemini-cli@latest"), want: "gemini"},
		{name: "uvx", leader: proc(10, "uvx", "uvx", "kimi-cli"), want: "kimi"},
		{name: "bash -c, agent started later", leader: proc(10, "bash", "bash", "-c", "sleep 3; claude"),
			group: []procinfo.Proc{proc(10, "bash", "bash", "-c", "sleep 3; claude"),
				{PID: 11, PPID: 10, PGID: 10, Comm: "claude", Argv: []string{"claude"}}},
			want: "claude", why: "pid 11"},
		{name: "env", leader: proc(10, "env", "env", "DISABLE_AUTOUPDATER=1", "claude"), want: "claude"},
		{name: "nohup node", leader: proc(10, "nohup", "nohup", "node", "/q/node_modules/@qwen-code/qwen-code/cli.js"), want: "qwen"},
		{name: "timeout", leader: proc(10, "timeout", "timeout", "1h", "codex"), want: "codex"},
		{name: "timeout with signal", leader: proc(10, "timeout", "timeout", "-s", "INT", "-k", "5s", "30m", "gemini", "-p", "hi"), want: "gemini"},
		{name: "timeout alone", leader: proc(10, "timeout", "timeout", "5"), want: ""},
		{name: "node with flags", leader: proc(10, "node", "node", "--no-warnings", "--max-old-space-size=4096", "-r", "/x/hook.js", "/l/node_modules/@anthropic-ai/claude-code/cli.js"), want: "claude"},
		{name: "nice", leader: proc(10, "nice", "nice", "-n", "5", "aider"), want: "aider"},
		{name: "stdbuf", leader: proc(10, "stdbuf", "stdbuf", "-oL", "goose", "session"), want: "goose"},
		{name: "setsid", leader: proc(10, "setsid", "setsid", "opencode"), want: "opencode"},
		{name: "yarn dlx", leader: proc(10, "node", "yarn", "dlx", "@openai/codex"), want: "codex"},
		{name: "pnpx", leader: proc(10, "node", "pnpx", "@qwen-code/qwen-code"), want: "qwen"},
		{name: "tsx", leader: proc(10, "node", "tsx", "/l/node_modules/@mariozechner/pi-coding-agent/src/cli.ts"), want: "pi"},
		{name: "uv tool run by package", leader: proc(10, "uv", "uv", "tool", "run", "aider-chat"), want: "aider"},
		{name: "platform suffix only at the end", leader: proc(10, "linux-x64", "/opt/linux-x64"), want: ""},

		// Report-only agents never come from a process or a hint.
		{name: "crush", leader: proc(10, "crush", "crush"), want: ""},
		{name: "crush npm", leader: proc(10, "node", "node", "/usr/lib/node_modules/@charmland/crush/bin/crush.js"), want: ""},
		{name: "command code", leader: proc(10, "node", "node", "/usr/lib/node_modules/command-code/dist/cli.js"), want: ""},
		{name: "prime hint", leader: withEnv(proc(10, "prime", "prime"), "TAW_AGENT", "prime-agent"), want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			group := tt.group
			if group == nil {
				group = []procinfo.Proc{tt.leader}
			}
			got, why := Identify(tt.leader, group)
			if got != tt.want {
				t.Errorf("Identify = %q (%s), want %q", got, why, tt.want)
			}
			if tt.why != "" && !strings.Contains(why, tt.why) {
				t.Errorf("why = %q, want it to mention %q", why, tt.why)
			}
			if why == "" {
				t.Error("no reason given")
			}
		})
	}
}

// A package name read from a command line loses its version and its platform's suffix.
func TestPackageNameCleaning(t *testing.T) {
	cleanings := []struct {
		name  string
		clean func(string) string
		want  map[string]string // given → cleaned
	}{
		{"stripVersion", stripVersion, map[string]string{
			"@openai/codex@0.46.0":   "@openai/codex",
			"@openai/codex":          "@openai/codex",
			"opencode-ai@latest":     "opencode-ai",
			"aider-chat==0.86.2":     "aider-chat",
			"aider-chat[playwright]": "aider-chat",
			"cline":                  "cline",
		}},
		{"withoutPlatform", withoutPlatform, map[string]string{
			"@github/copilot-linux-x64":     "@github/copilot",
			"copilot-darwin-arm64":          "copilot",
			"@kilocode/cli-linux-x64-musl":  "@kilocode/cli",
			"@factory/cli-linux-x64":        "@factory/cli",
			"opencode-windows-x64-baseline": "opencode",
			"copilot":                       "copilot",
			"-linux-x64":                    "-linux-x64", // nothing before the suffix
			"linux-x64-tools":               "linux-x64-tools",
		}},
	}
	for _, c := range cleanings {
		for in, want := range c.want {
			if got := c.clean(in); got != want {
				t.Errorf("%s(%q) = %q, want %q", c.name, in, got, want)
			}
		}
	}
}
