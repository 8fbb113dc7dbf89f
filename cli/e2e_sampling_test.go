package cli_test

// End-to-end sampling: `mneme serve` over stdio driven by the official Go
// SDK client with a CreateMessageHandler standing in for the client's model.
// The handler answers by recognising which prompt template it is given.
//
// Protocol: the SDK's default. go-sdk v1.8.0 first probes server/discover
// and, when the server offers it, speaks 2026-07-28, where sampling rides
// on the tool call itself (input requests in the result, answers sent back
// on a retry by the SDK's multi-round-trip middleware); otherwise it falls
// back to initialize with 2025-11-25 and server-initiated
// sampling/createMessage requests. With mneme the default is 2026-07-28
// (checked below); TestSamplingConsolidateAndRecall also runs the legacy
// generation by asking the SDK for 2025-11-25.

import (
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// samplingModel is a scripted model: it answers each template with a fixed
// reply built from the prompt, and records the templates it was asked.
type samplingModel struct {
	garbage bool // answer every prompt with text no parser accepts
	mu      sync.Mutex
	asked   []string
}

func (m *samplingModel) handle(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	var prompt strings.Builder
	for _, msg := range req.Params.Messages {
		if tc, ok := msg.Content.(*mcp.TextContent); ok && msg.Role == "user" {
			prompt.WriteString(tc.Text)
			prompt.WriteByte('\n')
		}
	}
	template, reply := m.answer(prompt.String())
	m.mu.Lock()
	m.asked = append(m.asked, template)
	m.mu.Unlock()
	if m.garbage {
		reply = "Sorry, as a language model I would rather talk about the weather today"
	}
	return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: reply}, Model: "scripted", Role: "assistant", StopReason: "endTurn"}, nil
}

func (m *samplingModel) templates() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.asked)
}

var (
	turnTime    = regexp.MustCompile(`(?m)^\[([0-9: -]+)\] (?:user|assistant): (.*)$`)
	reviewLine  = regexp.MustCompile(`(?m)^([mn][0-9]+) \| [^|]* \| (.*)$`)
	numbered    = regexp.MustCompile(`(?m)^([0-9]+)[.:] (?:\[[^\]]*\] )?(.*)$`)
	reviewTagRe = regexp.MustCompile(`carry the tag "([a-z0-9]+)"`)
)

// answer returns the template's name and the scripted reply.
func (m *samplingModel) answer(p string) (string, string) {
	switch {
	case strings.Contains(p, "<transcript>"): // key-events
		var lisbon, tea string
		transcript := p[strings.LastIndex(p, "<transcript>"):] // not the template's example
		for _, t := range turnTime.FindAllStringSubmatch(transcript, -1) {
			switch {
			case strings.Contains(t[2], "Lisbon") && lisbon == "":
				lisbon = t[1]
			case strings.Contains(t[2], "green tea") && tea == "":
				tea = t[1]
			}
		}
		return "key-events", strings.Join([]string{
			"User moved from Berlin to Lisbon in April 2026;" + lisbon + ";moving,residence",
			"FACT;user;lives in;Lisbon;" + lisbon,
			"User drinks green tea every morning;" + tea + ";tea",
		}, "\n")
	case strings.Contains(p, "Choose topic tags"): // select-tags
		texts := p[strings.Index(p, "<texts>"):]
		var lines []string
		for _, t := range numbered.FindAllStringSubmatch(texts, -1) {
			tags := "NONE"
			switch {
			case strings.Contains(t[2], "Lisbon"):
				tags = "residence, moving"
			case strings.Contains(t[2], "tea"):
				tags = "tea, drinks"
			}
			lines = append(lines, t[1]+": "+tags)
		}
		return "select-tags", strings.Join(lines, "\n")
	case strings.Contains(p, "all carry the tag"): // review
		refs := map[string]string{}
		var teas []string
		for _, l := range reviewLine.FindAllStringSubmatch(p, -1) {
			refs[l[2]] = l[1]
			if strings.HasPrefix(l[1], "m") && strings.Contains(l[2], "green tea") {
				teas = append(teas, l[1])
			}
		}
		var ops []string
		if len(teas) == 2 {
			ops = append(ops, "MERGE "+teas[0]+","+teas[1]+" => The user drinks green tea without sugar")
		}
		var berlin, lisbon string
		for text, ref := range refs {
			switch text {
			case "user lives in Berlin":
				berlin = ref
			case "user lives in Lisbon":
				lisbon = ref
			}
		}
		if berlin != "" && lisbon != "" {
			ops = append(ops, "SUPERSEDE "+berlin+" => "+lisbon)
		}
		if len(ops) == 0 {
			ops = []string{"KEEP"}
		}
		tag := reviewTagRe.FindStringSubmatch(p)[1]
		return "review " + tag, strings.Join(ops, "\n")
	case strings.Contains(p, "needs memory, and which kind"): // memory-controller
		return "memory-controller", "Q1: A\nQ2: B\nQ3: A"
	case strings.Contains(p, "A search of the user's long-term memory"): // relevance-filter
		mems := p[strings.Index(p, "<memories>"):]
		var keep []string
		for _, l := range numbered.FindAllStringSubmatch(mems, -1) {
			if strings.Contains(l[2], "tea") {
				keep = append(keep, l[1])
			}
		}
		if len(keep) == 0 {
			return "relevance-filter", "NONE"
		}
		return "relevance-filter", strings.Join(keep, ", ")
	}
	return "unknown", "KEEP"
}

