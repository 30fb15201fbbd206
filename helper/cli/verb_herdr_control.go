package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/taw-tmux/taw/helper/herdrsock"
	"github.com/urfave/cli/v2"
)

// herdr's control verbs (the CLI an agent runs through $HERDR_BIN_PATH): each is parsed here
// into the params of the herdr socket method it wraps, and answered by the same handler the
// socket uses, in this process. The answer is printed as herdr's CLI prints it, one JSON line
// {"id":"cli:…","result":{…}}; pane read prints the text itself.

const (
	flagDirection = "direction"
	flagRatio     = "ratio"
	flagEnv       = "env"
	flagFocus     = "focus"
	flagNoFocus   = "no-focus"
	flagCurrent   = "current"
	flagMatch     = "match"
	flagRegex     = "regex"
	flagStatus    = "status"
	flagLabel     = "label"
	flagWorkspace = "workspace"
	flagBranch    = "branch"
	flagBase      = "base"
	flagPath      = "path"
	flagFormat    = "format"
)

// herdrCall answers one herdr method in this process, as the socket would answer this process.
func (f *Factory) herdrCall(ctx context.Context, method string, params map[string]any) (any, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	h := &herdrsock.Handler{Tmux: f.Tmux(), LockDir: f.LockDir(), NowMillis: f.NowMillis, Version: Version}
	res, herr := h.Handle(ctx, herdrsock.Peer{PID: os.Getpid(), UID: os.Getuid()}, herdrsock.Request{ID: "cli:" + method, Method: method, Params: raw})
	if herr != nil {
		return nil, Errorf(herr.Code, "%s", herr.Message)
	}
	return res, nil
}

// herdrPrint answers a method and prints its answer as herdr's CLI does.
func (f *Factory) herdrPrint(ctx context.Context, method string, params map[string]any) error {
	res, err := f.herdrCall(ctx, method, params)
	if err != nil {
		return err
	}
	return writeJSONLine(f.IO.Out, struct {
		ID     string `json:"id"`
		Result any    `json:"result"`
	}{"cli:" + method, res})
}

func envFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: flagEnv, Usage: "set the variable `<assignment>` (KEY=VALUE) in the new process's environment (repeatable)"}
}

func focusFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: flagFocus, Usage: "show what was made on the attached clients"},
		&cli.BoolFlag{Name: flagNoFocus, Usage: "leave the clients where they are (the default)"},
	}
}

// envParam reads --env KEY=VALUE words.
func envParam(c *cli.Context) (map[string]string, error) {
	env := map[string]string{}
	for _, kv := range c.StringSlice(flagEnv) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, UsageErrorf("invalid --env %q (expected KEY=VALUE)", kv)
		}
		env[k] = v
	}
	return env, nil
}

func focusParam(c *cli.Context) (bool, error) {
	if c.Bool(flagFocus) && c.Bool(flagNoFocus) {
		return false, UsageErrorf("--focus and --no-focus do not go together")
	}
	return c.Bool(flagFocus), nil
}

// linesParam reads --lines as herdr does: a count of rows.
func linesParam(c *cli.Context, params map[string]any) error {
	if !c.IsSet(flagLines) {
		return nil
	}
	n, err := strconv.Atoi(c.String(flagLines))
	if err != nil || n < 1 || n > 100000 {
		return InvalidValuef("invalid --lines %q (expected a number from 1 to 100000)", c.String(flagLines))
	}
	params["lines"] = n
	return nil
}

// timeoutParam reads --timeout (milliseconds, or a duration) into timeout_ms.
func timeoutParam(c *cli.Context, params map[string]any) error {
	if !c.IsSet(flagTimeout) {
		return nil
	}
	d, err := parseTimeout(c.String(flagTimeout))
	if err != nil {
		return err
	}
	params["timeout_ms"] = d.Milliseconds()
	return nil
}

