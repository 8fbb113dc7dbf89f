package memory

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestForget(t *testing.T) {
	ctx := context.Background()
	s, c := newTestStore(t)
	old, _ := remember(t, s, Draft{Content: "old note", Time: c.Now().Add(-48 * time.Hour)})
	food, _ := remember(t, s, Draft{Content: "pasta recipe", Tags: []string{"food"}})
	work, _ := remember(t, s, Draft{Content: "quarterly report", Scope: "work"})
	keep, _ := remember(t, s, Draft{Content: "keep me"})
	mustSync(t, s)

	if _, err := s.Forget(ctx, ForgetRequest{}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "give ids or a filter") {
		t.Errorf("no criterion: %v, want ErrInvalid", err)
	}
	if _, err := s.Forget(ctx, ForgetRequest{IDs: []string{food.ID, "nope"}}); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown id: %v, want ErrNotFound naming it", err)
	}

	// Dry run lists, changes nothing.
	res, err := s.Forget(ctx, ForgetRequest{Tag: "FOOD", DryRun: true})
	if err != nil || !slices.Equal(res.IDs, []string{food.ID}) || !res.DryRun || res.Purged {
		t.Fatalf("dry run = %+v, %v", res, err)
	}
	if got, _ := s.Get(ctx, []string{food.ID}); got[0].IsArchived() {
		t.Fatal("dry run archived")
	}

	// Filters: tag, scope, before.
	for _, tt := range []struct {
		r    ForgetRequest
		want string
	}{
		{ForgetRequest{Tag: "food"}, food.ID},
		{ForgetRequest{Scope: "work"}, work.ID},
		{ForgetRequest{Before: c.Now().Add(-time.Hour)}, old.ID},
	} {
		res, err := s.Forget(ctx, tt.r)
		if err != nil || !slices.Equal(res.IDs, []string{tt.want}) {
			t.Errorf("Forget(%+v) = %+v, %v; want [%s]", tt.r, res, err, tt.want)
		}
	}
	got, _ := s.Get(ctx, []string{old.ID, food.ID, work.ID, keep.ID})
	for _, m := range got[:3] {
		if !m.IsArchived() || !m.Archived.Equal(c.Now()) {
			t.Errorf("%s not archived", m.Content)
		}
		if im, _ := s.idx.get(m.ID); !im.IsArchived() {
			t.Errorf("index copy of %s not archived", m.Content)
		}
	}
	if got[3].IsArchived() {
		t.Error("unselected memory archived")
	}
	if h, _ := s.History(ctx, food.ID); len(h) != 1 || h[0].Reason != "archive" {
		t.Errorf("history after archive: %+v", h)
	}
	// Archiving again selects nothing.
	if res, err := s.Forget(ctx, ForgetRequest{Tag: "food"}); err != nil || len(res.IDs) != 0 {
		t.Errorf("archive again = %+v, %v", res, err)
	}

	// Purge by id: rows, vector, history and text index entry go; a tombstone stays.
	res, err = s.Forget(ctx, ForgetRequest{IDs: []string{food.ID}, Purge: true})
	if err != nil || !res.Purged || !slices.Equal(res.IDs, []string{food.ID}) {
		t.Fatalf("purge = %+v, %v", res, err)
	}
	for _, q := range []string{
		`SELECT count(*) FROM memories WHERE id = ?`,
		`SELECT count(*) FROM vectors WHERE memory_id = ?`,
		`SELECT count(*) FROM history WHERE memory_id = ?`,
	} {
		if n := countRows(t, s, q, food.ID); n != 0 {
			t.Errorf("%s: %d left after purge", q, n)
		}
	}
	if n := countRows(t, s, `SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'pasta'`); n != 0 {
		t.Errorf("text index still finds the purged memory")
	}
	if n := countRows(t, s, `SELECT count(*) FROM tombstones WHERE id = ?`, food.ID); n != 1 {
		t.Error("no tombstone")
	}
	if _, ok := s.idx.get(food.ID); ok {
		t.Error("purged memory still in the index")
	}
	if _, err := s.Get(ctx, []string{food.ID}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get purged: %v", err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM memories`); n != 3 {
		t.Errorf("%d memories left, want 3", n)
	}
}

func TestFailedChangeWritesNothing(t *testing.T) {
	ctx := context.Background()
	c := newTestClock()
	opts := testOptions(t.TempDir()+"/m.db", c)
	builtin := opts.Embed
	opts.Embed = func(ctx context.Context, text string) ([]float32, error) {
		if strings.Contains(text, "boom") {
			return nil, errors.New("provider down")
		}
		return builtin(ctx, text)
	}
	s := openTest(t, opts)
	revBefore := countRows(t, s, `SELECT value FROM meta WHERE key = 'rev'`)
	if _, _, err := s.Remember(ctx, Draft{Content: "boom goes the provider"}); err == nil || !strings.Contains(err.Error(), "provider down") {
		t.Fatalf("embed failure not returned: %v", err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM memories`); n != 0 {
		t.Errorf("a failed embed left %d rows", n)
	}
	if rev := countRows(t, s, `SELECT value FROM meta WHERE key = 'rev'`); rev != revBefore {
		t.Errorf("rev moved from %d to %d", revBefore, rev)
	}

	// Text without features is stored without a vector.
	m, _ := remember(t, s, Draft{Content: "?!"})
	if n := countRows(t, s, `SELECT count(*) FROM vectors WHERE memory_id = ?`, m.ID); n != 0 {
		t.Error("featureless text got a vector")
	}

	// A failure late in a transaction (here: writing history while
	// superseding a fact) rolls back the new fact too.
	paris, _ := remember(t, s, Draft{Kind: KindFact, Subject: "Bob", Predicate: "lives in", Object: "Paris"})
	if _, err := s.db.Exec(`CREATE TRIGGER fail_history BEFORE INSERT ON history BEGIN SELECT RAISE(ABORT, 'injected'); END`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Remember(ctx, Draft{Kind: KindFact, Subject: "Bob", Predicate: "lives in", Object: "Oslo"}); err == nil {
		t.Fatal("injected failure not returned")
	}
	if n := countRows(t, s, `SELECT count(*) FROM memories WHERE object = 'Oslo'`); n != 0 {
		t.Error("the new fact was written although its transaction failed")
	}
	if got, _ := s.Get(ctx, []string{paris.ID}); got[0].IsArchived() {
		t.Error("the old fact was archived although the transaction failed")
	}
	mustSync(t, s)
	if s.idx.len() != 2 {
		t.Errorf("index holds %d memories, want 2", s.idx.len())
	}
}
