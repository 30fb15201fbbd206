package config

import (
	"fmt"
	"strings"
	"time"
)

// Duration is a TOML string such as "1s" or "500ms"; it is never negative.
type Duration struct{ time.Duration }

// UnmarshalText reads "1s", "250ms", "0s".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil || v < 0 {
		return fmt.Errorf("%q is not a duration: write one such as \"1s\" or \"500ms\"", b)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the duration as Go prints it.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Choice is a string that must be one of a few words.
type Choice struct {
	Value   string
	allowed []string
}

// UnmarshalText keeps the word when it is one of the allowed ones.
func (c *Choice) UnmarshalText(b []byte) error {
	s := string(b)
	for _, a := range c.allowed {
		if s == a {
			c.Value = s
			return nil
		}
	}
	return fmt.Errorf("%q is not one of %s", s, strings.Join(c.allowed, ", "))
}

// MarshalText writes the word.
func (c Choice) MarshalText() ([]byte, error) { return []byte(c.Value), nil }

func (c Choice) String() string { return c.Value }