// paneControlVerbs are herdr's pane verbs taw did not have: split, run, read, send-text,
// send-keys, wait-output, current and close.
func paneControlVerbs(f *Factory) []*cli.Command {
	return []*cli.Command{
		verb("split", "[<pane> | --pane P | --current] --direction right|down [--ratio F] [--cwd DIR] [--env K=V]... [--focus] [-- COMMAND...]",
			"split a pane; the new pane starts COMMAND as it is (no shell), or a shell", f.paneSplit,
			append([]cli.Flag{
				&cli.StringFlag{Name: flagPane, Usage: "split pane `<pane>`"},
				&cli.BoolFlag{Name: flagCurrent, Usage: "split the calling pane (the default)"},
				&cli.StringFlag{Name: flagDirection, Usage: "`<direction>`: right (side by side) or down (one over the other)"},
				&cli.StringFlag{Name: flagRatio, Usage: "the new pane's share `<ratio>`, between 0 and 1 (default half)"},
				&cli.StringFlag{Name: flagCwd, Usage: "start in `<dir>` (absolute)"},
				envFlag(),
			}, focusFlags()...)...),
		verb("run", "<pane> <command line>", "type a command line into a pane and press Enter (one paste)",
			f.herdrTwoArgs("pane run", "pane.run", "pane_id", "text")),
		verb("read", "<pane> [--source visible|recent|recent-unwrapped|detection] [--lines N]", "print a pane's text (recent: its last 80 rows with the history)",
			oneArg("pane read takes one pane: taw pane read <pane> [--source S] [--lines N]", f.paneRead),
			&cli.StringFlag{Name: flagSource, Usage: "`<source>`: visible, recent (default), recent-unwrapped or detection"},
			&cli.StringFlag{Name: flagLines, Usage: "the last `<n>` rows"},
			&cli.StringFlag{Name: flagFormat, Usage: "`<format>`: text, the only one (taw prints no escape sequences)"}),
		verb("send-text", "<pane> <text>", "type text into a pane as it is (no Enter)",
			f.herdrTwoArgs("pane send-text", "pane.send_text", "pane_id", "text")),
		verb("send-keys", "<pane> <key>...", "send keys to a pane: a, enter, esc, tab, up, f1, ctrl+c, alt+x, shift+tab", f.paneSendKeys),
		verb("wait-output", "<pane> (--match TEXT | --regex RE) [--source S] [--lines N] [--timeout MS]", "wait until a line of a pane's text matches, then print it as JSON",
			oneArg("pane wait-output takes one pane: taw pane wait-output <pane> (--match TEXT | --regex RE)", f.paneWaitOutput), waitOutputFlags()...),
		verb("current", "", "print the calling pane as herdr's pane_info", f.herdrNoArgs("pane current", "pane.current")),
		verb("close", "<pane>", "close a pane", oneArgOnly("pane close takes one pane: taw pane close <pane>", func(c *cli.Context, pane string) error {
			return f.herdrPrint(c.Context, "pane.close", map[string]any{"pane_id": pane})
		})),
	}
}

func waitOutputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagMatch, Usage: "a line holding `<text>`"},
		&cli.StringFlag{Name: flagRegex, Usage: "a line matching the regular expression `<re>`"},
		&cli.StringFlag{Name: flagSource, Usage: "`<source>`: recent (default), recent-unwrapped, visible"},
		&cli.StringFlag{Name: flagLines, Usage: "look at the last `<n>` rows (default 80)"},
		timeoutFlag("give up after `<ms>` (milliseconds, or a duration); default never"),
	}
}

func (f *Factory) herdrNoArgs(name, method string) cli.ActionFunc {
	return func(c *cli.Context) error {
		if positional, _, _ := splitArgs(c); len(positional) > 0 {
			return UsageErrorf("%s takes no arguments", name)
		}
		return f.herdrPrint(c.Context, method, map[string]any{})
	}
}

func (f *Factory) herdrTwoArgs(name, method, first, second string) cli.ActionFunc {
	return func(c *cli.Context) error {
		positional, after, _ := splitArgs(c)
		if len(positional) != 2 || len(after) > 0 {
			return UsageErrorf("%s takes a pane and one text: taw %s <pane> <text>", name, name)
		}
		return f.herdrPrint(c.Context, method, map[string]any{first: positional[0], second: positional[1]})
	}
}

