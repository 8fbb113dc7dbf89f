package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

// ConsolidateInput is the input of the consolidate tool.
type ConsolidateInput struct {
	Transcript []TurnIn      `json:"transcript,omitempty" jsonschema:"the conversation to consolidate, turn by turn"`
	Text       string        `json:"text,omitempty" jsonschema:"the conversation as plain text instead: one turn per line as Role: content, optionally starting with a time like [2026-05-08T14:30:00+02:00]"`
	SinceLast  bool          `json:"since_last,omitempty" jsonschema:"also review everything remembered in the scope since the last consolidation (and mark the scope consolidated)"`
	Scope      string        `json:"scope,omitempty" jsonschema:"the scope to consolidate; default the server's scope"`
	Thread     string        `json:"thread,omitempty" jsonschema:"an id for the conversation, to keep its memories together; default a new one like conv-20260508T143000Z"`
	DryRun     bool          `json:"dry_run,omitempty" jsonschema:"only show what would change; write nothing"`
	Operations []OperationIn `json:"operations,omitempty" jsonschema:"changes you decided on (for example from the work items of an earlier call), applied together in one transaction"`
}

// ConsolidateOutput is what consolidate returns.
type ConsolidateOutput struct {
	Added       []ChangeOut     `json:"added" jsonschema:"memories stored (thoughts, facts, or the conversation's turns as episodes)"`
	Merged      []ChangeOut     `json:"merged" jsonschema:"memories merged into one: id is the new memory, ids the merged ones (archived, kept as history)"`
	Superseded  []ChangeOut     `json:"superseded" jsonschema:"outdated memories replaced: id is the newer memory, ids the replaced ones (archived, kept as history)"`
	Archived    []ChangeOut     `json:"archived" jsonschema:"memories archived"`
	Suggestions []SuggestionOut `json:"suggestions" jsonschema:"near-duplicates worth a look; never merged automatically: merge them with operations if they say the same"`
	WorkItems   []WorkItem      `json:"work_items" jsonschema:"thinking left for you (the client offers no sampling): run each prompt yourself, then call consolidate again with operations"`
	Fallbacks   []string        `json:"fallbacks" jsonschema:"steps where the client's model was not usable, and what was done instead"`
	Thread      string          `json:"thread,omitempty" jsonschema:"the conversation's thread id"`
	DryRun      bool            `json:"dry_run" jsonschema:"true when nothing was written"`
	Sampling    bool            `json:"sampling" jsonschema:"true when the client's model did the thinking through sampling"`
}

// SuggestionOut pairs a memory with a similar one.
type SuggestionOut struct {
	ID        string  `json:"id" jsonschema:"a memory stored by this call"`
	SimilarID string  `json:"similar_id" jsonschema:"an existing memory that reads alike"`
	Content   string  `json:"content" jsonschema:"the existing memory's text"`
	Cosine    float64 `json:"cosine" jsonschema:"cosine similarity of the two, 0 to 1"`
}

// consolidateDescription tells the model when and how to call consolidate.
const consolidateDescription = `Post-thinking: turn a finished conversation into lasting memory, and tidy what is remembered. Call it when a conversation ends or turns to a new topic; nothing consolidates in the background.
Pass the conversation as transcript (or text); since_last also reviews everything remembered since the last consolidation. dry_run previews without writing.
If the client supports sampling, mneme asks your model to extract key events as short dated thoughts and facts tagged from the ontology, and to merge duplicates and supersede outdated memories. Otherwise the turns are stored at once as episodes (recallable immediately) and the result holds work_items: prompts for you to run yourself, after which you call consolidate again with operations (add, merge, supersede, archive).
Merged and superseded memories are archived with their history, never deleted.`

