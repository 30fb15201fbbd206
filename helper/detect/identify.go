package detect

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/shellquote"
)

// maxUnwrap bounds how many launchers deep Identify looks (sh -c "npx … node …" and so on).
const maxUnwrap = 6

// Identify names the detected agent running in a pane's foreground process group, or returns ""
// for a plain program; why says which process and which fact decided, for taw pane explain.
//
// An agent hint in the environment (TAW_AGENT, then HERDR_AGENT) wins, since wrappers and
// sandboxes set it precisely because the process names say nothing. Otherwise the group leader
// is tried first, its launchers unwrapped (node and its flags, bun, deno, python, uv, uvx, npx
// and npm exec, bunx, pnpm dlx, sh -c, env, nohup, timeout), and then the other members, which
// catches a wrapper whose child is the agent. A process title that holds a whole command line
// (npm exec sets one) is read as words, and a native binary is also named by the npm package its
// executable sits in, a platform build included (@github/copilot-linux-x64). Agents that are only
// known from their own reports are never named here.
func Identify(leader procinfo.Proc, group []procinfo.Proc) (agentID string, why string) {
	procs := append([]procinfo.Proc{leader}, group...)
	seen := map[int]bool{}
	ordered := make([]procinfo.Proc, 0, len(procs))
	for _, p := range procs {
		if p.PID != 0 && seen[p.PID] {
			continue
		}
		seen[p.PID] = true
		ordered = append(ordered, p)
	}
	for _, p := range ordered {
		for _, name := range procinfo.HintVars {
			v := strings.TrimSpace(p.Env[name])
			if v == "" {
				continue
			}
			if a, ok := agents.Lookup(v); ok && a.Detected {
				return a.ID, fmt.Sprintf("pid %d has %s=%s", p.PID, name, v)
			}
		}
	}
	for _, p := range ordered {
		argv := p.Argv
		if len(argv) == 0 || argv[0] == "" {
			argv = []string{p.Comm}
		}
		if a, how := fromArgv(argv, 0); a != nil {
			return a.ID, fmt.Sprintf("pid %d: %s", p.PID, how)
		}
		// A process that set its title ("npm exec @qwen-code/qwen-code") has its whole command
		// line in one word: read the words.
		if len(argv) == 1 && strings.Contains(argv[0], " ") {
			if a, how := fromArgv(strings.Fields(argv[0]), 0); a != nil {
				return a.ID, fmt.Sprintf("pid %d: %s (process title)", p.PID, how)
			}
		}
		// The executable's real path: a native binary started through a link (node_modules/.bin)
		// sits in its package's folder.
		if p.Exe != "" && p.Exe != argv[0] {
			if a, how := fromPath(p.Exe); a != nil {
				return a.ID, fmt.Sprintf("pid %d: %s (executable)", p.PID, how)
			}
		}
		// A runtime started under another name (exec -a, a symlink to a bundled node) is still
		// a runtime: read its arguments as the runtime's.
		if (isNode(p.Comm) || isPython(p.Comm)) && progName(argv[0]) != p.Comm {
			if a, how := fromArgv(append([]string{p.Comm}, argv[1:]...), 0); a != nil {
				return a.ID, fmt.Sprintf("pid %d: %s (argv[0] %q)", p.PID, how, argv[0])
			}
		}
		// The kernel's comm survives a process that rewrote its argv into something else.
		if a, ok := agents.ByProgram(p.Comm); ok {
			return a.ID, fmt.Sprintf("pid %d: program %q (comm)", p.PID, p.Comm)
		}
	}
	name := leader.Comm
	if len(leader.Argv) > 0 && leader.Argv[0] != "" {
		name = progName(leader.Argv[0])
	}
	return "", fmt.Sprintf("no agent: pid %d runs %q", leader.PID, name)
}

