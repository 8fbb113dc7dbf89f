package tools

import (
	"strings"
	"testing"
)

func TestForgetRejectsBadInput(t *testing.T) {
	f := newFixture(t)
	m := f.remember(t, map[string]any{"content": "Old phone number is 555-0100", "tags": []any{"contact"}})
	before := f.stats(t)
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"nothing selected", map[string]any{}, "forget needs id, ids or a filter"},
		{"empty filter", map[string]any{"filter": map[string]any{}}, "forget needs id, ids or a filter"},
		{"ids and filter", map[string]any{"id": m.ID, "filter": map[string]any{"tag": "contact"}}, "either id/ids or filter"},
		{"empty id in ids", map[string]any{"ids": []any{m.ID, " "}}, "empty id"},
		{"bad tag", map[string]any{"filter": map[string]any{"tag": "phone numbers"}}, "not one lowercase word"},
		{"bad before", map[string]any{"filter": map[string]any{"before": "whenever"}}, `filter before "whenever" is not a time`},
		{"unknown id", map[string]any{"ids": []any{m.ID, "no-such-id"}}, "memory not found"},
		{"nothing matches", map[string]any{"filter": map[string]any{"tag": "holidays"}}, "no memory matched the filter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fails(t, f, "forget", tt.args, tt.want)
			if after := f.stats(t); after.Memories != before.Memories || after.Archived != before.Archived {
				t.Errorf("store changed by a rejected call: %+v -> %+v", before, after)
			}
		})
	}
}

func TestForgetDryRunArchivePurge(t *testing.T) {
	f := newFixture(t)
	a := f.remember(t, map[string]any{"content": "Old phone number is 555-0100", "tags": []any{"contact"}})
	b := f.remember(t, map[string]any{"content": "Old email is bob@example.org", "tags": []any{"contact"}})
	keep := f.remember(t, map[string]any{"content": "Favourite colour is green"})

	dry, text := ok[ForgetOutput](t, f, "forget", map[string]any{"filter": map[string]any{"tag": "contact"}, "dry_run": true})
	if !dry.DryRun || len(dry.IDs) != 2 || dry.Archived == nil || *dry.Archived != 2 {
		t.Fatalf("dry run = %+v", dry)
	}
	if !strings.HasPrefix(text, "dry run, nothing changed: would archive 2 memories") {
		t.Errorf("text = %q", text)
	}
	if st := f.stats(t); st.Memories != 3 || st.Archived != 0 {
		t.Errorf("dry run changed the store: %+v", st)
	}

	arch, text := ok[ForgetOutput](t, f, "forget", map[string]any{"id": a.ID})
	if arch.DryRun || len(arch.IDs) != 1 || arch.IDs[0] != a.ID || arch.Archived == nil || *arch.Archived != 1 || arch.Purged != nil {
		t.Fatalf("archive = %+v", arch)
	}
	if !strings.Contains(text, "archived 1 memory (recoverable: recall with include_archived)") {
		t.Errorf("text = %q", text)
	}
	found, _ := ok[RecallOutput](t, f, "recall", map[string]any{"query": "old phone number"})
	for _, m := range found.Memories {
		if m.ID == a.ID {
			t.Errorf("archived memory still recalled")
		}
	}
	back, _ := ok[RecallOutput](t, f, "recall", map[string]any{"query": "old phone number", "include_archived": true})
	if len(back.Memories) == 0 || back.Memories[0].ID != a.ID || back.Memories[0].Archived == "" {
		t.Errorf("include_archived = %+v, want the archived memory back", back.Memories)
	}

	// Forgetting it again changes nothing and is no error (idempotent).
	again, text := ok[ForgetOutput](t, f, "forget", map[string]any{"id": a.ID})
	if len(again.IDs) != 0 || !strings.HasPrefix(text, "already archived") {
		t.Errorf("again = %+v, %q", again, text)
	}

	purged, text := ok[ForgetOutput](t, f, "forget", map[string]any{"ids": []any{b.ID}, "purge": true})
	if purged.Purged == nil || *purged.Purged != 1 || purged.Archived != nil {
		t.Fatalf("purge = %+v", purged)
	}
	if !strings.HasPrefix(text, "deleted 1 memory for good") {
		t.Errorf("text = %q", text)
	}
	fails(t, f, "recall", map[string]any{"ids": []any{b.ID}}, "memory not found")
	if st := f.stats(t); st.Memories != 1 || st.Archived != 1 {
		t.Errorf("stats = %+v, want 1 active (%s) and 1 archived", st, keep.ID)
	}
}

func TestForgetFilterBefore(t *testing.T) {
	f := newFixture(t)
	old := f.remember(t, map[string]any{"content": "Trip to Rome in 2024", "time": "2024-03-01"})
	f.remember(t, map[string]any{"content": "Trip to Oslo in 2026", "time": "2026-03-01"})
	out, _ := ok[ForgetOutput](t, f, "forget", map[string]any{"filter": map[string]any{"before": "2025-01-01"}})
	if len(out.IDs) != 1 || out.IDs[0] != old.ID {
		t.Errorf("forgot %v, want only %s", out.IDs, old.ID)
	}
}
