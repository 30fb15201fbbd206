package wire

import (
	_ "embed"
	"fmt"
	"sync"
)

//go:embed themes.json
var themesJSON []byte

// BuiltinThemes are the nine built-in themes, in their fixed order; the first is the default.
// They are decoded on first use: most taw verbs never need them, and every verb pays for what
// its packages do at start.
var BuiltinThemes = sync.OnceValue(func() []Theme { return mustThemes(themesJSON) })

func mustThemes(data []byte) []Theme {
	v, err := parseJSON(data)
	if err == nil {
		var ts []Theme
		if ts, err = decodeThemes(v); err == nil {
			return ts
		}
	}
	panic(fmt.Sprintf("built-in themes.json is broken: %v", err))
}

// ThemeByID finds a built-in theme.
func ThemeByID(id string) (Theme, bool) {
	for _, t := range BuiltinThemes() {
		if t.ID == id {
			return t, true
		}
	}
	return Theme{}, false
}
