package cli

import (
	"fmt"
	"runtime/debug"
	"sort"

	"github.com/mneme-mcp/mneme/memory"
)

// runStats summarises the store: `mneme stats`.
func runStats(a *app, args []string) error {
	pos, err := a.parse(a.newFlagSet(), args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("stats takes no arguments, got %q", pos)
	}
	return a.withStore(func(e *env, st *memory.Store) error {
		s, err := st.Stats(a.ctx)
		if err != nil {
			return storeError("stats", err)
		}
		if a.g.json {
			return a.printJSON(s)
		}
		fmt.Fprintf(a.stdout, "store     %s\nmodel     %s\nmemories  %d active, %d archived\n", s.Store, s.Model, s.Memories, s.Archived)
		printCounts(a, "scopes", s.Scopes)
		printCounts(a, "kinds", s.Kinds)
		return nil
	})
}

// printCounts prints a name -> count map sorted by name on one line.
func printCounts(a *app, label string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(a.stdout, "%-9s", label)
	for _, n := range names {
		fmt.Fprintf(a.stdout, " %s=%d", n, m[n])
	}
	fmt.Fprintln(a.stdout)
}

// version returns the module version the binary was built from: the tag for
// `go install ...@vX`, "dev" for a build from a work tree.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// runVersion prints the version: `mneme version`.
func runVersion(a *app, args []string) error {
	if _, err := a.parse(a.newFlagSet(), args); err != nil {
		return err
	}
	if a.g.json {
		return a.printJSON(map[string]string{"version": version()})
	}
	fmt.Fprintf(a.stdout, "mneme %s\n", version())
	return nil
}
