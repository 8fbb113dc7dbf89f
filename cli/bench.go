package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/mneme-mcp/mneme/memory/eval"
)

// runBench measures recall quality on a dataset in the neutral bench format:
// `mneme bench --memories FILE --queries FILE`. The memories go into a fresh
// temporary store (never the configured one), which is deleted afterwards;
// the configured embedder and [recall] settings are used, so the bench
// measures what serve would do. Progress goes to stderr.
func runBench(a *app, args []string) error {
	fs := a.newFlagSet()
	var memPath, queryPath, ks, scopes string
	fs.StringVar(&memPath, "memories", "", "memories.jsonl `file` (required)")
	fs.StringVar(&queryPath, "queries", "", "queries.jsonl `file` (required)")
	fs.StringVar(&ks, "k", "1,5,10", "comma-separated cut-offs for recall@k and hit@k")
	fs.StringVar(&scopes, "scopes", "", "comma-separated scopes to measure (default all)")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("bench takes no arguments, got %q", pos)
	}
	if memPath == "" || queryPath == "" {
		return usagef("--memories and --queries are both required")
	}
	var cutoffs []int
	for _, s := range splitList(ks) {
		k, err := strconv.Atoi(s)
		if err != nil || k < 1 {
			return usagef("--k %q: want positive whole numbers such as 1,5,10", ks)
		}
		cutoffs = append(cutoffs, k)
	}
	if len(cutoffs) == 0 {
		return usagef("--k: give at least one cut-off")
	}
	ds, err := eval.Load(memPath, queryPath)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	e, err := a.setup()
	if err != nil {
		return err
	}
	defer e.close()
	dir, err := os.MkdirTemp("", "mneme-bench-")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer os.RemoveAll(dir)
	st, err := a.openStore(e, filepath.Join(dir, "bench.db"), false)
	if err != nil {
		return err
	}
	defer st.Close()
	rep, err := eval.Run(a.ctx, st, ds, eval.Options{Ks: cutoffs, Scopes: splitList(scopes), Progress: a.stderr})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if a.g.json {
		return a.printJSON(rep)
	}
	fmt.Fprint(a.stdout, rep.Table())
	return nil
}
