package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/prompts"
)

// newItem is a memory post-thinking extracted and will store, unless a
// review folds it into a merge or supersede.
type newItem struct {
	ref      string // n1, n2, ... in review prompts
	draft    memory.Draft
	absorbed bool // a review op stores it instead of a plain add
}

// Sampling request ids and reply sizes.
const (
	idKeyEvents   = "key-events"
	idTags        = "select-tags"
	idTagsRetry   = "select-tags-retry"
	idReview      = "review-" // + tag
	keyEventsMax  = 2000
	selectTagsMax = 600
	reviewMax     = 1500
)

// consolidateSampled is post-thinking with the client's model (CAIM 3.3.3):
// memory extension (key events as tagged, dated thoughts and facts), tag
// selection for those without valid tags (one batched request, one
// corrective retry), memory review of every tag group (all groups in one
// round), then one Apply. It writes only after the last round; before that
// it only reads, so replays are harmless. A non-nil result is an input
// request the handler must return.
func (d Deps) consolidateSampled(ctx context.Context, req mcp.CallToolRequest, s *sampler, c *consolidation) (*mcp.CallToolResult, error) {
	var items []*newItem
	var ops []memory.Op
	if len(c.turns) > 0 {
		progress(ctx, req, 0, 4, "extracting key events")
		kr, err := d.keyEventsRequest(c)
		if err != nil {
			return nil, err
		}
		ans, pending := s.ask([]sampleRequest{kr})
		if pending != nil {
			return pending, nil
		}
		var ok bool
		if items, ok = d.keyEventItems(c, ans[idKeyEvents]); !ok {
			ops = d.episodeOps(c) // keep the conversation recallable
			item, err := d.extractItem(c)
			if err != nil {
				return nil, err
			}
			c.out.WorkItems = append(c.out.WorkItems, item)
		}
	}
	progress(ctx, req, 1, 4, "selecting tags")
	if pending := d.sampleTags(s, c, items); pending != nil {
		return pending, nil
	}
	progress(ctx, req, 2, 4, "reviewing memories")
	review, pending, err := d.sampleReview(ctx, s, c, items)
	if pending != nil || err != nil {
		return pending, err
	}
	for i, it := range items {
		if !it.absorbed {
			it.draft.Seq = i + 1
			ops = append(ops, memory.Op{Op: memory.OpAdd, Draft: it.draft, Reason: "key event"})
		}
	}
	progress(ctx, req, 3, 4, "applying")
	res, err := d.Store.Apply(ctx, append(ops, review...), c.in.DryRun)
	if err != nil && len(review) > 0 && (errors.Is(err, memory.ErrInvalid) || errors.Is(err, memory.ErrNotFound)) {
		c.out.Fallbacks = append(c.out.Fallbacks, fmt.Sprintf("review: its operations could not be applied (%v); stored the new memories without them", err))
		for _, it := range items {
			if it.absorbed {
				ops = append(ops, memory.Op{Op: memory.OpAdd, Draft: it.draft, Reason: "key event"})
			}
		}
		res, err = d.Store.Apply(ctx, ops, c.in.DryRun)
	}
	if err != nil {
		return nil, err
	}
	d.changes(res, &c.out)
	progress(ctx, req, 4, 4, "done")
	return nil, d.suggest(ctx, c, res)
}

// keyEventsRequest asks for the transcript's key events.
func (d Deps) keyEventsRequest(c *consolidation) (sampleRequest, error) {
	prompt, err := prompts.Render(prompts.KeyEvents, prompts.KeyEventsData{
		Transcript: d.promptTranscript(c.turns), Now: d.promptTime(c.started), Ontology: d.tree().Render(),
	})
	if err != nil {
		return sampleRequest{}, err
	}
	return ask(idKeyEvents, "", prompt, keyEventsMax), nil
}

