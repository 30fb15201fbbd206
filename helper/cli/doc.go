// Package cli assembles taw's command line: the app and each verb group list their verbs, one
// verb(...) each (verbs.go); one file per verb (verb_<noun>_<verb>.go) reads its arguments and
// runs it; a Factory hands each verb its dependencies; and errors become exit codes in one place.
package cli
