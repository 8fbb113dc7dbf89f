package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// OpKind names one operation of a Post-Thinking (consolidation) plan.
type OpKind string

// The operations Apply performs.
const (
	OpAdd       OpKind = "add"       // store a new memory (like Remember)
	OpMerge     OpKind = "merge"     // store a new memory and archive the merged ones into it
	OpSupersede OpKind = "supersede" // store a new memory that replaces the named ones
	OpArchive   OpKind = "archive"   // archive the named memories
)

// Op is one operation of a plan handed to Apply.
type Op struct {
	Op OpKind
	// IDs: merge: the memories merged into the new one (at least two, or
	// one with a Draft that has content); supersede: the memories the new
	// one replaces; archive: the memories to archive; add: none.
	IDs []string
	// Draft is the new memory of add, merge and supersede. Its ID must be
	// empty; Source defaults to "consolidate".
	Draft  Draft
	Reason string // why, kept in the history of the archived memories
}

// OpResult is what one Op did (or, on a dry run, would do).
type OpResult struct {
	Op        OpKind   `json:"op"`
	Memory    *Memory  `json:"memory,omitempty"`    // the new memory (add/merge/supersede), nil for archive
	Affected  []string `json:"affected,omitempty"`  // ids archived or merged away (and facts it superseded)
	Duplicate bool     `json:"duplicate,omitempty"` // the same normalised text already existed: it was reinforced instead
	Reason    string   `json:"reason,omitempty"`
}

// ApplyResult is what Apply returns: one result per op, in order.
type ApplyResult struct {
	Results []OpResult `json:"results"`
	DryRun  bool       `json:"dry_run"`
}

// planned is one op after validation: the memories it names, as read, and
// the memory it would store.
type planned struct {
	op   Op
	olds []Memory
	m    Memory // add, merge, supersede
	vec  []float32
}

// Apply carries out a consolidation plan. It validates every op first:
// a malformed op is ErrInvalid with a sentence naming the op (ops[i]) and
// what to fix; an id that does not exist is ErrNotFound naming it; naming
// an archived memory, or one memory in two ops, is ErrInvalid. Then it
// performs all ops in order in ONE transaction: all or nothing.
//
//   - add: stored like Remember: an active memory of the scope with the same
//     normalised text is reinforced instead (Duplicate, unless
//     Draft.NoDedup); a new fact archives the active facts of the same
//     subject and predicate with another object (listed in Affected).
//   - merge: a new memory is stored from Draft in the merged memories'
//     scope (they must share one): time = the latest of theirs when
//     Draft.Time is zero, tags = Draft.Tags or the most common of theirs
//     (at most MaxTags), thread and seq theirs when they share a thread and
//     Draft names none, content their contents joined by newlines (oldest
//     first) when Draft has none; it inherits the highest strength, the
//     sum of recall counts and the latest recall of the merged memories.
//     Each merged memory is archived with superseded_by = the new id and a
//     history entry "merge: <Reason>".
//   - supersede: like merge (without inheriting strength or recalls, and
//     Draft must have content); history "supersede: <Reason>".
//   - archive: archived with a history entry "archive: <Reason>".
//
// When the new memory of a merge or supersede has the normalised text of
// another active memory of the scope, that memory is reinforced and
// becomes the successor instead (Duplicate). Embeddings are computed before
// the transaction. With dryRun nothing is written: the results show what
// would be stored (Memory without an id, or the existing memory a
// duplicate would reinforce); interactions between ops other than
// duplicates within the plan are not previewed. An empty plan does
// nothing. Apply is safe for concurrent use.
func (s *Store) Apply(ctx context.Context, ops []Op, dryRun bool) (ApplyResult, error) {
	done, err := s.enter()
	defer done()
	if err != nil {
		return ApplyResult{}, fmt.Errorf("apply: %w", err)
	}
	res := ApplyResult{Results: []OpResult{}, DryRun: dryRun}
	if len(ops) == 0 {
		return res, nil
	}
	if !dryRun {
		if err := s.checkUsable(); err != nil {
			return ApplyResult{}, fmt.Errorf("apply: %w", err)
		}
	}
	now := s.opts.Now()
	plan, err := s.plan(ctx, s.db, ops, now)
	if err != nil {
		return ApplyResult{}, fmt.Errorf("apply: %w", err)
	}
	if dryRun {
		if res.Results, err = s.preview(ctx, plan); err != nil {
			return ApplyResult{}, fmt.Errorf("apply: %w", err)
		}
		return res, nil
	}
	// Never hold the write lock during an embedding call.
	for i := range plan {
		if plan[i].op.Op == OpArchive {
			continue
		}
		if plan[i].vec, err = s.embed(ctx, plan[i].m.Content); err != nil {
			return ApplyResult{}, fmt.Errorf("apply: ops[%d] (%s): %w", i, plan[i].op.Op, err)
		}
	}
	results := make([]OpResult, len(plan))
	memIDs := make([]string, len(plan))
	written, err := s.change(ctx, func(w *wtx) error {
		// Validate again under the write lock: another writer may have
		// archived or changed a named memory since.
		again, err := s.plan(ctx, w, ops, now)
		if err != nil {
			return err
		}
		for i := range again {
			if ops[i].Op == OpArchive {
				continue
			}
			if again[i].m.Content != plan[i].m.Content {
				return fmt.Errorf("ops[%d] (%s): the memories it names changed while the plan was applied: plan again", i, ops[i].Op)
			}
			again[i].m.ID, again[i].vec = plan[i].m.ID, plan[i].vec
		}
		for i, p := range again {
			if results[i], memIDs[i], err = s.applyOp(w, p, now); err != nil {
				return fmt.Errorf("ops[%d] (%s): %w", i, p.op.Op, err)
			}
		}
		return nil
	})
	if err != nil {
		return ApplyResult{}, fmt.Errorf("apply: %w", err)
	}
	for i, id := range memIDs {
		if id == "" {
			continue
		}
		if m, ok := written[id]; ok {
			m := detach(m)
			results[i].Memory = &m
		}
	}
	res.Results = results
	return res, nil
}

