package cli

import (
	"fmt"

	"github.com/mneme-mcp/mneme/memory"
)

// runReembed recomputes every vector of the store with the configured
// embedder: `mneme reembed`, the way out of an embedding model mismatch after
// switching embedders. Progress goes to stderr.
func runReembed(a *app, args []string) error {
	pos, err := a.parse(a.newFlagSet(), args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("reembed takes no arguments, got %q", pos)
	}
	return a.withAnyModelStore(func(e *env, st *memory.Store) error {
		last := -1
		err := st.Reembed(a.ctx, func(done, total int) {
			// About every 5% and at the end, so a large store does not flood stderr.
			if step := max(total/20, 1); done == total || done/step != last {
				last = done / step
				fmt.Fprintf(a.stderr, "reembed: %d/%d\n", done, total)
			}
		})
		if err != nil {
			return storeError("reembed", err)
		}
		if a.g.json {
			return a.printJSON(map[string]string{"store": st.Path(), "model": st.ModelID()})
		}
		fmt.Fprintf(a.stdout, "re-embedded %s with %s\n", st.Path(), st.ModelID())
		return nil
	})
}
