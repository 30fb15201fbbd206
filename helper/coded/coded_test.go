package coded

import (
	"fmt"
	"testing"
)

func TestCodeOf(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{Errorf(InvalidArgument, "bad %s", "x"), InvalidArgument},
		{fmt.Errorf("wrapped: %w", Errorf(Timeout, "late")), Timeout},
		{fmt.Errorf("plain"), ""},
		{nil, ""},
	} {
		if got := CodeOf(c.err); got != c.want {
			t.Errorf("CodeOf(%v) = %q, want %q", c.err, got, c.want)
		}
	}
	if e := Errorf(Timeout, "after %ds", 3); e.Error() != "after 3s" || e.ErrorCode() != Timeout {
		t.Errorf("Errorf = %q %q", e.Error(), e.ErrorCode())
	}
}
