package shellquote

import (
	"reflect"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"", nil},
		{"  \t\n", nil},
		{"a b", []string{"a", "b"}},
		{"a  \tb\nc", []string{"a", "b", "c"}},
		{`ssh "~rails server->rails server" 'git log'  psql`, []string{"ssh", "~rails server->rails server", "git log", "psql"}},
		{"'' x", []string{"", "x"}},
		{`'"q"' "it's"`, []string{`"q"`, "it's"}},
		{"pre'fix x'post", []string{"prefix xpost"}},
		{"'a\tb' 'c\nd'", []string{"a\tb", "c\nd"}},
		{"'unclosed quote", []string{"unclosed quote"}},
		{`back\slash`, []string{`back\slash`}},
	}
	for _, tt := range tests {
		if got := Words(tt.line); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Words(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
