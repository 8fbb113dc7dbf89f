package tools

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mneme-mcp/mneme/memory"
)

// refOf finds the ref of the memory line containing text in a review
// prompt ("m3 | 2026-05-10 | text").
func refOf(prompt, text string) string {
	for _, l := range strings.Split(prompt, "\n") {
		if strings.Contains(l, text) && strings.Contains(l, " | ") {
			return strings.TrimSpace(strings.SplitN(l, "|", 2)[0])
		}
	}
	return "missing"
}

var reviewTag = regexp.MustCompile(`carry the tag "([a-z0-9]+)"`)

// reviewer answers review prompts per tag; tags without an answer KEEP.
func reviewRule(answers map[string]func(prompt string) string) rule {
	return rule{key: "all carry the tag", reply: func(p string) string {
		m := reviewTag.FindStringSubmatch(p)
		if m != nil && answers[m[1]] != nil {
			return answers[m[1]](p)
		}
		return "KEEP"
	}}
}

const goodKeyEvents = `Sure, here they are:
User moved from Berlin to Lisbon in April 2026;2026-05-10 09:00;moving,residence
FACT;user;lives in;Lisbon;2026-05-10 09:00
User's sister Ana visits in the week of 2026-05-17;2026-05-10 09:02;sibling
Ana is vegetarian;2026-05-10 09:02;vegetarian,madeuptag`

func TestConsolidateWithSampling(t *testing.T) {
	for _, kind := range []clientKind{modernClient, legacyClient} {
		t.Run(kind.String(), func(t *testing.T) {
			f := newFixture(t)
			berlin := f.remember(t, map[string]any{"content": "user lives in Berlin", "kind": "fact", "subject": "user", "predicate": "lives in", "object": "Berlin", "tags": []any{"residence"}})
			sister := f.remember(t, map[string]any{"content": "Ana is the user's sister", "tags": []any{"sibling"}})
			porto := f.remember(t, map[string]any{"content": "The user's sister Ana lives in Porto", "tags": []any{"sibling"}})
			h := &scripted{rules: []rule{
				say("<transcript>", goodKeyEvents),
				say("Choose topic tags", "1: residence, moving"),
				reviewRule(map[string]func(string) string{
					"sibling": func(p string) string {
						return "MERGE " + refOf(p, "Ana is the user's sister") + "," + refOf(p, "lives in Porto") + " => The user's sister Ana lives in Porto"
					},
					"residence": func(p string) string {
						return "SUPERSEDE " + refOf(p, "user lives in Berlin") + " => " + refOf(p, "user lives in Lisbon")
					},
				}),
			}}
			c := f.connectSampling(t, kind, h)
			out, text := callOverProtocol[ConsolidateOutput](t, c, "consolidate", map[string]any{"transcript": lisbon, "thread": "chat-7"})
			if !out.Sampling || len(out.WorkItems) != 0 {
				t.Errorf("sampling %v, work items %+v", out.Sampling, out.WorkItems)
			}
			if len(out.Fallbacks) != 0 {
				t.Errorf("fallbacks = %v", out.Fallbacks)
			}
			byContent := map[string]ChangeOut{}
			for _, a := range out.Added {
				byContent[a.Content] = a
			}
			moved := byContent["User moved from Berlin to Lisbon in April 2026"]
			if moved.Time != "2026-05-10T09:00:00Z" || !slices.Equal(moved.Tags, []string{"moving", "residence"}) || moved.Kind != "thought" {
				t.Errorf("moved = %+v (added %+v)", moved, out.Added)
			}
			if veg := byContent["Ana is vegetarian"]; veg.Time != "2026-05-10T09:02:30Z" || !slices.Equal(veg.Tags, []string{"vegetarian"}) {
				t.Errorf("vegetarian = %+v: want the exact turn time and the made-up tag dropped", veg)
			}
			if len(out.Merged) != 1 || !slices.Equal(sorted(out.Merged[0].IDs), sorted([]string{sister.ID, porto.ID})) {
				t.Errorf("merged = %+v", out.Merged)
			}
			if len(out.Superseded) != 1 || !slices.Equal(out.Superseded[0].IDs, []string{berlin.ID}) || out.Superseded[0].Kind != "fact" ||
				!slices.Equal(out.Superseded[0].Tags, []string{"residence", "moving"}) {
				t.Errorf("superseded = %+v", out.Superseded)
			}
			if !strings.Contains(text, "superseded by") {
				t.Errorf("text:\n%s", text)
			}
			hist, _ := ok[RecallOutput](t, f, "recall", map[string]any{"ids": []any{berlin.ID}, "history": true})
			if m := hist.Memories[0]; m.SupersededBy != out.Superseded[0].ID || m.History[len(m.History)-1].Reason != "supersede: review: updated by a newer memory" {
				t.Errorf("berlin after review = %+v", m)
			}
			// The batched requests: one key-events, one select-tags (for the
			// fact), one review per group, nothing twice.
			var keyEvents, tagReqs int
			for _, p := range h.prompts() {
				keyEvents += strings.Count(p, "<transcript>")
				if strings.Contains(p, "Choose topic tags") {
					tagReqs++
				}
			}
			if keyEvents != 1 || tagReqs != 1 {
				t.Errorf("key-events asked %d times, select-tags %d times", keyEvents, tagReqs)
			}
		})
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestConsolidateMalformedReplies(t *testing.T) {
	garbage := []struct {
		name      string
		rules     []rule
		fallback  string
		episodes  bool
		forbidden string
	}{
		{"garbage key events", []rule{say("<transcript>", "I'm sorry, I cannot help with that. Here is a poem instead.")},
			"key-events: reply unparseable", true, "poem"},
		{"empty key events", []rule{say("<transcript>", "   ")}, "key-events: the reply held no text", true, ""},
		{"key events in another script", []rule{
			say("<transcript>", "用户从柏林搬到了里斯本;2026-05-10 09:00;moving\nUser moved to Lisbon;2026-05-10 09:00;moving"),
			reviewRule(nil),
		}, "not in the conversation's language", false, "里斯本"},
		{"made-up and foreign tags", []rule{
			say("<transcript>", "User moved to Lisbon;2026-05-10 09:00;relocationstuff"),
			say("got no tag from the ontology", "1: umzug"),
			say("Choose topic tags", "1: mudanza, hogar"),
			reviewRule(nil),
		}, "select-tags: reply unparseable, used the deterministic tagger", false, "umzug"},
		{"review garbage", []rule{
			say("<transcript>", "User moved to Lisbon;2026-05-10 09:00;moving"),
			reviewRule(map[string]func(string) string{"moving": func(string) string { return "MERGE everything => whatever" }}),
		}, "", false, "whatever"},
	}
	for _, tt := range garbage {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.remember(t, map[string]any{"content": "User is looking at flats in Lisbon", "tags": []any{"moving"}})
			c := f.connectSampling(t, legacyClient, &scripted{rules: tt.rules})
			out, _ := callOverProtocol[ConsolidateOutput](t, c, "consolidate", map[string]any{"transcript": lisbon})
			if tt.fallback != "" && !slices.ContainsFunc(out.Fallbacks, func(s string) bool { return strings.Contains(s, tt.fallback) }) {
				t.Errorf("fallbacks %q lack %q", out.Fallbacks, tt.fallback)
			}
			if tt.episodes != (len(out.Added) == 3 && out.Added[0].Kind == "episode") {
				t.Errorf("episodes stored = %v, want %v: %+v", !tt.episodes, tt.episodes, out.Added)
			}
			o := f.deps.tree()
			for _, m := range f.list(t) {
				if tt.forbidden != "" && strings.Contains(m.Content, tt.forbidden) {
					t.Errorf("garbage stored: %+v", m)
				}
				for _, tag := range m.Tags {
					if !o.Has(tag) {
						t.Errorf("tag %q outside the ontology stored on %q", tag, m.Content)
					}
				}
				if m.Kind == memory.KindThought && m.Source == "consolidate" && len(m.Tags) == 0 {
					t.Errorf("thought stored without tags: %+v", m)
				}
			}
			if len(out.Merged)+len(out.Superseded)+len(out.Archived) != 0 {
				t.Errorf("changes from garbage: %+v", out)
			}
		})
	}
}