// plan validates ops against the memories as q sees them and builds the
// memory each op would store (with a fresh id).
func (s *Store) plan(ctx context.Context, q querier, ops []Op, now time.Time) ([]planned, error) {
	var all []string
	claimed := map[string]int{}
	for i, op := range ops {
		if err := checkOp(i, op); err != nil {
			return nil, err
		}
		for _, id := range op.IDs {
			if j, ok := claimed[id]; ok {
				if j == i {
					return nil, fmt.Errorf("%w: ops[%d] (%s) names memory %s twice: name it once", ErrInvalid, i, op.Op, Clip(id))
				}
				return nil, fmt.Errorf("%w: ops[%d] (%s) names memory %s, which ops[%d] already names: name each memory in one op", ErrInvalid, i, op.Op, Clip(id), j)
			}
			claimed[id] = i
			all = append(all, id)
		}
	}
	byID := make(map[string]Memory, len(all))
	if len(all) > 0 {
		cond, arg := idsIn("m.id", all)
		rows, err := selectRows(ctx, q, "", false, cond, arg)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			byID[r.m.ID] = r.m
		}
	}
	out := make([]planned, 0, len(ops))
	for i, op := range ops {
		p := planned{op: op}
		for _, id := range op.IDs {
			m, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("ops[%d] (%s): memory %s: %w", i, op.Op, Clip(id), ErrNotFound)
			}
			if m.IsArchived() {
				by := ""
				if m.SupersededBy != "" {
					by = " (superseded by " + m.SupersededBy + ")"
				}
				return nil, fmt.Errorf("%w: ops[%d] (%s): memory %s is already archived%s: leave it out", ErrInvalid, i, op.Op, id, by)
			}
			p.olds = append(p.olds, m)
		}
		if op.Op != OpArchive {
			m, err := s.newFromOp(op, p.olds, now)
			if err != nil {
				if errors.Is(err, ErrInvalid) {
					// Put the op in front of the store's sentence.
					msg := strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")
					return nil, fmt.Errorf("%w: ops[%d] (%s): %s", ErrInvalid, i, op.Op, msg)
				}
				return nil, fmt.Errorf("ops[%d] (%s): %w", i, op.Op, err)
			}
			p.m = m
		}
		out = append(out, p)
	}
	return out, nil
}

// checkOp checks the shape of one op.
func checkOp(i int, op Op) error {
	bad := func(format string, v ...any) error {
		return fmt.Errorf("%w: ops[%d] (%s): %s", ErrInvalid, i, op.Op, fmt.Sprintf(format, v...))
	}
	switch op.Op {
	case OpAdd:
		if len(op.IDs) > 0 {
			return bad("an add names no existing memories: drop the ids, or use merge or supersede")
		}
	case OpMerge:
		if len(op.IDs) == 0 || len(op.IDs) == 1 && !hasText(op.Draft) {
			return bad("name at least two memories to merge, or one with the draft of the merged memory")
		}
	case OpSupersede:
		if len(op.IDs) == 0 {
			return bad("name the memories the new one replaces")
		}
		if !hasText(op.Draft) {
			return bad("give the content of the memory that replaces them")
		}
	case OpArchive:
		if len(op.IDs) == 0 {
			return bad("name the memories to archive")
		}
		if hasText(op.Draft) {
			return bad("an archive stores nothing: drop the draft, or use supersede to replace the memories")
		}
	default:
		return fmt.Errorf("%w: ops[%d]: op %s is not one of add, merge, supersede, archive", ErrInvalid, i, Quote(string(op.Op)))
	}
	if op.Draft.ID != "" {
		return bad("leave the draft's id empty: the op always stores a new memory")
	}
	for _, id := range op.IDs {
		if strings.TrimSpace(id) == "" {
			return bad("an id is empty: give the ids recall shows")
		}
	}
	return nil
}

