package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-mcp/mneme/memory"
)

// maxOperations bounds the operations of one consolidate call.
const maxOperations = 200

// maxOperationIDs bounds the ids of one operation.
const maxOperationIDs = 100

// OperationIn is one change to memory the calling model decided on, handed
// to consolidate in operations.
type OperationIn struct {
	Op        string   `json:"op" jsonschema:"add: store a new memory; merge: replace the memories in ids by one (content, or their texts joined); supersede: replace outdated memories in ids by a newer one (content, or by naming an existing one); archive: archive the memories in ids,enum=add,enum=merge,enum=supersede,enum=archive"`
	IDs       []string `json:"ids,omitempty" jsonschema:"merge, supersede, archive: the ids of the existing memories it concerns, at most 100"`
	Content   string   `json:"content,omitempty" jsonschema:"add, merge, supersede: the new memory, one short self-contained statement with absolute dates"`
	Tags      []string `json:"tags,omitempty" jsonschema:"up to 3 tags from the ontology, each one lowercase word"`
	Time      string   `json:"time,omitempty" jsonschema:"when it happened: RFC 3339 or a date like 2026-05-08; default: the conversation's time, or the latest of the merged memories"`
	Kind      string   `json:"kind,omitempty" jsonschema:"thought (default), fact (give subject, predicate, object) or episode,enum=thought,enum=fact,enum=episode"`
	Subject   string   `json:"subject,omitempty" jsonschema:"fact: who or what it is about, like user"`
	Predicate string   `json:"predicate,omitempty" jsonschema:"fact: the attribute, like lives in; a newer fact with the same subject and predicate supersedes the old one"`
	Object    string   `json:"object,omitempty" jsonschema:"fact: the value, like Berlin"`
	By        string   `json:"by,omitempty" jsonschema:"supersede: the id of an existing newer memory that replaces the memories in ids (instead of content)"`
	Reason    string   `json:"reason,omitempty" jsonschema:"why, in a few words; kept in the history of the memories it archives"`
}

// ChangeOut is one change consolidate made (or would make, on a dry run).
type ChangeOut struct {
	ID        string   `json:"id,omitempty" jsonschema:"the memory stored or reinforced (empty on a dry run for a new one)"`
	Content   string   `json:"content,omitempty" jsonschema:"its text"`
	Kind      string   `json:"kind,omitempty" jsonschema:"thought, fact or episode"`
	Tags      []string `json:"tags,omitempty" jsonschema:"its tags"`
	Time      string   `json:"time,omitempty" jsonschema:"when it happened (RFC 3339)"`
	IDs       []string `json:"ids,omitempty" jsonschema:"the memories it archived: merged, superseded (also older facts with the same subject and predicate) or archived"`
	Duplicate bool     `json:"duplicate,omitempty" jsonschema:"the same text was already remembered: that memory was reinforced instead"`
	Reason    string   `json:"reason,omitempty" jsonschema:"why"`
}

// opsFromInput validates operations given by the caller and turns them
// into store ops. Adds default to the conversation's thread and time.
func (d Deps) opsFromInput(ctx context.Context, in []OperationIn, scope, thread string, at time.Time) ([]memory.Op, error) {
	if len(in) > maxOperations {
		return nil, invalidf("%d operations given, at most %d at a time: send them in parts", len(in), maxOperations)
	}
	ops := make([]memory.Op, 0, len(in))
	for i, o := range in {
		kind := memory.OpKind(o.Op)
		switch kind {
		case memory.OpAdd, memory.OpMerge, memory.OpSupersede, memory.OpArchive:
		default:
			return nil, invalidf("operations[%d]: op %s is not known: use add, merge, supersede or archive", i, memory.Quote(o.Op))
		}
		where := fmt.Sprintf("operations[%d] (%s)", i, kind)
		if len(o.IDs) > maxOperationIDs {
			return nil, invalidf("%s: %d ids given, at most %d per operation: split it into several operations", where, len(o.IDs), maxOperationIDs)
		}
		ids := make([]string, 0, len(o.IDs))
		for _, id := range o.IDs {
			if id = strings.TrimSpace(id); id == "" {
				return nil, invalidf("%s: an id is empty: give the ids shown by recall or in the work items", where)
			}
			ids = append(ids, id)
		}
		op := memory.Op{Op: kind, IDs: ids, Reason: strings.TrimSpace(o.Reason)}
		if kind == memory.OpArchive {
			if o.Content != "" || o.Subject != "" || o.Object != "" {
				return nil, invalidf("%s: an archive stores nothing: drop content, or use supersede to replace the memories", where)
			}
			ops = append(ops, op)
			continue
		}
		if by := strings.TrimSpace(o.By); by != "" {
			if kind != memory.OpSupersede || o.Content != "" {
				return nil, invalidf("%s: by names the newer memory of a supersede: use it with op supersede and without content", where)
			}
			ms, err := d.Store.Get(ctx, []string{by})
			if err != nil {
				return nil, err
			}
			op.Draft = successorDraft(ms[0])
			ops = append(ops, op)
			continue
		}
		draft, err := d.opDraft(o, where, scope)
		if err != nil {
			return nil, err
		}
		if kind == memory.OpAdd {
			if draft.Time.IsZero() {
				draft.Time = at
			}
			draft.Thread = thread
		} else {
			draft.Scope = "" // the merged memories' scope
		}
		op.Draft = draft
		ops = append(ops, op)
	}
	return ops, nil
}

