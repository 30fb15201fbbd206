package herdrsock

import (
	"context"
	"os"
	"regexp"
	"testing"
)

// TestEveryMethodInTheDocsTable checks docs/orchestration.md's table against the socket: every
// method the socket serves or refuses is a row, each row says what the socket does, and a
// not_supported row is answered so.
func TestEveryMethodInTheDocsTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/orchestration.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| [A-Za-z]+ \\| `([a-z_.]+)` \\| (served|`not_supported`) \\|")
	rows := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		if _, dup := rows[m[1]]; dup {
			t.Errorf("%s has two rows", m[1])
		}
		rows[m[1]] = m[2]
	}
	if len(rows) < 80 {
		t.Fatalf("only %d rows read from the table", len(rows))
	}
	h := &Handler{}
	for name, status := range rows {
		switch {
		case status == "served" && !Served(name):
			t.Errorf("%s: the docs say served, the socket does not serve it", name)
		case status != "served" && !NotServed(name):
			t.Errorf("%s: the docs say not_supported, the socket does not say so", name)
		case status != "served":
			if _, e := h.Handle(context.Background(), Peer{}, Request{ID: "t", Method: name}); e == nil || e.Code != CodeNotSupported {
				t.Errorf("%s: answered %v, want not_supported", name, e)
			}
		}
	}
	for name := range notServed {
		if rows[name] == "" {
			t.Errorf("%s is not_supported but not in the docs table", name)
		}
	}
	for _, m := range []map[string]method{paneMethods, layoutMethods, agentMethods} {
		for name := range m {
			if rows[name] != "served" {
				t.Errorf("%s is served but not in the docs table as served", name)
			}
		}
	}
}

// TestServedOrNot checks that no method is both served and refused.
func TestServedOrNot(t *testing.T) {
	for name := range notServed {
		if controlMethod(name) != nil || displayOnly[name] {
			t.Errorf("%s is served and listed as not served", name)
		}
	}
}
