// Package hookreport turns one event of an agent's hook system (its name and the JSON payload
// the agent writes to the hook's stdin) into the report taw's own integration sends for it: the
// state, a short message saying what the agent waits for, the session and the command that
// resumes it, or a release. One rule per shared event; what differs between agents is read from
// the agent's catalogue entry (agents.Hooks). Pure rules over values: `taw hook report` does the
// I/O.
package hookreport
