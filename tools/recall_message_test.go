package tools

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// numberOf finds the number of the memory line containing text in a
// relevance prompt ("2. [2026-05-10] text").
func numberOf(prompt, text string) string {
	re := regexp.MustCompile(`^(\d+)\. `)
	for _, l := range strings.Split(prompt, "\n") {
		if m := re.FindStringSubmatch(l); m != nil && strings.Contains(l, text) {
			return m[1]
		}
	}
	return "NONE"
}

func TestRecallMessageWithoutSampling(t *testing.T) {
	f := newFixture(t)
	cello := f.remember(t, map[string]any{"content": "Carla plays the cello in a string quartet"})
	f.clock.Add(-400 * 24 * time.Hour) // old, loosely related memories
	for i := range 8 {
		f.remember(t, map[string]any{"content": fmt.Sprintf("Carla mentioned errand number %d in passing", i)})
	}
	f.clock.Add(400 * 24 * time.Hour)

	out, text := ok[RecallOutput](t, f, "recall", map[string]any{"message": "What instrument does Carla play?", "limit": 10})
	dec := out.Decisions
	if dec == nil || dec.Sampling || !dec.MemoryNeeded || dec.Filter != "threshold" || dec.Threshold != DefaultMessageMinProbability {
		t.Fatalf("decisions = %+v", dec)
	}
	if len(out.Memories) == 0 || out.Memories[0].ID != cello.ID {
		t.Fatalf("memories = %+v", out.Memories)
	}
	if dec.FilteredOut == 0 {
		t.Errorf("the threshold dropped nothing: %+v\n%s", out.Memories, text)
	}
	for _, m := range out.Memories {
		if m.Score.Probability < DefaultMessageMinProbability {
			t.Errorf("kept %q with probability %v", m.Content, m.Score.Probability)
		}
	}
	if !strings.HasPrefix(text, "searched long-term memory") {
		t.Errorf("text = %q", text)
	}
	fails(t, f, "recall", map[string]any{"message": "x", "query": "y"}, "not both")
}

func TestRecallMessageThresholdInSchema(t *testing.T) {
	tool, _ := Recall(Deps{})
	data, _ := snapshotJSON(tool)
	if !strings.Contains(string(data), "default is "+strconv.FormatFloat(DefaultMessageMinProbability, 'g', -1, 64)) {
		t.Errorf("recall's schema does not name the default threshold %v", DefaultMessageMinProbability)
	}
}

func TestRecallMessageWithSampling(t *testing.T) {
	f := newFixture(t)
	cello := f.remember(t, map[string]any{"content": "Carla plays the cello in a string quartet", "tags": []any{"music"}})
	f.remember(t, map[string]any{"content": "Carla's quartet rehearses on Thursdays", "tags": []any{"music"}})
	f.remember(t, map[string]any{"content": "Carla is allergic to cats"})

	tests := []struct {
		name       string
		controller string
		relevance  func(p string) string
		check      func(t *testing.T, out RecallOutput, h *scripted)
	}{
		{"not needed", "Q1: B", nil, func(t *testing.T, out RecallOutput, h *scripted) {
			if out.Decisions.MemoryNeeded || len(out.Memories) != 0 {
				t.Errorf("out = %+v", out)
			}
		}},
		{"current conversation", "Q1: A\nQ2: B\nQ3: B", nil, func(t *testing.T, out RecallOutput, h *scripted) {
			if out.Decisions.Source != "conversation" || len(out.Memories) != 0 {
				t.Errorf("out = %+v", out)
			}
		}},
		{"needed and filtered", "Q1: A\nQ2: B\nQ3: A", func(p string) string { return numberOf(p, "cello") }, func(t *testing.T, out RecallOutput, h *scripted) {
			d := out.Decisions
			if !d.MemoryNeeded || d.Source != "long-term" || d.Filter != "relevance-filter" || d.FilteredOut == 0 || !d.Sampling {
				t.Errorf("decisions = %+v", d)
			}
			if len(d.Tags) != 1 || d.Tags[0] != "music" {
				t.Errorf("tags = %v", d.Tags)
			}
			if len(out.Memories) != 1 || out.Memories[0].ID != cello.ID {
				t.Errorf("memories = %+v", out.Memories)
			}
		}},
		{"nothing relevant", "Q1: A\nQ2: A", func(string) string { return "NONE" }, func(t *testing.T, out RecallOutput, h *scripted) {
			if out.Decisions.Source != "both" || len(out.Memories) != 0 || out.Decisions.FilteredOut == 0 {
				t.Errorf("out = %+v", out)
			}
		}},
		{"garbage everywhere", "maybe?", func(string) string { return "I think they are all great" }, func(t *testing.T, out RecallOutput, h *scripted) {
			d := out.Decisions
			if !d.MemoryNeeded || d.Filter != "threshold" || len(d.Fallbacks) != 2 {
				t.Errorf("decisions = %+v", d)
			}
			if len(out.Memories) == 0 || out.Memories[0].ID != cello.ID {
				t.Errorf("memories = %+v", out.Memories)
			}
		}},
	}
	for _, tt := range tests {
		for _, kind := range []clientKind{modernClient, legacyClient} {
			t.Run(tt.name+"/"+kind.String(), func(t *testing.T) {
				rules := []rule{say("Decide whether the reply", tt.controller), say("Choose topic tags", "music")}
				if tt.relevance != nil {
					rules = append(rules, rule{key: "A search of the user's long-term memory", reply: tt.relevance})
				}
				h := &scripted{rules: rules}
				c := f.connectSampling(t, kind, h)
				out, _ := callOverProtocol[RecallOutput](t, c, "recall", map[string]any{"message": "Which instrument does Carla play?", "reinforce": false})
				if out.Decisions == nil {
					t.Fatal("no decisions")
				}
				tt.check(t, out, h)
			})
		}
	}
}

