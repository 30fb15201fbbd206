// Package prompt is what a blocked agent asks, as data: the dialog's kind, question, options
// and, for a permission, the tool and command; read from the agent's screen by each agent's
// own rules, compared for "is this still the same dialog", and turned into the keys that
// answer it. It does no I/O.
package prompt
