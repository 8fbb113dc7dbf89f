package tools

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestRecallRejectsBadInput(t *testing.T) {
	f := newFixture(t)
	m := f.remember(t, map[string]any{"content": "Carla plays the cello"})
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"nothing to look for", map[string]any{}, "recall needs something to look for"},
		{"blank query", map[string]any{"query": "  "}, "recall needs something to look for"},
		{"limit too big", map[string]any{"query": "cello", "limit": 51}, "limit 51 is out of range: use 1 to 50"},
		{"negative limit", map[string]any{"query": "cello", "limit": -1}, "limit -1 is out of range"},
		{"negative offset", map[string]any{"query": "cello", "offset": -3}, "offset -3 is negative"},
		{"probability above 1", map[string]any{"query": "cello", "min_probability": 1.5}, "min_probability 1.5 is out of range"},
		{"bad from", map[string]any{"query": "cello", "from": "sometime"}, `from "sometime" is not a time`},
		{"bad to", map[string]any{"query": "cello", "to": "2026-13-45"}, `to "2026-13-45" is not a time`},
		{"from after to", map[string]any{"query": "cello", "from": "2026-05-01", "to": "2026-04-01"}, "is not before to"},
		{"four tags", map[string]any{"tags": []any{"a", "b", "c", "d"}}, "at most 3 allowed"},
		{"bad tag", map[string]any{"tags": []any{"two words"}}, "not one lowercase word"},
		{"history without ids", map[string]any{"query": "cello", "history": true}, "history needs ids"},
		{"unknown id", map[string]any{"ids": []any{m.ID, "nope"}}, "memory not found"},
		{"empty id", map[string]any{"ids": []any{""}}, "empty id"},
		{"bad when", map[string]any{"when": "the blursday after"}, "invalid input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fails(t, f, "recall", tt.args, tt.want)
		})
	}
	got, _ := f.store.Get(t.Context(), []string{m.ID})
	if got[0].RecallCount != 0 {
		t.Errorf("a rejected recall reinforced the memory: recall_count %d", got[0].RecallCount)
	}
}

func TestRecallFindsAndReinforces(t *testing.T) {
	f := newFixture(t)
	f.clock.Add(-3 * 24 * time.Hour)
	cello := f.remember(t, map[string]any{"content": "Carla plays the cello in a quartet", "tags": []any{"music"}})
	f.remember(t, map[string]any{"content": "The car needs new tyres before winter", "tags": []any{"car"}})
	f.clock.Add(3 * 24 * time.Hour)

	out, text := ok[RecallOutput](t, f, "recall", map[string]any{"query": "what instrument does Carla play"})
	if len(out.Memories) == 0 || out.Memories[0].ID != cello.ID {
		t.Fatalf("recall = %+v, want the cello memory first", out.Memories)
	}
	hit := out.Memories[0]
	if hit.Score == nil || hit.Score.Relevance <= 0 || hit.Score.Probability <= 0 {
		t.Errorf("score = %+v", hit.Score)
	}
	if hit.Age != "3 days ago" || hit.Truncated || out.Window != nil || out.More {
		t.Errorf("age/truncated/window/more = %q/%v/%v/%v", hit.Age, hit.Truncated, out.Window, out.More)
	}
	if want := fmt.Sprintf("1. [2026-05-08, 3 days ago] (music) Carla plays the cello in a quartet  id=%s", cello.ID); !strings.HasPrefix(text, want) {
		t.Errorf("text = %q, want it to start with %q", text, want)
	}
	if got, _ := f.store.Get(t.Context(), []string{cello.ID}); got[0].RecallCount != 1 {
		t.Errorf("recall_count = %d after one recall, want 1", got[0].RecallCount)
	}

	ok[RecallOutput](t, f, "recall", map[string]any{"query": "Carla cello", "reinforce": false})
	if got, _ := f.store.Get(t.Context(), []string{cello.ID}); got[0].RecallCount != 1 {
		t.Errorf("recall_count = %d after reinforce:false, want still 1", got[0].RecallCount)
	}

	byTag, _ := ok[RecallOutput](t, f, "recall", map[string]any{"tags": []any{"car"}})
	if len(byTag.Memories) != 1 || byTag.Memories[0].Tags[0] != "car" {
		t.Errorf("recall by tag = %+v", byTag.Memories)
	}
}

