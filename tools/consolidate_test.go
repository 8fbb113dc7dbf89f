package tools

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

// lisbon is a short conversation; its turns are at 09:00, 09:01 and 09:02
// on 2026-05-10 (UTC, the fixture's zone).
var lisbon = []any{
	map[string]any{"role": "user", "content": "I moved from Berlin to Lisbon last month.", "time": "2026-05-10T09:00:00Z"},
	map[string]any{"role": "assistant", "content": "How exciting! How do you like it?", "time": "2026-05-10T09:01:00Z"},
	map[string]any{"role": "user", "content": "Love it. My sister Ana visits next week; she is vegetarian.", "time": "2026-05-10T09:02:30Z"},
}

// connectSampling connects a client to the fixture's server; h nil means
// a client without the sampling capability.
func (f *fixture) connectSampling(t *testing.T, kind clientKind, h client.SamplingHandler) *client.Client {
	t.Helper()
	return connectWith(t, newServer(f.deps, server.WithOutputSchemaValidation()), kind, h)
}

// list returns every memory of the default scope, archived too.
func (f *fixture) list(t *testing.T) []memory.Memory {
	t.Helper()
	ms, err := f.store.List(context.Background(), memory.ListFilter{Scope: memory.DefaultScope, IncludeArchived: true})
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestConsolidateWithoutSampling(t *testing.T) {
	f := newFixture(t)
	old := f.remember(t, map[string]any{"content": "Ana is the user's sister", "tags": []any{"sibling"}})
	f.remember(t, map[string]any{"content": "The user's sister Ana lives in Porto", "tags": []any{"sibling"}})

	out, text := ok[ConsolidateOutput](t, f, "consolidate", map[string]any{"transcript": lisbon, "thread": "chat-1"})
	if out.Sampling || out.DryRun || out.Thread != "chat-1" {
		t.Errorf("out = %+v", out)
	}
	if len(out.Added) != 3 {
		t.Fatalf("added %d, want the 3 turns as episodes: %+v", len(out.Added), out.Added)
	}
	if a := out.Added[2]; a.Kind != "episode" || !strings.HasPrefix(a.Content, "user: Love it.") || a.Time != "2026-05-10T09:02:30Z" {
		t.Errorf("third turn stored as %+v", a)
	}
	// Recallable at once.
	rec, _ := ok[RecallOutput](t, f, "recall", map[string]any{"query": "Lisbon"})
	if len(rec.Memories) == 0 || !strings.Contains(rec.Memories[0].Content, "Lisbon") {
		t.Errorf("recall after consolidate = %+v", rec.Memories)
	}
	// Work items: the extraction prompt with the transcript, and a review
	// of the sibling memories.
	if len(out.WorkItems) < 2 || out.WorkItems[0].Kind != "extract" {
		t.Fatalf("work items = %+v", out.WorkItems)
	}
	if p := out.WorkItems[0].Prompt; !strings.Contains(p, "[2026-05-10 09:02] user: Love it.") || !strings.Contains(p, "<ontology>") {
		t.Errorf("extract prompt lacks the transcript or ontology:\n%s", p)
	}
	if !strings.Contains(out.WorkItems[0].Then, `"chat-1"`) {
		t.Errorf("extract then = %q", out.WorkItems[0].Then)
	}
	var review *WorkItem
	for i, w := range out.WorkItems {
		if w.Kind == "review" && w.Tag == "sibling" {
			review = &out.WorkItems[i]
		}
	}
	if review == nil || len(review.Memories) != 2 || !strings.Contains(review.Prompt, old.ID) {
		t.Fatalf("no sibling review with both memories by id: %+v", out.WorkItems)
	}
	for _, want := range []string{"work item 1 (extract)", "added ", "user: Love it."} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}

	// The same conversation again writes nothing new: the store dedups.
	before := f.stats(t)
	again, _ := ok[ConsolidateOutput](t, f, "consolidate", map[string]any{"transcript": lisbon, "thread": "chat-1"})
	for _, a := range again.Added {
		if !a.Duplicate {
			t.Errorf("second consolidate stored %+v again", a)
		}
	}
	if after := f.stats(t); after.Memories != before.Memories {
		t.Errorf("memories %d -> %d after consolidating the same conversation twice", before.Memories, after.Memories)
	}
}

