package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// runExport writes the store as JSON Lines: `mneme export [--scope S] [-o FILE]`.
// Without -o the export goes to stdout; with -o it is written to a temporary
// file next to FILE, synced and renamed over FILE, so FILE is never half
// written. The store is opened even when its vectors belong to another
// embedding model: an export carries no vectors.
func runExport(a *app, args []string) error {
	fs := a.newFlagSet()
	var scope, out string
	fs.StringVar(&scope, "scope", "", "export only scope `S` (default every scope)")
	fs.StringVar(&out, "o", "", "write to `FILE` (atomically: a temporary file renamed over it) instead of stdout")
	fs.StringVar(&out, "output", "", "same as -o `FILE`")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("export takes no arguments, got %q: name the file with -o", pos)
	}
	e, err := a.setup()
	if err != nil {
		return err
	}
	defer e.close()
	st, err := a.openStore(e, e.cfg.DBPath(), true)
	if err != nil {
		return err
	}
	defer st.Close() // read only: nothing to report on close
	if out == "" {
		if _, err := st.Export(a.ctx, a.stdout, scope); err != nil {
			return storeError("export", err)
		}
		return nil
	}
	var n int
	err = writeFileAtomic(out, func(w io.Writer) error {
		var err error
		n, err = st.Export(a.ctx, w, scope)
		return err
	})
	if err != nil {
		return storeError("export", err)
	}
	if a.g.json {
		return a.printJSON(map[string]any{"exported": n, "file": out, "model": st.ModelID()})
	}
	fmt.Fprintf(a.stdout, "exported %d memories to %s\n", n, out)
	return nil
}

// writeFileAtomic writes path through write: into a new temporary file in
// the same directory (mode 0600: memories are personal), synced, then
// renamed over path, and the directory synced. If anything fails, path is
// untouched and the temporary file removed.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, base+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	// Make the rename itself durable; not every platform can sync a directory.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
