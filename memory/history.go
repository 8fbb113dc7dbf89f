package memory

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
)

// History returns the earlier versions of the memory id (reason "update",
// "archive", "supersede", ...) and, as versions with reason "superseded"
// and Version 0, the facts it superseded directly or through others, all
// oldest first by the time of the change. An unknown id is ErrNotFound.
func (s *Store) History(ctx context.Context, id string) ([]Version, error) {
	done, err := s.enter()
	defer done()
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer tx.Rollback()
	if _, err := s.getOne(ctx, tx, id); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	out, err := versions(ctx, tx, id)
	if err != nil {
		return nil, fmt.Errorf("history %s: %w", id, err)
	}
	chain, err := selectRows(ctx, tx, "", false, `m.id IN (
		WITH RECURSIVE chain (id) AS (
			SELECT id FROM memories WHERE superseded_by = ? AND superseded_by <> ''
			UNION
			SELECT p.id FROM memories p JOIN chain c ON p.superseded_by = c.id AND p.superseded_by <> ''
		) SELECT id FROM chain)`, id)
	if err != nil {
		return nil, fmt.Errorf("history %s: %w", id, err)
	}
	for _, r := range chain {
		out = append(out, Version{MemoryID: r.m.ID, Changed: r.m.Archived, Reason: "superseded", Memory: r.m})
	}
	slices.SortStableFunc(out, func(a, b Version) int { return a.Changed.Compare(b.Changed) })
	return out, nil
}

func versions(ctx context.Context, q querier, id string) ([]Version, error) {
	rs, err := q.QueryContext(ctx, `SELECT version, changed, reason, snapshot FROM history WHERE memory_id = ? ORDER BY version`, id)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []Version
	for rs.Next() {
		v := Version{MemoryID: id}
		var changed int64
		var snap string
		if err := rs.Scan(&v.Version, &changed, &v.Reason, &snap); err != nil {
			return nil, err
		}
		v.Changed = fromNanos(changed)
		if err := json.Unmarshal([]byte(snap), &v.Memory); err != nil {
			return nil, fmt.Errorf("version %d: %w", v.Version, err)
		}
		out = append(out, v)
	}
	return out, cmp.Or(rs.Err(), rs.Close())
}
