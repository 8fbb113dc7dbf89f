package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/mneme-mcp/mneme/memory"
)

// runImport reads a mneme export or the reference memory server's
// memory.json: `mneme import FILE [--scope S] [--json]` ("-" reads stdin).
// It prints the report (counts, and the lines that failed with their
// numbers). The exit code is 0 when at least one line was read, even if
// others failed (the report lists them); 1 when the file holds no lines,
// no line could be read, or the store failed part-way (what was imported
// until then stays, and importing again is safe).
func runImport(a *app, args []string) error {
	fs := a.newFlagSet()
	var scope string
	fs.StringVar(&scope, "scope", "", "scope `S` for memories from memory.json (default the configured scope; a mneme export keeps its scopes)")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("give the one file to import (or - for stdin), got %q", pos)
	}
	name := pos[0]
	var r io.Reader = a.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	return a.withStore(func(e *env, st *memory.Store) error {
		rep, ierr := st.Import(a.ctx, r, scope)
		if err := a.printImport(rep); err != nil {
			return err
		}
		switch {
		case ierr != nil:
			return storeError("import", ierr)
		case rep.Lines == 0:
			return fmt.Errorf("%s holds no lines: nothing to import", name)
		case len(rep.Errors) == rep.Lines:
			return fmt.Errorf("no line of %s could be imported: is it a mneme export or a memory.json file?", name)
		}
		return nil
	})
}

// printImport prints an import report: JSON with --json, else a summary on
// stdout and the failed lines on stderr.
func (a *app) printImport(rep memory.ImportReport) error {
	if a.g.json {
		return a.printJSON(rep)
	}
	fmt.Fprintf(a.stdout, "imported %d, unchanged %d, skipped %d, failed lines %d (of %d lines)\n",
		rep.Imported, rep.Unchanged, rep.Skipped, len(rep.Errors), rep.Lines)
	for _, le := range rep.Errors {
		fmt.Fprintf(a.stderr, "mneme import: %v\n", le)
	}
	return nil
}
