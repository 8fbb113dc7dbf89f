package cli

import (
	"flag"
	"strings"
)

// This file lets flags follow positional arguments. The standard library's
// flag package stops at the first positional argument, so
// `mneme remember "likes tea" --tag food` would store "--tag" and "food" as
// text. Rather than bring in a CLI framework for this one behaviour, reorder
// splits the arguments into flags (with their values) and positionals using
// the FlagSet's own knowledge of which flags take a value, and hands flag.Parse
// the flags first. `--` ends the flags: everything after it is positional.

// boolFlag is the interface the flag package uses to recognise flags that
// take no value (`--json` rather than `--json value`).
type boolFlag interface {
	flag.Value
	IsBoolFlag() bool
}

// reorder returns args with every flag (and the value of a flag that takes
// one) moved in front of the positional arguments, separated by "--" so that
// a positional argument that looks like a flag stays positional.
//
// Unknown flags are kept among the flags so that flag.Parse reports them.
// A lone "-" is positional (conventionally standard input).
func reorder(fs *flag.FlagSet, args []string) []string {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue // --name=value carries its value
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // unknown: flag.Parse reports it
		}
		if bf, ok := f.Value.(boolFlag); ok && bf.IsBoolFlag() {
			continue
		}
		if i+1 == len(args) {
			// The value is missing: hand over the flags alone, so that
			// flag.Parse reports "flag needs an argument" instead of
			// taking the "--" separator as the value.
			return flags
		}
		i++
		flags = append(flags, args[i])
	}
	out := make([]string, 0, len(flags)+1+len(positional))
	out = append(out, flags...)
	out = append(out, "--")
	return append(out, positional...)
}

// stringList is a repeatable string flag: `--tag a --tag b` gives [a b].
// A value with commas is split too, so `--tag a,b` gives the same.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	*l = append(*l, splitList(v)...)
	return nil
}

// splitList splits a comma-separated flag value, dropping empty parts.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