// Consolidate returns the consolidate tool and its handler.
//
// Hints: not read-only (it stores), destructive (merge, supersede and
// archive take memories out of recall, although they stay as history), not
// idempotent (the client's model may decide differently each time;
// storing the same text again only reinforces it).
func Consolidate(d Deps) (mcp.Tool, server.ToolHandlerFunc) {
	d = d.withDefaults()
	tool := mcp.NewTool("consolidate",
		mcp.WithDescription(consolidateDescription),
		mcp.WithInputSchema[ConsolidateInput](),
		withBounds(map[string]map[string]any{"transcript": {"maxItems": maxTurns}, "operations": {"maxItems": maxOperations}}),
		mcp.WithOutputSchema[ConsolidateOutput](),
		mcp.WithTitleAnnotation("Consolidate"),
		mcp.WithReadOnlyHintAnnotation(false),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	return tool, mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in ConsolidateInput) (*mcp.CallToolResult, error) {
		cs := d.resolveScope(ctx, req, in.Scope)
		c, err := d.newConsolidation(ctx, in, cs.scope)
		if err != nil {
			return d.failure("consolidate", err)
		}
		s := d.newSampler(ctx, req)
		// Roots ride with the key-events round, the first thing a sampled
		// consolidation of a transcript asks; otherwise they come first.
		if cs.pending && (len(in.Operations) > 0 || !s.available() || len(c.turns) == 0) {
			return d.askRoots(req), nil
		}
		s.carry(&cs)
		var pending *mcp.CallToolResult
		switch {
		case len(in.Operations) > 0:
			err = d.applyOperations(ctx, c)
		case s.available():
			c.out.Sampling = true
			pending, err = d.consolidateSampled(ctx, req, s, c)
		default:
			err = d.consolidateManual(ctx, c)
		}
		if pending != nil {
			return pending, nil
		}
		if err == nil && in.SinceLast && !in.DryRun {
			err = d.Store.MarkConsolidated(ctx, c.scope, c.started)
		}
		if err != nil {
			return d.failure("consolidate", err)
		}
		return mcp.NewToolResultStructured(c.out, consolidateText(c.out)), nil
	})
}

// consolidation is the state of one consolidate call.
type consolidation struct {
	in      ConsolidateInput
	scope   string
	thread  string
	started time.Time
	turns   []turn
	since   []memory.Memory // remembered since the last consolidation (since_last)
	out     ConsolidateOutput
}

// newConsolidation validates the input and reads what since_last covers in
// scope (the call's resolved scope).
func (d Deps) newConsolidation(ctx context.Context, in ConsolidateInput, scope string) (*consolidation, error) {
	c := &consolidation{in: in, scope: scope, thread: strings.TrimSpace(in.Thread), started: d.Now()}
	c.out = ConsolidateOutput{
		Added: []ChangeOut{}, Merged: []ChangeOut{}, Superseded: []ChangeOut{}, Archived: []ChangeOut{},
		Suggestions: []SuggestionOut{}, WorkItems: []WorkItem{}, Fallbacks: []string{}, DryRun: in.DryRun,
	}
	hasText := strings.TrimSpace(in.Text) != ""
	switch {
	case len(in.Transcript) > 0 && hasText:
		return nil, invalidf("give the conversation either as transcript or as text, not both")
	case len(in.Operations) > 0 && (len(in.Transcript) > 0 || hasText):
		return nil, invalidf("operations are applied on their own: call consolidate once with the transcript, then again with only the operations")
	case len(in.Operations) == 0 && len(in.Transcript) == 0 && !hasText && !in.SinceLast:
		return nil, invalidf("consolidate needs a transcript (or text) of the conversation, since_last, or operations")
	}
	raw := in.Transcript
	if hasText {
		var err error
		if raw, err = d.parseTranscript(in.Text); err != nil {
			return nil, err
		}
	}
	var err error
	if c.turns, err = d.checkTurns(raw); err != nil {
		return nil, err
	}
	if (len(in.Transcript) > 0 || hasText) && len(c.turns) == 0 {
		return nil, invalidf("the transcript has no turn with content: nothing to consolidate")
	}
	if c.thread == "" {
		c.thread = "conv-" + c.started.UTC().Format("20060102T150405Z")
	}
	c.out.Thread = c.thread
	if in.SinceLast && len(in.Operations) == 0 {
		last, err := d.Store.LastConsolidated(ctx, c.scope)
		if err != nil {
			return nil, err
		}
		ms, err := d.Store.List(ctx, memory.ListFilter{Scope: d.listScope(c.scope), Since: last, Limit: maxSinceLast})
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if m.Kind != memory.KindEpisode { // raw turns: their thoughts are what is reviewed
				c.since = append(c.since, m)
			}
		}
	}
	return c, nil
}

// maxSinceLast bounds the memories since_last reviews in one call.
const maxSinceLast = 200

// listScope is the scope to list: "" means the store's default.
func (d Deps) listScope(scope string) string {
	if scope == "" {
		return memory.DefaultScope
	}
	return scope
}

// applyOperations applies operations the caller decided on.
func (d Deps) applyOperations(ctx context.Context, c *consolidation) error {
	ops, err := d.opsFromInput(ctx, c.in.Operations, c.scope, c.thread, c.started)
	if err != nil {
		return err
	}
	res, err := d.Store.Apply(ctx, ops, c.in.DryRun)
	if err != nil {
		return err
	}
	d.changes(res, &c.out)
	return d.suggest(ctx, c, res)
}