// keyEventItems turns the key-events answer into new memories: thoughts and
// facts with valid ontology tags (others dropped) and the exact time of the
// turn they cite. ok is false when the answer is unusable (the caller falls
// back); NONE is ok with no items. Problems are noted as fallbacks.
func (d Deps) keyEventItems(c *consolidation, a answer) ([]*newItem, bool) {
	fail := func(why string) ([]*newItem, bool) {
		c.out.Fallbacks = append(c.out.Fallbacks, "key-events: "+why+"; stored the conversation's turns as episodes instead")
		return nil, false
	}
	if !a.ok() {
		return fail(a.why())
	}
	evs, err := prompts.ParseKeyEvents(a.Text)
	if len(evs) == 0 && err != nil {
		return fail("reply unparseable")
	}
	var dropped []string
	if err != nil {
		dropped = append(dropped, err.Error())
	}
	o := d.tree()
	var items []*newItem
	transcript := d.promptTranscript(c.turns)
	for _, ev := range evs {
		if foreign(ev.Text, transcript) {
			dropped = append(dropped, fmt.Sprintf("%q is not in the conversation's language", short(ev.Text)))
			continue
		}
		draft := memory.Draft{Scope: c.scope, Kind: memory.KindThought, Content: strings.TrimSpace(ev.Text), Source: "consolidate", Thread: c.thread}
		if ev.Fact {
			draft.Kind, draft.Content = memory.KindFact, ""
			draft.Subject, draft.Predicate, draft.Object = ev.Subject, ev.Predicate, ev.Object
		} else if err := checkContent(draft.Content); err != nil {
			dropped = append(dropped, fmt.Sprintf("%q: %v", short(ev.Text), err))
			continue
		}
		at, exact := d.eventTime(ev.Time, c.turns)
		if !exact {
			dropped = append(dropped, fmt.Sprintf("timestamp %q of %q is not a turn's time: used the conversation's last", short(ev.Time), short(ev.Text)))
		}
		draft.Time = at
		for _, t := range ev.Tags {
			if o.Has(t) && len(draft.Tags) < memory.MaxTags {
				draft.Tags = append(draft.Tags, t)
			}
		}
		items = append(items, &newItem{ref: "n" + strconv.Itoa(len(items)+1), draft: draft})
	}
	if len(dropped) > 0 {
		c.out.Fallbacks = append(c.out.Fallbacks, "key-events: "+strings.Join(dropped, "; "))
	}
	return items, true
}

// eventTime resolves a key event's timestamp: a turn's time as the prompt
// showed it gives that turn's exact time; another readable time inside the
// conversation is taken as written; anything else is the last turn's time
// (exact false).
func (d Deps) eventTime(s string, turns []turn) (time.Time, bool) {
	s = strings.Trim(strings.TrimSpace(s), "[]")
	for _, t := range turns {
		if d.promptTime(t.Time) == s {
			return t.Time, true
		}
	}
	last := turns[len(turns)-1].Time
	for _, layout := range []string{promptLayout, time.RFC3339, "2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02"} {
		at, err := time.ParseInLocation(layout, s, d.Location)
		if err != nil {
			continue
		}
		if at.Before(turns[0].Time.Add(-24*time.Hour)) || at.After(last.Add(24*time.Hour)) {
			break // not this conversation's time
		}
		return at, true
	}
	return last, false
}

// foreign reports whether text is mostly in another script than the
// conversation (a model answering in the wrong language): more than a third
// of its letters outside Latin while the conversation has almost none.
func foreign(text, conversation string) bool {
	share := func(s string) float64 {
		letters, other := 0, 0
		for _, r := range s {
			if unicode.IsLetter(r) {
				letters++
				if !unicode.Is(unicode.Latin, r) {
					other++
				}
			}
		}
		if letters == 0 {
			return 0
		}
		return float64(other) / float64(letters)
	}
	return share(text) > 1.0/3 && share(conversation) < 0.05
}

func short(s string) string {
	s, _ = cut(oneLine(s), 60)
	return s
}

