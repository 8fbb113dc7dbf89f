package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/prompts"
)

// WorkItem is thinking consolidate leaves to the calling model when the
// client offers no sampling: a prompt to run, and what to do with the answer.
type WorkItem struct {
	Kind     string       `json:"kind" jsonschema:"extract: find what to remember in the conversation; review: tidy memories sharing a tag"`
	Tag      string       `json:"tag,omitempty" jsonschema:"review: the tag the memories share"`
	Memories []WorkMemory `json:"memories,omitempty" jsonschema:"review: the memories, with the ids operations name"`
	Prompt   string       `json:"prompt" jsonschema:"the prompt to answer yourself"`
	Then     string       `json:"then" jsonschema:"how to turn your answer into operations for the next consolidate call"`
}

// WorkMemory is a memory shown in a review work item.
type WorkMemory struct {
	ID      string   `json:"id" jsonschema:"the memory's id, for operations"`
	Time    string   `json:"time" jsonschema:"when it happened (RFC 3339)"`
	Content string   `json:"content" jsonschema:"its text"`
	Tags    []string `json:"tags" jsonschema:"its tags"`
}

// How to turn the answers to work items into operations.
const (
	extractThen = `Answer the prompt yourself. Then call consolidate once more with %sthread %q and operations: for each line "thought;timestamp;tags" one {"op":"add","content":thought,"time":timestamp,"tags":[...]}; for each "FACT;subject;predicate;object;timestamp" one {"op":"add","kind":"fact","subject":...,"predicate":...,"object":...,"time":timestamp}. Tags must come from the ontology (the ontology tool searches it). Answer NONE: nothing to add.`
	reviewThen  = `Answer the prompt yourself. Then call consolidate with operations (all review answers may go in one call): MERGE a,b => text becomes {"op":"merge","ids":[a,b],"content":text}; SUPERSEDE old => new becomes {"op":"supersede","ids":[old],"by":new}; KEEP needs nothing.`
)

// maxReviewGroups bounds the tags reviewed in one call, and
// maxReviewGroup the memories of one tag shown (the most recent).
const (
	maxReviewGroups = 6
	maxReviewGroup  = 20
)

// consolidateManual is post-thinking without the client's model: the
// conversation's turns are stored at once as episodes, near-duplicates are
// suggested, and the thinking is handed back as work items.
func (d Deps) consolidateManual(ctx context.Context, c *consolidation) error {
	var tags []string
	if len(c.turns) > 0 {
		res, err := d.Store.Apply(ctx, d.episodeOps(c), c.in.DryRun)
		if err != nil {
			return err
		}
		d.changes(res, &c.out)
		if err := d.suggest(ctx, c, res); err != nil {
			return err
		}
		item, err := d.extractItem(c)
		if err != nil {
			return err
		}
		c.out.WorkItems = append(c.out.WorkItems, item)
		for _, t := range c.turns {
			tags = appendNew(tags, d.tree().Tag(t.Content, 0)...)
		}
	}
	for _, m := range c.since {
		tags = appendNew(tags, m.Tags...)
	}
	// A group of one has nothing to merge or supersede yet.
	groups, err := d.reviewGroups(ctx, c, tags, func(g reviewGroup) bool { return len(g.memories) >= 2 })
	if err != nil {
		return err
	}
	for _, g := range groups {
		item, err := d.reviewItem(g)
		if err != nil {
			return err
		}
		c.out.WorkItems = append(c.out.WorkItems, item)
	}
	return nil
}

// episodeOps stores each turn as an episode "role: content" of the thread,
// tagged by the deterministic tagger.
func (d Deps) episodeOps(c *consolidation) []memory.Op {
	ops := make([]memory.Op, 0, len(c.turns))
	for i, t := range c.turns {
		content := t.Role + ": " + t.Content
		ops = append(ops, memory.Op{Op: memory.OpAdd, Draft: memory.Draft{
			Scope: c.scope, Kind: memory.KindEpisode, Content: content,
			Tags: d.tree().Tag(t.Content, 0), Time: t.Time,
			Source: "consolidate", Thread: c.thread, Seq: i + 1,
		}})
	}
	return ops
}

