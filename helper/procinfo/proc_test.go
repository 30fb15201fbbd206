package procinfo

import (
	"reflect"
	"testing"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want stat
		err  bool
	}{
		{name: "shell", in: "4242 (bash) S 4000 4242 4242 34816 4300 4194560 1 0 0 0",
			want: stat{pid: 4242, ppid: 4000, pgid: 4242, tpgid: 4300, tty: 34816, comm: "bash"}},
		// A program may name itself with spaces and parentheses; comm ends at the last ")".
		{name: "odd comm", in: "77 (we (ird) name) R 1 77 77 0 -1 0",
			want: stat{pid: 77, ppid: 1, pgid: 77, tpgid: -1, comm: "we (ird) name"}},
		// The start time is the 22nd field.
		{name: "start time", in: "4242 (node) S 4000 4242 4242 34816 4242 4194560 1 0 0 0 5 3 0 0 20 0 11 0 987654 1000 2000",
			want: stat{pid: 4242, ppid: 4000, pgid: 4242, tpgid: 4242, tty: 34816, comm: "node", start: 987654}},
		// As the kernel writes it: a newline after the last field.
		{name: "whole line", in: "9 (sh) S 8 9 9 34817 9 4194304 130 0 0 0 0 0 0 0 20 0 1 0 5550 2650112 229 18446744073709551615 1 1 0 0 0 0 0 0 65538 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
			want: stat{pid: 9, ppid: 8, pgid: 9, tpgid: 9, tty: 34817, comm: "sh", start: 5550}},
		{name: "no comm", in: "77 bash S 1 2 3 4 5", err: true},
		{name: "short", in: "77 (x) S 1 2", err: true},
		{name: "not a number", in: "77 (x) S one 2 3 4 5", err: true},
		{name: "empty", in: "", err: true},
	}
	for _, tt := range tests {
		got, err := parseStat([]byte(tt.in))
		if (err != nil) != tt.err {
			t.Errorf("%s: err = %v, want error %v", tt.name, err, tt.err)
			continue
		}
		if !tt.err && got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestParseCmdline(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"node\x00/usr/lib/node_modules/@openai/codex/bin/codex.js\x00", []string{"node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"}},
		{"claude\x00", []string{"claude"}},
		{"", nil},
		{"\x00\x00", nil},
		// A process that rewrote its title keeps it as one word.
		{"postgres: writer process   ", []string{"postgres: writer process   "}},
	}
	for _, tt := range tests {
		if got := parseCmdline([]byte(tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseCmdline(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseEnviron(t *testing.T) {
	got := parseEnviron([]byte("HOME=/root\x00TAW_AGENT=claude\x00TAW_AGENTX=no\x00HERDR_AGENT=codex\x00PATH=/bin"))
	want := map[string]string{"TAW_AGENT": "claude", "HERDR_AGENT": "codex"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := parseEnviron([]byte("HOME=/root\x00TAW_AGENT")); got != nil {
		t.Errorf("no hint: got %v, want nil", got)
	}
}

func FuzzParseStat(f *testing.F) {
	for _, seed := range []string{"1 (a) S 0 1 1 0 -1 0", "2 ((x)) R 1 2 2 3 2 0 0 0 0 0 0 0 0 0 0 0 0 0 77", ") (", "3 (y"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseStat(b) // never panics
	})
}
