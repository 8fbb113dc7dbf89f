package memory

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestImportReportsBadLines(t *testing.T) {
	s, _, _ := opsStore(t)
	lines := []string{
		`{"type":"entity","name":"Ana","entityType":"person","observations":["likes tea"]}`,
		``,
		`{"type":"entity","name":`,
		`{"type":"relation","from":"Ana","to":"Bo","relationType":"knows"}` + "\r",
		`{"type":"node","name":"x"}`,
		`{"type":"relation","from":"Ana","to":"Porto","relationType":"lives_in"}`,
		`{"type":"relation","from":"Ana","relationType":"likes"}`,
		`{"type":"memory","memory":{"id":"not-a-uuid","scope":"p","content":"x","strength":1}}`,
		`{"type":"header","format":"mneme-export","version":2}`,
	}
	rep := mustImport(t, s, strings.Join(lines, "\n"), "")
	var got []int
	for _, e := range rep.Errors {
		got = append(got, e.Line)
		if e.Err == "" {
			t.Errorf("line %d: empty error", e.Line)
		}
	}
	// Line 2 is blank: not an error, not counted.
	if !slices.Equal(got, []int{3, 5, 7, 8, 9}) || rep.Imported != 3 || rep.Lines != 8 {
		t.Fatalf("report %+v, want errors on lines 3, 5, 7, 8, 9 and 3 imported", rep)
	}
	for _, want := range []string{"not a line", `unknown type "node"`, "give to", "not a UUID", "version 2"} {
		if !slices.ContainsFunc(rep.Errors, func(e LineError) bool { return strings.Contains(e.Err, want) }) {
			t.Errorf("no error says %q: %+v", want, rep.Errors)
		}
	}
}

func TestImportMemoryJSON(t *testing.T) {
	ctx := context.Background()
	s, c, _ := opsStore(t)
	data, err := os.ReadFile("testdata/memory.json")
	if err != nil {
		t.Fatal(err)
	}
	rep := mustImport(t, s, string(data), "proj")
	// 5 observations + 4 relations; the entity without observations is skipped.
	if rep.Imported != 9 || rep.Skipped != 1 || rep.Unchanged != 0 || len(rep.Errors) != 0 {
		t.Fatalf("report %+v", rep)
	}
	ms, err := s.List(ctx, ListFilter{Scope: "proj"})
	if err != nil {
		t.Fatal(err)
	}
	byContent := map[string]Memory{}
	for _, m := range ms {
		byContent[m.Content] = m
		if m.Source != "import" || !m.Time.Equal(c.now()) {
			t.Errorf("memory %+v: want source import at the import time", m)
		}
	}
	for content, tags := range map[string][]string{
		"John_Smith: Speaks fluent Spanish": {"person"},
		"Anthropic: Makes Claude":           {"organization"},
		"Lisbon: Capital of Portugal":       {}, // "City Name" is not one word
	} {
		m, ok := byContent[content]
		if !ok || m.Kind != KindThought || !slices.Equal(m.Tags, tags) {
			t.Errorf("%q: %+v (found %v), want a thought tagged %v", content, m, ok, tags)
		}
	}
	knows := 0
	for _, m := range ms {
		if m.Kind == KindFact && m.Subject == "John_Smith" && m.Predicate == "knows" {
			knows++
		}
	}
	if f := byContent["John_Smith works_at Anthropic"]; f.Kind != KindFact || f.Object != "Anthropic" || knows != 2 {
		t.Fatalf("relations: works_at %+v, %d active 'knows' facts (want 2: relations do not supersede)", f, knows)
	}
	if st, _ := s.Stats(ctx); st.Scopes[DefaultScope] != 0 {
		t.Fatalf("memories landed in the default scope: %+v", st)
	}

	// Importing the same file again changes nothing.
	st0, _ := s.Stats(ctx)
	before := listAll(t, s)
	c.add(time.Hour)
	rep = mustImport(t, s, string(data), "proj")
	if rep.Imported != 0 || rep.Unchanged != 9 || rep.Skipped != 1 {
		t.Fatalf("re-import %+v", rep)
	}
	st1, _ := s.Stats(ctx)
	if !reflect.DeepEqual(st0, st1) || !reflect.DeepEqual(before, listAll(t, s)) {
		t.Fatalf("re-import changed the store")
	}
	// Recall finds imported observations.
	res, err := s.Recall(ctx, Query{Text: "who speaks Spanish", Scopes: []string{"proj"}, Limit: 1})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Memory.Content != "John_Smith: Speaks fluent Spanish" {
		t.Fatalf("recall: %+v, %v", res, err)
	}
}

func TestImportDefaultScope(t *testing.T) {
	s, _, _ := opsStore(t)
	mustImport(t, s, `{"type":"entity","name":"Ana","entityType":"person","observations":["likes tea"]}`, "")
	if ms := listAll(t, s); len(ms) != 1 || ms[0].Scope != DefaultScope {
		t.Fatalf("memories %+v", ms)
	}
}

