package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

// RememberInput is the input of the remember tool.
type RememberInput struct {
	Content string   `json:"content" jsonschema:"the memory: one short self-contained statement that names its subject and uses absolute dates (not tomorrow or last week); at most 32 KiB"`
	Kind    string   `json:"kind,omitempty" jsonschema:"thought (default) for a free note; fact for an attribute that can change (give subject and predicate and object); episode for something that happened (observation and thoughts and action and result),enum=thought,enum=fact,enum=episode"`
	Tags    []string `json:"tags,omitempty" jsonschema:"up to 3 tags from the ontology (the ontology tool lists and searches them), each one lowercase word like travel or work (at most 32 bytes); without tags they are chosen from the words"`
	Time    string   `json:"time,omitempty" jsonschema:"when it happened or will happen: RFC 3339 like 2026-05-08T14:30:00+02:00 or a date like 2026-05-08 (words like yesterday also work); default now"`
	Scope   string   `json:"scope,omitempty" jsonschema:"where the memory belongs, like personal or a project name: letters, digits and : . _ - / (at most 64 bytes); default the server's scope"`

	Subject   string `json:"subject,omitempty" jsonschema:"fact: who or what it is about, like user or the project name (subject, predicate, object and context: at most 1 KiB each)"`
	Predicate string `json:"predicate,omitempty" jsonschema:"fact: the attribute or relation, like lives in or prefers; a new fact with the same subject and predicate supersedes the old one"`
	Object    string `json:"object,omitempty" jsonschema:"fact: the value, like Berlin"`
	Context   string `json:"context,omitempty" jsonschema:"fact: circumstances in which it holds"`

	Observation string `json:"observation,omitempty" jsonschema:"episode: what was observed (observation, thoughts, action, result and content: at most 32 KiB together)"`
	Thoughts    string `json:"thoughts,omitempty" jsonschema:"episode: what was thought about it"`
	Action      string `json:"action,omitempty" jsonschema:"episode: what was done"`
	Result      string `json:"result,omitempty" jsonschema:"episode: what came of it"`

	Thread string `json:"thread,omitempty" jsonschema:"an id of the conversation it comes from, to keep its memories together (at most 256 bytes)"`
	ID     string `json:"id,omitempty" jsonschema:"update the memory with this id instead of storing a new one; its old state is kept as history"`
}

// RememberOutput is what remember returns: the stored memory, flat, and what
// remember did besides storing it.
type RememberOutput struct {
	MemoryOut
	Duplicate       bool     `json:"duplicate" jsonschema:"true when the same memory already existed and was reinforced instead of stored again"`
	UpdatedExisting bool     `json:"updated_existing,omitempty" jsonschema:"true when id named an existing memory that was updated"`
	Superseded      []string `json:"superseded,omitempty" jsonschema:"ids of older facts with the same subject and predicate that this one replaced (archived, kept as history)"`
}

// rememberDescription tells the model when and how to call remember.
const rememberDescription = `Store a memory that should outlast this conversation: a durable fact, preference, plan, decision or event about the user or their work (not chit-chat).
One fact per call, short and self-contained: name the subject and use absolute dates.
Use kind "fact" with subject, predicate and object for an attribute that can change (subject "user", predicate "lives in", object "Berlin"): a newer fact with the same subject and predicate supersedes the older one, which is archived and kept as history.
Pass up to 3 tags from the ontology (see the ontology tool); without them mneme picks tags from the words.
Storing something that is already remembered reinforces the existing memory instead of adding a copy. Pass id to correct an existing memory.
Returns the stored memory with its id.`

// Remember returns the remember tool and its handler.
//
// Hints: not read-only (it stores), not destructive (it never deletes: an
// update keeps the old state as history and a superseded fact is archived,
// both recoverable), idempotent: calling again with the same arguments finds
// the memory already stored (normalised-text dedup) and only reinforces it,
// which is ranking bookkeeping (recall count, strength), not a change of what
// is remembered; recall is treated the same way.
func Remember(d Deps) (mcp.Tool, server.ToolHandlerFunc) {
	d = d.withDefaults()
	tool := mcp.NewTool("remember",
		mcp.WithDescription(rememberDescription),
		mcp.WithInputSchema[RememberInput](),
		withBounds(map[string]map[string]any{"tags": {"maxItems": memory.MaxTags}}),
		mcp.WithOutputSchema[RememberOutput](),
		mcp.WithTitleAnnotation("Remember"),
		mcp.WithReadOnlyHintAnnotation(false),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	return tool, mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in RememberInput) (*mcp.CallToolResult, error) {
		draft, err := d.draft(in)
		if err != nil {
			return d.failure("remember", err)
		}
		cs := d.resolveScope(ctx, req, in.Scope)
		if cs.pending {
			return d.askRoots(req), nil
		}
		draft.Scope = cs.scope
		m, outcome, err := d.Store.Remember(ctx, draft)
		if err != nil {
			return d.failure("remember", err)
		}
		out := RememberOutput{
			MemoryOut:       d.memoryOut(m),
			Duplicate:       outcome.Duplicate,
			UpdatedExisting: outcome.Updated,
			Superseded:      outcome.Superseded,
		}
		return mcp.NewToolResultStructured(out, rememberText(out)), nil
	})
}

