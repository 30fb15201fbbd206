// Command taw is the helper behind the taw tmux plugin: every verb lives here.
package main

import (
	"os"

	"github.com/taw-tmux/taw/helper/cli"
)

func main() {
	os.Exit(cli.Main(cli.System()))
}
