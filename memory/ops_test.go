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

// Helpers of their own, so these tests do not depend on other test files.

type opsClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *opsClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *opsClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func opsOptions(path string, c *opsClock) Options {
	e := embed.Builtin(128)
	return Options{Path: path, ModelID: e.ModelID, Embed: e.Func, Now: c.now}
}

// opsStore opens a fresh store in a temp dir; it also returns its path.
func opsStore(t *testing.T) (*Store, *opsClock, string) {
	t.Helper()
	c := &opsClock{t: time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)}
	path := filepath.Join(t.TempDir(), "ops.db")
	return opsOpen(t, opsOptions(path, c)), c, path
}

func opsOpen(t *testing.T, o Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func opsRemember(t *testing.T, s *Store, d Draft) Memory {
	t.Helper()
	m, _, err := s.Remember(context.Background(), d)
	if err != nil {
		t.Fatalf("Remember(%q): %v", d.Content, err)
	}
	return m
}

func mustApply(t *testing.T, s *Store, ops []Op, dry bool) ApplyResult {
	t.Helper()
	res, err := s.Apply(context.Background(), ops, dry)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if len(res.Results) != len(ops) || res.DryRun != dry {
		t.Fatalf("Apply gave %d results (dry %v) for %d ops", len(res.Results), res.DryRun, len(ops))
	}
	return res
}

func getMem(t *testing.T, s *Store, id string) Memory {
	t.Helper()
	ms, err := s.Get(context.Background(), []string{id})
	if err != nil {
		t.Fatal(err)
	}
	return ms[0]
}

func recallIDs(t *testing.T, s *Store, text string) []string {
	t.Helper()
	res, err := s.Recall(context.Background(), Query{Text: text, Limit: MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.Memory.ID)
	}
	return ids
}

func TestApplyMerge(t *testing.T) {
	ctx := context.Background()
	s, clock, _ := opsStore(t)
	a := opsRemember(t, s, Draft{Content: "Ana drinks green tea in the morning", Tags: []string{"food", "ana"}, Time: clock.now().Add(-48 * time.Hour), Thread: "t1", Seq: 1})
	b := opsRemember(t, s, Draft{Content: "Every morning Ana has green tea", Tags: []string{"food"}, Time: clock.now().Add(-24 * time.Hour), Thread: "t1", Seq: 4})
	if err := s.Reinforce(ctx, []string{a.ID, a.ID}); err != nil {
		t.Fatal(err)
	}
	clock.add(time.Hour)

	res := mustApply(t, s, []Op{{Op: OpMerge, IDs: []string{a.ID, b.ID}, Draft: Draft{Content: "Ana drinks green tea every morning"}, Reason: "same habit"}}, false)
	r := res.Results[0]
	if r.Op != OpMerge || r.Memory == nil || r.Duplicate || r.Reason != "same habit" || !slices.Equal(r.Affected, []string{a.ID, b.ID}) {
		t.Fatalf("result %+v", r)
	}
	m := *r.Memory
	if m.ID == "" || m.Scope != DefaultScope || m.Source != "consolidate" || !m.Time.Equal(b.Time) ||
		!slices.Equal(m.Tags, []string{"food", "ana"}) || m.Thread != "t1" || m.Seq != 4 || m.RecallCount != 1 {
		t.Fatalf("merged memory %+v", m)
	}
	for _, id := range []string{a.ID, b.ID} {
		old := getMem(t, s, id)
		if !old.IsArchived() || old.SupersededBy != m.ID || !old.Archived.Equal(clock.now()) {
			t.Fatalf("merged-away %s: archived %v superseded_by %q", id, old.Archived, old.SupersededBy)
		}
		hist, err := s.History(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(hist) == 0 || hist[len(hist)-1].Reason != "merge: same habit" || hist[len(hist)-1].Memory.IsArchived() {
			t.Fatalf("history of %s: %+v", id, hist)
		}
	}
	ids := recallIDs(t, s, "green tea morning")
	if slices.Contains(ids, a.ID) || slices.Contains(ids, b.ID) || !slices.Contains(ids, m.ID) {
		t.Fatalf("recall after merge returned %v, want the merged %s and not %s, %s", ids, m.ID, a.ID, b.ID)
	}
	hist, err := s.History(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	var chain []string
	for _, v := range hist {
		if v.Reason == "superseded" {
			chain = append(chain, v.MemoryID)
		}
	}
	slices.Sort(chain)
	want := []string{a.ID, b.ID}
	slices.Sort(want)
	if !slices.Equal(chain, want) {
		t.Fatalf("History(merged) chain %v, want %v", chain, want)
	}
}

func TestApplyMergeWithoutContentJoins(t *testing.T) {
	s, _, _ := opsStore(t)
	a := opsRemember(t, s, Draft{Content: "Bo likes jazz", Time: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)})
	b := opsRemember(t, s, Draft{Content: "Bo plays the saxophone", Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	res := mustApply(t, s, []Op{{Op: OpMerge, IDs: []string{a.ID, b.ID}}}, false)
	if got := res.Results[0].Memory.Content; got != "Bo plays the saxophone\nBo likes jazz" {
		t.Fatalf("joined content %q", got)
	}
}

func TestApplySupersedeAndArchive(t *testing.T) {
	ctx := context.Background()
	s, clock, _ := opsStore(t)
	old := opsRemember(t, s, Draft{Content: "The standup is at 9:30", Tags: []string{"work"}})
	gone := opsRemember(t, s, Draft{Content: "Temporary parking pass for level 3"})
	clock.add(time.Hour)
	res := mustApply(t, s, []Op{
		{Op: OpSupersede, IDs: []string{old.ID}, Draft: Draft{Content: "The standup moved to 10:00"}, Reason: "moved"},
		{Op: OpArchive, IDs: []string{gone.ID}, Reason: "expired"},
	}, false)
	sup, arc := res.Results[0], res.Results[1]
	if sup.Memory == nil || !slices.Equal(sup.Affected, []string{old.ID}) || !slices.Equal(sup.Memory.Tags, []string{"work"}) {
		t.Fatalf("supersede result %+v", sup)
	}
	if arc.Memory != nil || !slices.Equal(arc.Affected, []string{gone.ID}) {
		t.Fatalf("archive result %+v", arc)
	}
	if o := getMem(t, s, old.ID); !o.IsArchived() || o.SupersededBy != sup.Memory.ID {
		t.Fatalf("superseded memory %+v", o)
	}
	if g := getMem(t, s, gone.ID); !g.IsArchived() || g.SupersededBy != "" {
		t.Fatalf("archived memory %+v", g)
	}
	for id, reason := range map[string]string{old.ID: "supersede: moved", gone.ID: "archive: expired"} {
		hist, err := s.History(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(hist) != 1 || hist[0].Reason != reason {
			t.Fatalf("history of %s: %+v, want one entry %q", id, hist, reason)
		}
	}
	if ids := recallIDs(t, s, "parking pass"); slices.Contains(ids, gone.ID) {
		t.Fatalf("recall returned the archived memory: %v", ids)
	}
}

func TestApplyAddDedupAndFacts(t *testing.T) {
	s, _, _ := opsStore(t)
	tea := opsRemember(t, s, Draft{Content: "Ana likes green tea"})
	city := opsRemember(t, s, Draft{Kind: KindFact, Subject: "Ana", Predicate: "lives in", Object: "Lisbon"})
	res := mustApply(t, s, []Op{
		{Op: OpAdd, Draft: Draft{Content: "  ana LIKES green   tea "}},
		{Op: OpAdd, Draft: Draft{Kind: KindFact, Subject: "Ana", Predicate: "lives in", Object: "Porto"}},
		{Op: OpAdd, Draft: Draft{Content: "Ana cycles to work", Tags: []string{"habit"}}},
		{Op: OpAdd, Draft: Draft{Content: "Ana cycles to work"}},
	}, false)
	if r := res.Results[0]; !r.Duplicate || r.Memory.ID != tea.ID || r.Memory.RecallCount != 1 {
		t.Fatalf("duplicate add %+v", r)
	}
	if r := res.Results[1]; r.Duplicate || !slices.Equal(r.Affected, []string{city.ID}) {
		t.Fatalf("fact add %+v", r)
	}
	if c := getMem(t, s, city.ID); c.SupersededBy != res.Results[1].Memory.ID {
		t.Fatalf("old fact superseded_by %q", c.SupersededBy)
	}
	if r2, r3 := res.Results[2], res.Results[3]; r2.Duplicate || !r3.Duplicate || r3.Memory.ID != r2.Memory.ID {
		t.Fatalf("two adds of one text in a plan: %+v / %+v", r2, r3)
	}
}

func TestApplyAllOrNothing(t *testing.T) {
	ctx := context.Background()
	s, _, _ := opsStore(t)
	a := opsRemember(t, s, Draft{Content: "first"})
	b := opsRemember(t, s, Draft{Content: "second"})
	c := opsRemember(t, s, Draft{Content: "third"})
	snapshot := func() (Stats, []Memory) {
		st, err := s.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := s.List(ctx, ListFilter{IncludeArchived: true})
		if err != nil {
			t.Fatal(err)
		}
		return st, ms
	}
	st0, ms0 := snapshot()
	good := []Op{
		{Op: OpAdd, Draft: Draft{Content: "a new one"}},
		{Op: OpArchive, IDs: []string{a.ID}},
	}
	cases := []struct {
		name string
		bad  Op
		is   error
		want string
	}{
		{"missing id", Op{Op: OpMerge, IDs: []string{b.ID, "nope"}}, ErrNotFound, "ops[2] (merge): memory nope"},
		{"one id without draft", Op{Op: OpMerge, IDs: []string{b.ID}}, ErrInvalid, "ops[2] (merge)"},
		{"unknown op", Op{Op: "delete", IDs: []string{b.ID}}, ErrInvalid, `ops[2]: op "delete"`},
		{"bad tag", Op{Op: OpAdd, Draft: Draft{Content: "x", Tags: []string{"Not A Tag"}}}, ErrInvalid, "ops[2] (add): tag"},
		{"id named twice", Op{Op: OpArchive, IDs: []string{a.ID}}, ErrInvalid, "ops[1] already names"},
		{"supersede without draft", Op{Op: OpSupersede, IDs: []string{c.ID}}, ErrInvalid, "ops[2] (supersede)"},
		{"archive with draft", Op{Op: OpArchive, IDs: []string{c.ID}, Draft: Draft{Content: "x"}}, ErrInvalid, "ops[2] (archive)"},
		{"add with ids", Op{Op: OpAdd, IDs: []string{c.ID}, Draft: Draft{Content: "x"}}, ErrInvalid, "ops[2] (add)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Apply(ctx, append(slices.Clone(good), tc.bad), false)
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %v containing %q", err, tc.is, tc.want)
			}
			st, ms := snapshot()
			if !reflect.DeepEqual(st, st0) || !reflect.DeepEqual(ms, ms0) {
				t.Fatalf("a failed plan changed the store: %+v -> %+v", st0, st)
			}
		})
	}
	// An archived memory cannot be named again.
	mustApply(t, s, good, false)
	if _, err := s.Apply(ctx, []Op{{Op: OpArchive, IDs: []string{a.ID}}}, false); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "already archived") {
		t.Fatalf("archiving an archived memory: %v", err)
	}
}

func TestApplyDryRunWritesNothing(t *testing.T) {
	ctx := context.Background()
	s, _, _ := opsStore(t)
	a := opsRemember(t, s, Draft{Content: "likes hiking"})
	b := opsRemember(t, s, Draft{Content: "hikes every weekend"})
	dup := opsRemember(t, s, Draft{Content: "already here"})
	before, _ := s.List(ctx, ListFilter{IncludeArchived: true})
	res := mustApply(t, s, []Op{
		{Op: OpMerge, IDs: []string{a.ID, b.ID}, Draft: Draft{Content: "hikes most weekends"}},
		{Op: OpAdd, Draft: Draft{Content: "Already   here"}},
		{Op: OpAdd, Draft: Draft{Content: "brand new"}},
	}, true)
	if m := res.Results[0].Memory; m == nil || m.ID != "" || m.Content != "hikes most weekends" || !slices.Equal(res.Results[0].Affected, []string{a.ID, b.ID}) {
		t.Fatalf("dry merge %+v", res.Results[0])
	}
	if r := res.Results[1]; !r.Duplicate || r.Memory.ID != dup.ID {
		t.Fatalf("dry duplicate %+v", r)
	}
	if r := res.Results[2]; r.Duplicate || r.Memory.ID != "" {
		t.Fatalf("dry add %+v", r)
	}
	after, _ := s.List(ctx, ListFilter{IncludeArchived: true})
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("dry run changed the store")
	}
	// A dry run validates like the real thing.
	if _, err := s.Apply(ctx, []Op{{Op: OpArchive, IDs: []string{"missing"}}}, true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("dry run with a missing id: %v", err)
	}
}

func TestApplyMergeAcrossScopesRefused(t *testing.T) {
	s, _, _ := opsStore(t)
	a := opsRemember(t, s, Draft{Content: "one", Scope: "p1"})
	b := opsRemember(t, s, Draft{Content: "two", Scope: "p2"})
	if _, err := s.Apply(context.Background(), []Op{{Op: OpMerge, IDs: []string{a.ID, b.ID}, Draft: Draft{Content: "both"}}}, false); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "different scopes") {
		t.Fatalf("merge across scopes: %v", err)
	}
}

