package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/embed"
	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/ontology"
)

// epoch is the fixed "now" of the tests: Monday 2026-05-11 12:00 UTC.
var epoch = time.Date(2026, 5, 11, 12, 0, 0, 0, time.UTC)

// clock is a settable clock shared by the store and the tools.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a real store in a temporary directory with the tools' deps.
type fixture struct {
	deps  Deps
	store *memory.Store
	clock *clock
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return openFixture(t, true)
}

// openFixture opens a real store in a temporary directory with a pinned
// clock, and an ontology manager when withOntology is set.
func openFixture(tb testing.TB, withOntology bool) *fixture {
	tb.Helper()
	e := embed.Builtin(512)
	clk := &clock{t: epoch}
	st, err := memory.Open(tb.Context(), memory.Options{
		Path:     filepath.Join(tb.TempDir(), "m.db"),
		ModelID:  e.ModelID,
		Embed:    e.Func,
		Now:      clk.Now,
		Location: time.UTC,
	})
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	tb.Cleanup(func() {
		if err := st.Close(); err != nil {
			tb.Errorf("close store: %v", err)
		}
	})
	d := Deps{Store: st, Now: clk.Now, Location: time.UTC, Version: "test"}
	if withOntology {
		onto, err := ontology.NewManager(filepath.Join(tb.TempDir(), "config"), nil)
		if err != nil {
			tb.Fatalf("ontology: %v", err)
		}
		d.Ontology = onto
	}
	return &fixture{deps: d, store: st, clock: clk}
}

// handler returns the handler of the named tool built from the fixture's deps.
func (f *fixture) handler(t *testing.T, name string) server.ToolHandlerFunc {
	t.Helper()
	for _, st := range All(f.deps) {
		if st.Tool.Name == name {
			return st.Handler
		}
	}
	t.Fatalf("no tool %q", name)
	return nil
}

// call calls the named tool's handler directly; a Go error fails the test.
func (f *fixture) call(t *testing.T, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := f.handler(t, name)(t.Context(), req)
	if err != nil {
		t.Fatalf("%s(%v): Go error %v", name, args, err)
	}
	if res == nil {
		t.Fatalf("%s(%v): nil result", name, args)
	}
	return res
}

// ok calls the tool, fails on a tool error, and decodes the structured
// content into T.
func ok[T any](t *testing.T, f *fixture, name string, args map[string]any) (T, string) {
	t.Helper()
	res := f.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s(%v): tool error: %s", name, args, resultText(res))
	}
	return decode[T](t, res.StructuredContent), resultText(res)
}

// fails calls the tool and checks that it is a tool error containing want.
func fails(t *testing.T, f *fixture, name string, args map[string]any, want string) {
	t.Helper()
	res := f.call(t, name, args)
	if !res.IsError {
		t.Fatalf("%s(%v): no tool error, got %s", name, args, resultText(res))
	}
	if got := resultText(res); !strings.Contains(got, want) {
		t.Errorf("%s(%v): error %q does not contain %q", name, args, got, want)
	}
	if res.StructuredContent != nil {
		t.Errorf("%s: a tool error carries structured content %v", name, res.StructuredContent)
	}
}

// decode converts structured content (a Go value or decoded JSON) into T
// through JSON, as a client would.
func decode[T any](t *testing.T, v any) T {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal structured content: %v", err)
	}
	var out T
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("decode structured content %s: %v", data, err)
	}
	return out
}

// resultText is the text content of a result.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// stats reads the store's summary.
func (f *fixture) stats(t *testing.T) memory.Stats {
	t.Helper()
	st, err := f.store.Stats(context.Background())
	if err != nil {
		t.Fatalf("stats: %v", err)
	}
	return st
}

// remember stores content and returns the stored memory.
func (f *fixture) remember(t *testing.T, args map[string]any) RememberOutput {
	t.Helper()
	out, _ := ok[RememberOutput](t, f, "remember", args)
	return out
}