func TestRecallReinforcesOnlyWhatIsShown(t *testing.T) {
	f := newFixture(t)
	f.deps.Budget = 700
	long := strings.Repeat("Details of the Lisbon flat viewing and its many rooms. ", 8)
	var ids []string
	for i := range 6 {
		ids = append(ids, f.remember(t, map[string]any{"content": fmt.Sprintf("Flat %d in Lisbon: %s", i, long)}).ID)
	}
	out, _ := ok[RecallOutput](t, f, "recall", map[string]any{"query": "Lisbon flat", "limit": 6})
	if len(out.Memories) == 0 || len(out.Memories) == 6 {
		t.Fatalf("the budget kept %d of 6", len(out.Memories))
	}
	shown := map[string]bool{}
	for _, m := range out.Memories {
		shown[m.ID] = true
	}
	ms, err := f.store.Get(t.Context(), ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if want := map[bool]int{true: 1, false: 0}[shown[m.ID]]; m.RecallCount != want {
			t.Errorf("%s shown=%v recall_count %d, want %d", m.ID, shown[m.ID], m.RecallCount, want)
		}
	}
}

func TestPromptsOverProtocol(t *testing.T) {
	f := newFixture(t)
	c, init := f.connect(t)
	if init.Capabilities.Prompts == nil {
		t.Error("no prompts capability")
	}
	list, err := c.ListPrompts(t.Context(), mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	for _, want := range []string{"memory-controller", "select-tags", "post-thinking", "review-memories", "relevance-filter", "key-events", "ontology-expansion"} {
		if !strings.Contains(strings.Join(names, ","), want) {
			t.Errorf("prompts %v lack %s", names, want)
		}
	}
	var req mcp.GetPromptRequest
	req.Params.Name = "select-tags"
	req.Params.Arguments = map[string]string{"items": "We adopted a beagle\nI start at a bakery"}
	res, err := c.GetPrompt(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Messages[0].Content.(mcp.TextContent).Text
	for _, want := range []string{"<ontology>", "food", "1: We adopted a beagle", "2: I start at a bakery"} {
		if !strings.Contains(text, want) {
			t.Errorf("select-tags prompt lacks %q", want)
		}
	}
	req.Params.Name = "review-memories"
	req.Params.Arguments = map[string]string{"tag": "tea", "memories": "m1 | 2026-05-01 | User likes tea\nm2 | 2026-05-02 | User drinks green tea"}
	if res, err = c.GetPrompt(t.Context(), req); err != nil || !strings.Contains(res.Messages[0].Content.(mcp.TextContent).Text, "m2 | 2026-05-02 | User drinks green tea") {
		t.Errorf("review prompt: %v %+v", err, res)
	}
	req.Params.Arguments = map[string]string{"tag": "tea"}
	if _, err := c.GetPrompt(t.Context(), req); err == nil || !strings.Contains(err.Error(), "memories") {
		t.Errorf("missing argument: err = %v", err)
	}
}
