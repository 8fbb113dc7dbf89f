package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mneme-mcp/mneme/memory"
)

// The limit tests send arguments too many or too large to be useful and
// check that each is rejected with a short sentence, never an internal
// error or an error text as large as the argument.

// hugeText is 1 MiB of words.
var hugeText = strings.Repeat("word ", 1<<20/5)

func TestForgetManyIDs(t *testing.T) {
	f := newFixture(t)
	c, _ := f.connect(t)
	ids := make([]any, 40000)
	for i := range ids {
		ids[i] = fmt.Sprintf("w%d", i)
	}
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = "forget", map[string]any{"ids": ids}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("forget with 40000 ids: %v", err)
	}
	if !res.IsError {
		t.Fatalf("accepted: %s", resultText(res))
	}
	if text := resultText(res); !strings.Contains(text, "1000") || len(text) > maxErrorBytes {
		t.Errorf("error text does not give the limit briefly: %.200s", text)
	}

	// Past the schema (a handler called directly), the tool's own bound.
	strs := make([]any, maxForgetIDs+1)
	for i := range strs {
		strs[i] = fmt.Sprintf("w%d", i)
	}
	fails(t, f, "forget", map[string]any{"ids": strs}, "split the call")

	// One stored id 1000 times is one memory.
	m := f.remember(t, map[string]any{"content": "The garden gate squeaks"})
	same := make([]any, maxForgetIDs)
	for i := range same {
		same[i] = m.ID
	}
	out, _ := ok[ForgetOutput](t, f, "forget", map[string]any{"ids": same, "id": m.ID, "dry_run": true})
	if len(out.IDs) != 1 || out.IDs[0] != m.ID {
		t.Errorf("forget of one id %d times = %v", maxForgetIDs+1, out.IDs)
	}
}

func TestErrorTextIsBounded(t *testing.T) {
	f := newFixture(t)
	c, _ := f.connect(t)
	huge := hugeText
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"remember", map[string]any{"content": "x is y", "tags": []any{huge}}},
		{"remember", map[string]any{"content": "x is y", "time": huge}},
		{"remember", map[string]any{"content": "x is y", "id": huge}},
		{"remember", map[string]any{"content": "x is y", "kind": huge}},
		{"remember", map[string]any{"content": "x is y", "scope": huge}},
		{"recall", map[string]any{"ids": []any{huge}}},
		{"recall", map[string]any{"query": "x", "from": huge}},
		{"recall", map[string]any{"query": "x", "from": "2026-05-02", "to": "2026-05-01" + strings.Repeat(" ", 1<<20)}},
		{"recall", map[string]any{"when": huge}},
		{"forget", map[string]any{"id": huge}},
		{"forget", map[string]any{"filter": map[string]any{"before": huge}}},
		{"forget", map[string]any{"filter": map[string]any{"tag": huge}}},
		{"consolidate", map[string]any{"operations": []any{map[string]any{"op": "archive", "ids": []any{huge}}}}},
		{"consolidate", map[string]any{"operations": []any{map[string]any{"op": "add", "content": "x", "kind": huge}}}},
		{"consolidate", map[string]any{"operations": []any{map[string]any{"op": "add", "content": "x", "tags": []any{huge}}}}},
		{"ontology", map[string]any{"action": huge}},
		{"ontology", map[string]any{"action": "add", "path": []any{"food"}, "tags": []any{huge}}},
	} {
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = tc.tool, tc.args
		res, err := c.CallTool(t.Context(), req)
		if err != nil || !res.IsError {
			t.Errorf("%s: err %v, not rejected", tc.tool, err)
			continue
		}
		if n := len(resultText(res)); n > maxErrorBytes {
			t.Errorf("%s: error text is %d bytes: %.80q…", tc.tool, n, resultText(res))
		}
	}
}

