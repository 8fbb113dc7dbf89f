package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// manyIDs is more ids than SQLite's 32766 variables per statement.
const manyIDs = 40000

func TestManyIDs(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	a, _ := remember(t, s, Draft{Content: "first note"})
	b, _ := remember(t, s, Draft{Content: "second note"})

	unknown := make([]string, manyIDs)
	for i := range unknown {
		unknown[i] = fmt.Sprintf("w%d", i)
	}
	// The same stored id many times: every statement gets them all.
	same := make([]string, manyIDs)
	for i := range same {
		same[i] = a.ID
	}

	if _, err := s.Get(ctx, append([]string{a.ID}, unknown...)); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "w0") {
		t.Errorf("Get(%d unknown ids) = %v, want ErrNotFound naming w0", manyIDs, err)
	}
	got, err := s.Get(ctx, same)
	if err != nil || len(got) != manyIDs || got[manyIDs-1].ID != a.ID {
		t.Errorf("Get(one id %d times) = %d memories, %v", manyIDs, len(got), err)
	}
	if _, err := s.Forget(ctx, ForgetRequest{IDs: unknown}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Forget(%d unknown ids) = %v, want ErrNotFound", manyIDs, err)
	}
	ms, err := s.List(ctx, ListFilter{IDs: same})
	if err != nil || len(ms) != 1 {
		t.Errorf("List(one id %d times) = %d memories, %v", manyIDs, len(ms), err)
	}
	res, err := s.Forget(ctx, ForgetRequest{IDs: same, DryRun: true})
	if err != nil || len(res.IDs) != 1 {
		t.Errorf("Forget(one id %d times, dry run) = %+v, %v", manyIDs, res, err)
	}
	if _, err := s.Apply(ctx, []Op{{Op: OpArchive, IDs: unknown}}, true); !errors.Is(err, ErrNotFound) {
		t.Errorf("Apply(archive %d unknown ids) = %v, want ErrNotFound", manyIDs, err)
	}
	res, err = s.Forget(ctx, ForgetRequest{IDs: append(same, b.ID), Purge: true})
	if err != nil || len(res.IDs) != 2 {
		t.Fatalf("Forget(purge, %d ids) = %+v, %v", manyIDs+1, res, err)
	}
	if _, err := s.Get(ctx, []string{a.ID}); !errors.Is(err, ErrNotFound) {
		t.Errorf("purged memory still there: %v", err)
	}
}