// extractItem is the key-events prompt for the transcript.
func (d Deps) extractItem(c *consolidation) (WorkItem, error) {
	prompt, err := prompts.Render(prompts.KeyEvents, prompts.KeyEventsData{
		Transcript: d.promptTranscript(c.turns), Now: d.promptTime(c.started), Ontology: d.tree().Render(),
	})
	if err != nil {
		return WorkItem{}, err
	}
	return WorkItem{Kind: "extract", Prompt: prompt, Then: fmt.Sprintf(extractThen, scopeArg(c.scope), c.thread)}, nil
}

// reviewGroup is the memories sharing a tag, most recent last.
type reviewGroup struct {
	tag      string
	memories []memory.Memory
}

// reviewGroups lists, for each tag, the most recent thoughts and facts of
// the scope carrying it (episodes are raw turns: their thoughts are what is
// reviewed), and returns the first maxReviewGroups groups keep accepts.
func (d Deps) reviewGroups(ctx context.Context, c *consolidation, tags []string, keep func(reviewGroup) bool) ([]reviewGroup, error) {
	var out []reviewGroup
	for _, tag := range tags {
		if len(out) == maxReviewGroups {
			break
		}
		ms, err := d.Store.List(ctx, memory.ListFilter{Scope: d.listScope(c.scope), Tags: []string{tag}})
		if err != nil {
			return nil, err
		}
		ms = slices.DeleteFunc(ms, func(m memory.Memory) bool { return m.Kind == memory.KindEpisode })
		if len(ms) > maxReviewGroup {
			ms = ms[len(ms)-maxReviewGroup:]
		}
		if g := (reviewGroup{tag: tag, memories: ms}); keep(g) {
			out = append(out, g)
		}
	}
	return out, nil
}

// reviewItem is the review prompt of one group, naming memories by id.
func (d Deps) reviewItem(g reviewGroup) (WorkItem, error) {
	items := make([]prompts.Item, len(g.memories))
	mems := make([]WorkMemory, len(g.memories))
	for i, m := range g.memories {
		items[i] = prompts.Item{Ref: m.ID, Time: d.day(m.Time), Text: m.Content}
		mems[i] = WorkMemory{ID: m.ID, Time: d.stamp(m.Time), Content: m.Content, Tags: m.Tags}
	}
	prompt, err := prompts.Render(prompts.ReviewMemories, prompts.ReviewData{Tag: g.tag, Memories: items})
	if err != nil {
		return WorkItem{}, err
	}
	return WorkItem{Kind: "review", Tag: g.tag, Memories: mems, Prompt: prompt, Then: reviewThen}, nil
}

// promptTranscript renders turns as the key-events prompt expects them:
// "[2006-01-02 15:04] role: content", one per line.
func (d Deps) promptTranscript(turns []turn) string {
	var b strings.Builder
	for _, t := range turns {
		fmt.Fprintf(&b, "[%s] %s: %s\n", d.promptTime(t.Time), t.Role, oneLine(t.Content))
	}
	return strings.TrimRight(b.String(), "\n")
}

// promptTime is a time as prompts show it, in Deps.Location.
func (d Deps) promptTime(t time.Time) string { return t.In(d.Location).Format(promptLayout) }

const promptLayout = "2006-01-02 15:04"

func appendNew(list []string, xs ...string) []string {
	for _, x := range xs {
		if !slices.Contains(list, x) {
			list = append(list, x)
		}
	}
	return list
}

// scopeArg names a scope argument for instructions, or nothing for the default.
func scopeArg(scope string) string {
	if scope == "" {
		return ""
	}
	return fmt.Sprintf("scope %q, ", scope)
}
