// Package badges puts each window's agent badge into the user's window list: one tagged snippet
// appended to window-status-format and window-status-current-format, and taken out again so the
// user's formats come back byte for byte.
package badges