func TestApplyEmptyPlan(t *testing.T) {
	s, _, _ := opsStore(t)
	res, err := s.Apply(context.Background(), nil, false)
	if err != nil || len(res.Results) != 0 || res.Results == nil {
		t.Fatalf("empty plan: %+v, %v", res, err)
	}
}

func TestList(t *testing.T) {
	ctx := context.Background()
	s, clock, _ := opsStore(t)
	day := func(d int) time.Time { return time.Date(2026, 4, d, 12, 0, 0, 0, time.UTC) }
	m3 := opsRemember(t, s, Draft{Content: "turn two", Time: day(3), Thread: "c1", Seq: 2, Tags: []string{"chat"}})
	m1 := opsRemember(t, s, Draft{Content: "turn one", Time: day(3), Thread: "c1", Seq: 1, Tags: []string{"chat"}})
	clock.add(time.Hour)
	since := clock.now()
	m2 := opsRemember(t, s, Draft{Content: "work note", Time: day(1), Tags: []string{"work"}, Scope: "proj"})
	m4 := opsRemember(t, s, Draft{Content: "old note", Time: day(5)})
	if _, err := s.Forget(ctx, ForgetRequest{IDs: []string{m4.ID}}); err != nil {
		t.Fatal(err)
	}
	ids := func(f ListFilter) []string {
		t.Helper()
		ms, err := s.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return out
	}
	for name, tc := range map[string]struct {
		f    ListFilter
		want []string
	}{
		"all active":        {ListFilter{}, []string{m2.ID, m1.ID, m3.ID}},
		"archived too":      {ListFilter{IncludeArchived: true}, []string{m2.ID, m1.ID, m3.ID, m4.ID}},
		"scope":             {ListFilter{Scope: "proj"}, []string{m2.ID}},
		"tags any":          {ListFilter{Tags: []string{"WORK", "chat"}}, []string{m2.ID, m1.ID, m3.ID}},
		"since":             {ListFilter{Since: since, IncludeArchived: true}, []string{m2.ID, m4.ID}},
		"thread":            {ListFilter{Thread: "c1"}, []string{m1.ID, m3.ID}},
		"ids":               {ListFilter{IDs: []string{m3.ID, m4.ID, "unknown"}}, []string{m3.ID}},
		"limit keeps order": {ListFilter{Limit: 2}, []string{m2.ID, m1.ID}},
	} {
		if got := ids(tc.f); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", name, got, tc.want)
		}
	}
}

