package tools

import (
	"context"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

// RecallInput is the input of the recall tool.
type RecallInput struct {
	Query           string   `json:"query,omitempty" jsonschema:"what to look for, in words; it may contain a time expression like last week"`
	Message         string   `json:"message,omitempty" jsonschema:"instead of query: the user's message as they wrote it; mneme decides whether memory is needed, picks tags and time, and leaves out memories unlikely to be relevant (the reply may be that nothing relevant is remembered)"`
	When            string   `json:"when,omitempty" jsonschema:"when the memories happened, as words: yesterday or last week or in April or on May 4th or our first conversation"`
	Tags            []string `json:"tags,omitempty" jsonschema:"prefer memories with these tags (up to 3 from the ontology tool); with nothing else to look for, only memories with them. Without tags, tags are chosen from the words"`
	From            string   `json:"from,omitempty" jsonschema:"only memories that happened at or after this time: RFC 3339 or a date like 2026-05-01 or words like last Monday; overrides when"`
	To              string   `json:"to,omitempty" jsonschema:"only memories that happened up to this time: RFC 3339 or a date (that whole day included) or words like yesterday; overrides when"`
	Scope           string   `json:"scope,omitempty" jsonschema:"search this scope instead of the server's default"`
	Limit           int      `json:"limit,omitempty" jsonschema:"how many memories at most: 1 to 50 (default 5)"`
	Offset          int      `json:"offset,omitempty" jsonschema:"skip this many ranked memories, to page through results: 0 to 10000"`
	IDs             []string `json:"ids,omitempty" jsonschema:"fetch these memories whole by id instead of searching, at most 50 (other arguments except history are ignored)"`
	IncludeArchived bool     `json:"include_archived,omitempty" jsonschema:"also search forgotten and superseded memories"`
	Reinforce       *bool    `json:"reinforce,omitempty" jsonschema:"count this recall toward the memories' strength (default true); false to only look"`
	MinProbability  float64  `json:"min_probability,omitempty" jsonschema:"drop memories whose recall probability is below this (0 to 1); with message the default is 0.44"`
	History         bool     `json:"history,omitempty" jsonschema:"with ids: include each memory's earlier versions and the facts it superseded"`
}

// RecallOutput is what recall returns.
type RecallOutput struct {
	Memories   []RecalledMemory `json:"memories" jsonschema:"the memories found, best first"`
	Window     *WindowOut       `json:"window" jsonschema:"the time window applied, null when none"`
	More       bool             `json:"more" jsonschema:"more memories match than were returned"`
	NextOffset int              `json:"next_offset,omitempty" jsonschema:"the offset of the next page when more is true"`
	Decisions  *RecallDecisions `json:"decisions,omitempty" jsonschema:"with message: what mneme decided on the way"`
}

// RecalledMemory is one memory in a recall result.
type RecalledMemory struct {
	ID        string    `json:"id" jsonschema:"the memory's id"`
	Content   string    `json:"content" jsonschema:"the memory's text, cut short (ending with …) when truncated is true"`
	Kind      string    `json:"kind" jsonschema:"thought, fact or episode"`
	Tags      []string  `json:"tags" jsonschema:"the memory's tags"`
	Time      string    `json:"time" jsonschema:"when it happened (RFC 3339)"`
	Age       string    `json:"age" jsonschema:"how long ago it happened, like 3 days ago"`
	Scope     string    `json:"scope" jsonschema:"the scope it belongs to"`
	Score     *ScoreOut `json:"score,omitempty" jsonschema:"why it ranked where it did; absent when fetched by id"`
	Truncated bool      `json:"truncated" jsonschema:"the content was cut to fit the reply; fetch it whole with ids"`

	Subject     string `json:"subject,omitempty" jsonschema:"fact: who or what it is about"`
	Predicate   string `json:"predicate,omitempty" jsonschema:"fact: the attribute or relation"`
	Object      string `json:"object,omitempty" jsonschema:"fact: the value"`
	Context     string `json:"context,omitempty" jsonschema:"fact: circumstances in which it holds"`
	Observation string `json:"observation,omitempty" jsonschema:"episode: what was observed"`
	Thoughts    string `json:"thoughts,omitempty" jsonschema:"episode: what was thought about it"`
	Action      string `json:"action,omitempty" jsonschema:"episode: what was done"`
	Result      string `json:"result,omitempty" jsonschema:"episode: what came of it"`

	Archived     string       `json:"archived,omitempty" jsonschema:"when it was archived (forgotten or superseded), if it was"`
	SupersededBy string       `json:"superseded_by,omitempty" jsonschema:"the id of the newer fact that replaced it"`
	History      []VersionOut `json:"history,omitempty" jsonschema:"earlier versions, oldest first (with history and ids)"`
}

// ScoreOut explains a hit's rank.
type ScoreOut struct {
	Relevance   float64 `json:"relevance" jsonschema:"how well it matches the query, 0 to 1"`
	Probability float64 `json:"probability" jsonschema:"how likely it is to be recalled now given its age and use, 0 to 1"`
	Tags        float64 `json:"tags" jsonschema:"share of the query's tags it carries, 0 to 1"`
}

// WindowOut is the time window a recall applied.
type WindowOut struct {
	Expr    string `json:"expr,omitempty" jsonschema:"the time expression as written"`
	From    string `json:"from,omitempty" jsonschema:"start of the window (RFC 3339, inclusive)"`
	To      string `json:"to,omitempty" jsonschema:"end of the window (RFC 3339, exclusive)"`
	Anchor  string `json:"anchor,omitempty" jsonschema:"centre of a vague window (RFC 3339)"`
	Kind    string `json:"kind" jsonschema:"exact, vague, first, last or explicit"`
	Applied string `json:"applied" jsonschema:"filter (an exact window: only memories said in it or telling of a time in it), boost (a vague one such as 'a few days ago'), or boost-fallback (the exact window held nothing, or nothing matching the words that matched elsewhere, so closeness to it boosts)"`
}

// VersionOut is one earlier state of a memory.
type VersionOut struct {
	Version int       `json:"version" jsonschema:"version number, 1 is the oldest"`
	Changed string    `json:"changed" jsonschema:"when this state ended (RFC 3339)"`
	Reason  string    `json:"reason" jsonschema:"why it changed: update, supersede, merge, archive"`
	Memory  MemoryOut `json:"memory" jsonschema:"the memory as it was before the change"`
}

// maxOffset bounds recall's offset: paging further is not recalling.
const maxOffset = 10000

// recallDescription tells the model when and how to call recall.
const recallDescription = `Search long-term memory. Call it before answering anything that may depend on the user's past, preferences, plans or earlier conversations, and at the start of a conversation about a known topic.
Give a query in words; add when ("last week", "in April", "our first conversation") or from/to for time questions, and tags from the ontology tool to favour a topic. Or pass the user's message as message: mneme then decides whether memory is needed and drops memories unlikely to be relevant.
Returns the best memories first as a compact list within a size budget: long memories are cut (truncated, ending with …) and later ones dropped; page with offset, or fetch memories whole with ids (and history to see their earlier versions).`

// Recall returns the recall tool and its handler.
//
// Hints: read-only. By default recall reinforces the memories it returns
// (recall count, last-recalled time and strength), which is ranking
// bookkeeping, not a change to what is remembered: no memory is added,
// changed or removed. Treating it as a read keeps clients from asking for
// approval on every lookup, which would stop the model from recalling at
// all; reinforce:false makes it a pure read. Idempotent on the same terms.
func Recall(d Deps) (mcp.Tool, server.ToolHandlerFunc) {
	d = d.withDefaults()
	tool := mcp.NewTool("recall",
		mcp.WithDescription(recallDescription),
		mcp.WithInputSchema[RecallInput](),
		withBounds(map[string]map[string]any{
			"limit":           {"minimum": 1, "maximum": memory.MaxLimit},
			"offset":          {"minimum": 0, "maximum": maxOffset},
			"ids":             {"maxItems": memory.MaxLimit},
			"tags":            {"maxItems": memory.MaxTags},
			"min_probability": {"minimum": 0, "maximum": 1},
		}),
		mcp.WithOutputSchema[RecallOutput](),
		mcp.WithTitleAnnotation("Recall"),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	return tool, mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in RecallInput) (*mcp.CallToolResult, error) {
		var (
			out     RecallOutput
			text    string
			err     error
			pending *mcp.CallToolResult
		)
		switch {
		case len(in.IDs) > 0:
			out, text, err = d.fetch(ctx, in)
		case strings.TrimSpace(in.Message) != "":
			out, text, pending, err = d.recallMessage(ctx, req, in, d.resolveScope(ctx, req, in.Scope))
		default:
			if cs := d.resolveScope(ctx, req, in.Scope); cs.pending {
				pending = d.askRoots(req)
			} else {
				out, text, err = d.search(ctx, in, d.searchScopes(cs))
			}
		}
		if pending != nil {
			return pending, nil
		}
		if err != nil {
			return d.failure("recall", err)
		}
		return mcp.NewToolResultStructured(out, text), nil
	})
}