// TestChangeTouchingManyMemories writes a transaction that touches more
// memories than SQLite has variables, as archiving a large filter does.
func TestChangeTouchingManyMemories(t *testing.T) {
	s, _ := newTestStore(t)
	_, err := s.change(context.Background(), func(w *wtx) error {
		for i := range manyIDs {
			w.touch(fmt.Sprintf("w%d", i))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("change touching %d memories: %v", manyIDs, err)
	}
}

func TestErrorsQuoteValuesShort(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	huge := strings.Repeat("word ", 1<<20/5)
	for name, call := range map[string]func() error{
		"get":    func() error { _, err := s.Get(ctx, []string{huge}); return err },
		"forget": func() error { _, err := s.Forget(ctx, ForgetRequest{IDs: []string{huge}}); return err },
		"update": func() error { _, _, err := s.Remember(ctx, Draft{ID: huge, Content: "x"}); return err },
		"tag":    func() error { _, _, err := s.Remember(ctx, Draft{Content: "x", Tags: []string{huge}}); return err },
		"kind":   func() error { _, _, err := s.Remember(ctx, Draft{Content: "x", Kind: Kind(huge)}); return err },
		"scope":  func() error { _, _, err := s.Remember(ctx, Draft{Content: "x", Scope: huge}); return err },
		"op":     func() error { _, err := s.Apply(ctx, []Op{{Op: OpKind(huge)}}, true); return err },
		"op id":  func() error { _, err := s.Apply(ctx, []Op{{Op: OpArchive, IDs: []string{huge}}}, true); return err },
	} {
		err := call()
		if err == nil {
			t.Errorf("%s: accepted a %d-byte value", name, len(huge))
			continue
		}
		if n := len(err.Error()); n > 400 {
			t.Errorf("%s: error text is %d bytes: %.120s…", name, n, err)
		}
	}
}

func TestDraftLimits(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	over := func(n int) string { return strings.Repeat("a", n+1) }
	fact := func(d Draft) Draft {
		d.Kind = KindFact
		for _, f := range []*string{&d.Subject, &d.Predicate, &d.Object} {
			if *f == "" {
				*f = "x"
			}
		}
		return d
	}
	for _, tt := range []struct {
		name  string
		d     Draft
		field string
	}{
		{"scope", Draft{Content: "x", Scope: over(MaxScopeBytes)}, "scope"},
		{"scope charset", Draft{Content: "x", Scope: "my scope"}, "scope"},
		{"scope bidi", Draft{Content: "x", Scope: "a\u202eb"}, "scope"},
		{"thread", Draft{Content: "x", Thread: over(MaxThreadBytes)}, "thread"},
		{"source", Draft{Content: "x", Source: over(MaxThreadBytes)}, "source"},
		{"tag", Draft{Content: "x", Tags: []string{over(MaxTagBytes)}}, "tag"},
		{"subject", fact(Draft{Content: "x", Subject: over(MaxFactFieldBytes)}), "subject"},
		{"predicate", fact(Draft{Content: "x", Predicate: over(MaxFactFieldBytes)}), "predicate"},
		{"object", fact(Draft{Content: "x", Object: over(MaxFactFieldBytes)}), "object"},
		{"context", fact(Draft{Content: "x", Context: over(MaxFactFieldBytes)}), "context"},
		{"observation", Draft{Kind: KindEpisode, Observation: over(MaxEpisodeBytes)}, "observation"},
		{"episode total", Draft{Kind: KindEpisode, Content: strings.Repeat("c", MaxContentBytes), Result: "r"}, "observation"},
		{"thoughts on a thought", Draft{Content: "x", Thoughts: over(MaxEpisodeBytes)}, "thoughts"},
		{"meta", Draft{Content: "x", Meta: map[string]string{"k": over(MaxMetaBytes)}}, "meta"},
		{"many tags", Draft{Content: "x", Tags: strings.Fields(strings.Repeat("a b c d ", 10000))}, "tags"},
	} {
		if err := tt.d.Check(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: Check = %v, want ErrInvalid naming %s", tt.name, err, tt.field)
		}
		if _, _, err := s.Remember(ctx, tt.d); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: Remember = %v, want ErrInvalid naming %s", tt.name, err, tt.field)
		}
		if _, err := s.Apply(ctx, []Op{{Op: OpAdd, Draft: tt.d}}, true); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: Apply = %v, want ErrInvalid naming %s", tt.name, err, tt.field)
		}
	}
	// At the limits everything is accepted.
	for _, d := range []Draft{
		{Content: "at the limits", Scope: "project:mneme-1a2b3c/sub_dir.v2", Thread: strings.Repeat("t", MaxThreadBytes),
			Tags: []string{strings.Repeat("a", MaxTagBytes)}},
		fact(Draft{Subject: strings.Repeat("s", MaxFactFieldBytes), Predicate: "is", Object: strings.Repeat("o", MaxFactFieldBytes), Context: strings.Repeat("c", MaxFactFieldBytes)}),
		{Kind: KindEpisode, Observation: strings.Repeat("o ", MaxEpisodeBytes/4-4), Result: strings.Repeat("r ", MaxEpisodeBytes/4-4)},
		{Content: "Zoë's scope", Scope: "zoë"},
	} {
		if err := d.Check(); err != nil {
			t.Errorf("Check(%.80v) = %v", d, err)
		}
		if _, _, err := s.Remember(ctx, d); err != nil {
			t.Errorf("Remember(%.80v) = %v", d, err)
		}
	}
}

func TestCheckScope(t *testing.T) {
	for _, ok := range []string{"", "personal", "project:mneme-1a2b3c", "work/2026_q1.v2", "zoë", " padded "} {
		if err := CheckScope(ok); err != nil {
			t.Errorf("CheckScope(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"my scope", "a\u202eb", "tab\there", "semi;colon", strings.Repeat("s", MaxScopeBytes+1)} {
		if err := CheckScope(bad); !errors.Is(err, ErrInvalid) || len(err.Error()) > 300 {
			t.Errorf("CheckScope(%.20q) = %v, want a short ErrInvalid", bad, err)
		}
	}
}
