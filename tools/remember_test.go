package tools

import (
	"strings"
	"testing"
	"time"
)

func TestRememberRejectsBadInput(t *testing.T) {
	f := newFixture(t)
	kept := f.remember(t, map[string]any{"content": "Anna's daughter Mia was born in March 2019"})
	before := f.stats(t)

	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"empty content", map[string]any{"content": "   "}, "content is empty"},
		{"missing content", map[string]any{"tags": []any{"work"}}, "content is empty"},
		{"content over 32 KiB", map[string]any{"content": strings.Repeat("a", 32*1024+1)}, "the limit is 32768"},
		{"four tags", map[string]any{"content": "x likes tea", "tags": []any{"a", "b", "c", "d"}}, "at most 3 allowed"},
		{"tag of two words", map[string]any{"content": "x likes tea", "tags": []any{"New York"}}, `tag "New York" is not one lowercase word`},
		{"tag with punctuation", map[string]any{"content": "x likes tea", "tags": []any{"follow-up"}}, "not one lowercase word"},
		{"bad time", map[string]any{"content": "x likes tea", "time": "the blursday after"}, `time "the blursday after" is not a time`},
		{"unknown kind", map[string]any{"content": "x likes tea", "kind": "note"}, `kind "note" is not known`},
		{"fact without object", map[string]any{"content": "user lives in", "kind": "fact", "subject": "user", "predicate": "lives in"}, "a fact needs subject, predicate and object"},
		{"inferred fact without predicate", map[string]any{"content": "user Berlin", "subject": "user", "object": "Berlin"}, "a fact needs subject, predicate and object"},
		{"unknown id", map[string]any{"content": "x likes tea", "id": "no-such-id"}, "memory not found"},
		{"time outside the store's range", map[string]any{"content": "x likes tea", "time": "1066-10-14"}, "outside the years"},
		{"wrong argument type", map[string]any{"content": 42}, "failed to bind arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fails(t, f, "remember", tt.args, tt.want)
			if after := f.stats(t); after.Memories != before.Memories || after.Archived != before.Archived {
				t.Errorf("store changed by a rejected call: %+v -> %+v", before, after)
			}
		})
	}
	got, err := f.store.Get(t.Context(), []string{kept.ID})
	if err != nil || got[0].Content != kept.Content || got[0].RecallCount != 0 {
		t.Errorf("kept memory changed: %+v, %v", got, err)
	}
}

func TestRememberStoresAndReportsTheMemory(t *testing.T) {
	f := newFixture(t)
	out, text := ok[RememberOutput](t, f, "remember", map[string]any{
		"content": "Anna prefers window seats on flights",
		"tags":    []any{"Travel", "preferences", "travel"},
		"thread":  "conv-1",
	})
	if out.ID == "" || out.Duplicate || out.UpdatedExisting {
		t.Fatalf("out = %+v", out)
	}
	if want := "remembered " + out.ID + ": Anna prefers window seats on flights"; text != want {
		t.Errorf("text = %q, want %q", text, want)
	}
	if out.Kind != "thought" || out.Scope != "personal" || out.Thread != "conv-1" {
		t.Errorf("kind/scope/thread = %q/%q/%q", out.Kind, out.Scope, out.Thread)
	}
	if strings.Join(out.Tags, ",") != "travel,preferences" {
		t.Errorf("tags = %v, want lower-cased without repeats", out.Tags)
	}
	if want := epoch.Format(time.RFC3339); out.Time != want || out.Created != want {
		t.Errorf("time/created = %s/%s, want %s", out.Time, out.Created, want)
	}
	if out.Strength <= 0 || out.RecallCount != 0 {
		t.Errorf("strength/recall_count = %v/%d", out.Strength, out.RecallCount)
	}
}

func TestRememberTimes(t *testing.T) {
	f := newFixture(t)
	tests := []struct{ in, want string }{
		{"2026-04-02T09:30:00+02:00", "2026-04-02T07:30:00Z"},
		{"2026-04-02", "2026-04-02T00:00:00Z"},
		{"yesterday", "2026-05-10T00:00:00Z"},
		{"2026-06-01", "2026-06-01T00:00:00Z"}, // plans lie in the future
	}
	for i, tt := range tests {
		out := f.remember(t, map[string]any{"content": "event number " + string(rune('a'+i)), "time": tt.in})
		if out.Time != tt.want {
			t.Errorf("time %q stored as %s, want %s", tt.in, out.Time, tt.want)
		}
	}
	fails(t, f, "remember", map[string]any{"content": "x", "time": "our first conversation"}, "does not name a point in time")
}

