package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/mux/scrollback"
	"github.com/urfave/cli/v2"
)

// taw detect: how taw reads a saved screen, for people writing or checking rules. It needs no
// tmux server.

// maxScreenBytes bounds a saved screen: a screen of text is a few kilobytes, a capture with
// scrollback a few hundred.
const maxScreenBytes = 4 << 20

type detectOptions struct {
	File     string // "-" for stdin
	Agent    string
	Title    string
	TitleSet bool
	JSON     bool
}

func newDetectCommand(f *Factory) *cli.Command {
	d := verb("detect", "<file | -> [--agent <agent>] [--title <title>] [--json]", "classify a saved screen: the state, the rule that decided and the text it matched",
		f.detect,
		&cli.StringFlag{Name: "agent", Usage: "read the screen with the rules of `<agent>` (an id or alias)"},
		&cli.StringFlag{Name: "title", Usage: "the pane `<title>` the screen had (title rules read it)"},
		jsonObjectFlag())
	d.Description = "<file> is a pane's text as tmux capture-pane -p saves it (escape sequences are removed), or - for\n" +
		"standard input. Leading \"# title: …\" and \"# want: …\" lines, as rule fixtures have them, are read\n" +
		"as the title and skipped. Without --agent every agent's rules are tried and those that match are shown."
	return d
}

func (f *Factory) detect(c *cli.Context) error {
	positional, _, _ := splitArgs(c)
	if len(positional) != 1 || positional[0] == "" {
		return UsageErrorf("detect takes one saved screen: taw detect <file | -> [--agent <agent>] [--title <title>] [--json]")
	}
	opts := &detectOptions{File: positional[0], Agent: strings.TrimSpace(c.String("agent")),
		Title: c.String("title"), TitleSet: c.IsSet("title"), JSON: c.Bool(flagJSON)}
	if c.IsSet("agent") && opts.Agent == "" {
		return UsageErrorf("--agent is empty: name an agent, such as --agent claude")
	}
	return f.runOr(opts, func() error { return detectRun(c.Context, f, opts) })
}

// detectView is the JSON shape of taw detect. Field names are stable.
type detectView struct {
	Title   string        `json:"title"`
	Screens []*screenView `json:"screens"` // the agent asked for, or every agent whose rules match
}

func detectRun(_ context.Context, f *Factory, opts *detectOptions) error {
	var agent *agents.Agent
	if opts.Agent != "" {
		a, ok := agents.Lookup(opts.Agent)
		if !ok {
			return Errorf(coded.UnknownAgent, "unknown agent %q: taw detect reads the screens of %s", opts.Agent, detectedList())
		}
		if !a.Detected {
			return Errorf(coded.UnknownAgent, "%s has no screen rules: taw knows it only from its own reports (screens are read for %s)", a.ID, detectedList())
		}
		agent = a
	}
	data, err := readSavedScreen(f, opts.File)
	if err != nil {
		return err
	}
	screen := parseSavedScreen(data)
	if opts.TitleSet {
		screen.Title = opts.Title
	}
	rules, errs := detect.Load(f.Getenv)
	for _, err := range errs {
		fmt.Fprintf(f.IO.ErrOut, "taw detect: %v\n", err)
	}
	var found []detect.Explanation
	if agent != nil {
		found = append(found, rules.Explain(agent.ID, screen))
	} else {
		for _, id := range rules.Agents() {
			if e := rules.Explain(id, screen); e.Verdict.RuleID != detect.FallbackIdle {
				found = append(found, e)
			}
		}
	}
	if opts.JSON {
		v := detectView{Title: screen.Title, Screens: []*screenView{}}
		for _, e := range found {
			v.Screens = append(v.Screens, newScreenView(e))
		}
		return writeJSONLine(f.IO.Out, v)
	}
	var b strings.Builder
	if len(found) == 0 {
		fmt.Fprintf(&b, "no agent's rules match this screen: read with --agent <agent>, it is idle (%s)\n", detect.FallbackIdle)
	}
	for i, e := range found {
		if i > 0 {
			b.WriteString("\n")
		}
		writeScreenText(&b, e)
	}
	_, err = io.WriteString(f.IO.Out, b.String())
	return err
}

// readSavedScreen reads the file, or standard input for "-", up to maxScreenBytes.
func readSavedScreen(f *Factory, name string) ([]byte, error) {
	var r io.Reader = f.IO.In
	if name != "-" {
		// O_NONBLOCK: opening a FIFO would otherwise wait for a writer; it is refused below.
		file, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, Errorf(coded.ScreenUnreadable, "no saved screen at %s: give a file written by tmux capture-pane -p, or - for standard input", name)
			}
			return nil, Errorf(coded.ScreenUnreadable, "read saved screen: %v", err)
		}
		defer file.Close()
		if st, err := file.Stat(); err != nil || !st.Mode().IsRegular() {
			return nil, Errorf(coded.ScreenUnreadable, "%s is not a regular file: give a saved screen, or - for standard input", name)
		}
		r = file
	}
	if r == nil {
		return nil, Errorf(coded.ScreenUnreadable, "no standard input to read the screen from")
	}
	data, err := io.ReadAll(io.LimitReader(r, maxScreenBytes+1))
	if err != nil {
		return nil, Errorf(coded.ScreenUnreadable, "read saved screen %s: %v", name, err)
	}
	if len(data) > maxScreenBytes {
		return nil, Errorf(coded.ScreenUnreadable, "saved screen %s is more than %d MiB: give one screen, as capture-pane -p prints it", name, maxScreenBytes>>20)
	}
	return data, nil
}

// parseSavedScreen turns a saved screen into what the rules read: escape sequences and other
// control bytes removed (a capture made with -e keeps colours), invalid UTF-8 replaced, and the
// header lines of a rule fixture taken off.
func parseSavedScreen(data []byte) detect.Screen {
	data = scrollback.StripANSI(data)
	data = bytes.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || (r >= 0x20 && r != 0x7f && !(r >= 0x80 && r < 0xa0)) {
			return r
		}
		return -1
	}, bytes.ToValidUTF8(data, []byte(string(utf8.RuneError))))
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var s detect.Screen
	for len(lines) > 0 {
		if v, ok := strings.CutPrefix(lines[0], "# title: "); ok {
			s.Title = v
		} else if !strings.HasPrefix(lines[0], "# want: ") {
			break
		}
		lines = lines[1:]
	}
	s.Lines = lines
	return s
}

func detectedList() string {
	var ids []string
	for _, a := range agents.Detected() {
		ids = append(ids, a.ID)
	}
	return strings.Join(ids, ", ")
}