func TestRememberFieldLimits(t *testing.T) {
	f := newFixture(t)
	c, _ := f.connect(t)
	for _, field := range []string{"scope", "thread", "subject", "predicate", "object", "context", "observation", "thoughts", "action", "result"} {
		args := map[string]any{"content": "hostile " + field + " is huge"}
		if field == "subject" || field == "predicate" || field == "object" || field == "context" {
			args["subject"], args["predicate"], args["object"] = "user", "likes", "tea"
		}
		args[field] = hugeText
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = "remember", args
		res, err := c.CallTool(t.Context(), req)
		if err != nil {
			t.Fatalf("%s: %v", field, err)
		}
		if !res.IsError {
			t.Errorf("remember stored a %d-byte %s", len(hugeText), field)
			continue
		}
		if text := resultText(res); !strings.Contains(text, field) || len(text) > maxErrorBytes {
			t.Errorf("%s: error text does not name the field briefly: %.200s", field, text)
		}
	}
	for name, args := range map[string]map[string]any{
		"scope charset": {"content": "a note", "scope": "my scope"},
		"scope bidi":    {"content": "a note", "scope": "work\u202e"},
		"tag 33 bytes":  {"content": "a note", "tags": []any{strings.Repeat("a", memory.MaxTagBytes+1)}},
		"thread":        {"content": "a note", "thread": strings.Repeat("t", memory.MaxThreadBytes+1)},
	} {
		fails(t, f, "remember", args, strings.Fields(name)[0])
	}
	// At the limits a memory is stored.
	ok[RememberOutput](t, f, "remember", map[string]any{
		"content": "a note at the limits", "scope": "project:mneme-1a2b3c", "thread": strings.Repeat("t", memory.MaxThreadBytes),
		"tags": []any{strings.Repeat("a", memory.MaxTagBytes)},
	})
}

// TestSchemaErrorsAreSentences checks that arguments the input schema
// rejects (before any handler runs) come back as a short sentence, not
// mcp-go's Go values quoting the argument whole.
func TestSchemaErrorsAreSentences(t *testing.T) {
	f := newFixture(t)
	h := hostileConnect(t, f.deps)
	for _, tc := range []struct{ tool, args, want string }{
		{"recall", `{"query":"x","limit":1e308}`, "limit is 1e+308, outside the limit 50"},
		{"recall", `{"query":"x","limit":9223372036854775808}`, "outside the limit 50"},
		{"recall", `{"query":"x","limit":0}`, "outside the limit 1"},
		{"recall", `{"query":"x","offset":1e308}`, "offset is 1e+308, outside the limit 10000"},
		{"recall", `{"query":"x","limit":"5"}`, "limit must be integer, not string"},
		{"recall", `{"query":"x","reinforce":"yes"}`, "reinforce must be boolean or null, not string"},
		{"recall", `{"query":"x","tags":["a","b","c","d"]}`, "tags is 4, outside the limit 3"},
		{"remember", `{"content":"x","kind":"` + strings.Repeat("w", 1<<20) + `"}`, "kind \"www"},
		{"remember", `{"content":"x","zzz":1}`, "unknown zzz"},
		{"remember", `{}`, "content missing"},
		{"forget", `{"filter":{"zzz":1}}`, "argument filter: unknown zzz"},
		{"recall", `{"query":"x","offset":1e-400}`, "argument offset must be a whole number"},
	} {
		res, err := h.call(t.Context(), tc.tool, tc.args)
		if err != nil || !res.IsError {
			t.Errorf("%s %.60s: err %v, not rejected", tc.tool, tc.args, err)
			continue
		}
		text := resultText(res)
		if !strings.HasPrefix(text, "invalid arguments: ") || !strings.Contains(text, tc.want) || strings.Contains(text, "&{") || len(text) > maxErrorBytes {
			t.Errorf("%s %.60s: error text %.300q, want a short sentence with %q", tc.tool, tc.args, text, tc.want)
		}
	}
}

func TestCheckTagsRejectsLongListsFirst(t *testing.T) {
	tags := make([]string, 100000)
	for i := range tags {
		tags[i] = "a"
	}
	if _, err := checkTags(tags); err == nil || !strings.Contains(err.Error(), "100000 tags given") {
		t.Errorf("checkTags(100000 tags) = %v", err)
	}
	if got, err := checkTags([]string{"Work", "work", " WORK "}); err != nil || len(got) != 1 || got[0] != "work" {
		t.Errorf("checkTags(work 3 times) = %v, %v", got, err)
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"short", `"short"`},
		{strings.Repeat("a", memory.MaxQuoted), `"` + strings.Repeat("a", memory.MaxQuoted) + `"`},
		{strings.Repeat("a", memory.MaxQuoted+1), `"` + strings.Repeat("a", memory.MaxQuoted) + `…" (81 bytes)`},
		{strings.Repeat("é", 100), `"` + strings.Repeat("é", memory.MaxQuoted/2) + `…" (200 bytes)`},
	} {
		if got := memory.Quote(tc.in); got != tc.want {
			t.Errorf("memory.Quote(%.20q…) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := bounded(hugeText + "the end"); len(got) > maxErrorText+10 || !strings.HasSuffix(got, "the end") {
		t.Errorf("bounded(1 MiB) = %d bytes ending %q", len(got), got[len(got)-20:])
	}
}