// hasText reports whether a draft carries any text to store.
func hasText(d Draft) bool {
	for _, f := range []string{d.Content, d.Subject, d.Predicate, d.Object, d.Observation, d.Thoughts, d.Action, d.Result} {
		if strings.TrimSpace(f) != "" {
			return true
		}
	}
	return false
}

// newFromOp builds the memory an add, merge or supersede stores; olds are
// the memories it names.
func (s *Store) newFromOp(op Op, olds []Memory, now time.Time) (Memory, error) {
	d := op.Draft
	if strings.TrimSpace(d.Source) == "" {
		d.Source = "consolidate"
	}
	if len(olds) > 0 {
		scope := olds[0].Scope
		for _, o := range olds[1:] {
			if o.Scope != scope {
				return Memory{}, fmt.Errorf("%w: memories %s and %s are in different scopes (%s, %s): combine memories of one scope", ErrInvalid, olds[0].ID, o.ID, Quote(scope), Quote(o.Scope))
			}
		}
		if ds := strings.TrimSpace(d.Scope); ds != "" && ds != scope {
			return Memory{}, fmt.Errorf("%w: the draft's scope %s differs from the scope %s of the memories it replaces: leave it empty", ErrInvalid, Quote(ds), Quote(scope))
		}
		d.Scope = scope
		byTime := slices.Clone(olds)
		slices.SortStableFunc(byTime, func(a, b Memory) int { return a.Time.Compare(b.Time) })
		if d.Time.IsZero() {
			d.Time = byTime[len(byTime)-1].Time
		}
		if len(d.Tags) == 0 {
			d.Tags = commonTags(olds)
		}
		if strings.TrimSpace(d.Thread) == "" {
			if th, seq, ok := sharedThread(olds); ok {
				d.Thread, d.Seq = th, seq
			}
		}
		if op.Op == OpMerge && !hasText(d) {
			parts := make([]string, 0, len(byTime))
			seen := map[string]bool{}
			for _, o := range byTime {
				if n := normalizeText(o.Content); !seen[n] {
					seen[n] = true
					parts = append(parts, o.Content)
				}
			}
			d.Content = strings.Join(parts, "\n")
		}
	}
	m, err := newMemory(d, now, s.opts.DefaultScope)
	if err != nil {
		return Memory{}, err
	}
	if op.Op == OpMerge {
		for _, o := range olds {
			m.Strength = max(m.Strength, o.Strength)
			m.RecallCount += o.RecallCount
			if o.LastRecalled.After(m.LastRecalled) {
				m.LastRecalled = o.LastRecalled
			}
		}
	}
	return m, nil
}

// commonTags returns the tags of ms, most frequent first (ties by first
// appearance), at most MaxTags.
func commonTags(ms []Memory) []string {
	count := map[string]int{}
	var order []string
	for _, m := range ms {
		for _, t := range m.Tags {
			if count[t] == 0 {
				order = append(order, t)
			}
			count[t]++
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(count[b], count[a]) })
	return order[:min(len(order), MaxTags)]
}

// sharedThread returns the thread all of ms belong to and the highest seq
// among them; ok is false when they do not share one.
func sharedThread(ms []Memory) (string, int, bool) {
	th, seq := ms[0].Thread, ms[0].Seq
	if th == "" {
		return "", 0, false
	}
	for _, m := range ms[1:] {
		if m.Thread != th {
			return "", 0, false
		}
		seq = max(seq, m.Seq)
	}
	return th, seq, true
}

// reasonOf is the history reason of an op: "merge: <Reason>".
func reasonOf(op Op) string {
	if r := strings.TrimSpace(op.Reason); r != "" {
		return string(op.Op) + ": " + r
	}
	return string(op.Op)
}

