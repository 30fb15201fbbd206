package tmuxfmt

import "testing"

func TestEscapeArg(t *testing.T) {
	tests := []struct{ given, want string }{
		{"plain", "plain"},
		{"done;", `done\;`}, // tmux would split the command here and drop the ";"
		{";", `\;`},         // a lone ";" is a separator unless escaped
		{`a\;`, `a\\;`},     // tmux drops one backslash before a final ";"
		{"a;b", "a;b"},      // only a final ";" is special
		{"", ""},
	}
	for _, tt := range tests {
		if got := EscapeArg(tt.given); got != tt.want {
			t.Errorf("EscapeArg(%q) = %q, want %q", tt.given, got, tt.want)
		}
	}
}

func TestQuoteString(t *testing.T) {
	tests := []struct{ given, want string }{
		{"plain", `"plain"`},
		{`a"b`, `"a\"b"`},
		{`a\b`, `"a\\b"`},
		{"$HOME", `"\$HOME"`}, // no environment expansion
		{"#{pane_id}", `"\#{pane_id}"`},
		{"~/x", `"\~/x"`},
		{"it's", `"it's"`},
		{"日本", `"日本"`},
	}
	for _, tt := range tests {
		if got := QuoteString(tt.given); got != tt.want {
			t.Errorf("QuoteString(%q) = %q, want %q", tt.given, got, tt.want)
		}
	}
}

// checkEscapes checks f against a table of what it is given and what it must write.
func checkEscapes(t *testing.T, name string, f func(string) string, table map[string]string) {
	t.Helper()
	for given, want := range table {
		if got := f(given); got != want {
			t.Errorf("%s(%q) = %q, want %q", name, given, got, want)
		}
	}
}

func TestWord(t *testing.T) {
	checkEscapes(t, "Word", Word, map[string]string{
		"set-option": "set-option",
		"%12":        "%12",
		"@agent_seq": "@agent_seq",
		"a b":        `"a b"`,
		"":           `""`,
		"#{x}":       `"\#{x}"`,
		"done;":      `"done;"`, // a final ; in quotes is no separator
		`[[1,"s"]]`:  `"[[1,\"s\"]]"`,
	})
}

func TestLiteral(t *testing.T) {
	tests := []struct{ given, want string }{
		{"plain", "plain"},
		{"", ""},
		{"#{pane_id}", "##{pane_id}"}, // a format is not expanded
		{"#[fg=red]", "##[fg=red]"},   // nor a style
		{"##", "####"},                // an escaped # stays two
		{"/x/#{pane_id}/##", "/x/##{pane_id}/####"},
		{"100%", "100%"}, // % is strftime's, not the format's
	}
	for _, tt := range tests {
		if got := Literal(tt.given); got != tt.want {
			t.Errorf("Literal(%q) = %q, want %q", tt.given, got, tt.want)
		}
	}
}

func TestValue(t *testing.T) {
	tests := []struct{ given, want string }{
		{"plain", "plain"},
		{"#{pane_id}", "##{pane_id}"}, // a format is not expanded
		{"#(touch x)", "##(touch x)"}, // nor a command run
		{"#[fg=red]", "#[fg=red]"},    // a run of # before [ is copied as it is
		{"a ##[x] b", "a ##[x] b"},    // of any length
		{"#x#[y", "##x#[y"},           // only that run
		{"##", "####"},                // an escaped # stays two
		{"dir #{pane_id}/#[", "dir ##{pane_id}/#["},
	}
	for _, tt := range tests {
		if got := Value(tt.given); got != tt.want {
			t.Errorf("Value(%q) = %q, want %q", tt.given, got, tt.want)
		}
	}
}

func TestOperand(t *testing.T) {
	checkEscapes(t, "Operand", Operand, map[string]string{
		"idle":       "idle",
		"a,b":        "a#,b", // a bare comma would end the operand
		"a}b":        "a#}b", // a bare brace would end the format
		"#{pane_id}": "##{pane_id#}",
		"x:y{z":      "x:y{z", // only the first colon splits the comparison from its operands
		"":           "",
	})
}
