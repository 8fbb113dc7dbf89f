package memory

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// seedVaried fills s with memories that use every field: tags, meta,
// threads, facts superseded by others, episodes, updates with history,
// recalls, archived ones and a second scope.
func seedVaried(t *testing.T, s *Store, c *opsClock) {
	t.Helper()
	ctx := context.Background()
	day := func(d int) time.Time { return time.Date(2026, 4, d, 9, 30, 0, 123456789, time.UTC) }
	opsRemember(t, s, Draft{Content: "Ana drinks green tea", Tags: []string{"food", "ana"}, Time: day(1),
		Thread: "conv-1", Seq: 3, Meta: map[string]string{"speaker": "ana"}})
	old := opsRemember(t, s, Draft{Kind: KindFact, Subject: "Ana", Predicate: "lives in", Object: "Lisbon", Context: "2025", Time: day(2)})
	c.add(time.Hour)
	opsRemember(t, s, Draft{Kind: KindFact, Subject: "Ana", Predicate: "lives in", Object: "Porto", Time: day(3)})
	opsRemember(t, s, Draft{Kind: KindEpisode, Observation: "the build failed", Thoughts: "cache?", Action: "cleared it", Result: "green", Time: day(4), Source: "cli"})
	upd := opsRemember(t, s, Draft{Content: "Standup at 9:30", Time: day(5)})
	c.add(time.Hour)
	if _, _, err := s.Remember(ctx, Draft{ID: upd.ID, Content: "Standup at 10:00"}); err != nil {
		t.Fatal(err)
	}
	rec := opsRemember(t, s, Draft{Content: "Bo plays the saxophone", Scope: "music", Time: day(6)})
	c.add(24 * time.Hour)
	if err := s.Reinforce(ctx, []string{rec.ID}); err != nil {
		t.Fatal(err)
	}
	gone := opsRemember(t, s, Draft{Content: "Temporary parking pass", Time: day(7)})
	if _, err := s.Forget(ctx, ForgetRequest{IDs: []string{gone.ID}}); err != nil {
		t.Fatal(err)
	}
	// A text without words stores no vector.
	opsRemember(t, s, Draft{Content: "!!!", Time: day(8)})
	_ = old
}

func exportString(t *testing.T, s *Store, scope string) (string, int) {
	t.Helper()
	var buf bytes.Buffer
	n, err := s.Export(context.Background(), &buf, scope)
	if err != nil {
		t.Fatalf("Export: %v", err)
	}
	return buf.String(), n
}

func mustImport(t *testing.T, s *Store, data, scope string) ImportReport {
	t.Helper()
	rep, err := s.Import(context.Background(), strings.NewReader(data), scope)
	if err != nil {
		t.Fatalf("Import: %v (report %+v)", err, rep)
	}
	return rep
}