// TestConsolidateReplaySafe calls consolidate twice with the same
// conversation over the legacy path: the second call writes nothing new.
func TestConsolidateReplaySafe(t *testing.T) {
	f := newFixture(t)
	h := &scripted{rules: []rule{
		say("<transcript>", "User moved to Lisbon;2026-05-10 09:00;moving\nFACT;user;lives in;Lisbon;2026-05-10 09:00;residence"),
		reviewRule(nil),
	}}
	c := f.connectSampling(t, legacyClient, h)
	args := map[string]any{"transcript": lisbon, "thread": "same"}
	first, _ := callOverProtocol[ConsolidateOutput](t, c, "consolidate", args)
	after1, list1 := f.stats(t), f.list(t)
	second, _ := callOverProtocol[ConsolidateOutput](t, c, "consolidate", args)
	after2, list2 := f.stats(t), f.list(t)
	if len(first.Added) != 2 || after1.Memories != 2 {
		t.Fatalf("first = %+v, stats %+v", first.Added, after1)
	}
	if after2.Memories != after1.Memories || after2.Archived != after1.Archived || len(list2) != len(list1) {
		t.Errorf("second call wrote: %+v -> %+v", after1, after2)
	}
	for _, a := range second.Added {
		if !a.Duplicate {
			t.Errorf("second call stored %+v anew", a)
		}
	}
}

func TestConsolidateReportsProgress(t *testing.T) {
	f := newFixture(t)
	h := &scripted{rules: []rule{say("<transcript>", "User moved to Lisbon;2026-05-10 09:00;moving"), reviewRule(nil)}}
	c := f.connectSampling(t, legacyClient, h)
	var mu sync.Mutex
	var steps []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) {
			mu.Lock()
			steps = append(steps, fmt.Sprint(n.Params.AdditionalFields["message"]))
			mu.Unlock()
		}
	})
	var req mcp.CallToolRequest
	req.Params.Name = "consolidate"
	req.Params.Arguments = map[string]any{"transcript": lisbon}
	req.Params.Meta = &mcp.Meta{ProgressToken: "p1"}
	if _, err := c.CallTool(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		mu.Lock()
		n := len(steps)
		mu.Unlock()
		if n >= 5 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(steps) < 5 || steps[0] != "extracting key events" || steps[len(steps)-1] != "done" {
		t.Errorf("progress = %q", steps)
	}
}