func TestRememberDeduplicates(t *testing.T) {
	f := newFixture(t)
	first := f.remember(t, map[string]any{"content": "Bob's birthday is on 14 July"})
	again, text := ok[RememberOutput](t, f, "remember", map[string]any{"content": "  bob's BIRTHDAY is on 14 July "})
	if !again.Duplicate || again.ID != first.ID {
		t.Fatalf("second remember = %+v, want duplicate of %s", again, first.ID)
	}
	if !strings.HasPrefix(text, "already remembered (reinforced) "+first.ID) {
		t.Errorf("text = %q", text)
	}
	if st := f.stats(t); st.Memories != 1 {
		t.Errorf("memories = %d, want 1", st.Memories)
	}
}

func TestRememberUpdatesByID(t *testing.T) {
	f := newFixture(t)
	first := f.remember(t, map[string]any{"content": "The team meets on Tuesdays"})
	f.clock.Add(time.Hour)
	upd, text := ok[RememberOutput](t, f, "remember", map[string]any{"id": first.ID, "content": "The team meets on Wednesdays"})
	if upd.ID != first.ID || !upd.UpdatedExisting || upd.Duplicate {
		t.Fatalf("update = %+v", upd)
	}
	if upd.Content != "The team meets on Wednesdays" || upd.Updated == upd.Created {
		t.Errorf("content/updated = %q/%s", upd.Content, upd.Updated)
	}
	if !strings.HasPrefix(text, "updated "+first.ID) {
		t.Errorf("text = %q", text)
	}
	h, err := f.store.History(t.Context(), first.ID)
	if err != nil || len(h) != 1 || h[0].Memory.Content != "The team meets on Tuesdays" {
		t.Errorf("history = %+v, %v", h, err)
	}
}

func TestRememberFactSupersedes(t *testing.T) {
	f := newFixture(t)
	berlin := f.remember(t, map[string]any{"content": "The user lives in Berlin", "subject": "user", "predicate": "lives in", "object": "Berlin"})
	if berlin.Kind != "fact" {
		t.Fatalf("kind = %q, want fact inferred from subject/predicate/object", berlin.Kind)
	}
	f.clock.Add(24 * time.Hour)
	lisbon, text := ok[RememberOutput](t, f, "remember", map[string]any{"content": "The user lives in Lisbon", "kind": "fact", "subject": "User", "predicate": "lives in", "object": "Lisbon"})
	if len(lisbon.Superseded) != 1 || lisbon.Superseded[0] != berlin.ID {
		t.Fatalf("superseded = %v, want [%s]", lisbon.Superseded, berlin.ID)
	}
	if !strings.Contains(text, "supersedes "+berlin.ID) {
		t.Errorf("text = %q", text)
	}

	// The old fact leaves recall but stays reachable by id, marked.
	res, _ := ok[RecallOutput](t, f, "recall", map[string]any{"query": "where does the user live"})
	if len(res.Memories) != 1 || res.Memories[0].ID != lisbon.ID {
		t.Errorf("recall = %+v, want only the Lisbon fact", res.Memories)
	}
	old, oldText := ok[RecallOutput](t, f, "recall", map[string]any{"ids": []any{berlin.ID}})
	if old.Memories[0].Archived == "" || old.Memories[0].SupersededBy != lisbon.ID {
		t.Errorf("old fact = %+v, want archived and superseded by %s", old.Memories[0], lisbon.ID)
	}
	if !strings.Contains(oldText, "(archived)") || !strings.Contains(oldText, "superseded by "+lisbon.ID) {
		t.Errorf("old fact text = %q", oldText)
	}
	hist, histText := ok[RecallOutput](t, f, "recall", map[string]any{"ids": []any{lisbon.ID}, "history": true})
	found := false
	for _, v := range hist.Memories[0].History {
		found = found || v.Memory.ID == berlin.ID
	}
	if !found || !strings.Contains(histText, "Berlin") {
		t.Errorf("history of the new fact = %+v / %q, want the Berlin fact", hist.Memories[0].History, histText)
	}
}
