package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mneme-mcp/mneme/prompts"
)

// TestToolInvariants checks what every tool in All must have: a name used
// once, a description, all four hints set explicitly, and an input schema
// that is an object without top-level combinators (some providers reject
// the whole tools/list for one anyOf). Anchor: github-mcp-server
// pkg/github/tools_validation_test.go.
func TestToolInvariants(t *testing.T) {
	all := All(Deps{})
	if len(all) == 0 {
		t.Fatal("All returned no tools")
	}
	seen := map[string]bool{}
	for _, st := range all {
		tool := st.Tool
		t.Run(tool.Name, func(t *testing.T) {
			if tool.Name == "" {
				t.Fatal("tool without a name")
			}
			if seen[tool.Name] {
				t.Errorf("duplicate tool name %q", tool.Name)
			}
			seen[tool.Name] = true
			if strings.TrimSpace(tool.Description) == "" {
				t.Error("empty description")
			}
			if st.Handler == nil {
				t.Error("no handler")
			}
			a := tool.Annotations
			for hint, v := range map[string]*bool{
				"readOnlyHint": a.ReadOnlyHint, "destructiveHint": a.DestructiveHint,
				"idempotentHint": a.IdempotentHint, "openWorldHint": a.OpenWorldHint,
			} {
				if v == nil {
					t.Errorf("%s not set", hint)
				}
			}
			if a.OpenWorldHint != nil && *a.OpenWorldHint {
				t.Error("openWorldHint true: mneme only touches its own store")
			}
			if a.ReadOnlyHint != nil && a.DestructiveHint != nil && *a.ReadOnlyHint && *a.DestructiveHint {
				t.Error("read-only and destructive at once")
			}

			data, err := json.Marshal(tool)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			var wire struct {
				InputSchema  map[string]json.RawMessage `json:"inputSchema"`
				OutputSchema map[string]json.RawMessage `json:"outputSchema"`
			}
			if err := json.Unmarshal(data, &wire); err != nil {
				t.Fatalf("unmarshal: %v", err)
			}
			if string(wire.InputSchema["type"]) != `"object"` {
				t.Errorf("input schema type %s, want \"object\"", wire.InputSchema["type"])
			}
			if _, ok := wire.InputSchema["properties"]; !ok {
				t.Error("input schema has no properties (schema generation failed?)")
			}
			for _, k := range []string{"anyOf", "oneOf", "allOf"} {
				if _, ok := wire.InputSchema[k]; ok {
					t.Errorf("input schema has top-level %s", k)
				}
			}
			if string(wire.OutputSchema["type"]) != `"object"` {
				t.Errorf("output schema type %s, want \"object\"", wire.OutputSchema["type"])
			}
		})
	}
}

// TestHintsAsDecided pins the hint decisions documented on each constructor,
// so a change is deliberate.
func TestHintsAsDecided(t *testing.T) {
	want := map[string][3]bool{ // readOnly, destructive, idempotent
		"remember":    {false, false, true},
		"recall":      {true, false, true},
		"forget":      {false, true, true},
		"consolidate": {false, true, false},
		"ontology":    {false, false, false},
	}
	for _, st := range All(Deps{}) {
		w, ok := want[st.Tool.Name]
		if !ok {
			t.Errorf("tool %q has no decided hints here", st.Tool.Name)
			continue
		}
		a := st.Tool.Annotations
		got := [3]bool{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint}
		if got != w {
			t.Errorf("%s: hints (readOnly, destructive, idempotent) = %v, want %v", st.Tool.Name, got, w)
		}
	}
}

// TestInstructions checks the embedded server instructions are there and
// stay short enough to be read.
func TestInstructions(t *testing.T) {
	s := prompts.Instructions()
	for _, word := range []string{"recall", "remember", "fact", "tags", "consolidate"} {
		if !strings.Contains(s, word) {
			t.Errorf("instructions do not mention %q", word)
		}
	}
	if n := strings.Count(s, "\n"); n > 45 {
		t.Errorf("instructions have %d lines, keep them under about 40", n)
	}
}
