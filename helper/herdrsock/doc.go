// Package herdrsock serves herdr's socket protocol to agents and hooks written for herdr: one
// line of JSON per connection, {"id","method","params"}, answered with one line,
// {"id","result":{"type":…}} or {"id","error":{"code","message"}}. Reports go through the same
// rules as taw's command line (panestate.ApplyReport); the pane written is always the one the
// connecting process runs in, found from its terminal, never one the request names.
package herdrsock
