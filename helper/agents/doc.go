// Package agents is taw's table of the coding agents it knows: each one's canonical name (the id
// used in options, JSON and detection rules), the name shown to people, and the aliases it goes by
// (as a program name or as a reported --agent).
package agents
