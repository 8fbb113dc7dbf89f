package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/ontology"
	"github.com/mneme-mcp/mneme/prompts"
)

// OntologyInput is the input of the ontology tool.
type OntologyInput struct {
	Action string   `json:"action,omitempty" jsonschema:"show (default): the tag tree; list: every tag with its path; search: tags matching query; add: new tags under path; expand: new tags for text the tree does not cover,enum=show,enum=list,enum=search,enum=add,enum=expand"`
	Query  string   `json:"query,omitempty" jsonschema:"search: words to look for, like sushi or running"`
	Path   []string `json:"path,omitempty" jsonschema:"add: where the new tags go: a category like [food] (they become subcategories) or a category and subcategory like [food cuisine] (they become attributes)"`
	Tags   []string `json:"tags,omitempty" jsonschema:"add: the new tags, each one lowercase word not yet in the tree"`
	Text   string   `json:"text,omitempty" jsonschema:"expand: text (memories or a conversation) whose topics the tree lacks"`
}

// OntologyOutput is what the ontology tool returns.
type OntologyOutput struct {
	Action      string          `json:"action" jsonschema:"the action taken"`
	Size        int             `json:"size" jsonschema:"how many tags the tree has"`
	Tree        string          `json:"tree,omitempty" jsonschema:"the tree as indented text: categories, then subcategories with their attributes after a colon"`
	Tags        []OntologyEntry `json:"tags,omitempty" jsonschema:"list and search: the tags with their paths"`
	Added       []OntologyEntry `json:"added,omitempty" jsonschema:"tags added to the user's ontology file"`
	Rejected    []string        `json:"rejected,omitempty" jsonschema:"expand: proposals that were not added, and why"`
	Instruction string          `json:"instruction,omitempty" jsonschema:"expand without sampling: what to do next"`
	Warning     string          `json:"warning,omitempty" jsonschema:"a problem with the user's ontology file (the last good version is in use)"`
	Fallbacks   []string        `json:"fallbacks,omitempty" jsonschema:"steps where the client's model was not usable and what was done instead"`
	Sampling    bool            `json:"sampling" jsonschema:"true when the client's model was asked"`
}

// OntologyEntry is one tag of the tree.
type OntologyEntry struct {
	Tag      string   `json:"tag" jsonschema:"the tag: pass it in tags to remember or recall"`
	Path     []string `json:"path" jsonschema:"from the category down to the tag"`
	Synonyms []string `json:"synonyms,omitempty" jsonschema:"words that also mean the tag"`
}

// ontologyDescription tells the model when and how to call ontology.
const ontologyDescription = `The tag tree (ontology) memories are tagged with: categories, subcategories and attributes, each one lowercase word.
Use it to choose tags for remember and recall: search with query (action "search") or read the tree (action "show", the default).
When a topic the user cares about has no fitting tag, add one with action "add", path (a category, or a category and subcategory) and tags; action "expand" with text proposes new tags for it.
Tags are only ever added, never removed or renamed.`

// ontologySearchLimit bounds the entries a search returns.
const ontologySearchLimit = 20

// maxAddTags bounds the tags one add may put into the tree.
const maxAddTags = 20