func TestRecallTimeWindow(t *testing.T) {
	f := newFixture(t)
	f.remember(t, map[string]any{"content": "Lunch with Dana at the Thai place", "time": "2026-05-10T12:30:00Z"})
	f.remember(t, map[string]any{"content": "Lunch with Eli at the noodle bar", "time": "2026-04-20T12:30:00Z"})

	// An exact window, read from words or given as from/to, filters.
	for _, tc := range []struct {
		args    map[string]any
		applied string
	}{
		{map[string]any{"query": "lunch", "when": "yesterday"}, "filter"},
		{map[string]any{"query": "lunch yesterday"}, "filter"},
		{map[string]any{"query": "lunch", "from": "2026-05-10", "to": "2026-05-10"}, "filter"},
	} {
		args := tc.args
		out, text := ok[RecallOutput](t, f, "recall", args)
		if len(out.Memories) == 0 || !strings.Contains(out.Memories[0].Content, "Dana") {
			t.Errorf("%v: memories = %+v, want the lunch with Dana first", args, out.Memories)
		}
		if tc.applied == "filter" && len(out.Memories) != 1 {
			t.Errorf("%v: memories = %+v, want only the lunch with Dana", args, out.Memories)
		}
		if out.Window == nil || out.Window.Applied != tc.applied {
			t.Errorf("%v: window = %+v, want applied %s", args, out.Window, tc.applied)
		}
		if !strings.HasPrefix(text, "time window") || !strings.Contains(text, "2026-05-10T00:00:00Z to 2026-05-11T00:00:00Z") {
			t.Errorf("%v: text = %q", args, text)
		}
	}
}

func TestRecallFitsTheBudget(t *testing.T) {
	f := newFixture(t)
	f.deps.Budget = 1000
	long := strings.Repeat("The garden plan lists roses, tulips, lavender and a small pond with fish. ", 10) // ~740 chars
	var ids []string
	for i := range 6 {
		m := f.remember(t, map[string]any{"content": fmt.Sprintf("Garden note %d: %s", i, long)})
		ids = append(ids, m.ID)
	}
	out, text := ok[RecallOutput](t, f, "recall", map[string]any{"query": "garden plan roses", "limit": 6})
	if n := utf8.RuneCountInString(text); n > f.deps.Budget {
		t.Errorf("text is %d characters, budget %d:\n%s", n, f.deps.Budget, text)
	}
	if len(out.Memories) == 0 || len(out.Memories) >= 6 {
		t.Fatalf("%d memories shown, want some dropped for the budget", len(out.Memories))
	}
	if !out.More || out.NextOffset != len(out.Memories) {
		t.Errorf("more/next_offset = %v/%d, want true/%d", out.More, out.NextOffset, len(out.Memories))
	}
	for _, m := range out.Memories {
		if !m.Truncated || !strings.HasSuffix(m.Content, "…") || len(m.Content) >= len(long) {
			t.Errorf("memory %s not cut: truncated=%v content %d bytes", m.ID, m.Truncated, len(m.Content))
		}
	}
	for _, want := range []string{fmt.Sprintf("offset=%d", out.NextOffset), "ids=[" + out.Memories[0].ID} {
		if !strings.Contains(text, want) {
			t.Errorf("text does not say %q:\n%s", want, text)
		}
	}

	// The next page continues where the budget stopped.
	next, _ := ok[RecallOutput](t, f, "recall", map[string]any{"query": "garden plan roses", "limit": 6, "offset": out.NextOffset})
	if len(next.Memories) == 0 || next.Memories[0].ID == out.Memories[0].ID {
		t.Errorf("next page = %+v", next.Memories)
	}

	// ids fetches whole memories, never cut.
	whole, wholeText := ok[RecallOutput](t, f, "recall", map[string]any{"ids": []any{out.Memories[0].ID}})
	if whole.Memories[0].Truncated || !strings.HasSuffix(whole.Memories[0].Content, strings.TrimSpace(long)) || whole.Memories[0].Score != nil {
		t.Errorf("fetched = %+v", whole.Memories[0])
	}
	if !strings.Contains(wholeText, strings.TrimSpace(long)) {
		t.Errorf("fetched text is cut: %q", wholeText)
	}
}

