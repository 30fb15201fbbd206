package cli

import (
	"bytes"
	"encoding/json"
)

// marshalJSON is compact JSON without HTML escaping: < > & stay as they are in messages and
// commands.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