func TestConsolidateTextTranscript(t *testing.T) {
	f := newFixture(t)
	text := "[2026-05-09T18:00:00Z] User: We adopted a puppy called Biscuit.\nIt is a beagle.\nAssistant: Congratulations!"
	out, _ := ok[ConsolidateOutput](t, f, "consolidate", map[string]any{"text": text})
	if len(out.Added) != 2 || out.Added[0].Content != "User: We adopted a puppy called Biscuit.\nIt is a beagle." || out.Added[1].Time != "2026-05-09T18:00:00Z" {
		t.Errorf("added = %+v", out.Added)
	}
	if !strings.HasPrefix(out.Thread, "conv-20260511T120000Z") {
		t.Errorf("default thread = %q", out.Thread)
	}
	fails(t, f, "consolidate", map[string]any{"text": "no speaker here"}, "has no speaker")
	fails(t, f, "consolidate", map[string]any{}, "needs a transcript")
	fails(t, f, "consolidate", map[string]any{"text": "User: hi", "transcript": lisbon}, "not both")
}

func TestConsolidateDryRunWritesNothing(t *testing.T) {
	f := newFixture(t)
	a := f.remember(t, map[string]any{"content": "User likes green tea"})
	b := f.remember(t, map[string]any{"content": "User enjoys green tea in the morning"})
	before, listBefore := f.stats(t), f.list(t)
	for _, args := range []map[string]any{
		{"transcript": lisbon, "dry_run": true},
		{"dry_run": true, "operations": []any{map[string]any{"op": "merge", "ids": []any{a.ID, b.ID}, "content": "User drinks green tea every morning"}}},
		{"dry_run": true, "since_last": true},
	} {
		out, text := ok[ConsolidateOutput](t, f, "consolidate", args)
		if !out.DryRun || !strings.HasPrefix(text, "dry run") {
			t.Errorf("%v: not a dry run: %+v", args, out)
		}
	}
	if after := f.stats(t); after.Memories != before.Memories || after.Archived != before.Archived {
		t.Errorf("stats %+v -> %+v on dry runs", before, after)
	}
	if listAfter := f.list(t); len(listAfter) != len(listBefore) {
		t.Errorf("list %d -> %d on dry runs", len(listBefore), len(listAfter))
	}
	if last, _ := f.store.LastConsolidated(context.Background(), ""); !last.IsZero() {
		t.Errorf("a dry run marked the scope consolidated at %v", last)
	}
}

func TestConsolidateOperations(t *testing.T) {
	f := newFixture(t)
	tea1 := f.remember(t, map[string]any{"content": "User likes green tea", "tags": []any{"tea"}})
	tea2 := f.remember(t, map[string]any{"content": "User drinks tea in the morning", "tags": []any{"tea"}})
	oldJob := f.remember(t, map[string]any{"content": "User works at a bakery"})
	newJob := f.remember(t, map[string]any{"content": "User now works at a bookshop"})
	junk := f.remember(t, map[string]any{"content": "Test note please ignore"})

	out, text := ok[ConsolidateOutput](t, f, "consolidate", map[string]any{"operations": []any{
		map[string]any{"op": "add", "content": "User's sister Ana is vegetarian", "tags": []any{"sibling", "vegetarian"}, "time": "2026-05-10"},
		map[string]any{"op": "add", "kind": "fact", "subject": "user", "predicate": "lives in", "object": "Lisbon"},
		map[string]any{"op": "merge", "ids": []any{tea1.ID, tea2.ID}, "content": "User drinks green tea every morning", "reason": "same habit"},
		map[string]any{"op": "supersede", "ids": []any{oldJob.ID}, "by": newJob.ID, "reason": "changed jobs"},
		map[string]any{"op": "archive", "ids": []any{junk.ID}, "reason": "test note"},
	}})
	if len(out.Added) != 2 || len(out.Merged) != 1 || len(out.Superseded) != 1 || len(out.Archived) != 1 {
		t.Fatalf("out = %+v", out)
	}
	if out.Added[0].Time != "2026-05-10T00:00:00Z" || !slices.Equal(out.Added[0].Tags, []string{"sibling", "vegetarian"}) {
		t.Errorf("added = %+v", out.Added[0])
	}
	if out.Added[1].Kind != "fact" {
		t.Errorf("fact = %+v", out.Added[1])
	}
	if m := out.Merged[0]; m.Content != "User drinks green tea every morning" || !slices.Equal(m.IDs, []string{tea1.ID, tea2.ID}) {
		t.Errorf("merged = %+v", m)
	}
	if s := out.Superseded[0]; s.ID != newJob.ID || !slices.Equal(s.IDs, []string{oldJob.ID}) {
		t.Errorf("superseded = %+v (want %s replacing %s)", s, newJob.ID, oldJob.ID)
	}
	if !strings.Contains(text, "merged into") || !strings.Contains(text, "same habit") {
		t.Errorf("text:\n%s", text)
	}
	// History shows the merge and the supersession.
	hist, _ := ok[RecallOutput](t, f, "recall", map[string]any{"ids": []any{tea1.ID, oldJob.ID}, "history": true})
	if got := hist.Memories[0]; got.SupersededBy != out.Merged[0].ID || len(got.History) == 0 || got.History[len(got.History)-1].Reason != "merge: same habit" {
		t.Errorf("merged memory = %+v", got)
	}
	if got := hist.Memories[1]; got.SupersededBy != newJob.ID || got.History[len(got.History)-1].Reason != "supersede: changed jobs" {
		t.Errorf("superseded memory = %+v", got)
	}

	fails(t, f, "consolidate", map[string]any{"operations": []any{map[string]any{"op": "merge", "ids": []any{newJob.ID, "nope"}}}}, "not found")
	fails(t, f, "consolidate", map[string]any{"operations": []any{map[string]any{"op": "add"}}}, "content is empty")
	fails(t, f, "consolidate", map[string]any{"operations": []any{map[string]any{"op": "add", "content": "x", "tags": []any{"two words"}}}}, "not one lowercase word")
	fails(t, f, "consolidate", map[string]any{"operations": []any{map[string]any{"op": "add", "content": "x"}}, "text": "User: hi"}, "on their own")
}

