package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type importOut struct {
	Lines     int `json:"lines"`
	Imported  int `json:"imported"`
	Unchanged int `json:"unchanged"`
	Skipped   int `json:"skipped"`
	Errors    []struct {
		Line  int    `json:"line"`
		Error string `json:"error"`
	} `json:"errors"`
}

func TestExportImport(t *testing.T) {
	e := newTestEnv(t)
	e.vars["MNEME_NOW"] = "2024-05-10T12:00:00Z"
	tea := decode[rememberOut](t, e.ok("remember", "--json", "--tag", "food", "likes green tea"))
	e.ok("remember", "works on the mneme project", "--scope", "work")
	gone := decode[rememberOut](t, e.ok("remember", "--json", "a temporary note"))
	e.ok("forget", gone.Memory.ID)

	stdout := e.ok("export").stdout
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], `"format":"mneme-export"`) {
		t.Fatalf("export to stdout:\n%s", stdout)
	}
	if !strings.Contains(stdout, tea.Memory.ID) || !strings.Contains(stdout, gone.Memory.ID) {
		t.Fatalf("export lacks a memory (archived ones included):\n%s", stdout)
	}
	if work := e.ok("export", "--scope", "work").stdout; strings.Count(work, "\n") != 2 || !strings.Contains(work, "mneme project") {
		t.Fatalf("export --scope work:\n%s", work)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "dump.jsonl")
	r := e.ok("export", "-o", file)
	if !strings.Contains(r.stdout, "exported 3 memories to "+file) {
		t.Fatalf("export -o: %q", r.stdout)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != stdout {
		t.Fatalf("export -o wrote %q (%v), want what stdout got", b, err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("export file mode: %v %v", fi, err)
	}
	assertOnlyFile(t, dir, "dump.jsonl")

	// Into another store: everything arrives; a second import changes nothing.
	rep := decode[importOut](t, e.ok("import", file, "--store", "other", "--json"))
	if rep.Imported != 3 || rep.Lines != 4 || len(rep.Errors) != 0 {
		t.Fatalf("import: %+v", rep)
	}
	rep = decode[importOut](t, e.ok("import", "--store", "other", "--json", file))
	if rep.Imported != 0 || rep.Unchanged != 3 {
		t.Fatalf("second import: %+v", rep)
	}
	if got := decode[recallOut](t, e.ok("recall", "--json", "--no-reinforce", "--store", "other", "green tea")); len(got.Memories) == 0 || got.Memories[0].ID != tea.Memory.ID {
		t.Fatalf("recall in the imported store: %+v", got.Memories)
	}
	if other := e.ok("export", "--store", "other").stdout; other != stdout {
		t.Fatalf("export of the imported store differs:\n%s\nwant\n%s", other, stdout)
	}
}

func TestImportMemoryJSONAndBadLines(t *testing.T) {
	e := newTestEnv(t)
	dir := t.TempDir()
	graph := filepath.Join(dir, "memory.json")
	writeFile(t, graph, `{"type":"entity","name":"Ana","entityType":"person","observations":["likes tea","cycles to work"]}
not json
{"type":"relation","from":"Ana","to":"Bo","relationType":"knows"}
{"type":"node"}
`)
	r := e.ok("import", graph, "--scope", "friends")
	if !strings.Contains(r.stdout, "imported 3, unchanged 0, skipped 0, failed lines 2 (of 4 lines)") {
		t.Fatalf("import summary: %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "line 2:") || !strings.Contains(r.stderr, "line 4:") {
		t.Fatalf("import should list lines 2 and 4 on stderr: %q", r.stderr)
	}
	if got := decode[recallOut](t, e.ok("recall", "--json", "--scope", "friends", "cycles")); len(got.Memories) == 0 || got.Memories[0].Content != "Ana: cycles to work" {
		t.Fatalf("recall after import: %+v", got.Memories)
	}

	// Nothing readable: exit 1, with the report.
	bad := filepath.Join(dir, "bad.jsonl")
	writeFile(t, bad, "nope\n{\"type\":\"x\"}\n")
	res := e.run("import", bad, "--json")
	if res.code != exitError || decode[importOut](t, res).Lines != 2 || !strings.Contains(res.stderr, "no line of") {
		t.Fatalf("all lines bad: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	writeFile(t, empty, "\n\n")
	if res := e.run("import", empty); res.code != exitError || !strings.Contains(res.stderr, "no lines") {
		t.Fatalf("empty file: exit %d %q", res.code, res.stderr)
	}
	if res := e.run("import", filepath.Join(dir, "missing.jsonl")); res.code != exitError {
		t.Fatalf("missing file: exit %d", res.code)
	}
	if res := e.run("import"); res.code != exitUsage {
		t.Fatalf("no file: exit %d", res.code)
	}
	if res := e.run("export", "extra"); res.code != exitUsage {
		t.Fatalf("export with an argument: exit %d", res.code)
	}
}

func TestImportStdin(t *testing.T) {
	e := newTestEnv(t)
	var out, errb bytes.Buffer
	in := strings.NewReader(`{"type":"entity","name":"Ana","observations":["likes tea"]}` + "\n")
	code := Run(t.Context(), []string{"import", "-", "--json"}, func(k string) string { return e.vars[k] }, in, &out, &errb)
	if code != 0 {
		t.Fatalf("import -: exit %d: %s", code, errb.String())
	}
	var rep importOut
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Imported != 1 {
		t.Fatalf("import -: %s (%v)", out.String(), err)
	}
}

// TestWriteFileAtomic checks that the target is never half written: while
// the export is being written the old file is intact, and a failed export
// leaves it untouched and no temporary file behind.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.jsonl")
	writeFile(t, path, "old export\n")

	boom := errors.New("disk on fire")
	err := writeFileAtomic(path, func(w io.Writer) error {
		io.WriteString(w, "half of a new exp")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the writer's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old export\n" {
		t.Fatalf("a failed write changed the target: %q", b)
	}
	assertOnlyFile(t, dir, "dump.jsonl")

	err = writeFileAtomic(path, func(w io.Writer) error {
		io.WriteString(w, "new ")
		if b, _ := os.ReadFile(path); string(b) != "old export\n" {
			t.Errorf("target changed while being written: %q", b)
		}
		_, err := io.WriteString(w, "export\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new export\n" {
		t.Fatalf("target after the write: %q", b)
	}
	assertOnlyFile(t, dir, "dump.jsonl")

	// A file name without a directory is written in the working directory.
	t.Chdir(dir)
	if err := writeFileAtomic("here.jsonl", func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "here.jsonl")); string(b) != "x" {
		t.Fatalf("relative target: %q", b)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// assertOnlyFile fails unless dir holds exactly the file name.
func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if len(names) != 1 || names[0] != name {
		t.Fatalf("directory holds %v, want only %s (no temporary files left)", names, name)
	}
}
