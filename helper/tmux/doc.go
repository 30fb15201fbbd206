// Package tmux is the only package that runs tmux. It builds argument vectors (never shell
// strings), joins several commands into one client call, escapes what tmux's argument parser
// would misread, and classifies tmux's errors into stable codes.
package tmux
