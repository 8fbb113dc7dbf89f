package tools

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/prompts"
)

// sampledGroup is one tag group shown to the model for review: existing
// memories (refs m1, m2, ...; the same ref in every group) and new items.
type sampledGroup struct {
	tag      string
	existing []memory.Memory
	items    []*newItem
}

// sampleReview runs memory review (CAIM 3.3.3 with Think-in-Memory's
// merge and forget) over the tag groups of the new items and of the
// memories since the last consolidation, all groups in one round, and
// returns the store ops the answers come to. New items a review folds into
// a merge or supersede are marked absorbed. Ops that name unknown refs,
// reuse a memory or let a new item be superseded are dropped and noted.
func (d Deps) sampleReview(ctx context.Context, s *sampler, c *consolidation, items []*newItem) ([]memory.Op, *mcp.CallToolResult, error) {
	groups, refs, err := d.sampledGroups(ctx, c, items)
	if err != nil || len(groups) == 0 {
		return nil, nil, err
	}
	reqs := make([]sampleRequest, 0, len(groups))
	for _, g := range groups {
		prompt, err := prompts.Render(prompts.ReviewMemories, prompts.ReviewData{Tag: g.tag, Memories: d.groupItems(g, refs)})
		if err != nil {
			return nil, nil, err
		}
		reqs = append(reqs, ask(idReview+g.tag, "", prompt, reviewMax))
	}
	answers, pending := s.ask(reqs)
	if pending != nil {
		return nil, pending, nil
	}
	r := reviewer{refs: refs, items: items, claimed: map[string]bool{}, successors: map[string]int{}}
	for _, g := range groups {
		a := answers[idReview+g.tag]
		if !a.ok() {
			c.out.Fallbacks = append(c.out.Fallbacks, fmt.Sprintf("review %s: %s, nothing merged", g.tag, a.why()))
			continue
		}
		ops, err := prompts.ParseReview(a.Text)
		if len(ops) == 0 && err != nil {
			c.out.Fallbacks = append(c.out.Fallbacks, fmt.Sprintf("review %s: reply unparseable, nothing merged", g.tag))
			continue
		}
		inGroup := map[string]bool{}
		for _, m := range g.existing {
			inGroup[refs.ref(m.ID)] = true
		}
		for _, it := range g.items {
			inGroup[it.ref] = true
		}
		for _, op := range ops {
			if why := r.add(op, inGroup); why != "" {
				c.out.Fallbacks = append(c.out.Fallbacks, fmt.Sprintf("review %s: dropped %s: %s", g.tag, describeReviewOp(op), why))
			}
		}
	}
	return r.ops, nil, nil
}

// refTable names existing memories m1, m2, ... across all groups.
type refTable struct {
	byRef map[string]memory.Memory
	byID  map[string]string
}

func (t *refTable) ref(id string) string { return t.byID[id] }

// sampledGroups lists the groups worth reviewing: at least two members, one
// of them new or remembered since the last consolidation.
func (d Deps) sampledGroups(ctx context.Context, c *consolidation, items []*newItem) ([]sampledGroup, *refTable, error) {
	refs := &refTable{byRef: map[string]memory.Memory{}, byID: map[string]string{}}
	recent := map[string]bool{}
	for _, m := range c.since {
		recent[m.ID] = true
	}
	members := func(tag string) []*newItem {
		var in []*newItem
		for _, it := range items {
			if slices.Contains(it.draft.Tags, tag) {
				in = append(in, it)
			}
		}
		return in
	}
	worth := func(g reviewGroup) bool {
		news := members(g.tag)
		fresh := len(news) > 0
		for _, m := range g.memories {
			fresh = fresh || recent[m.ID]
		}
		return fresh && len(g.memories)+len(news) >= 2
	}
	listed, err := d.reviewGroups(ctx, c, reviewTags(items, c.since), worth)
	if err != nil {
		return nil, nil, err
	}
	var out []sampledGroup
	for _, lg := range listed {
		g := sampledGroup{tag: lg.tag, existing: lg.memories, items: members(lg.tag)}
		for _, m := range g.existing {
			if _, ok := refs.byID[m.ID]; !ok {
				ref := "m" + strconv.Itoa(len(refs.byID)+1)
				refs.byID[m.ID], refs.byRef[ref] = ref, m
			}
		}
		out = append(out, g)
	}
	return out, refs, nil
}