func (f *Factory) paneSplit(c *cli.Context) error {
	positional, command, _ := splitArgs(c)
	params := map[string]any{}
	named := c.String(flagPane)
	switch {
	case len(positional) > 1:
		return UsageErrorf("pane split takes at most one pane: taw pane split [<pane>] --direction right|down [-- COMMAND...]")
	case len(positional) == 1 && named != "":
		return UsageErrorf("name the pane once: <pane> or --pane")
	case len(positional) == 1:
		named = positional[0]
	}
	if named != "" && c.Bool(flagCurrent) {
		return UsageErrorf("--current splits the calling pane: do not name another")
	}
	if named != "" {
		params["target_pane_id"] = named
	}
	if !c.IsSet(flagDirection) {
		return UsageErrorf("pane split needs --direction right|down")
	}
	params["direction"] = c.String(flagDirection)
	if c.IsSet(flagRatio) {
		r, err := strconv.ParseFloat(c.String(flagRatio), 64)
		if err != nil {
			return InvalidValuef("invalid --ratio %q (expected a number between 0 and 1)", c.String(flagRatio))
		}
		params["ratio"] = r
	}
	if c.IsSet(flagCwd) {
		params["cwd"] = absPath(c.String(flagCwd))
	}
	env, err := envParam(c)
	if err != nil {
		return err
	}
	focus, err := focusParam(c)
	if err != nil {
		return err
	}
	params["env"], params["focus"] = env, focus
	if len(command) > 0 {
		params["command"] = command
	}
	return f.herdrPrint(c.Context, "pane.split", params)
}

// absPath is dir made absolute against the caller's folder (the socket takes absolute ones).
func absPath(dir string) string {
	if dir == "" || strings.HasPrefix(dir, "/") {
		return dir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd + "/" + dir
	}
	return dir
}

func (f *Factory) paneRead(c *cli.Context, pane string) error {
	params := map[string]any{"pane_id": pane, "source": c.String(flagSource)}
	if v := c.String(flagFormat); c.IsSet(flagFormat) && v != "text" {
		return InvalidValuef("invalid --format %q: taw reads text only", v)
	}
	if err := linesParam(c, params); err != nil {
		return err
	}
	return f.herdrText(c.Context, "pane.read", params)
}

// herdrText prints a read's text, as herdr's CLI does.
func (f *Factory) herdrText(ctx context.Context, method string, params map[string]any) error {
	res, err := f.herdrCall(ctx, method, params)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(res)
	var r struct {
		Read struct {
			Text string `json:"text"`
		} `json:"read"`
	}
	_ = json.Unmarshal(b, &r)
	_, err = fmt.Fprint(f.IO.Out, visibleText(r.Read.Text))
	return err
}

func (f *Factory) paneSendKeys(c *cli.Context) error {
	positional, _, _ := splitArgs(c)
	if len(positional) < 2 {
		return UsageErrorf("pane send-keys takes a pane and at least one key: taw pane send-keys <pane> <key>...")
	}
	return f.herdrPrint(c.Context, "pane.send_keys", map[string]any{"pane_id": positional[0], "keys": positional[1:]})
}

func (f *Factory) paneWaitOutput(c *cli.Context, pane string) error {
	params := map[string]any{"pane_id": pane, "source": c.String(flagSource)}
	switch {
	case c.IsSet(flagMatch) == c.IsSet(flagRegex):
		return UsageErrorf("say what to wait for: --match TEXT or --regex RE, one of them")
	case c.IsSet(flagMatch):
		params["match"] = map[string]string{"type": "substring", "value": c.String(flagMatch)}
	default:
		params["match"] = map[string]string{"type": "regex", "value": c.String(flagRegex)}
	}
	if err := linesParam(c, params); err != nil {
		return err
	}
	if err := timeoutParam(c, params); err != nil {
		return err
	}
	return f.herdrPrint(c.Context, "pane.wait_for_output", params)
}