func TestRecallOneHugeMemoryStillShows(t *testing.T) {
	f := newFixture(t)
	f.deps.Budget = 600
	f.remember(t, map[string]any{"content": "Thesis draft: " + strings.Repeat("chapter words ", 2000)})
	out, text := ok[RecallOutput](t, f, "recall", map[string]any{"query": "thesis draft"})
	if len(out.Memories) != 1 || !out.Memories[0].Truncated {
		t.Fatalf("memories = %d, want the one memory, cut", len(out.Memories))
	}
	if n := utf8.RuneCountInString(text); n > 600 {
		t.Errorf("text is %d characters, budget 600", n)
	}
}

func TestRecallNothingFound(t *testing.T) {
	f := newFixture(t)
	out, text := ok[RecallOutput](t, f, "recall", map[string]any{"query": "submarine"})
	if len(out.Memories) != 0 || out.Memories == nil || out.More {
		t.Errorf("out = %+v, want an empty list", out)
	}
	if !strings.HasPrefix(text, "no memories found") {
		t.Errorf("text = %q", text)
	}
}

func TestAge(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{10 * time.Second, "just now"},
		{5 * time.Minute, "5 minutes ago"},
		{time.Hour, "1 hour ago"},
		{30 * time.Hour, "yesterday"},
		{3 * 24 * time.Hour, "3 days ago"},
		{15 * 24 * time.Hour, "2 weeks ago"},
		{100 * 24 * time.Hour, "3 months ago"},
		{800 * 24 * time.Hour, "2 years ago"},
		{-4 * 24 * time.Hour, "in 4 days"},
		{-30 * time.Hour, "tomorrow"},
	}
	for _, tt := range tests {
		if got := age(epoch, epoch.Add(-tt.d)); got != tt.want {
			t.Errorf("age(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
		cut  bool
	}{
		{"short", 10, "short", false},
		{"hello wonderful world", 12, "hello wonde…", true},
		{"hello wonderful worlds and more", 20, "hello wonderful…", true},
		{"abcdefghij", 5, "abcd…", true},
		{"äöüßéèàç", 4, "äöü…", true},
	}
	for _, tt := range tests {
		got, c := cut(tt.s, tt.n)
		if got != tt.want || c != tt.cut {
			t.Errorf("cut(%q, %d) = %q, %v; want %q, %v", tt.s, tt.n, got, c, tt.want, tt.cut)
		}
		if utf8.RuneCountInString(got) > tt.n {
			t.Errorf("cut(%q, %d) is %d characters", tt.s, tt.n, utf8.RuneCountInString(got))
		}
	}
}

func TestRecallShowsFactsAndEpisodesWhole(t *testing.T) {
	f := newFixture(t)
	f.remember(t, map[string]any{"content": "The user lives in Lisbon", "subject": "user", "predicate": "lives in", "object": "Lisbon", "context": "since April 2026"})
	f.remember(t, map[string]any{"content": "Flat hunt in Lisbon", "observation": "the Alfama flat was damp", "thoughts": "too expensive to heat", "action": "declined the Alfama flat", "result": "kept looking in Lisbon"})
	_, text := ok[RecallOutput](t, f, "recall", map[string]any{"query": "Lisbon", "limit": 5})
	for _, want := range []string{
		"   fact: user — lives in — Lisbon (since April 2026)",
		"   observation: the Alfama flat was damp",
		"   thoughts: too expensive to heat",
		"   action: declined the Alfama flat",
		"   result: kept looking in Lisbon",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("recall text lacks %q:\n%s", want, text)
		}
	}
}