// suggestCosine is the cosine from which a memory stored by consolidate is
// listed next to an existing one as a possible duplicate; suggestions are
// only shown, never merged on cosine alone. With the built-in embedder,
// paraphrases scored 0.76 to 1.0 ("User likes green tea" / "User loves
// green tea" 0.76, reordered sentences 1.0) and different facts in the same
// frame 0.49 to 0.67 ("User works at a bakery" / "... at a bookshop" 0.63,
// "sister Ana" / "brother Tom lives in Porto" 0.67).
const suggestCosine = 0.75

// maxSuggested bounds the new memories checked for near-duplicates (each
// check scans the scope's vectors).
const maxSuggested = 10

// suggest lists near-duplicates of the memories Apply stored.
func (d Deps) suggest(ctx context.Context, c *consolidation, res memory.ApplyResult) error {
	if res.DryRun {
		return nil
	}
	checked := 0
	for _, r := range res.Results {
		if r.Memory == nil || r.Duplicate || r.Memory.Kind == memory.KindEpisode && !strings.HasPrefix(strings.ToLower(r.Memory.Content), "user:") {
			continue
		}
		if checked == maxSuggested {
			break
		}
		checked++
		sims, err := d.Store.Similar(ctx, r.Memory.ID, 3, suggestCosine)
		if err != nil {
			return err
		}
		for _, s := range sims {
			if containsChange(c.out, s.ID) {
				continue // stored by this call (turns of one conversation)
			}
			c.out.Suggestions = append(c.out.Suggestions, SuggestionOut{ID: r.Memory.ID, SimilarID: s.ID, Content: s.Content, Cosine: round3(s.Cosine)})
		}
	}
	return nil
}

// containsChange reports whether id was stored by this call.
func containsChange(out ConsolidateOutput, id string) bool {
	for _, list := range [][]ChangeOut{out.Added, out.Merged, out.Superseded} {
		for _, c := range list {
			if c.ID == id {
				return true
			}
		}
	}
	return false
}

// consolidateText is the readable version of a consolidate result.
func consolidateText(out ConsolidateOutput) string {
	var b strings.Builder
	if out.DryRun {
		b.WriteString("dry run, nothing written; this is what would change:\n")
	}
	line := func(verb string, c ChangeOut) {
		id := c.ID
		if id == "" {
			id = "(new)"
		}
		fmt.Fprintf(&b, "%s %s", verb, id)
		if c.Time != "" {
			fmt.Fprintf(&b, " [%s]", c.Time)
		}
		if len(c.Tags) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(c.Tags, ", "))
		}
		if c.Content != "" {
			content, _ := cut(oneLine(c.Content), 200)
			fmt.Fprintf(&b, ": %s", content)
		}
		if len(c.IDs) > 0 {
			fmt.Fprintf(&b, " <- archives %s", strings.Join(c.IDs, ", "))
		}
		if c.Duplicate {
			b.WriteString(" (already remembered: reinforced)")
		}
		if c.Reason != "" {
			fmt.Fprintf(&b, " — %s", c.Reason)
		}
		b.WriteByte('\n')
	}
	for _, c := range out.Added {
		line("added", c)
	}
	for _, c := range out.Merged {
		line("merged into", c)
	}
	for _, c := range out.Superseded {
		line("superseded by", c)
	}
	for _, c := range out.Archived {
		line("archived", c)
	}
	if n := len(out.Added) + len(out.Merged) + len(out.Superseded) + len(out.Archived); n == 0 {
		b.WriteString("no changes\n")
	}
	for _, s := range out.Suggestions {
		fmt.Fprintf(&b, "similar (cosine %.2f, not merged): %s ~ %s: %s\n", s.Cosine, s.ID, s.SimilarID, oneLine(s.Content))
	}
	for _, f := range out.Fallbacks {
		fmt.Fprintf(&b, "fallback: %s\n", f)
	}
	for i, w := range out.WorkItems {
		fmt.Fprintf(&b, "\nwork item %d (%s", i+1, w.Kind)
		if w.Tag != "" {
			fmt.Fprintf(&b, ", tag %s", w.Tag)
		}
		fmt.Fprintf(&b, "): %s\n---\n%s\n---\n", w.Then, w.Prompt)
	}
	return strings.TrimRight(b.String(), "\n")
}
