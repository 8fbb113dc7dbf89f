package cli

import (
	"fmt"

	"github.com/mneme-mcp/mneme/memory"
)

// runForget archives (or purges) memories by id: `mneme forget ID... [flags]`.
func runForget(a *app, args []string) error {
	fs := a.newFlagSet()
	var purge, dryRun bool
	fs.BoolVar(&purge, "purge", false, "delete for good instead of archiving (archived memories stay in history)")
	fs.BoolVar(&dryRun, "dry-run", false, "only list what would be forgotten")
	ids, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return usagef("give the id of at least one memory (recall shows ids)")
	}
	return a.withStore(func(e *env, st *memory.Store) error {
		res, err := st.Forget(a.ctx, memory.ForgetRequest{IDs: ids, Purge: purge, DryRun: dryRun})
		if err != nil {
			return storeError("forget", err)
		}
		if res.IDs == nil {
			res.IDs = []string{}
		}
		if a.g.json {
			return a.printJSON(res)
		}
		verb := "archived"
		switch {
		case res.DryRun && res.Purged:
			verb = "would purge"
		case res.DryRun:
			verb = "would archive"
		case res.Purged:
			verb = "purged"
		}
		for _, id := range res.IDs {
			fmt.Fprintf(a.stdout, "%s %s\n", verb, id)
		}
		if len(res.IDs) == 0 {
			fmt.Fprintln(a.stdout, "nothing to forget")
		}
		return nil
	})
}
