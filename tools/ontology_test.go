package tools

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-mcp/mneme/ontology"
)

func TestOntologyShowListSearch(t *testing.T) {
	f := newFixture(t)
	show, text := ok[OntologyOutput](t, f, "ontology", map[string]any{})
	if show.Action != "show" || !strings.Contains(show.Tree, "food\n") || show.Size != ontology.Default().Len() || !strings.HasPrefix(text, "tag tree (") {
		t.Errorf("show = %+v", show)
	}
	list, _ := ok[OntologyOutput](t, f, "ontology", map[string]any{"action": "list"})
	if len(list.Tags) != show.Size {
		t.Errorf("list has %d tags, tree %d", len(list.Tags), show.Size)
	}
	search, text := ok[OntologyOutput](t, f, "ontology", map[string]any{"action": "search", "query": "vegetarian"})
	if len(search.Tags) == 0 || search.Tags[0].Tag != "vegetarian" || !slices.Equal(search.Tags[0].Path, []string{"food", "diet", "vegetarian"}) {
		t.Errorf("search = %+v", search.Tags)
	}
	if !strings.Contains(text, "vegetarian  (food/diet/vegetarian)") {
		t.Errorf("search text = %q", text)
	}
	fails(t, f, "ontology", map[string]any{"action": "search"}, "search needs a query")
	fails(t, f, "ontology", map[string]any{"action": "grow"}, `action "grow" is not known`)
}

func TestOntologyAdd(t *testing.T) {
	f := newFixture(t)
	out, text := ok[OntologyOutput](t, f, "ontology", map[string]any{"action": "add", "path": []any{"food", "diet"}, "tags": []any{"flexitarian"}})
	if len(out.Added) != 1 || !slices.Equal(out.Added[0].Path, []string{"food", "diet", "flexitarian"}) || !strings.Contains(text, "added flexitarian") {
		t.Errorf("add = %+v %q", out, text)
	}
	if !f.deps.tree().Has("flexitarian") {
		t.Error("the tag is not in the current ontology")
	}
	if data, err := os.ReadFile(f.deps.Ontology.File()); err != nil || !strings.Contains(string(data), "flexitarian") {
		t.Errorf("user file: %s, %v", data, err)
	}
	fails(t, f, "ontology", map[string]any{"action": "add", "path": []any{"food", "diet"}, "tags": []any{"vegetarian"}}, "already at food/diet/vegetarian")
	fails(t, f, "ontology", map[string]any{"action": "add", "path": []any{"nosuchcategory"}, "tags": []any{"x"}}, "cannot add")
	fails(t, f, "ontology", map[string]any{"action": "add", "path": []any{"food"}, "tags": []any{"two words"}}, "cannot add")
	fails(t, f, "ontology", map[string]any{"action": "add", "tags": []any{"x"}}, "add needs path")

	// Without a manager the tree is the built-in one, read-only.
	f.deps.Ontology = nil
	fails(t, f, "ontology", map[string]any{"action": "add", "path": []any{"food"}, "tags": []any{"snacks"}}, "no ontology file")
}

func TestOntologyInvalidFileWarns(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(f.deps.Ontology.File(), []byte(`{"food": {"Bad Tag": []}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	onto, err := ontology.NewManager(strings.TrimSuffix(f.deps.Ontology.File(), "/"+ontology.FileName), nil)
	if err != nil {
		t.Fatal(err)
	}
	f.deps.Ontology = onto
	out, text := ok[OntologyOutput](t, f, "ontology", map[string]any{})
	if !strings.Contains(out.Warning, "ontology.json is invalid") || !strings.Contains(out.Warning, "using the last good version") || !strings.HasPrefix(text, "warning: ") {
		t.Errorf("warning = %q", out.Warning)
	}
	if out.Size != ontology.Default().Len() {
		t.Errorf("size = %d, want the default's", out.Size)
	}
}

func TestOntologyExpand(t *testing.T) {
	t.Run("without sampling", func(t *testing.T) {
		f := newFixture(t)
		out, text := ok[OntologyOutput](t, f, "ontology", map[string]any{"action": "expand", "text": "I started bouldering twice a week"})
		if out.Sampling || len(out.Added) != 0 || !strings.Contains(out.Instruction, "action add") || !strings.Contains(text, "bouldering") {
			t.Errorf("expand = %+v", out)
		}
	})
	for _, kind := range []clientKind{modernClient, legacyClient} {
		t.Run("with sampling/"+kind.String(), func(t *testing.T) {
			f := newFixture(t)
			h := &scripted{rules: []rule{say("Below are mneme's tag ontology", "Here you go:\nsports/individual: bouldering\nfood/diet: vegetarian\nnowhere/else: thing\nfood: Two Words")}}
			c := f.connectSampling(t, kind, h)
			out, _ := callOverProtocol[OntologyOutput](t, c, "ontology", map[string]any{"action": "expand", "text": "I started bouldering twice a week"})
			if !out.Sampling {
				t.Error("not sampled")
			}
			added := map[string]bool{}
			for _, e := range out.Added {
				added[e.Tag] = true
			}
			if !added["bouldering"] || added["vegetarian"] || added["thing"] || len(out.Added) != 1 {
				t.Errorf("added invalid proposals: %+v", out.Added)
			}
			if len(out.Rejected) < 2 {
				t.Errorf("rejected = %v", out.Rejected)
			}
			for tag := range added {
				if !f.deps.tree().Has(tag) {
					t.Errorf("%s reported added but not in the tree", tag)
				}
			}
		})
	}
}