// groupItems are a group's members for the review prompt.
func (d Deps) groupItems(g sampledGroup, refs *refTable) []prompts.Item {
	out := make([]prompts.Item, 0, len(g.existing)+len(g.items))
	for _, m := range g.existing {
		out = append(out, prompts.Item{Ref: refs.ref(m.ID), Time: d.day(m.Time), Text: m.Content})
	}
	for _, it := range g.items {
		out = append(out, prompts.Item{Ref: it.ref, Time: d.day(it.draft.Time), Text: draftText(it.draft)})
	}
	return out
}

// reviewer turns review answers into store ops, keeping every memory in at
// most one op.
type reviewer struct {
	refs       *refTable
	items      []*newItem
	claimed    map[string]bool // refs merged, superseded or absorbed
	successors map[string]int  // ref of a supersede's newer memory -> index in ops
	ops        []memory.Op
}

func (r *reviewer) item(ref string) *newItem {
	for _, it := range r.items {
		if it.ref == ref {
			return it
		}
	}
	return nil
}

// add maps one review op; it returns why it was dropped, or "".
func (r *reviewer) add(op prompts.ReviewOp, inGroup map[string]bool) string {
	refs := op.IDs
	if op.Op == "supersede" {
		refs = []string{op.Old, op.New}
	}
	for _, ref := range refs {
		switch {
		case !inGroup[ref]:
			return ref + " is not one of the group's memories"
		case r.claimed[ref]:
			return ref + " is already used by another operation"
		}
	}
	switch op.Op {
	case "merge":
		return r.merge(op)
	case "supersede":
		return r.supersede(op)
	}
	return "" // keep
}

func (r *reviewer) merge(op prompts.ReviewOp) string {
	if err := checkContent(op.Text); err != nil {
		return "the merged text is not usable"
	}
	for _, ref := range op.IDs {
		if _, ok := r.successors[ref]; ok {
			return ref + " is already the newer memory of a supersede"
		}
	}
	var ids []string
	var tags []string
	var at time.Time
	for _, ref := range op.IDs {
		r.claimed[ref] = true
		if it := r.item(ref); it != nil {
			it.absorbed = true
			tags = appendNew(tags, it.draft.Tags...)
			if it.draft.Time.After(at) {
				at = it.draft.Time
			}
			continue
		}
		m := r.refs.byRef[ref]
		ids = append(ids, m.ID)
		if m.Time.After(at) {
			at = m.Time
		}
	}
	draft := memory.Draft{Kind: memory.KindThought, Content: strings.TrimSpace(op.Text), Time: at, Source: "consolidate"}
	if len(tags) > 0 {
		draft.Tags = tags[:min(len(tags), memory.MaxTags)]
	}
	kind := memory.OpMerge
	if len(ids) == 0 { // only new items: one add instead of several
		kind = memory.OpAdd
		draft.Scope = r.items[0].draft.Scope
		draft.Thread = r.items[0].draft.Thread
	}
	r.ops = append(r.ops, memory.Op{Op: kind, IDs: ids, Draft: draft, Reason: "review: same or related"})
	return ""
}

func (r *reviewer) supersede(op prompts.ReviewOp) string {
	if r.item(op.Old) != nil {
		return "a new memory is kept, not superseded"
	}
	if _, ok := r.successors[op.Old]; ok {
		return op.Old + " is already the newer memory of a supersede"
	}
	old := r.refs.byRef[op.Old]
	r.claimed[op.Old] = true
	if i, ok := r.successors[op.New]; ok {
		r.ops[i].IDs = append(r.ops[i].IDs, old.ID)
		return ""
	}
	var draft memory.Draft
	if it := r.item(op.New); it != nil {
		it.absorbed = true
		draft = it.draft
		draft.Scope = "" // the superseded memory's scope
	} else {
		draft = successorDraft(r.refs.byRef[op.New])
	}
	r.successors[op.New] = len(r.ops)
	r.ops = append(r.ops, memory.Op{Op: memory.OpSupersede, IDs: []string{old.ID}, Draft: draft, Reason: "review: updated by a newer memory"})
	return ""
}

func describeReviewOp(op prompts.ReviewOp) string {
	if op.Op == "supersede" {
		return "SUPERSEDE " + op.Old + " => " + op.New
	}
	return strings.ToUpper(op.Op) + " " + strings.Join(op.IDs, ",")
}