// sampleTags chooses ontology tags for the items without valid ones: one
// batched select-tags request, one corrective retry for the items whose
// answer was missing or held no ontology tag, then the deterministic tagger.
func (d Deps) sampleTags(s *sampler, c *consolidation, items []*newItem) *mcp.CallToolResult {
	var need []*newItem
	for _, it := range items {
		if len(it.draft.Tags) == 0 {
			need = append(need, it)
		}
	}
	if len(need) == 0 {
		return nil
	}
	o := d.tree()
	texts := make([]string, len(need))
	for i, it := range need {
		texts[i] = draftText(it.draft)
	}
	prompt, err := prompts.Render(prompts.SelectTags, prompts.SelectTagsData{Ontology: o.Render(), Items: texts})
	if err != nil {
		d.Logger.Error("render select-tags", "err", err)
		d.tagDeterministically(c, need, "select-tags: prompt failed, used the deterministic tagger")
		return nil
	}
	first := ask(idTags, "", prompt, selectTagsMax)
	ans, pending := s.ask([]sampleRequest{first})
	if pending != nil {
		return pending
	}
	a := ans[idTags]
	if !a.ok() {
		d.tagDeterministically(c, need, "select-tags: "+a.why()+", used the deterministic tagger")
		return nil
	}
	missing := d.applyTags(a.Text, need)
	if len(missing) == 0 {
		var none []*newItem // answered NONE
		for _, it := range need {
			if len(it.draft.Tags) == 0 {
				none = append(none, it)
			}
		}
		d.tagDeterministically(c, none, "select-tags: the model found no ontology tag for some texts, used the deterministic tagger for them")
		return nil
	}
	nums := make([]string, len(missing))
	for i, k := range missing {
		nums[i] = strconv.Itoa(k + 1)
	}
	correction := fmt.Sprintf("Texts %s got no tag from the ontology (a tag was missing, misspelt, translated or invented). Reply again for those texts only, one line each as N: tag, tag, copying tags exactly as they appear in the ontology, or N: NONE.", strings.Join(nums, ", "))
	ans, pending = s.ask([]sampleRequest{followUp(first, idTagsRetry, a.Text, correction)})
	if pending != nil {
		return pending
	}
	if r := ans[idTagsRetry]; r.ok() {
		sub := make([]*newItem, len(need))
		for _, k := range missing {
			sub[k] = need[k]
		}
		d.applyTags(r.Text, sub)
	}
	var still []*newItem
	for _, it := range need {
		if len(it.draft.Tags) == 0 {
			still = append(still, it)
		}
	}
	why := "select-tags: reply unparseable, used the deterministic tagger"
	if len(still) < len(need) {
		why = fmt.Sprintf("select-tags: %d of %d texts had no ontology tag after a retry, used the deterministic tagger for them", len(still), len(need))
	}
	d.tagDeterministically(c, still, why)
	return nil
}

// applyTags sets the ontology tags a select-tags reply gives the items (nil
// entries are skipped) and returns the indexes of items that got none,
// leaving out those the reply explicitly answered NONE.
func (d Deps) applyTags(reply string, items []*newItem) []int {
	o := d.tree()
	lists, _ := prompts.ParseTags(reply, len(items)) // partial answers are used
	var missing []int
	for k, it := range items {
		if it == nil {
			continue
		}
		var list []string
		if k < len(lists) {
			list = lists[k]
		}
		for _, t := range list {
			if o.Has(t) && len(it.draft.Tags) < memory.MaxTags {
				it.draft.Tags = appendNew(it.draft.Tags, t)
			}
		}
		if len(it.draft.Tags) == 0 && (list == nil || len(list) > 0) {
			missing = append(missing, k)
		}
	}
	return missing
}

// tagDeterministically tags items with the ontology's tagger and notes why.
func (d Deps) tagDeterministically(c *consolidation, items []*newItem, why string) {
	if len(items) == 0 {
		return
	}
	for _, it := range items {
		it.draft.Tags = d.tree().Tag(draftText(it.draft), 0)
	}
	c.out.Fallbacks = append(c.out.Fallbacks, why)
}

// draftText is the text of a draft as prompts show it.
func draftText(dr memory.Draft) string {
	if dr.Content != "" {
		return dr.Content
	}
	return strings.Join([]string{dr.Subject, dr.Predicate, dr.Object}, " ")
}

// reviewTags are the tags to review, most used by the new items first,
// then those of the memories since the last consolidation.
func reviewTags(items []*newItem, since []memory.Memory) []string {
	count := map[string]int{}
	var tags []string
	for _, it := range items {
		for _, t := range it.draft.Tags {
			if count[t] == 0 {
				tags = append(tags, t)
			}
			count[t]++
		}
	}
	slices.SortStableFunc(tags, func(a, b string) int { return count[b] - count[a] })
	for _, m := range since {
		tags = appendNew(tags, m.Tags...)
	}
	return tags
}
