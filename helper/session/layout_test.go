package session

import "testing"

func TestParseLayout(t *testing.T) {
	tests := []struct {
		layout      string
		w, h, panes int
		bad         bool
	}{
		{layout: "ce9d,200x49,0,0,0", w: 200, h: 49, panes: 1},
		{layout: "9797,200x49,0,0{100x49,0,0,8,99x49,101,0,9}", w: 200, h: 49, panes: 2},
		{layout: "52b7,200x49,0,0[200x24,0,0,2,200x24,0,25{100x24,0,25,3,99x24,101,25,4}]", w: 200, h: 49, panes: 3},
		{layout: "d6e5,120x40,0,0{60x40,0,0,1,59x40,61,0[59x20,61,0,2,59x19,61,21,3]}", w: 120, h: 40, panes: 3},
		// a wrong checksum: tmux would refuse it
		{layout: "0000,200x49,0,0,0", bad: true},
		{layout: "", bad: true},
		{layout: "ce9d", bad: true},
		{layout: "zzzz,200x49,0,0,0", bad: true},
		// unbalanced brackets and trailing text, with a matching checksum
		{layout: withSum("200x49,0,0{100x49,0,0,8"), bad: true},
		{layout: withSum("200x49,0,0,0,extra"), bad: true},
		{layout: withSum("200x49,0,0{100x49,0,0,8]"), bad: true},
	}
	for _, tt := range tests {
		info, err := ParseLayout(tt.layout)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseLayout(%q) = %+v, want an error", tt.layout, info)
			}
			continue
		}
		if err != nil || info.Width != tt.w || info.Height != tt.h || info.Panes != tt.panes {
			t.Errorf("ParseLayout(%q) = %+v, %v; want %dx%d with %d panes", tt.layout, info, err, tt.w, tt.h, tt.panes)
		}
	}
}

func withSum(body string) string {
	const hex = "0123456789abcdef"
	c := LayoutChecksum(body)
	return string([]byte{hex[c>>12&15], hex[c>>8&15], hex[c>>4&15], hex[c&15]}) + "," + body
}

func FuzzParseLayout(f *testing.F) {
	f.Add("52b7,200x49,0,0[200x24,0,0,2,200x24,0,25{100x24,0,25,3,99x24,101,25,4}]")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseLayout(s)
		_, _ = ParseLayout(withSum(s))
	})
}