// samplingClient is the SDK client with the sampling capability (added by
// CreateMessageHandler) and without roots: an empty Capabilities replaces
// the SDK's default roots capability, so calls use the personal scope (the
// roots round trip has a test of its own, TestServeRootsScope).
func samplingClient(m *samplingModel) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "mneme-e2e-sampling", Version: "1"},
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}, CreateMessageHandler: m.handle})
}

// callRaw calls a tool and returns its structured content as JSON, for the
// caller to decode and for the docs.
func callRaw(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error %s", name, contentText(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

type change struct {
	ID      string   `json:"id"`
	IDs     []string `json:"ids"`
	Content string   `json:"content"`
	Kind    string   `json:"kind"`
	Tags    []string `json:"tags"`
	Time    string   `json:"time"`
}

type consolidated struct {
	Added      []change `json:"added"`
	Merged     []change `json:"merged"`
	Superseded []change `json:"superseded"`
	WorkItems  []struct {
		Kind   string `json:"kind"`
		Prompt string `json:"prompt"`
		Then   string `json:"then"`
	} `json:"work_items"`
	Fallbacks []string `json:"fallbacks"`
	Thread    string   `json:"thread"`
	Sampling  bool     `json:"sampling"`
}

type recalledFull struct {
	Memories []struct {
		ID           string   `json:"id"`
		Content      string   `json:"content"`
		Kind         string   `json:"kind"`
		Tags         []string `json:"tags"`
		Archived     string   `json:"archived"`
		SupersededBy string   `json:"superseded_by"`
		History      []struct {
			Reason string `json:"reason"`
		} `json:"history"`
	} `json:"memories"`
	Decisions *struct {
		MemoryNeeded bool     `json:"memory_needed"`
		Source       string   `json:"source"`
		Tags         []string `json:"tags"`
		Filter       string   `json:"filter"`
		FilteredOut  int      `json:"filtered_out"`
		Sampling     bool     `json:"sampling"`
		Fallbacks    []string `json:"fallbacks"`
	} `json:"decisions"`
}

// sampleTranscript is the conversation consolidated by the tests.
var sampleTranscript = []map[string]any{
	{"role": "user", "content": "I finally moved to Lisbon last month, the flat in Alfama is lovely.", "time": "2026-05-10T09:00:00Z"},
	{"role": "assistant", "content": "Congratulations on the move! How is it going?", "time": "2026-05-10T09:00:30Z"},
	{"role": "user", "content": "Great. I start every morning with a pot of green tea on the balcony.", "time": "2026-05-10T09:02:00Z"},
}

// seed remembers two near-duplicate memories and an old fact.
func seed(t *testing.T, cs *mcp.ClientSession) (tea1, tea2, berlin string) {
	t.Helper()
	var a, b, c remembered
	call(t, cs, "remember", map[string]any{"content": "The user likes green tea without sugar", "tags": []string{"tea"}, "time": "2026-03-01"}, &a)
	call(t, cs, "remember", map[string]any{"content": "The user drinks green tea, never sweetened", "tags": []string{"tea"}, "time": "2026-04-02"}, &b)
	call(t, cs, "remember", map[string]any{"content": "user lives in Berlin", "kind": "fact", "subject": "user", "predicate": "lives in", "object": "Berlin", "tags": []string{"residence"}, "time": "2025-01-15"}, &c)
	if a.ID == "" || b.ID == "" || c.ID == "" || a.Duplicate || b.Duplicate {
		t.Fatalf("remember: %+v %+v %+v", a, b, c)
	}
	return a.ID, b.ID, c.ID
}

// connectVersion is connectWith asking the SDK for protocol version ("" =
// the SDK's default).
func connectVersion(t *testing.T, client *mcp.Client, env []string, version string) *mcp.ClientSession {
	t.Helper()
	if version == "" {
		return connectWith(t, client, env)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = env
	var stderr syncBuffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect to mneme serve: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// logJSON logs raw with long strings (the work items' prompts) cut short.
func logJSON(t *testing.T, what string, raw json.RawMessage) {
	t.Helper()
	var v any
	if json.Unmarshal(raw, &v) != nil {
		t.Logf("%s: %s", what, raw)
		return
	}
	var trim func(any) any
	trim = func(v any) any {
		switch v := v.(type) {
		case string:
			if len(v) > 160 {
				return v[:160] + "..."
			}
		case []any:
			for i := range v {
				v[i] = trim(v[i])
			}
		case map[string]any:
			for k := range v {
				v[k] = trim(v[k])
			}
		}
		return v
	}
	out, _ := json.MarshalIndent(trim(v), "", "  ")
	t.Logf("%s:\n%s", what, out)
}

func TestSamplingConsolidateAndRecall(t *testing.T) {
	for _, tc := range []struct{ name, ask, want string }{
		{"default", "", "2026-07-28"},          // input requests in the tool result, retried by the SDK
		{"legacy", "2025-11-25", "2025-11-25"}, // server-initiated sampling/createMessage
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := &samplingModel{}
			cs := connectVersion(t, samplingClient(model), procEnv(t, "TZ=UTC"), tc.ask)
			if got := cs.InitializeResult().ProtocolVersion; got != tc.want {
				t.Fatalf("negotiated protocol %s, want %s", got, tc.want)
			}
			consolidateAndRecall(t, cs, model)
		})
	}
}

func consolidateAndRecall(t *testing.T, cs *mcp.ClientSession, model *samplingModel) {
	tea1, tea2, berlin := seed(t, cs)

	raw := callRaw(t, cs, "consolidate", map[string]any{"transcript": sampleTranscript, "thread": "chat-lisbon"})
	logJSON(t, "consolidate with sampling", raw)
	out := decode[consolidated](t, raw)
	if !out.Sampling || len(out.WorkItems) != 0 || len(out.Fallbacks) != 0 {
		t.Errorf("sampling %v, work items %d, fallbacks %v", out.Sampling, len(out.WorkItems), out.Fallbacks)
	}
	byContent := map[string]change{}
	for _, a := range out.Added {
		byContent[a.Content] = a
	}
	if moved := byContent["User moved from Berlin to Lisbon in April 2026"]; moved.Kind != "thought" || moved.Time != "2026-05-10T09:00:00Z" || !slices.Equal(moved.Tags, []string{"moving", "residence"}) {
		t.Errorf("moved thought = %+v (added %+v)", moved, out.Added)
	}
	if tea := byContent["User drinks green tea every morning"]; tea.Kind != "thought" || tea.Time != "2026-05-10T09:02:00Z" || !slices.Equal(tea.Tags, []string{"tea"}) {
		t.Errorf("tea thought = %+v (added %+v)", tea, out.Added)
	}
	for _, a := range out.Added {
		if a.Kind == "episode" {
			t.Errorf("with usable key events no turn should be stored as an episode: %+v", a)
		}
	}
	if len(out.Merged) != 1 || !slices.Equal(sortedIDs(out.Merged[0].IDs), sortedIDs([]string{tea1, tea2})) ||
		out.Merged[0].Content != "The user drinks green tea without sugar" {
		t.Errorf("merged = %+v", out.Merged)
	}
	if len(out.Superseded) != 1 || !slices.Equal(out.Superseded[0].IDs, []string{berlin}) || out.Superseded[0].Kind != "fact" {
		t.Fatalf("superseded = %+v", out.Superseded)
	}
	lisbonFact := out.Superseded[0].ID

	hist := decode[recalledFull](t, callRaw(t, cs, "recall", map[string]any{"ids": []string{berlin, tea1}, "history": true}))
	if len(hist.Memories) != 2 {
		t.Fatalf("recall ids: %+v", hist.Memories)
	}
	for _, m := range hist.Memories {
		if m.Archived == "" || len(m.History) == 0 {
			t.Errorf("%s not archived with history: %+v", m.ID, m)
		}
		if m.ID == berlin && m.SupersededBy != lisbonFact {
			t.Errorf("berlin superseded_by %q, want %s", m.SupersededBy, lisbonFact)
		}
	}
	if ids := recallIDs(t, cs, "green tea without sugar"); slices.Contains(ids, tea1) || slices.Contains(ids, tea2) || !slices.Contains(ids, out.Merged[0].ID) {
		t.Errorf("recall after merge: %v (merged %s from %s, %s)", ids, out.Merged[0].ID, tea1, tea2)
	}

	asked := model.templates()
	for _, want := range []string{"key-events", "select-tags", "review tea", "review residence"} {
		if !slices.Contains(asked, want) {
			t.Errorf("the model was never asked %s: %v", want, asked)
		}
	}

	raw = callRaw(t, cs, "recall", map[string]any{"message": "Which tea should I brew for myself tomorrow morning?"})
	logJSON(t, "recall with message", raw)
	rec := decode[recalledFull](t, raw)
	d := rec.Decisions
	if d == nil || !d.Sampling || !d.MemoryNeeded || d.Source != "long-term" || d.Filter != "relevance-filter" || d.FilteredOut == 0 || len(d.Fallbacks) != 0 || !slices.Contains(d.Tags, "tea") {
		t.Fatalf("decisions = %+v", d)
	}
	if len(rec.Memories) == 0 {
		t.Fatal("recall with message found nothing")
	}
	for _, m := range rec.Memories {
		if !strings.Contains(m.Content, "tea") {
			t.Errorf("irrelevant memory kept by the relevance filter: %q", m.Content)
		}
	}
	if !slices.Contains(model.templates(), "memory-controller") || !slices.Contains(model.templates(), "relevance-filter") {
		t.Errorf("asked %v", model.templates())
	}
}

func TestSamplingMalformedReplies(t *testing.T) {
	model := &samplingModel{garbage: true}
	cs := connectWith(t, samplingClient(model), procEnv(t, "TZ=UTC"))
	tea1, tea2, berlin := seed(t, cs)

	raw := callRaw(t, cs, "consolidate", map[string]any{"transcript": sampleTranscript})
	logJSON(t, "consolidate with garbage replies", raw)
	out := decode[consolidated](t, raw)
	if !out.Sampling || len(out.Fallbacks) == 0 || !strings.HasPrefix(out.Fallbacks[0], "key-events: reply unparseable") {
		t.Errorf("sampling %v, fallbacks %q", out.Sampling, out.Fallbacks)
	}
	if len(out.Merged)+len(out.Superseded) != 0 {
		t.Errorf("garbage merged or superseded: %+v %+v", out.Merged, out.Superseded)
	}
	if len(out.Added) != len(sampleTranscript) {
		t.Errorf("added %d, want the %d turns as episodes", len(out.Added), len(sampleTranscript))
	}
	for _, a := range out.Added {
		if a.Kind != "episode" || strings.Contains(a.Content, "language model") {
			t.Errorf("stored %+v", a)
		}
	}
	if len(out.WorkItems) == 0 {
		t.Error("no work item left for the unusable extraction")
	}
	// Nothing archived, and the garbage is nowhere in the store.
	hist := decode[recalledFull](t, callRaw(t, cs, "recall", map[string]any{"ids": []string{tea1, tea2, berlin}}))
	for _, m := range hist.Memories {
		if m.Archived != "" {
			t.Errorf("%s archived after garbage replies", m.ID)
		}
	}
	all := decode[recalledFull](t, callRaw(t, cs, "recall", map[string]any{"query": "language model weather", "include_archived": true, "limit": 50}))
	for _, m := range all.Memories {
		if strings.Contains(m.Content, "language model") {
			t.Errorf("garbage stored: %+v", m)
		}
	}

	rec := decode[recalledFull](t, callRaw(t, cs, "recall", map[string]any{"message": "Which tea should I brew tomorrow morning?"}))
	if d := rec.Decisions; d == nil || !d.Sampling || d.Filter != "threshold" || len(d.Fallbacks) < 3 {
		t.Errorf("recall decisions with garbage replies = %+v", d)
	} else {
		t.Logf("recall fallbacks: %q", d.Fallbacks)
	}
}

func TestSamplingWithoutCapability(t *testing.T) {
	cs := connect(t, procEnv(t, "TZ=UTC")) // no sampling, no roots
	tea1, tea2, berlin := seed(t, cs)
	raw := callRaw(t, cs, "consolidate", map[string]any{"transcript": sampleTranscript, "thread": "chat-lisbon"})
	logJSON(t, "consolidate without sampling", raw)
	out := decode[consolidated](t, raw)
	if out.Sampling || len(out.WorkItems) == 0 || out.WorkItems[0].Kind != "extract" || out.WorkItems[0].Prompt == "" {
		t.Fatalf("sampling %v, work items %+v", out.Sampling, out.WorkItems)
	}
	if len(out.Added) != len(sampleTranscript) {
		t.Fatalf("added %+v", out.Added)
	}
	review := false
	for _, w := range out.WorkItems[1:] {
		review = review || w.Kind == "review" && strings.Contains(w.Prompt, "green tea without sugar") && strings.Contains(w.Prompt, "never sweetened")
	}
	if !review {
		t.Errorf("no review work item for the two tea memories: %+v", out.WorkItems)
	}
	for _, a := range out.Added {
		if a.Kind != "episode" {
			t.Errorf("added %+v, want episodes", a)
		}
	}
	// The turns are recallable at once.
	found := false
	for _, id := range recallIDs(t, cs, "green tea on the balcony") {
		for _, a := range out.Added {
			found = found || a.ID == id && strings.Contains(a.Content, "green tea")
		}
	}
	if !found {
		t.Errorf("the turn about green tea is not recallable")
	}

	// The model answers the work item itself and sends operations back.
	raw = callRaw(t, cs, "consolidate", map[string]any{"thread": out.Thread, "operations": []map[string]any{
		{"op": "add", "content": "User drinks green tea every morning", "tags": []string{"tea"}, "time": "2026-05-10T09:02:00Z"},
		{"op": "add", "kind": "fact", "subject": "user", "predicate": "lives in", "object": "Lisbon", "tags": []string{"residence"}, "time": "2026-05-10T09:00:00Z"},
		{"op": "merge", "ids": []string{tea1, tea2}, "content": "The user drinks green tea without sugar", "reason": "same preference"},
	}})
	logJSON(t, "consolidate with operations", raw)
	ops := decode[consolidated](t, raw)
	if len(ops.Added) != 2 || len(ops.Merged) != 1 || len(ops.WorkItems) != 0 ||
		!slices.Equal(sortedIDs(ops.Merged[0].IDs), sortedIDs([]string{tea1, tea2})) {
		t.Errorf("operations: %+v", ops)
	}
	// The newer fact with the same subject and predicate supersedes Berlin.
	if fact := ops.Added[1]; fact.Kind != "fact" || !slices.Equal(fact.IDs, []string{berlin}) {
		t.Errorf("added fact %+v, want it to supersede %s", fact, berlin)
	}
	hist := decode[recalledFull](t, callRaw(t, cs, "recall", map[string]any{"ids": []string{berlin}}))
	if len(hist.Memories) != 1 || hist.Memories[0].SupersededBy != ops.Added[1].ID {
		t.Errorf("berlin after operations: %+v", hist.Memories)
	}
}

func sortedIDs(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