// fromArgv names the agent an argv runs, unwrapping launchers, with how it was found.
func fromArgv(argv []string, depth int) (*agents.Agent, string) {
	if len(argv) == 0 || depth > maxUnwrap {
		return nil, ""
	}
	name := progName(argv[0])
	if a, how := fromPath(argv[0]); a != nil {
		return a, how
	}
	rest := argv[1:]
	var inner []string // the argv a launcher runs, when it runs a command rather than a script
	var script string
	switch {
	case isNode(name):
		script = scriptArg(rest, nodeValueFlags, nodeEvalFlags)
		if name == "deno" && len(rest) > 0 && rest[0] == "run" {
			script = scriptArg(rest[1:], denoValueFlags, nil)
		}
		if name == "bun" && len(rest) > 0 && (rest[0] == "x" || rest[0] == "run") {
			inner = packageRunner(rest[1:])
		}
	case isPython(name):
		if mod := pythonModule(rest); mod != "" {
			top := strings.SplitN(mod, ".", 2)[0]
			if a, ok := agents.ByPackage(top); ok {
				return a, fmt.Sprintf("%s -m %s", name, mod)
			}
			if a, ok := agents.ByProgram(top); ok {
				return a, fmt.Sprintf("%s -m %s", name, mod)
			}
			return nil, ""
		}
		script = scriptArg(rest, pythonValueFlags, pythonEvalFlags)
	case name == "uv":
		inner = uvRun(rest)
	case name == "uvx" || name == "pipx":
		if name == "pipx" {
			if len(rest) == 0 || rest[0] != "run" {
				return nil, ""
			}
			rest = rest[1:]
		}
		inner = packageRunner(rest)
	case name == "npx" || name == "bunx" || name == "pnpx":
		inner = packageRunner(rest)
	case name == "npm" || name == "pnpm" || name == "yarn":
		if sub := firstPositional(rest); sub >= 0 && (rest[sub] == "exec" || rest[sub] == "dlx" || rest[sub] == "x") {
			inner = packageRunner(rest[sub+1:])
		}
	case shellquote.IsShell(name):
		if cmd, ok := shellCommand(rest); ok {
			inner = commandWords(cmd)
		} else {
			script = scriptArg(rest, nil, nil)
		}
	case name == "env" || name == "nice" || name == "stdbuf":
		inner = skipFlags(rest)
	case name == "nohup" || name == "setsid" || name == "exec":
		inner = rest
	case name == "timeout":
		inner = timeoutCommand(rest)
	default:
		if a, ok := byProgram(name); ok {
			return a, fmt.Sprintf("program %q", name)
		}
		return nil, ""
	}
	if script != "" {
		if a, how := fromScript(script); a != nil {
			return a, fmt.Sprintf("%s runs %s", name, how)
		}
	}
	if len(inner) > 0 {
		if a, how := fromArgv(inner, depth+1); a != nil {
			return a, fmt.Sprintf("%s runs %s", name, how)
		}
		// A package runner names a package, which may differ from the program it installs.
		if a, ok := agents.ByPackage(stripVersion(inner[0])); ok {
			return a, fmt.Sprintf("%s runs package %q", name, stripVersion(inner[0]))
		}
	}
	return nil, ""
}

// fromPath names an agent from an executable or script path: a path only its install has, or a
// package directory it lives in.
func fromPath(p string) (*agents.Agent, string) {
	if a, ok := agents.ByPath(p); ok {
		return a, fmt.Sprintf("path %s", p)
	}
	for _, pkg := range packagesInPath(p) {
		if a, ok := agents.ByPackage(pkg); ok {
			return a, fmt.Sprintf("package %q in %s", pkg, p)
		}
		// A native build ships as a package of its own per platform (@github/copilot-linux-x64
		// beside @github/copilot).
		if base := withoutPlatform(pkg); base != pkg {
			if a, ok := agents.ByPackage(base); ok {
				return a, fmt.Sprintf("package %q (a build of %s) in %s", pkg, base, p)
			}
		}
	}
	return nil, ""
}