// fetch returns the memories named by in.IDs whole, with their history when
// asked. Fetching by id does not reinforce: it is a re-read, not a recall.
func (d Deps) fetch(ctx context.Context, in RecallInput) (RecallOutput, string, error) {
	ids, err := checkIDs("ids", in.IDs, memory.MaxLimit, "fetch them in several calls")
	if err != nil {
		return RecallOutput{}, "", err
	}
	ms, err := d.Store.Get(ctx, ids)
	if err != nil {
		return RecallOutput{}, "", err
	}
	now := d.Now()
	out := RecallOutput{Memories: make([]RecalledMemory, 0, len(ms))}
	for _, m := range ms {
		r := d.recalled(m, now)
		if in.History {
			versions, err := d.Store.History(ctx, m.ID)
			if err != nil {
				return RecallOutput{}, "", err
			}
			for _, v := range versions {
				r.History = append(r.History, VersionOut{
					Version: v.Version, Changed: d.stamp(v.Changed), Reason: v.Reason, Memory: d.memoryOut(v.Memory),
				})
			}
		}
		out.Memories = append(out.Memories, r)
	}
	return out, d.fetchText(out), nil
}

// search ranks memories of scopes for the query and fits them into the budget.
func (d Deps) search(ctx context.Context, in RecallInput, scopes []string) (RecallOutput, string, error) {
	q, err := d.query(in, scopes)
	if err != nil {
		return RecallOutput{}, "", err
	}
	reinforce := q.Reinforce
	q.Reinforce = false // only what the reply shows is reinforced, below
	res, err := d.Store.Recall(ctx, q)
	if err != nil {
		return RecallOutput{}, "", err
	}
	out, text := d.show(res.Hits, res.Window, q.Offset, res.More)
	if reinforce {
		if err := d.reinforceShown(ctx, out); err != nil {
			return RecallOutput{}, "", err
		}
	}
	return out, text, nil
}

