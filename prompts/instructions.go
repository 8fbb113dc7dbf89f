package prompts

import (
	_ "embed"
)

//go:embed instructions.md
var instructions string

// Instructions returns the server instructions sent to clients at
// initialisation: when to recall, when and how to remember. It is safe for
// concurrent use.
func Instructions() string { return instructions }