// applyOp performs one planned op inside w and returns its result and the
// id of the memory to show in it ("" for none).
func (s *Store) applyOp(w *wtx, p planned, now time.Time) (OpResult, string, error) {
	res := OpResult{Op: p.op.Op, Reason: p.op.Reason}
	rev, err := w.bump()
	if err != nil {
		return res, "", err
	}
	if p.op.Op == OpArchive {
		for _, o := range p.olds {
			if err := s.archiveInto(w, o.ID, "", reasonOf(p.op), rev, now); err != nil {
				return res, "", err
			}
			res.Affected = append(res.Affected, o.ID)
		}
		return res, "", nil
	}
	m := p.m
	oldIDs := make([]string, len(p.olds))
	for i, o := range p.olds {
		oldIDs[i] = o.ID
	}
	dup := ""
	if p.op.Op != OpAdd || !p.op.Draft.NoDedup {
		if dup, err = findOtherDuplicate(w.ctx, w, m.Scope, normalizeText(m.Content), oldIDs); err != nil {
			return res, "", err
		}
	}
	successor := m.ID
	if dup != "" {
		successor = dup
	}
	for _, id := range oldIDs {
		if err := s.archiveInto(w, id, successor, reasonOf(p.op), rev, now); err != nil {
			return res, "", err
		}
		res.Affected = append(res.Affected, id)
	}
	if dup != "" {
		res.Duplicate = true
		return res, dup, s.reinforceByID(w, dup, now)
	}
	if err := writeMemory(w.ctx, w, m, rev, true); err != nil {
		return res, "", err
	}
	if err := putVector(w.ctx, w, m.ID, s.opts.ModelID, p.vec); err != nil {
		return res, "", err
	}
	w.touch(m.ID)
	superseded, err := s.supersede(w, m, now)
	if err != nil {
		return res, "", err
	}
	res.Affected = append(res.Affected, superseded...)
	return res, m.ID, nil
}

// archiveInto archives the memory id inside w at rev, keeping its state as
// history with reason, and links it to successor (when not "").
func (s *Store) archiveInto(w *wtx, id, successor, reason string, rev int64, now time.Time) error {
	cur, err := s.getOne(w.ctx, w, id)
	if err != nil {
		return err
	}
	if err := addHistory(w.ctx, w, cur, reason, now); err != nil {
		return err
	}
	if !cur.IsArchived() {
		cur.Archived = now
	}
	if successor != "" {
		cur.SupersededBy = successor
	}
	cur.Updated = now
	if err := writeMemory(w.ctx, w, cur, rev, false); err != nil {
		return err
	}
	w.touch(id)
	return nil
}

// findOtherDuplicate is findDuplicate leaving out the memories except.
func findOtherDuplicate(ctx context.Context, q querier, scope, norm string, except []string) (string, error) {
	rows, err := q.QueryContext(ctx, `SELECT id FROM memories WHERE scope = ? AND norm = ? AND archived IS NULL ORDER BY pk`, scope, norm)
	if err != nil {
		return "", fmt.Errorf("find duplicate: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return "", fmt.Errorf("find duplicate: %w", err)
		}
		if !slices.Contains(except, id) {
			return id, nil
		}
	}
	return "", rows.Err()
}

// preview returns what a validated plan would do, writing nothing.
func (s *Store) preview(ctx context.Context, plan []planned) ([]OpResult, error) {
	out := make([]OpResult, len(plan))
	stored := map[string]Memory{} // scope + norm of memories the plan would store
	for i, p := range plan {
		r := OpResult{Op: p.op.Op, Reason: p.op.Reason}
		for _, o := range p.olds {
			r.Affected = append(r.Affected, o.ID)
		}
		if p.op.Op != OpArchive {
			m := p.m
			m.ID = ""
			key := m.Scope + "\x00" + normalizeText(m.Content)
			dedup := p.op.Op != OpAdd || !p.op.Draft.NoDedup
			id, err := "", error(nil)
			if dedup {
				id, err = findOtherDuplicate(ctx, s.db, p.m.Scope, normalizeText(p.m.Content), r.Affected)
				if err != nil {
					return nil, err
				}
			}
			switch prev, ok := stored[key]; {
			case id != "":
				if m, err = s.getOne(ctx, s.db, id); err != nil {
					return nil, err
				}
				r.Duplicate = true
			case dedup && ok:
				m, r.Duplicate = prev, true
			default:
				stored[key] = m
				facts, err := wouldSupersede(ctx, s.db, p.m, r.Affected)
				if err != nil {
					return nil, err
				}
				r.Affected = append(r.Affected, facts...)
			}
			r.Memory = &m
		}
		out[i] = r
	}
	return out, nil
}

// wouldSupersede lists the active facts that storing m would archive,
// leaving out the memories except.
func wouldSupersede(ctx context.Context, q querier, m Memory, except []string) ([]string, error) {
	key := factKey(m)
	if key == nil {
		return nil, nil
	}
	rows, err := selectRows(ctx, q, "", false, `m.scope = ? AND m.fact_key = ? AND m.archived IS NULL`, m.Scope, key)
	if err != nil {
		return nil, err
	}
	var ids []string
	object := normalizeText(m.Object)
	for _, r := range rows {
		if normalizeText(r.m.Object) != object && !slices.Contains(except, r.m.ID) {
			ids = append(ids, r.m.ID)
		}
	}
	return ids, nil
}