// show converts ranked hits for output and fits them into the budget.
func (d Deps) show(hits []memory.Hit, w *memory.Window, offset int, more bool) (RecallOutput, string) {
	now := d.Now()
	out := RecallOutput{Memories: make([]RecalledMemory, 0, len(hits)), Window: d.windowOut(w)}
	for _, h := range hits {
		r := d.recalled(h.Memory, now)
		r.Score = &ScoreOut{Relevance: round3(h.Score.Relevance), Probability: round3(h.Score.Probability), Tags: round3(h.Score.Tags)}
		out.Memories = append(out.Memories, r)
	}
	text := d.fit(&out, now, offset, more)
	return out, text
}

// reinforceShown records a recall of the memories the reply shows (not
// those the budget left out).
func (d Deps) reinforceShown(ctx context.Context, out RecallOutput) error {
	if len(out.Memories) == 0 {
		return nil
	}
	ids := make([]string, len(out.Memories))
	for i, m := range out.Memories {
		ids[i] = m.ID
	}
	return d.Store.Reinforce(ctx, ids)
}

// query validates the search arguments and builds the store query over
// scopes (nil = the store's default scope).
func (d Deps) query(in RecallInput, scopes []string) (memory.Query, error) {
	if in.History {
		return memory.Query{}, invalidf("history needs ids: recall first, then call again with ids and history")
	}
	if strings.TrimSpace(in.Query) != "" && strings.TrimSpace(in.Message) != "" {
		return memory.Query{}, invalidf("give either query (your search words) or message (the user's message as written), not both")
	}
	if strings.TrimSpace(in.Query) == "" && len(in.Tags) == 0 && strings.TrimSpace(in.When) == "" && in.From == "" && in.To == "" {
		return memory.Query{}, invalidf("recall needs something to look for: a query, ids, tags, or a time (when, from, to)")
	}
	limit := in.Limit
	if limit == 0 {
		limit = memory.DefaultLimit
	}
	if limit < 1 || limit > memory.MaxLimit {
		return memory.Query{}, invalidf("limit %d is out of range: use 1 to %d (default %d)", in.Limit, memory.MaxLimit, memory.DefaultLimit)
	}
	if in.Offset < 0 {
		return memory.Query{}, invalidf("offset %d is negative: use 0 for the first page, then the next_offset a reply gives", in.Offset)
	}
	if in.Offset > maxOffset {
		return memory.Query{}, invalidf("offset %d is past the last page recall serves (%d): narrow the query with when, tags or scope instead", in.Offset, maxOffset)
	}
	if len(in.When) > maxTimeBytes {
		return memory.Query{}, invalidf("when %s is too long to be a time: use words like yesterday, last week or in April", memory.Quote(in.When))
	}
	if in.MinProbability < 0 || in.MinProbability > 1 {
		return memory.Query{}, invalidf("min_probability %v is out of range: use a number from 0 to 1", in.MinProbability)
	}
	tags, err := checkTags(in.Tags)
	if err != nil {
		return memory.Query{}, err
	}
	if len(tags) == 0 && strings.TrimSpace(in.Query) != "" {
		// A soft boost only: the store ranks memories carrying them higher
		// but still finds those without.
		tags = d.tree().Tag(in.Query, 0)
	}
	var from, to time.Time
	if in.From != "" {
		if from, err = d.parseTime("from", in.From, atStart); err != nil {
			return memory.Query{}, err
		}
	}
	if in.To != "" {
		if to, err = d.parseTime("to", in.To, atEnd); err != nil {
			return memory.Query{}, err
		}
	}
	if !from.IsZero() && !to.IsZero() && !from.Before(to) {
		return memory.Query{}, invalidf("from %s is not before to %s: swap them or widen the range", memory.Quote(in.From), memory.Quote(in.To))
	}
	reinforce := true
	if in.Reinforce != nil {
		reinforce = *in.Reinforce
	}
	return memory.Query{
		Text:            strings.TrimSpace(in.Query),
		When:            strings.TrimSpace(in.When),
		Tags:            tags,
		From:            from,
		To:              to,
		Scopes:          scopes,
		Limit:           limit,
		Offset:          in.Offset,
		IncludeArchived: in.IncludeArchived,
		Reinforce:       reinforce,
		MinProbability:  in.MinProbability,
	}, nil
}

// recalled converts a memory for a recall result, whole.
func (d Deps) recalled(m memory.Memory, now time.Time) RecalledMemory {
	tags := m.Tags
	if tags == nil {
		tags = []string{}
	}
	return RecalledMemory{
		ID: m.ID, Content: m.Content, Kind: string(m.Kind), Tags: tags,
		Time: d.stamp(m.Time), Age: age(now, m.Time), Scope: m.Scope,
		Subject: m.Subject, Predicate: m.Predicate, Object: m.Object, Context: m.Context,
		Observation: m.Observation, Thoughts: m.Thoughts, Action: m.Action, Result: m.Result,
		Archived: d.stamp(m.Archived), SupersededBy: m.SupersededBy,
	}
}

// windowOut converts the window a recall applied; nil stays nil.
func (d Deps) windowOut(w *memory.Window) *WindowOut {
	if w == nil {
		return nil
	}
	return &WindowOut{
		Expr: w.Expr, From: d.stamp(w.From), To: d.stamp(w.To), Anchor: d.stamp(w.Anchor),
		Kind: w.Kind, Applied: w.Applied,
	}
}