// byProgram is agents.ByProgram, also for a program named after its platform build
// (copilot-linux-x64).
func byProgram(name string) (*agents.Agent, bool) {
	if a, ok := agents.ByProgram(name); ok {
		return a, true
	}
	if base := withoutPlatform(name); base != name {
		return agents.ByProgram(base)
	}
	return nil, false
}

var platformRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`-(linux|darwin|macos|win32|windows|freebsd|android)-(x64|x86_64|amd64|arm64|aarch64|ia32|x86|arm)(-(musl|gnu|msvc|baseline))*$`)
})

// withoutPlatform drops a platform suffix such as -linux-x64 or -darwin-arm64-musl.
func withoutPlatform(name string) string {
	if loc := platformRE().FindStringIndex(name); loc != nil && loc[0] > 0 {
		return name[:loc[0]]
	}
	return name
}

// timeoutCommand is the command of "timeout [flags] duration command…".
func timeoutCommand(args []string) []string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-s" || a == "-k" || a == "--signal" || a == "--kill-after":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if i+1 < len(args) {
				return args[i+1:] // args[i] is the duration
			}
			return nil
		}
	}
	return nil
}

// fromScript names the agent a runtime's script argument belongs to.
func fromScript(script string) (*agents.Agent, string) {
	if a, how := fromPath(script); a != nil {
		return a, how
	}
	if a, ok := byProgram(progName(script)); ok {
		return a, fmt.Sprintf("script %s", script)
	}
	return nil, ""
}

// packagesInPath lists the npm packages (after node_modules/) and Python packages (after
// site-packages/ or dist-packages/) a path goes through, outermost first: a package's own
// dependencies sit deeper and must not name it.
func packagesInPath(p string) []string {
	var out []string
	parts := strings.Split(p, "/")
	for i := 0; i+1 < len(parts); i++ {
		switch parts[i] {
		case "node_modules":
			if strings.HasPrefix(parts[i+1], "@") && i+2 < len(parts) {
				out = append(out, parts[i+1]+"/"+parts[i+2])
			} else {
				out = append(out, parts[i+1])
			}
		case "site-packages", "dist-packages":
			out = append(out, strings.TrimSuffix(parts[i+1], ".py"))
		}
	}
	return out
}

// progName is an executable's name without directory and without the extensions Windows shims
// and scripts carry.
func progName(p string) string {
	name := path.Base(p)
	if name == "." || name == "/" {
		return ""
	}
	for _, ext := range []string{".exe", ".cmd", ".bat", ".ps1", ".js", ".mjs", ".cjs", ".py"} {
		if strings.HasSuffix(name, ext) && len(name) > len(ext) {
			return name[:len(name)-len(ext)]
		}
	}
	return name
}

var (
	nodeRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(node|nodejs|node[0-9]+|bun|deno|tsx|ts-node)$`) })
	pythonRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(python|pypy)[0-9.]*$`) })
)

func isNode(name string) bool   { return nodeRE().MatchString(name) }
func isPython(name string) bool { return pythonRE().MatchString(name) }

// Flags that take the next word as their value, and flags that make the runtime run code given
// on the command line (no script file to look at).
var (
	nodeValueFlags   = set("-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file", "--conditions", "-C", "--title", "--inspect-port")
	nodeEvalFlags    = set("-e", "--eval", "-p", "--print")
	denoValueFlags   = set("--config", "-c", "--import-map", "--env-file", "--location", "--cert")
	pythonValueFlags = set("-X", "-W", "-Q")
	pythonEvalFlags  = set("-c")
)

func set(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[w] = true
	}
	return m
}

// scriptArg is the first word that is not a flag (nor a flag's value): the script a runtime
// runs. It is "" when an eval flag comes first.
func scriptArg(args []string, valueFlags, evalFlags map[string]bool) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1]
			}
			return ""
		case evalFlags[a]:
			return ""
		case valueFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// pythonModule is the module of "python [flags] -m module".