// Ontology returns the ontology tool and its handler.
//
// Hints: not read-only (add and expand extend the user's ontology file), not
// destructive (tags are only added), not idempotent (expand may propose
// other tags each time; adding the same tag twice is refused).
func Ontology(d Deps) (mcp.Tool, server.ToolHandlerFunc) {
	d = d.withDefaults()
	tool := mcp.NewTool("ontology",
		mcp.WithDescription(ontologyDescription),
		mcp.WithInputSchema[OntologyInput](),
		withBounds(map[string]map[string]any{"path": {"maxItems": 2}, "tags": {"maxItems": maxAddTags}}),
		mcp.WithOutputSchema[OntologyOutput](),
		mcp.WithTitleAnnotation("Tag tree"),
		mcp.WithReadOnlyHintAnnotation(false),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	return tool, mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in OntologyInput) (*mcp.CallToolResult, error) {
		out := OntologyOutput{Action: in.Action}
		if out.Action == "" {
			out.Action = "show"
		}
		if d.Ontology != nil {
			if err := d.Ontology.LastError(); err != nil {
				out.Warning = fmt.Sprintf("your %s is invalid: %v; using the last good version", ontology.FileName, err)
			}
		}
		var err error
		switch out.Action {
		case "show":
			out.Tree = d.tree().Render()
		case "list":
			o := d.tree()
			for _, tag := range o.List() {
				e, _ := o.Entry(tag)
				out.Tags = append(out.Tags, entryOut(e))
			}
		case "search":
			if strings.TrimSpace(in.Query) == "" {
				return d.failure("ontology", invalidf("search needs a query: words like sushi or running"))
			}
			for i, e := range d.tree().Search(in.Query) {
				if i == ontologySearchLimit {
					break
				}
				out.Tags = append(out.Tags, entryOut(e))
			}
		case "add":
			err = d.ontologyAdd(in, &out)
		case "expand":
			var pending *mcp.CallToolResult
			pending, err = d.ontologyExpand(ctx, req, in, &out)
			if pending != nil {
				return pending, nil
			}
		default:
			err = invalidf("action %s is not known: use show, list, search, add or expand", memory.Quote(in.Action))
		}
		if err != nil {
			return d.failure("ontology", err)
		}
		out.Size = d.tree().Len()
		return mcp.NewToolResultStructured(out, ontologyText(out)), nil
	})
}

func entryOut(e ontology.Entry) OntologyEntry {
	return OntologyEntry{Tag: e.Tag, Path: e.Path, Synonyms: e.Synonyms}
}

// ontologyAdd adds in.Tags under in.Path.
func (d Deps) ontologyAdd(in OntologyInput, out *OntologyOutput) error {
	if len(in.Path) == 0 || len(in.Tags) == 0 {
		return invalidf("add needs path (a category like [\"food\"], or a category and subcategory like [\"food\", \"cuisine\"]) and tags (new lowercase words)")
	}
	if len(in.Path) > 2 {
		return invalidf("path has %d parts: give a category like [\"food\"], or a category and subcategory like [\"food\", \"cuisine\"]", len(in.Path))
	}
	if len(in.Tags) > maxAddTags {
		return invalidf("%d tags given, at most %d per call: add the most needed ones first", len(in.Tags), maxAddTags)
	}
	path := make([]string, len(in.Path))
	for i, p := range in.Path {
		path[i] = strings.ToLower(strings.TrimSpace(p))
		if len(path[i]) > memory.MaxTagBytes {
			return invalidf("path part %s is %d bytes, the limit is %d: name an existing category", memory.Quote(p), len(path[i]), memory.MaxTagBytes)
		}
	}
	tags := make([]string, len(in.Tags))
	for i, t := range in.Tags {
		tags[i] = strings.ToLower(strings.TrimSpace(t))
		if len(tags[i]) > memory.MaxTagBytes {
			return invalidf("tag %s is %d bytes, the limit is %d: tags are single short words", memory.Quote(t), len(tags[i]), memory.MaxTagBytes)
		}
	}
	added, err := d.addTags(path, tags)
	if err != nil {
		return err
	}
	out.Added = added
	return nil
}

// addTags adds tags under path to the user's file through the manager and
// returns the new entries. Bad arguments come back as badInput.
func (d Deps) addTags(path, tags []string) ([]OntologyEntry, error) {
	if d.Ontology == nil {
		return nil, invalidf("this server has no ontology file to extend (it uses the built-in tree read-only): pick the closest existing tag instead")
	}
	o, err := d.Ontology.Add(path, tags)
	var oe *ontology.Error
	switch {
	case errors.As(err, &oe):
		return nil, invalidf("cannot add %s under %s: %v; search the tree (action search) for where it fits", strings.Join(tags, ", "), strings.Join(path, "/"), oe)
	case errors.Is(err, ontology.ErrInvalid), errors.Is(err, ontology.ErrDuplicate), errors.Is(err, ontology.ErrUnknownPath):
		return nil, invalidf("cannot add %s under %s: %v", strings.Join(tags, ", "), strings.Join(path, "/"), err)
	case err != nil:
		return nil, err
	}
	added := make([]OntologyEntry, 0, len(tags))
	for _, t := range tags {
		if e, ok := o.Entry(t); ok {
			added = append(added, entryOut(e))
		}
	}
	return added, nil
}

