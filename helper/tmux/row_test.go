package tmux

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// hostile holds every kind of byte that prints differently by release: a backslash before text
// that reads as an escape, a separator, control bytes, format and shell characters, "$" before a
// name, and UTF-8.
const hostile = "a\\037b|c#{x}d\\e $HOME ${x} $1 \\$y sp ace\x01\x1fz\tT é"

// What each release printed for Row(Text("@v"), Text("@w")) with @v = hostile and @w = plain:
// 3.2a, 3.3a and 3.7c print bytes as they are, 3.4 through vis(3) with "$" before a name escaped,
// 3.5a through vis(3) without.
const plain = "plain $HOME x"

var printed = map[string]string{
	"raw": "a\\\\037b\\|c\\#{x}d\\\\e\\ \\$HOME\\ \\${x}\\ \\$1\\ \\\\\\$y\\ sp\\ ace\x01\x1fz\tT\\ é" +
		"\x1f" + "plain $HOME x",
	"3.4": "a\\\\037b\\|c\\#{x}d\\\\e\\ \\\\$HOME\\ \\\\${x}\\ \\$1\\ \\\\\\\\$y\\ sp\\ ace\\001\\037z\tT\\ é" +
		"\\037" + "plain \\$HOME x",
	"3.5a": "a\\\\037b\\|c\\#{x}d\\\\e\\ \\$HOME\\ \\${x}\\ \\$1\\ \\\\\\$y\\ sp\\ ace\\001\\037z\tT\\ é" +
		"\\037" + "plain $HOME x",
}

func TestDecodeRowOfEveryRelease(t *testing.T) {
	want := []string{"a\\037b|c#{x}d\\e $HOME ${x} $1 \\$y sp ace\x01", "z\tT é", plain}
	for release, row := range printed {
		if got := DecodeRow(row); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: DecodeRow(%q) = %q, want %q", release, row, got, want)
		}
	}
}

func TestDecodeVisEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`\n\r\b\a\v\t\f\s`: "\n\r\b\a\v\t\f ",
		`\0x`:              "\x00x",
		`\0001`:            "\x001",
		`\177\303\251`:     "\x7f\xc3\xa9",
		`\\$1 \$x`:         `\$1 $x`,
		`end\`:             `end\`,
		`\03`:              "\x003",
		`no escapes`:       `no escapes`,
	} {
		if got := Decode(in); got != want {
			t.Errorf("Decode(%q) = %q, want %q", in, got, want)
		}
	}
}

// The format reads back byte for byte from the server on PATH, whichever release it is.
func TestTextRoundTrip(t *testing.T) {
	c := testServer(t)
	ctx := context.Background()
	// A value cannot hold the separator itself (see DecodeRow).
	noSep := strings.ReplaceAll(hostile, FieldSep, "")
	values := []string{noSep, plain, `\`, `\\`, `x\`, `$`, `\$`, `\$x`, `$x\`, `#{pane_id}`, "", "é\\n"}
	var cmds []Cmd
	var format []string
	for i, v := range values {
		name := "@v" + string(rune('a'+i))
		cmds = append(cmds, Cmd{"set-option", "-p", name, v})
		format = append(format, Text(name))
	}
	format = append(format, Plain("pane_id"))
	if _, err := c.Run(ctx, cmds...); err != nil {
		t.Fatal(err)
	}
	out, err := c.Output(ctx, "display-message", "-p", Row(format...))
	if err != nil {
		t.Fatal(err)
	}
	got := DecodeRow(out)
	if len(got) != len(values)+1 {
		t.Fatalf("%d fields in %q, want %d", len(got), out, len(values)+1)
	}
	for i, v := range values {
		if got[i] != v {
			t.Errorf("value %d printed %q, read back %q, want %q", i, out, got[i], v)
		}
	}
	list, err := c.Output(ctx, "list-panes", "-F", Row(format...))
	if err != nil {
		t.Fatal(err)
	}
	if DecodeRow(list)[0] != noSep {
		t.Errorf("list-panes printed %q, read back %q", list, DecodeRow(list)[0])
	}
}

// A message written with tmuxfmt.Message shows as written: display-message expands its text as a
// format and as a time on every release (-p prints what a client would be shown, but for a
// style's #[, which it leaves doubled for the status line to undo).
func TestMessageShowsAsWritten(t *testing.T) {
	c := testServer(t)
	for _, s := range []string{"done: 100% of %d files", "## #{pane_id} %H:%M", `back\slash`} {
		out, err := c.Output(context.Background(), "display-message", "-p", tmuxfmt.Message(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := out; got != s {
			t.Errorf("display-message of Message(%q) showed %q", s, got)
		}
	}
}

// Global values read back as they are, set or not, whatever the release prints.
func TestGlobalOptions(t *testing.T) {
	c := testServer(t)
	ctx := context.Background()
	vals := []string{"#[fg=red]#I:\"#W\" \\ $x;", "", "two\nlines", "\x1etaw-end\n\x1etaw-end"}
	if _, err := c.Run(ctx, Cmd{"set-option", "-g", "@a", vals[0]}, Cmd{"set-option", "-g", "@b", vals[1]},
		Cmd{"set-option", "-g", "@c", vals[2]}, Cmd{"set-option", "-g", "@d", vals[3]}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GlobalOptions(ctx, "@a", "@unset", "@b", "@c", "@d")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{vals[0], "", "", vals[2], vals[3]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GlobalOptions = %q, want %q", got, want)
	}
}
