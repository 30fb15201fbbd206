// Package badges puts taw's glanceable snippets into the user's formats: each window's agent
// badge appended to window-status-format and window-status-current-format, and the agents'
// summary appended to status-right. Each snippet is tagged by its exact text and taken out again
// so the user's formats come back byte for byte.
package badges
