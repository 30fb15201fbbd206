package config

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/pelletier/go-toml/v2"
)

// Parse reads a configuration file's bytes over the defaults. Unknown keys and bad values are
// problems with the line they stand on; the defaults stand in for what could not be read.
func Parse(path string, data []byte) (Config, []error) {
	cfg := Default()
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&cfg)
	if err == nil {
		return cfg, nil
	}
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		// Known keys were read; only the unknown ones are problems.
		var problems []error
		for _, e := range strict.Errors {
			row, _ := e.Position()
			problems = append(problems, fmt.Errorf("%s:%d: unknown key %s: remove it or check its spelling (taw config default lists every key)", path, row, joinKey(e.Key())))
		}
		return cfg, problems
	}
	var decErr *toml.DecodeError
	if errors.As(err, &decErr) {
		row, _ := decErr.Position()
		return Default(), []error{fmt.Errorf("%s:%d: %s", path, row, decErr.Error())}
	}
	return Default(), []error{fmt.Errorf("%s: %w", path, err)}
}

func joinKey(k []string) string {
	s := ""
	for i, p := range k {
		if i > 0 {
			s += "."
		}
		s += p
	}
	return s
}