// opDraft validates the new memory of one operation.
func (d Deps) opDraft(o OperationIn, where, scope string) (memory.Draft, error) {
	tags, err := checkTags(o.Tags)
	if err != nil {
		return memory.Draft{}, invalidf("%s: %v", where, err)
	}
	kind := memory.Kind(o.Kind)
	factFields := o.Subject != "" || o.Predicate != "" || o.Object != ""
	switch {
	case kind == "" && factFields:
		kind = memory.KindFact
	case kind == "":
		kind = memory.KindThought
	case kind != memory.KindThought && kind != memory.KindFact && kind != memory.KindEpisode:
		return memory.Draft{}, invalidf("%s: kind %s is not known: use thought, fact or episode", where, memory.Quote(o.Kind))
	}
	if kind == memory.KindFact && (strings.TrimSpace(o.Subject) == "" || strings.TrimSpace(o.Predicate) == "" || strings.TrimSpace(o.Object) == "") {
		return memory.Draft{}, invalidf("%s: a fact needs subject, predicate and object", where)
	}
	if o.Content != "" {
		if err := checkContent(o.Content); err != nil {
			return memory.Draft{}, invalidf("%s: %v", where, err)
		}
	} else if o.Op != string(memory.OpMerge) && kind != memory.KindFact {
		return memory.Draft{}, invalidf("%s: content is empty: write the memory as one short self-contained statement", where)
	}
	var at time.Time
	if o.Time != "" {
		if at, err = d.parseTime(where+" time", o.Time, atStart); err != nil {
			return memory.Draft{}, err
		}
	}
	return memory.Draft{
		Scope: scope, Kind: kind, Content: strings.TrimSpace(o.Content), Tags: tags,
		Subject: strings.TrimSpace(o.Subject), Predicate: strings.TrimSpace(o.Predicate), Object: strings.TrimSpace(o.Object),
		Time: at, Source: "consolidate",
	}, nil
}

// changes sorts what Apply did into the result's lists.
func (d Deps) changes(res memory.ApplyResult, out *ConsolidateOutput) {
	for _, r := range res.Results {
		c := ChangeOut{IDs: r.Affected, Duplicate: r.Duplicate, Reason: r.Reason}
		if m := r.Memory; m != nil {
			c.ID, c.Content, c.Kind, c.Tags, c.Time = m.ID, m.Content, string(m.Kind), m.Tags, d.stamp(m.Time)
		}
		switch r.Op {
		case memory.OpAdd:
			out.Added = append(out.Added, c)
		case memory.OpMerge:
			out.Merged = append(out.Merged, c)
		case memory.OpSupersede:
			out.Superseded = append(out.Superseded, c)
		case memory.OpArchive:
			out.Archived = append(out.Archived, c)
		}
	}
}

// successorDraft is the draft of a supersede whose newer memory already
// exists: the store finds the same text active and makes that memory the
// successor (reinforcing it) instead of storing a copy.
func successorDraft(m memory.Memory) memory.Draft {
	return memory.Draft{
		Kind: m.Kind, Content: m.Content, Tags: m.Tags,
		Subject: m.Subject, Predicate: m.Predicate, Object: m.Object, Context: m.Context,
		Observation: m.Observation, Thoughts: m.Thoughts, Action: m.Action, Result: m.Result,
		Time: m.Time, Source: "consolidate",
	}
}
