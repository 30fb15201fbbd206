package tmuxconf

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every @agent-wizard-… option is spelled once, here: the code that reads or sets one names
// this package's constant, so a renamed option cannot leave a stale copy behind.
func TestOptionNamesAreSpelledOnlyHere(t *testing.T) {
	names := make(map[string]bool, len(Catalogue))
	for _, s := range Catalogue {
		names[s.Name] = true
	}
	fset := token.NewFileSet()
	err := filepath.Walk("..", func(path string, d os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && filepath.Base(path) == "tmuxconf" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if v, err := strconv.Unquote(lit.Value); err == nil && names[v] {
					t.Errorf("%s: %s spelled again; use helper/tmuxconf's constant", fset.Position(lit.Pos()), v)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
