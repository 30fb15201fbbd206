package shellquote

import "testing"

func TestQuoted(t *testing.T) {
	tests := []struct{ given, want string }{
		{"plain", "'plain'"},
		{"", "''"},
		{"/a b", "'/a b'"},
		{"it's", `'it'\''s'`}, // the quote is closed, the apostrophe escaped, the quote reopened
		{"''", `''\'''\'''`},
		{"$HOME `id` \\ ;|&", "'$HOME `id` \\ ;|&'"}, // nothing is special inside single quotes
		{"#{hook_pane}", "'#{hook_pane}'"},           // left for tmux to expand before sh runs
		{"a\nb", "'a\nb'"},
	}
	for _, tt := range tests {
		if got := Quoted(tt.given); got != tt.want {
			t.Errorf("Quoted(%q) = %q, want %q", tt.given, got, tt.want)
		}
	}
}

func TestQuotedLine(t *testing.T) {
	tests := []struct {
		given []string
		want  string
	}{
		{nil, ""},
		{[]string{"taw"}, "'taw'"},
		{[]string{"/opt/my taw", "-S", "it's"}, `'/opt/my taw' '-S' 'it'\''s'`},
	}
	for _, tt := range tests {
		if got := QuotedLine(tt.given); got != tt.want {
			t.Errorf("QuotedLine(%q) = %q, want %q", tt.given, got, tt.want)
		}
	}
}
