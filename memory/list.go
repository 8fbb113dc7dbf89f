package memory

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mneme-mcp/mneme/embed"
)

// ListFilter selects memories for List. Zero fields select everything.
type ListFilter struct {
	Scope           string    // "" = all scopes
	Tags            []string  // any of these tags
	Since           time.Time // created at or after
	Thread          string
	IDs             []string
	IncludeArchived bool
	Limit           int // 0 = no limit
}

// List returns the memories the filter selects, read from the database,
// ordered by event time, then thread seq, then id. Unknown ids are simply
// not listed. It is safe for concurrent use.
func (s *Store) List(ctx context.Context, f ListFilter) ([]Memory, error) {
	done, err := s.enter()
	defer done()
	if err != nil {
		return nil, fmt.Errorf("list: %w", err)
	}
	if f.Limit < 0 {
		return nil, fmt.Errorf("list: %w: limit must not be negative", ErrInvalid)
	}
	var conds []string
	var args []any
	if scope := strings.TrimSpace(f.Scope); scope != "" {
		conds = append(conds, `x.scope = ?`)
		args = append(args, scope)
	}
	if len(f.Tags) > 0 {
		tags := make([]string, len(f.Tags))
		for i, t := range f.Tags {
			tags[i] = strings.ToLower(strings.TrimSpace(t))
		}
		cond, arg := idsIn("json_each.value", tags)
		conds = append(conds, `EXISTS (SELECT 1 FROM json_each(x.tags) WHERE `+cond+`)`)
		args = append(args, arg)
	}
	if !f.Since.IsZero() {
		conds = append(conds, `x.created >= ?`)
		args = append(args, toNanos(f.Since))
	}
	if f.Thread != "" {
		conds = append(conds, `x.thread = ?`)
		args = append(args, f.Thread)
	}
	if len(f.IDs) > 0 {
		cond, arg := idsIn("x.id", f.IDs)
		conds = append(conds, cond)
		args = append(args, arg)
	}
	if !f.IncludeArchived {
		conds = append(conds, `x.archived IS NULL`)
	}
	sub := `SELECT x.id FROM memories x`
	if len(conds) > 0 {
		sub += ` WHERE ` + strings.Join(conds, " AND ")
	}
	if f.Limit > 0 {
		sub += ` ORDER BY x.event_time, x.seq, x.id LIMIT ?`
		args = append(args, f.Limit)
	}
	rows, err := selectRows(ctx, s.db, "", false, `m.id IN (`+sub+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("list: %w", err)
	}
	out := make([]Memory, len(rows))
	for i, r := range rows {
		out[i] = r.m
	}
	slices.SortFunc(out, func(a, b Memory) int {
		if c := a.Time.Compare(b.Time); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Seq, b.Seq); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Suggestion is a memory similar to another one: a near-duplicate
// candidate for a person or an LLM to judge, never merged automatically.
type Suggestion struct {
	ID      string  `json:"id"`
	Content string  `json:"content"`
	Cosine  float64 `json:"cosine"`  // cosine of the stored vectors
	Overlap float64 `json:"overlap"` // shared terms / terms of either (Jaccard)
}

// Similar returns up to k (default DefaultLimit, at most MaxLimit) active
// memories of the same scope as the memory id that are most similar to it,
// best first: those whose stored vectors have a cosine of at least
// minCosine, ranked by cosine plus the share of shared terms (stemmed
// words without stopwords), ties by id. It reads the vectors from the
// database, scanning the scope. An unknown id is ErrNotFound. Similar is
// safe for concurrent use.
func (s *Store) Similar(ctx context.Context, id string, k int, minCosine float64) ([]Suggestion, error) {
	done, err := s.enter()
	defer done()
	if err != nil {
		return nil, fmt.Errorf("similar: %w", err)
	}
	if k <= 0 {
		k = DefaultLimit
	}
	k = min(k, MaxLimit)
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("similar: %w", err)
	}
	defer tx.Rollback()
	target, err := selectRows(ctx, tx, s.opts.ModelID, true, `m.id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("similar: %w", err)
	}
	if len(target) == 0 {
		return nil, fmt.Errorf("similar %s: %w", id, ErrNotFound)
	}
	tvec := unit(target[0].vec)
	tterms := termSet(target[0].m.Content)
	rs, err := tx.QueryContext(ctx, `SELECT m.id, m.content, v.data FROM memories m
		LEFT JOIN vectors v ON v.memory_id = m.id AND v.model = ?
		WHERE m.scope = ? AND m.archived IS NULL AND m.id <> ?`, s.opts.ModelID, target[0].m.Scope, id)
	if err != nil {
		return nil, fmt.Errorf("similar: %w", err)
	}
	defer rs.Close()
	var out []Suggestion
	for rs.Next() {
		var sg Suggestion
		var blob []byte
		if err := rs.Scan(&sg.ID, &sg.Content, &blob); err != nil {
			return nil, fmt.Errorf("similar: %w", err)
		}
		if len(blob) > 0 {
			sg.Cosine = cosine(tvec, unit(decodeVector(blob)))
		}
		if sg.Cosine < minCosine {
			continue
		}
		sg.Overlap = jaccard(tterms, termSet(sg.Content))
		out = append(out, sg)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("similar: %w", err)
	}
	slices.SortFunc(out, func(a, b Suggestion) int {
		if c := cmp.Compare(b.Cosine+b.Overlap, a.Cosine+a.Overlap); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	if out == nil {
		out = []Suggestion{}
	}
	return out[:min(k, len(out))], nil
}

// termSet returns the distinct lexical terms of text.
func termSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, t := range embed.LexicalTerms(text) {
		set[t] = true
	}
	return set
}

// jaccard returns |a ∩ b| / |a ∪ b|, 0 when both are empty.
func jaccard(a, b map[string]bool) float64 {
	shared := 0
	for t := range a {
		if b[t] {
			shared++
		}
	}
	union := len(a) + len(b) - shared
	if union == 0 {
		return 0
	}
	return float64(shared) / float64(union)
}

// Reinforce records a recall of the memories ids at the store's clock
// (recall count, strength, last recalled) in one transaction; unknown ids
// are skipped. The tools layer calls it for what it actually shows. It is
// safe for concurrent use.
func (s *Store) Reinforce(ctx context.Context, ids []string) error {
	if err := s.checkUsable(); err != nil {
		return fmt.Errorf("reinforce: %w", err)
	}
	return s.reinforce(ctx, ids, s.opts.Now())
}

// consolidatedKey is the meta key of a scope's last consolidation.
func (s *Store) consolidatedKey(scope string) string {
	if scope = strings.TrimSpace(scope); scope == "" {
		scope = s.opts.DefaultScope
	}
	return "consolidated:" + scope
}

// LastConsolidated returns when the scope ("" = the default scope) was last
// consolidated (MarkConsolidated), the zero time if never. It is safe for
// concurrent use.
func (s *Store) LastConsolidated(ctx context.Context, scope string) (time.Time, error) {
	done, err := s.enter()
	defer done()
	if err != nil {
		return time.Time{}, fmt.Errorf("last consolidated: %w", err)
	}
	var n int64
	err = s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, s.consolidatedKey(scope)).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("last consolidated: %w", err)
	}
	return fromNanos(n), nil
}

// MarkConsolidated records that the scope ("" = the default scope) was
// consolidated at at, in meta under "consolidated:<scope>". It is safe for
// concurrent use.
func (s *Store) MarkConsolidated(ctx context.Context, scope string, at time.Time) error {
	done, err := s.enter()
	defer done()
	if err != nil {
		return fmt.Errorf("mark consolidated: %w", err)
	}
	if at.IsZero() || at.Before(minTime) || at.After(maxTime) {
		return fmt.Errorf("mark consolidated: %w: give the time of the consolidation (years 1678 to 2262)", ErrInvalid)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, s.consolidatedKey(scope), toNanos(at))
		return err
	})
	if err != nil {
		return fmt.Errorf("mark consolidated: %w", err)
	}
	return nil
}