func TestSimilarRanksParaphraseFirst(t *testing.T) {
	s, _, _ := opsStore(t)
	target := opsRemember(t, s, Draft{Content: "Ana drinks green tea every morning before work"})
	para := opsRemember(t, s, Draft{Content: "Every morning Ana has a cup of green tea"})
	other := opsRemember(t, s, Draft{Content: "The car needs new winter tyres in November"})
	opsRemember(t, s, Draft{Content: "Ana drinks green tea", Scope: "elsewhere"})
	sg, err := s.Similar(context.Background(), target.ID, 5, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(sg) != 2 || sg[0].ID != para.ID || sg[1].ID != other.ID {
		t.Fatalf("suggestions %+v, want the paraphrase then the unrelated one", sg)
	}
	if !(sg[0].Cosine > sg[1].Cosine) || !(sg[0].Overlap > sg[1].Overlap) || sg[0].Overlap > 1 {
		t.Fatalf("scores %+v", sg)
	}
	// minCosine filters; k limits.
	sg2, err := s.Similar(context.Background(), target.ID, 1, sg[1].Cosine+1e-9)
	if err != nil || len(sg2) != 1 || sg2[0].ID != para.ID {
		t.Fatalf("Similar(k=1, min) = %+v, %v", sg2, err)
	}
	if _, err := s.Similar(context.Background(), "unknown", 5, 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
}

func TestConsolidatedRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, clock, path := opsStore(t)
	if at, err := s.LastConsolidated(ctx, "proj"); err != nil || !at.IsZero() {
		t.Fatalf("never consolidated: %v, %v", at, err)
	}
	at := time.Date(2026, 5, 1, 8, 30, 0, 123, time.FixedZone("x", 3600))
	if err := s.MarkConsolidated(ctx, "proj", at); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkConsolidated(ctx, "", at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkConsolidated(ctx, "proj", time.Time{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("zero time: %v", err)
	}
	s.Close()
	s2 := opsOpen(t, opsOptions(path, clock))
	if got, err := s2.LastConsolidated(ctx, "proj"); err != nil || !got.Equal(at) {
		t.Fatalf("after reopen: %v, %v, want %v", got, err, at)
	}
	if got, err := s2.LastConsolidated(ctx, DefaultScope); err != nil || !got.Equal(at.Add(time.Hour)) {
		t.Fatalf("default scope: %v, %v", got, err)
	}
}

func TestReinforcePublic(t *testing.T) {
	s, clock, _ := opsStore(t)
	m := opsRemember(t, s, Draft{Content: "something to recall"})
	clock.add(24 * time.Hour)
	if err := s.Reinforce(context.Background(), []string{m.ID, "unknown"}); err != nil {
		t.Fatal(err)
	}
	got := getMem(t, s, m.ID)
	if got.RecallCount != 1 || !got.LastRecalled.Equal(clock.now()) || got.Strength <= m.Strength {
		t.Fatalf("after Reinforce: %+v", got)
	}
}

// TestApplyRollsBackPartialWrites fails the third op inside the
// transaction, after the first two have written, and checks that nothing
// of the plan remains.
func TestApplyRollsBackPartialWrites(t *testing.T) {
	ctx := context.Background()
	s, _, _ := opsStore(t)
	a := opsRemember(t, s, Draft{Content: "to be archived"})
	if _, err := s.db.ExecContext(ctx, `CREATE TRIGGER boom BEFORE INSERT ON memories WHEN NEW.content = 'boom'
		BEGIN SELECT RAISE(ABORT, 'boom'); END`); err != nil {
		t.Fatal(err)
	}
	st0, _ := s.Stats(ctx)
	ms0, _ := s.List(ctx, ListFilter{IncludeArchived: true})
	_, err := s.Apply(ctx, []Op{
		{Op: OpAdd, Draft: Draft{Content: "written first"}},
		{Op: OpArchive, IDs: []string{a.ID}},
		{Op: OpAdd, Draft: Draft{Content: "boom"}},
	}, false)
	if err == nil || !strings.Contains(err.Error(), "ops[2] (add)") {
		t.Fatalf("err = %v, want the failure of ops[2]", err)
	}
	st1, _ := s.Stats(ctx)
	ms1, _ := s.List(ctx, ListFilter{IncludeArchived: true})
	if !reflect.DeepEqual(st0, st1) || !reflect.DeepEqual(ms0, ms1) {
		t.Fatalf("partial plan left writes: %+v -> %+v", st0, st1)
	}
	if hist, _ := s.History(ctx, a.ID); len(hist) != 0 {
		t.Fatalf("history written by a rolled-back plan: %+v", hist)
	}
	// The index must not hold the rolled-back add either.
	for _, id := range recallIDs(t, s, "written first") {
		if _, err := s.Get(ctx, []string{id}); err != nil {
			t.Fatalf("recall returned %s, which is not in the database: %v", id, err)
		}
	}
}

// TestApplySupersedeByExisting: a supersede whose draft has the text of
// another active memory makes that memory the successor (reinforced)
// instead of storing a copy; the consolidate tool relies on it.
func TestApplySupersedeByExisting(t *testing.T) {
	s, clock, _ := opsStore(t)
	old := opsRemember(t, s, Draft{Content: "The standup is at 9:30"})
	clock.add(time.Hour)
	newer := opsRemember(t, s, Draft{Content: "The standup is at 10:00 now"})
	op := Op{Op: OpSupersede, IDs: []string{old.ID}, Draft: Draft{Content: newer.Content, Time: newer.Time}, Reason: "newer"}
	dry := mustApply(t, s, []Op{op}, true)
	if r := dry.Results[0]; !r.Duplicate || r.Memory.ID != newer.ID {
		t.Fatalf("dry run %+v", r)
	}
	res := mustApply(t, s, []Op{op}, false)
	r := res.Results[0]
	if !r.Duplicate || r.Memory.ID != newer.ID || r.Memory.RecallCount != 1 || !slices.Equal(r.Affected, []string{old.ID}) {
		t.Fatalf("result %+v", r)
	}
	if o := getMem(t, s, old.ID); !o.IsArchived() || o.SupersededBy != newer.ID {
		t.Fatalf("old %+v", o)
	}
	if st, _ := s.Stats(context.Background()); st.Memories != 1 || st.Archived != 1 {
		t.Fatalf("stats %+v: a copy was stored", st)
	}
}