// draft validates the input and turns it into a memory.Draft without its
// scope (resolveScope's).
func (d Deps) draft(in RememberInput) (memory.Draft, error) {
	if err := checkContent(in.Content); err != nil {
		return memory.Draft{}, err
	}
	tags, err := checkTags(in.Tags)
	if err != nil {
		return memory.Draft{}, err
	}
	kind, err := rememberKind(in)
	if err != nil {
		return memory.Draft{}, err
	}
	draft := memory.Draft{
		ID:      strings.TrimSpace(in.ID),
		Kind:    kind,
		Content: strings.TrimSpace(in.Content),
		Tags:    tags,
		Scope:   in.Scope, // checked here; resolveScope's is set by the handler
		Subject: in.Subject, Predicate: in.Predicate, Object: in.Object, Context: in.Context,
		Observation: in.Observation, Thoughts: in.Thoughts, Action: in.Action, Result: in.Result,
		Source: "mcp",
		Thread: in.Thread,
	}
	// The store's limits, before any work is done on the text.
	if err := draft.Check(); err != nil {
		return memory.Draft{}, err
	}
	draft.Scope = ""
	if in.Time != "" {
		if draft.Time, err = d.parseTime("time", in.Time, atStart); err != nil {
			return memory.Draft{}, err
		}
	}
	if len(tags) == 0 && draft.ID == "" {
		// The deterministic tagger, so every memory has ontology tags to be
		// found by; an update keeps the memory's own tags.
		draft.Tags = d.tree().Tag(strings.Join([]string{in.Content, in.Subject, in.Predicate, in.Object}, " "), memory.MaxTags)
	}
	return draft, nil
}

// rememberKind checks the kind, inferring it when none is given: fact fields
// make a fact, episode fields an episode, anything else a thought.
func rememberKind(in RememberInput) (memory.Kind, error) {
	factFields := in.Subject != "" || in.Predicate != "" || in.Object != ""
	episodeFields := in.Observation != "" || in.Thoughts != "" || in.Action != "" || in.Result != ""
	kind := memory.Kind(in.Kind)
	switch kind {
	case "":
		switch {
		case factFields:
			kind = memory.KindFact
		case episodeFields:
			kind = memory.KindEpisode
		default:
			kind = memory.KindThought
		}
	case memory.KindThought, memory.KindFact, memory.KindEpisode:
	default:
		return "", invalidf("kind %s is not known: use thought, fact or episode", memory.Quote(in.Kind))
	}
	if kind == memory.KindFact && (strings.TrimSpace(in.Subject) == "" || strings.TrimSpace(in.Predicate) == "" || strings.TrimSpace(in.Object) == "") {
		return "", invalidf("a fact needs subject, predicate and object, like subject \"user\", predicate \"lives in\", object \"Berlin\"; or store it as kind thought")
	}
	return kind, nil
}

// rememberText is the readable one-line version of a remember result.
func rememberText(out RememberOutput) string {
	content, _ := cut(oneLine(out.Content), 200)
	var b strings.Builder
	switch {
	case out.Duplicate:
		fmt.Fprintf(&b, "already remembered (reinforced) %s: %s", out.ID, content)
	case out.UpdatedExisting:
		fmt.Fprintf(&b, "updated %s (old version kept as history): %s", out.ID, content)
	default:
		fmt.Fprintf(&b, "remembered %s: %s", out.ID, content)
	}
	if len(out.Superseded) > 0 {
		fmt.Fprintf(&b, "\nsupersedes %s (archived, kept as history)", strings.Join(out.Superseded, ", "))
	}
	return b.String()
}
