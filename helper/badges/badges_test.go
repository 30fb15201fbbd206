package badges

import "testing"

func TestInsertRemove(t *testing.T) {
	for _, format := range []string{
		"",
		"#I:#W#{?window_flags,#{window_flags}, }", // tmux's default
		`#[fg=colour244]#I:"#W" \ $x;`,
		"#[bg=blue] #I #[default] ", // a trailing space is kept
		"#{@agent_window_badge} #I", // the user's own badge, placed by hand, is not taw's
	} {
		on := Insert(format)
		if on != format+Snippet {
			t.Errorf("Insert(%q) = %q, want the snippet appended", format, on)
		}
		if Insert(on) != on {
			t.Errorf("Insert twice added the snippet twice: %q", Insert(on))
		}
		if got := Remove(on); got != format {
			t.Errorf("Remove(Insert(%q)) = %q, want the format back byte for byte", format, got)
		}
	}
	if got := Remove("x" + Snippet + "y"); got != "xy" {
		t.Errorf("Remove from the middle (the user edited after it): %q", got)
	}
	if got := Remove("plain"); got != "plain" {
		t.Errorf("Remove without a snippet: %q", got)
	}
}