func listAll(t *testing.T, s *Store) []Memory {
	t.Helper()
	ms, err := s.List(context.Background(), ListFilter{IncludeArchived: true})
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestExportFormat(t *testing.T) {
	s, c, _ := opsStore(t)
	seedVaried(t, s, c)
	out, n := exportString(t, s, "")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if n != 8 || len(lines) != n+1 {
		t.Fatalf("exported %d memories in %d lines, want 8 in 9", n, len(lines))
	}
	var h map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatal(err)
	}
	if h["type"] != "header" || h["format"] != "mneme-export" || h["version"] != 1.0 || h["model"] != s.ModelID() || h["exported"] != c.now().Format(time.RFC3339Nano) {
		t.Fatalf("header %v", h)
	}
	withHistory, withoutModel, archived := 0, 0, 0
	prev := ""
	for _, l := range lines[1:] {
		var m exportMemory
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "memory" || m.Memory.ID <= prev {
			t.Fatalf("line %q: want type memory, ordered by id", l)
		}
		prev = m.Memory.ID
		if len(m.History) > 0 {
			withHistory++
		}
		if m.Model == "" {
			withoutModel++
		} else if m.Model != s.ModelID() {
			t.Fatalf("model %q", m.Model)
		}
		if m.Memory.IsArchived() {
			archived++
		}
	}
	// History: the superseded fact, the updated memory, the forgotten one.
	if withHistory != 3 || withoutModel != 1 || archived != 2 {
		t.Fatalf("with history %d, without vector %d, archived %d; want 3, 1, 2", withHistory, withoutModel, archived)
	}
	music, n := exportString(t, s, "music")
	if n != 1 || !strings.Contains(music, `"scope":"music"`) || strings.Count(music, "\n") != 2 {
		t.Fatalf("scope export (%d):\n%s", n, music)
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	a, c, _ := opsStore(t)
	seedVaried(t, a, c)
	dump, n := exportString(t, a, "")

	b := opsOpen(t, opsOptions(filepath.Join(t.TempDir(), "b.db"), c))
	rep := mustImport(t, b, dump, "")
	if rep.Imported != n || rep.Unchanged != 0 || rep.Skipped != 0 || len(rep.Errors) != 0 || rep.Lines != n+1 {
		t.Fatalf("import report %+v, want %d imported", rep, n)
	}
	msA, msB := listAll(t, a), listAll(t, b)
	if !reflect.DeepEqual(msA, msB) {
		for i := range msA {
			if i < len(msB) && !reflect.DeepEqual(msA[i], msB[i]) {
				t.Errorf("memory %d differs:\n a %+v\n b %+v", i, msA[i], msB[i])
			}
		}
		t.Fatalf("imported memories differ (%d vs %d)", len(msA), len(msB))
	}
	for _, m := range msA {
		ha, err := a.History(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		hb, err := b.History(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ha, hb) {
			t.Fatalf("history of %s differs:\n a %+v\n b %+v", m.ID, ha, hb)
		}
	}
	// Vectors are re-embedded with b's model; the text without words has none.
	var vectors int
	if err := b.db.QueryRowContext(ctx, `SELECT count(*) FROM vectors WHERE model = ?`, b.ModelID()).Scan(&vectors); err != nil {
		t.Fatal(err)
	}
	if vectors != n-1 {
		t.Fatalf("%d vectors after import, want %d", vectors, n-1)
	}
	if again, _ := exportString(t, b, ""); again != dump {
		t.Fatalf("export of the imported store differs:\n%s\nwant\n%s", again, dump)
	}
	// Recall works on the imported store.
	res, err := b.Recall(ctx, Query{Text: "saxophone", Scopes: []string{"music"}})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Memory.Content != "Bo plays the saxophone" {
		t.Fatalf("recall in the imported store: %+v, %v", res, err)
	}

	// Importing again changes nothing.
	st0, _ := b.Stats(ctx)
	rep = mustImport(t, b, dump, "")
	if rep.Unchanged != n || rep.Imported != 0 || rep.Skipped != 0 || len(rep.Errors) != 0 {
		t.Fatalf("re-import report %+v, want %d unchanged", rep, n)
	}
	st1, _ := b.Stats(ctx)
	if !reflect.DeepEqual(st0, st1) || !reflect.DeepEqual(listAll(t, b), msB) {
		t.Fatalf("re-import changed the store: %+v -> %+v", st0, st1)
	}
}

func TestImportNewerReplacesOlderSkipped(t *testing.T) {
	ctx := context.Background()
	a, c, _ := opsStore(t)
	m := opsRemember(t, a, Draft{Content: "Standup at 9:30"})
	v1, _ := exportString(t, a, "")
	c.add(time.Hour)
	if _, _, err := a.Remember(ctx, Draft{ID: m.ID, Content: "Standup at 10:00"}); err != nil {
		t.Fatal(err)
	}
	v2, _ := exportString(t, a, "")

	b := opsOpen(t, opsOptions(filepath.Join(t.TempDir(), "b.db"), c))
	mustImport(t, b, v1, "")
	rep := mustImport(t, b, v2, "")
	if rep.Imported != 1 {
		t.Fatalf("newer version: %+v", rep)
	}
	got := getMem(t, b, m.ID)
	if got.Content != "Standup at 10:00" {
		t.Fatalf("content %q", got.Content)
	}
	hist, err := b.History(ctx, m.ID)
	if err != nil || len(hist) != 1 || hist[0].Reason != "import" || hist[0].Memory.Content != "Standup at 9:30" {
		t.Fatalf("history after replace: %+v, %v", hist, err)
	}
	if ids := recallIDs(t, b, "standup 10:00"); len(ids) != 1 || ids[0] != m.ID {
		t.Fatalf("recall after replace: %v", ids)
	}
	// The older version does not overwrite the newer one.
	rep = mustImport(t, b, v1, "")
	if rep.Skipped != 1 || rep.Imported != 0 || getMem(t, b, m.ID).Content != "Standup at 10:00" {
		t.Fatalf("older version: %+v", rep)
	}
}

func TestImportBringsBackPurged(t *testing.T) {
	ctx := context.Background()
	s, _, _ := opsStore(t)
	m := opsRemember(t, s, Draft{Content: "the spare key is under the blue pot"})
	dump, _ := exportString(t, s, "")
	if _, err := s.Forget(ctx, ForgetRequest{IDs: []string{m.ID}, Purge: true}); err != nil {
		t.Fatal(err)
	}
	if rep := mustImport(t, s, dump, ""); rep.Imported != 1 {
		t.Fatalf("report %+v", rep)
	}
	// A second handle syncs from scratch and must not drop it for the old tombstone.
	s2 := opsOpen(t, opsOptions(s.Path(), &opsClock{t: time.Now()}))
	for _, st := range []*Store{s, s2} {
		if ids := recallIDs(t, st, "spare key"); len(ids) != 1 || ids[0] != m.ID {
			t.Fatalf("recall after re-import: %v", ids)
		}
	}
}

func TestImportDedupsSameTextUnderOtherID(t *testing.T) {
	a, _, _ := opsStore(t)
	opsRemember(t, a, Draft{Content: "Ana likes green tea"})
	dump, _ := exportString(t, a, "")
	b, _, _ := opsStore(t)
	kept := opsRemember(t, b, Draft{Content: "ana likes  GREEN tea"})
	rep := mustImport(t, b, dump, "")
	if rep.Skipped != 1 || rep.Imported != 0 {
		t.Fatalf("report %+v", rep)
	}
	if ms := listAll(t, b); len(ms) != 1 || ms[0].ID != kept.ID {
		t.Fatalf("memories %+v", ms)
	}
}

// TestExportReadsBack checks that every line of an export parses as an
// import line.
func TestExportReadsBack(t *testing.T) {
	s, c, _ := opsStore(t)
	seedVaried(t, s, c)
	out, _ := exportString(t, s, "")
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, maxImportLine)
	for i := 1; sc.Scan(); i++ {
		if _, err := parseLine(sc.Bytes(), "x", c.now()); err != nil {
			t.Fatalf("line %d of an export does not parse: %v", i, err)
		}
	}
}