func TestConsolidateSinceLastMarks(t *testing.T) {
	f := newFixture(t)
	f.remember(t, map[string]any{"content": "User plans a trip to Kyoto", "tags": []any{"travel"}})
	f.remember(t, map[string]any{"content": "User booked flights to Kyoto for October", "tags": []any{"travel"}})
	f.clock.Add(time.Minute)
	out, _ := ok[ConsolidateOutput](t, f, "consolidate", map[string]any{"since_last": true})
	if len(out.WorkItems) != 1 || out.WorkItems[0].Tag != "travel" || len(out.WorkItems[0].Memories) != 2 {
		t.Errorf("work items = %+v", out.WorkItems)
	}
	last, err := f.store.LastConsolidated(context.Background(), "")
	if err != nil || !last.Equal(epoch.Add(time.Minute)) {
		t.Errorf("last consolidated = %v, %v; want %v", last, err, epoch.Add(time.Minute))
	}
	f.clock.Add(time.Hour)
	out, _ = ok[ConsolidateOutput](t, f, "consolidate", map[string]any{"since_last": true})
	if len(out.WorkItems) != 0 {
		t.Errorf("second since_last found work: %+v", out.WorkItems)
	}
}

// TestConsolidateModernInputRequest calls the handler as a 2026-07-28
// client with sampling would: the first call asks for the key events in an
// input request; the retry with the answer asks for the next round.
func TestConsolidateModernInputRequest(t *testing.T) {
	f := newFixture(t)
	handler := f.handler(t, "consolidate")
	ctx := server.WithRequestProtocolInfo(t.Context(), &server.RequestProtocolInfo{
		Modern: true, ProtocolVersion: "2026-07-28",
		ClientCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapability{}},
	})
	var req mcp.CallToolRequest
	req.Params.Name = "consolidate"
	req.Params.Arguments = map[string]any{"transcript": lisbon, "thread": "t1"}
	res, err := handler(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.ResultType != mcp.ResultTypeInputRequired || len(res.InputRequests) != 1 {
		t.Fatalf("first call = %+v", res)
	}
	if _, ok := res.InputRequests[idKeyEvents]; !ok {
		t.Fatalf("first call asks %v", res.InputRequests)
	}
	if st := f.stats(t); st.Memories != 0 {
		t.Errorf("the first round wrote %d memories", st.Memories)
	}
	req.Params.InputResponses = mcp.InputResponses{idKeyEvents: textReply("User moved to Lisbon;2026-05-10 09:00\nNONE")}
	req.Params.RequestState = res.RequestState
	res, err = handler(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.ResultType != mcp.ResultTypeInputRequired || res.InputRequests[idTags].Sampling == nil {
		t.Fatalf("second call = %+v, want the select-tags request", res)
	}
	req.Params.InputResponses = mcp.InputResponses{idTags: textReply("1: moving, residence")}
	req.Params.RequestState = res.RequestState
	res, err = handler(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	out := decode[ConsolidateOutput](t, res.StructuredContent)
	if len(out.Added) != 1 || !slices.Equal(out.Added[0].Tags, []string{"moving", "residence"}) || out.Added[0].Time != "2026-05-10T09:00:00Z" {
		t.Errorf("final = %+v", out)
	}
}

func textReply(text string) mcp.InputResponse {
	return mcp.NewSamplingInputResponse(mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(text)}, Model: "m",
	})
}