func pythonModule(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-m" && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			return a[2:]
		case pythonValueFlags[a]:
			i++
		case a == "-c", !strings.HasPrefix(a, "-"):
			return ""
		}
	}
	return ""
}

// packageRunner is the command an npx/bunx/uvx/pnpm dlx line runs: its flags skipped, with a
// --package/--from value noted first when the command itself is only a program name.
func packageRunner(args []string) []string {
	var pkg string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:]
		case a == "-p" || a == "--package" || a == "--from" || a == "--with" || a == "--python" || a == "--spec":
			if i+1 < len(args) && (a == "-p" || a == "--package" || a == "--from" || a == "--spec") {
				pkg = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--package=") || strings.HasPrefix(a, "--from="):
			pkg = a[strings.IndexByte(a, '=')+1:]
		case strings.HasPrefix(a, "-"):
		default:
			if pkg != "" {
				if _, ok := agents.ByPackage(stripVersion(pkg)); ok {
					return append([]string{pkg}, args[i+1:]...)
				}
			}
			return args[i:]
		}
	}
	if pkg != "" {
		return []string{pkg}
	}
	return nil
}

// uvRun is the command of "uv run …" or "uv tool run …".
func uvRun(args []string) []string {
	sub := firstPositional(args)
	if sub < 0 {
		return nil
	}
	switch args[sub] {
	case "run":
		return packageRunner(args[sub+1:])
	case "tool":
		if sub+1 < len(args) && args[sub+1] == "run" {
			return packageRunner(args[sub+2:])
		}
	}
	return nil
}

func firstPositional(args []string) int {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return i
		}
	}
	return -1
}

// shellCommand is the command string of "sh [flags] -c 'command'".
func shellCommand(args []string) (string, bool) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return "", false
		}
		if strings.Contains(strings.TrimLeft(a, "-"), "c") && !strings.HasPrefix(a, "--") && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// commandWords splits a shell command into words, crudely (no quoting), and drops what comes
// before the program: variable assignments and exec/env/command/nohup prefixes. It looks only at
// the first simple command, which is what a wrapper's sh -c 'exec agent "$@"' runs.
func commandWords(cmd string) []string {
	if i := strings.IndexAny(cmd, ";&|\n"); i >= 0 {
		cmd = cmd[:i]
	}
	words := strings.Fields(cmd)
	for len(words) > 0 {
		w := strings.Trim(words[0], `"'`)
		switch {
		case w == "exec" || w == "command" || w == "nohup" || w == "env" || w == "builtin":
			words = words[1:]
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.Contains(w[:strings.IndexByte(w, '=')], "/"):
			words = words[1:]
		case strings.HasPrefix(w, "-") && len(words) > 1:
			words = words[1:] // env -i and the like
		default:
			out := make([]string, len(words))
			for i, x := range words {
				out[i] = strings.Trim(x, `"'`)
			}
			return out
		}
	}
	return nil
}

// skipFlags drops leading flags and VAR=value words (env, nice -n 5, stdbuf -oL).
func skipFlags(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" || a == "-u" || a == "-C" || a == "-S":
			i++
		case strings.HasPrefix(a, "-"):
		case strings.Contains(a, "=") && !strings.Contains(a[:strings.IndexByte(a, '=')], "/"):
		default:
			return args[i:]
		}
	}
	return nil
}

// stripVersion turns a package spec ("@scope/name@1.2", "name@latest", "name==1.0") into its
// name.
func stripVersion(spec string) string {
	for _, sep := range []string{"==", ">=", "<=", "~=", "["} {
		if i := strings.Index(spec, sep); i > 0 {
			spec = spec[:i]
		}
	}
	if i := strings.LastIndexByte(spec, '@'); i > 0 {
		spec = spec[:i]
	}
	return spec
}
