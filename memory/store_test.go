package memory

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-mcp/mneme/embed"
)

// testClock is a settable clock safe for concurrent use.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock {
	return &testClock{t: time.Date(2026, 3, 14, 9, 26, 53, 589793238, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testOptions are the options of a store at path with the built-in
// embedder (64 dimensions) and clock c.
func testOptions(path string, c *testClock) Options {
	e := embed.Builtin(64)
	return Options{Path: path, ModelID: e.ModelID, Embed: e.Func, Now: c.Now}
}

func openTest(t *testing.T, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newTestStore opens a fresh store in a temporary directory.
func newTestStore(t *testing.T) (*Store, *testClock) {
	t.Helper()
	c := newTestClock()
	return openTest(t, testOptions(filepath.Join(t.TempDir(), "sub", "mneme.db"), c)), c
}

func remember(t *testing.T, s *Store, d Draft) (Memory, Outcome) {
	t.Helper()
	m, out, err := s.Remember(context.Background(), d)
	if err != nil {
		t.Fatalf("Remember(%+v): %v", d, err)
	}
	return m, out
}

func mustSync(t *testing.T, s *Store) {
	t.Helper()
	if err := s.sync(context.Background()); err != nil {
		t.Fatalf("sync: %v", err)
	}
}

func countRows(t *testing.T, s *Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestReopenKeepsEverything(t *testing.T) {
	ctx := context.Background()
	c := newTestClock()
	opts := testOptions(filepath.Join(t.TempDir(), "mneme.db"), c)
	s := openTest(t, opts)
	berlin := time.FixedZone("CET", 3600)
	drafts := []Draft{
		{Content: "The cat sleeps on the warm windowsill", Tags: []string{"cats", " Home "}, Scope: "family",
			Time: time.Date(2025, 12, 24, 18, 30, 0, 123456789, berlin), Source: "cli", Thread: "t1", Seq: 3,
			Meta: map[string]string{"lang": "en", "mood": "calm"}},
		{Kind: KindFact, Subject: "Alice", Predicate: "works at", Object: "Acme", Context: "since 2024", Tags: []string{"work"}},
		{Kind: KindEpisode, Observation: "the build failed", Thoughts: "flaky test?", Action: "reran it", Result: "green"},
	}
	var stored []Memory
	for _, d := range drafts {
		m, _ := remember(t, s, d)
		stored = append(stored, m)
	}
	if got, want := stored[0].Tags, []string{"cats", "home"}; !slices.Equal(got, want) {
		t.Errorf("tags = %q, want %q", got, want)
	}
	if !stored[0].Time.Equal(drafts[0].Time) {
		t.Errorf("time = %v, want %v", stored[0].Time, drafts[0].Time)
	}
	if stored[1].Content != "Alice works at Acme" {
		t.Errorf("fact content = %q, want it derived from subject, predicate and object", stored[1].Content)
	}
	if stored[2].Content != "the build failed\nflaky test?\nreran it\ngreen" {
		t.Errorf("episode content = %q, want it derived from its fields", stored[2].Content)
	}
	for _, m := range stored[1:] {
		if m.Scope != DefaultScope || m.Source != "mcp" || m.Strength != 1 || !m.Time.Equal(c.Now()) || !m.Created.Equal(c.Now()) {
			t.Errorf("defaults not applied: %+v", m)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s2 := openTest(t, opts)
	ids := []string{stored[2].ID, stored[0].ID, stored[1].ID}
	got, err := s2.Get(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	want := []Memory{stored[2], stored[0], stored[1]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after reopen Get =\n%+v\nwant\n%+v", got, want)
	}
	mustSync(t, s2)
	for _, m := range stored {
		im, ok := s2.idx.get(m.ID)
		if !ok || !reflect.DeepEqual(im, m) {
			t.Errorf("index after reopen has %+v (%v), want %+v", im, ok, m)
		}
	}
	if _, err := s2.Get(ctx, []string{stored[0].ID, "nope"}); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Get unknown id: err = %v, want ErrNotFound naming it", err)
	}
}

func TestDedup(t *testing.T) {
	s, c := newTestStore(t)
	first, out := remember(t, s, Draft{Content: "Café au lait   is my Favourite drink"})
	if out.Duplicate {
		t.Fatal("first memory reported as duplicate")
	}
	variants := []string{
		"  café au lait is my favourite drink ",
		"CAFÉ AU LAIT IS MY FAVOURITE DRINK",
		"Cafe\u0301 au\tlait is my\nfavourite drink", // NFD é, other white space
	}
	for i, v := range variants {
		c.Advance(24 * time.Hour)
		m, out := remember(t, s, Draft{Content: v})
		if !out.Duplicate || m.ID != first.ID {
			t.Fatalf("%q: duplicate = %v, id %s, want the first memory %s", v, out.Duplicate, m.ID, first.ID)
		}
		if m.RecallCount != i+1 || !m.LastRecalled.Equal(c.Now()) || m.Strength <= first.Strength {
			t.Errorf("%q: not reinforced: count %d, last recalled %v, strength %v", v, m.RecallCount, m.LastRecalled, m.Strength)
		}
		if m.Content != first.Content {
			t.Errorf("duplicate changed content to %q", m.Content)
		}
	}
	if _, out := remember(t, s, Draft{Content: "café au lait is my favourite drink", Scope: "work"}); out.Duplicate {
		t.Error("same text in another scope counted as a duplicate")
	}
	if m, out := remember(t, s, Draft{Content: "café au lait is my favourite drink", NoDedup: true}); out.Duplicate || m.ID == first.ID {
		t.Error("NoDedup draft was deduplicated")
	}
	if n := countRows(t, s, `SELECT count(*) FROM memories`); n != 3 {
		t.Errorf("%d rows, want 3", n)
	}
}

func TestUpdateKeepsHistory(t *testing.T) {
	ctx := context.Background()
	s, c := newTestStore(t)
	m, _ := remember(t, s, Draft{Content: "The meeting is on Monday", Tags: []string{"work"}})
	c.Advance(time.Hour)
	u, out := remember(t, s, Draft{ID: m.ID, Content: "The meeting moved to Tuesday"})
	if !out.Updated || u.ID != m.ID {
		t.Fatalf("outcome %+v, id %s", out, u.ID)
	}
	if u.Content != "The meeting moved to Tuesday" || !slices.Equal(u.Tags, []string{"work"}) || !u.Created.Equal(m.Created) || !u.Updated.Equal(c.Now()) {
		t.Errorf("updated memory %+v", u)
	}
	hist, err := s.History(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 1 || hist[0].Reason != "update" || hist[0].Version != 1 || !reflect.DeepEqual(hist[0].Memory, m) {
		t.Errorf("history = %+v, want the first version", hist)
	}
	// The vector follows the new content.
	var blob []byte
	if err := s.db.QueryRow(`SELECT data FROM vectors WHERE memory_id = ?`, m.ID).Scan(&blob); err != nil {
		t.Fatal(err)
	}
	want, _ := s.opts.Embed(ctx, u.Content)
	if !slices.Equal(decodeVector(blob), want) {
		t.Error("vector not re-embedded after a content change")
	}
	mustSync(t, s)
	if im, _ := s.idx.get(m.ID); im.Content != u.Content {
		t.Errorf("index holds %q", im.Content)
	}
	if _, _, err := s.Remember(ctx, Draft{ID: "0190ffff-0000-7000-8000-000000000000", Content: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("update of unknown id: %v, want ErrNotFound", err)
	}
	if _, err := s.History(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("History unknown id: %v, want ErrNotFound", err)
	}
}

func TestFactSupersession(t *testing.T) {
	ctx := context.Background()
	s, c := newTestStore(t)
	paris, _ := remember(t, s, Draft{Kind: KindFact, Subject: "Alice", Predicate: "lives in", Object: "Paris"})
	other, _ := remember(t, s, Draft{Kind: KindFact, Subject: "Alice", Predicate: "lives in", Object: "Lyon", Scope: "work"})
	c.Advance(time.Hour)
	berlin, out := remember(t, s, Draft{Kind: KindFact, Subject: "alice", Predicate: "LIVES  in", Object: "Berlin"})
	if !slices.Equal(out.Superseded, []string{paris.ID}) {
		t.Fatalf("superseded = %v, want [%s]", out.Superseded, paris.ID)
	}
	got, _ := s.Get(ctx, []string{paris.ID, other.ID})
	if !got[0].IsArchived() || got[0].SupersededBy != berlin.ID || !got[0].Archived.Equal(c.Now()) {
		t.Errorf("old fact not archived with a link: %+v", got[0])
	}
	if got[1].IsArchived() {
		t.Error("a fact of another scope was superseded")
	}
	c.Advance(time.Hour)
	rome, out := remember(t, s, Draft{Kind: KindFact, Subject: "Alice", Predicate: "lives in", Object: "Rome", Content: "Alice moved to Rome"})
	if !slices.Equal(out.Superseded, []string{berlin.ID}) {
		t.Fatalf("superseded = %v, want [%s]", out.Superseded, berlin.ID)
	}
	// Same subject and predicate, same object: nothing superseded.
	_, out = remember(t, s, Draft{Kind: KindFact, Subject: "Alice", Predicate: "lives in", Object: "ROME"})
	if len(out.Superseded) != 0 {
		t.Errorf("same object superseded %v", out.Superseded)
	}
	hist, err := s.History(ctx, rome.ID)
	if err != nil {
		t.Fatal(err)
	}
	var chain []string
	for _, v := range hist {
		if v.Reason != "superseded" {
			t.Errorf("unexpected version %+v", v)
		}
		chain = append(chain, v.Memory.Object)
	}
	if !slices.Equal(chain, []string{"Paris", "Berlin"}) {
		t.Errorf("chain = %v, want [Paris Berlin]", chain)
	}
	hist, _ = s.History(ctx, paris.ID)
	if len(hist) != 1 || hist[0].Reason != "supersede" || hist[0].Memory.IsArchived() {
		t.Errorf("history of the superseded fact = %+v", hist)
	}
	mustSync(t, s)
	if im, _ := s.idx.get(paris.ID); im.SupersededBy != berlin.ID {
		t.Error("index copy of the superseded fact not updated")
	}
}

func TestValidation(t *testing.T) {
	s, _ := newTestStore(t)
	tests := []struct {
		name string
		d    Draft
		want string
	}{
		{"empty", Draft{}, "content is empty"},
		{"blank", Draft{Content: " \n\t "}, "content is empty"},
		{"too long", Draft{Content: strings.Repeat("a", MaxContentBytes+1)}, "split it"},
		{"too many tags", Draft{Content: "x", Tags: []string{"a", "b", "c", "d"}}, "at most 3"},
		{"tag with space", Draft{Content: "x", Tags: []string{"two words"}}, "one lowercase word"},
		{"tag with punctuation", Draft{Content: "x", Tags: []string{"food!"}}, "one lowercase word"},
		{"tag starting with digit", Draft{Content: "x", Tags: []string{"1st"}}, "one lowercase word"},
		{"unknown kind", Draft{Content: "x", Kind: "dream"}, `kind "dream"`},
		{"fact without predicate", Draft{Kind: KindFact, Subject: "Bob", Object: "tea"}, "give the predicate"},
		{"fact without anything", Draft{Kind: KindFact, Content: "Bob likes tea"}, "give the subject and the predicate and the object"},
		{"empty episode", Draft{Kind: KindEpisode}, "an episode needs"},
		{"invalid utf8", Draft{Content: "a\xffb"}, "UTF-8"},
		{"time out of range", Draft{Content: "x", Time: time.Date(1066, 10, 14, 0, 0, 0, 0, time.UTC)}, "outside the years"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := s.Remember(context.Background(), tt.d)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrInvalid saying %q", err, tt.want)
			}
		})
	}
	if n := countRows(t, s, `SELECT count(*) FROM memories`); n != 0 {
		t.Errorf("invalid drafts wrote %d rows", n)
	}
	m, _ := remember(t, s, Draft{Content: "x", Tags: []string{" Food ", "food", "TRAVEL"}})
	if !slices.Equal(m.Tags, []string{"food", "travel"}) {
		t.Errorf("tags = %q, want trimmed, lower-cased, repeats dropped", m.Tags)
	}
}

func TestStatsAndClose(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	remember(t, s, Draft{Content: "one"})
	remember(t, s, Draft{Content: "two", Scope: "work", Kind: KindEpisode})
	m, _ := remember(t, s, Draft{Content: "three"})
	if _, err := s.Forget(ctx, ForgetRequest{IDs: []string{m.ID}}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Memories: 2, Archived: 1, Store: s.Path(), Model: s.ModelID(),
		Scopes: map[string]int{"personal": 1, "work": 1}, Kinds: map[string]int{"thought": 1, "episode": 1}}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("Stats = %+v, want %+v", st, want)
	}
	if !filepath.IsAbs(st.Store) || st.Model != "builtin-hash-v1/64" {
		t.Errorf("store %q model %q", st.Store, st.Model)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, _, err := s.Remember(ctx, Draft{Content: "late"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Remember after Close: %v", err)
	}
	if _, err := s.Get(ctx, []string{m.ID}); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close: %v", err)
	}
	if err := s.sync(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("sync after Close: %v", err)
	}
}

func TestReinforce(t *testing.T) {
	ctx := context.Background()
	s, c := newTestStore(t)
	m, _ := remember(t, s, Draft{Content: "reinforce me"})
	mustSync(t, s)
	c.Advance(30 * 24 * time.Hour)
	if err := s.reinforce(ctx, []string{m.ID, "gone"}, c.Now()); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Get(ctx, []string{m.ID})
	if got[0].RecallCount != 1 || !got[0].LastRecalled.Equal(c.Now()) || got[0].Strength <= 1 {
		t.Errorf("after reinforce: %+v", got[0])
	}
	if im, _ := s.idx.get(m.ID); !reflect.DeepEqual(im, got[0]) {
		t.Errorf("index copy %+v, want %+v", im, got[0])
	}
	var lastRev int64
	s.syncMu.Lock()
	lastRev = s.lastRev
	s.syncMu.Unlock()
	if rev := countRows(t, s, `SELECT value FROM meta WHERE key = 'rev'`); int64(rev) != lastRev {
		t.Errorf("lastRev %d, meta.rev %d: own writes should advance lastRev", lastRev, rev)
	}
}

func TestFTSFindsStemmedWords(t *testing.T) {
	s, _ := newTestStore(t)
	m, _ := remember(t, s, Draft{Content: "We were running along the rivers", Tags: []string{"sport"}})
	remember(t, s, Draft{Content: "Something else entirely"})
	for _, q := range []string{"runs", "river", "run AND rivers", "tags:sport"} {
		var id string
		err := s.db.QueryRow(`SELECT m.id FROM memories_fts f JOIN memories m ON m.pk = f.rowid WHERE memories_fts MATCH ?`, q).Scan(&id)
		if err != nil || id != m.ID {
			t.Errorf("MATCH %q: id %q, err %v", q, id, err)
		}
	}
	u, _ := remember(t, s, Draft{ID: m.ID, Content: "Swimming in lakes"})
	if n := countRows(t, s, `SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'run'`); n != 0 {
		t.Errorf("old text still matches after update (%d)", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'swim'`); n != 1 {
		t.Errorf("new text of %s does not match (%d)", u.ID, n)
	}
}

func TestUpdateRederivesFactContent(t *testing.T) {
	s, _ := newTestStore(t)
	m, _ := remember(t, s, Draft{Kind: KindFact, Subject: "Alice", Predicate: "lives in", Object: "Paris", Tags: []string{"home"}})
	u, _ := remember(t, s, Draft{ID: m.ID, Object: "Rome"})
	if u.Content != "Alice lives in Rome" || u.Object != "Rome" || !slices.Equal(u.Tags, []string{"home"}) {
		t.Errorf("updated fact %+v", u)
	}
	// Own content is kept when only a field changes.
	n, _ := remember(t, s, Draft{Kind: KindFact, Subject: "Bob", Predicate: "likes", Object: "tea", Content: "Bob loves green tea"})
	u, _ = remember(t, s, Draft{ID: n.ID, Context: "mornings", Tags: []string{}})
	if u.Content != "Bob loves green tea" || u.Context != "mornings" || len(u.Tags) != 0 {
		t.Errorf("updated fact %+v", u)
	}
	if _, _, err := s.Remember(context.Background(), Draft{ID: n.ID, Kind: "dream"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid update: %v", err)
	}
}