func TestImportCancelled(t *testing.T) {
	s, _, _ := opsStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Import(ctx, strings.NewReader(`{"type":"entity","name":"A","observations":["b"]}`), ""); err == nil {
		t.Fatal("a cancelled import succeeded")
	}
}

// FuzzImportLine checks that any line parses to an error, a header or
// memories the store accepts, without panicking.
func FuzzImportLine(f *testing.F) {
	f.Add([]byte(`{"type":"entity","name":"A","entityType":"person","observations":["b",""]}`))
	f.Add([]byte(`{"type":"relation","from":"A","to":"B","relationType":"knows"}`))
	now := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, line []byte) {
		p, err := parseLine(line, "personal", now)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		var ms []Memory
		switch {
		case p.header:
			return
		case p.mneme != nil:
			ms = []Memory{*p.mneme}
			for i, v := range p.history {
				if v.Version != i+1 || v.MemoryID != p.mneme.ID {
					t.Fatalf("history version %+v", v)
				}
			}
		default:
			ms = p.graph
			if len(ms) == 0 && p.skipped != 1 {
				t.Fatalf("a graph line gave nothing and skipped nothing")
			}
		}
		for _, m := range ms {
			check := m
			if err := finishMemory(&check); err != nil {
				t.Fatalf("parsed memory fails validation: %v\n%+v", err, m)
			}
			if !reflect.DeepEqual(check, m) {
				t.Fatalf("parsed memory is not normalised:\n%+v\n%+v", m, check)
			}
			if m.ID == "" || m.Scope == "" || m.Content == "" || len(m.Content) > MaxContentBytes || !utf8.ValidString(m.Content) {
				t.Fatalf("parsed memory %+v", m)
			}
			if !(m.Strength > 0) || m.RecallCount < 0 || m.Created.IsZero() || m.Updated.IsZero() {
				t.Fatalf("parsed memory %+v", m)
			}
			if _, err := json.Marshal(m); err != nil {
				t.Fatalf("parsed memory does not marshal: %v", err)
			}
		}
	})
}

// TestImportBatchRollsBackOneLine makes one line of a batch meet a store
// that changed since it was prepared: that line is rolled back alone (also
// the memory it had already written and the rev it bumped), the others are
// committed and seen by another handle.
func TestImportBatchRollsBackOneLine(t *testing.T) {
	ctx := context.Background()
	s, _, _ := opsStore(t)
	tea := opsRemember(t, s, Draft{Content: "Ana: likes tea"})
	prep := func(no int, line string) importJob {
		t.Helper()
		job, lineErr, err := s.prepareLine(ctx, no, []byte(line), DefaultScope)
		if err != nil || lineErr != nil {
			t.Fatalf("prepare line %d: %v %v", no, lineErr, err)
		}
		return job
	}
	// Line 1 writes "Ana: cycles" first, then finds "Ana: likes tea" gone.
	j1 := prep(1, `{"type":"entity","name":"Ana","observations":["cycles","likes tea"]}`)
	j2 := prep(2, `{"type":"entity","name":"Bo","observations":["plays the saxophone"]}`)
	if _, err := s.Forget(ctx, ForgetRequest{IDs: []string{tea.ID}}); err != nil {
		t.Fatal(err)
	}
	var rep ImportReport
	if err := s.writeBatch(ctx, []importJob{j1, j2}, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Imported != 1 || len(rep.Errors) != 1 || rep.Errors[0].Line != 1 || !strings.Contains(rep.Errors[0].Err, "import the file again") {
		t.Fatalf("report %+v", rep)
	}
	contents := func(st *Store) []string {
		var out []string
		for _, m := range listAll(t, st) {
			if !m.IsArchived() {
				out = append(out, m.Content)
			}
		}
		return out
	}
	if got := contents(s); !slices.Equal(got, []string{"Bo: plays the saxophone"}) {
		t.Fatalf("active memories %q", got)
	}
	var rev, maxRev int64
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'rev'`).Scan(&rev); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT max(rev) FROM memories`).Scan(&maxRev); err != nil {
		t.Fatal(err)
	}
	if rev != maxRev {
		t.Fatalf("meta.rev %d but a row has rev %d: the rolled-back bump leaked", rev, maxRev)
	}
	other := opsOpen(t, opsOptions(s.Path(), &opsClock{t: time.Now()}))
	for _, st := range []*Store{s, other} {
		res, err := st.Recall(ctx, Query{Text: "saxophone", Limit: 1})
		if err != nil || len(res.Hits) != 1 || res.Hits[0].Memory.Content != "Bo: plays the saxophone" {
			t.Fatalf("recall: %+v, %v", res, err)
		}
	}
	// Importing the line again completes it.
	rep2 := mustImport(t, s, `{"type":"entity","name":"Ana","observations":["cycles","likes tea"]}`, "")
	if rep2.Imported != 2 || len(rep2.Errors) != 0 {
		t.Fatalf("second import %+v", rep2)
	}
}
