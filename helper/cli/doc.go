// Package cli assembles taw's command line: one file per verb (verb_<noun>_<verb>.go), a Factory
// that hands each verb its dependencies, and the one place where errors become exit codes.
package cli