// ontologyText is the readable version of an ontology result.
func ontologyText(out OntologyOutput) string {
	var b strings.Builder
	if out.Warning != "" {
		fmt.Fprintf(&b, "warning: %s\n", out.Warning)
	}
	switch out.Action {
	case "show":
		fmt.Fprintf(&b, "tag tree (%d tags):\n%s", out.Size, out.Tree)
	case "list", "search":
		if len(out.Tags) == 0 {
			b.WriteString("no tag matches: try another word, or add one with action add\n")
		}
		for _, e := range out.Tags {
			fmt.Fprintf(&b, "%s  (%s)", e.Tag, strings.Join(e.Path, "/"))
			if len(e.Synonyms) > 0 {
				fmt.Fprintf(&b, "  also: %s", strings.Join(e.Synonyms, ", "))
			}
			b.WriteByte('\n')
		}
	}
	for _, e := range out.Added {
		fmt.Fprintf(&b, "added %s at %s\n", e.Tag, strings.Join(e.Path, "/"))
	}
	for _, r := range out.Rejected {
		fmt.Fprintf(&b, "not added: %s\n", r)
	}
	for _, f := range out.Fallbacks {
		fmt.Fprintf(&b, "fallback: %s\n", f)
	}
	if out.Instruction != "" {
		b.WriteString(out.Instruction)
	}
	return strings.TrimRight(b.String(), "\n")
}

// expansionMax bounds the reply of an ontology-expansion request.
const expansionMax = 400

// ontologyExpand proposes new tags for in.Text (CAIM 3.2). With sampling,
// the client's model proposes and every valid proposal is added at once
// (CAIM expands automatically; tags are only ever added, so this is safe
// to do); invalid ones are reported in rejected. Without sampling the
// caller gets the prompt back and proposes additions itself through add.
func (d Deps) ontologyExpand(ctx context.Context, req mcp.CallToolRequest, in OntologyInput, out *OntologyOutput) (*mcp.CallToolResult, error) {
	text := strings.TrimSpace(in.Text)
	if text == "" {
		return nil, invalidf("expand needs text: the memories or conversation whose topics the tree lacks")
	}
	prompt, err := prompts.Render(prompts.OntologyExpansion, prompts.ExpansionData{Ontology: d.tree().Render(), Text: text})
	if err != nil {
		return nil, err
	}
	s := d.newSampler(ctx, req)
	if !s.available() {
		out.Tree = d.tree().Render()
		out.Instruction = "This client offers no sampling, so propose the tags yourself: answer the prompt below, then call ontology with action add, path and tags for each new tag.\n---\n" + prompt
		return nil, nil
	}
	out.Sampling = true
	answers, pending := s.ask([]sampleRequest{ask("ontology-expansion", "", prompt, expansionMax)})
	if pending != nil {
		return pending, nil
	}
	a := answers["ontology-expansion"]
	if !a.ok() {
		out.Fallbacks = append(out.Fallbacks, "ontology-expansion: "+a.why()+"; nothing added")
		return nil, nil
	}
	props, perr := prompts.ParseExpansion(a.Text)
	if len(props) == 0 && perr != nil {
		out.Fallbacks = append(out.Fallbacks, "ontology-expansion: reply unparseable; nothing added")
		return nil, nil
	}
	if perr != nil {
		out.Rejected = append(out.Rejected, perr.Error())
	}
	for _, p := range props {
		added, err := d.addTags(p.Path, []string{p.Tag})
		var bad *badInput
		switch {
		case errors.As(err, &bad):
			out.Rejected = append(out.Rejected, bad.msg)
		case err != nil:
			return nil, err
		default:
			out.Added = append(out.Added, added...)
		}
	}
	return nil, nil
}
