package memory

import (
	"context"
	"fmt"
	"strings"
)

// Forget archives the selected memories, or with r.Purge deletes them for
// good (with their vectors and history, leaving tombstones so other
// processes drop them too), in one transaction. Memories are selected by
// r.IDs and/or the filter r.Scope, r.Tag, r.Before (event time before it);
// all given criteria must hold. With no criterion it fails with ErrInvalid;
// an unknown id is ErrNotFound. Archiving skips memories already archived.
// r.DryRun lists the selection without changing anything.
func (s *Store) Forget(ctx context.Context, r ForgetRequest) (ForgetResult, error) {
	done, err := s.enter()
	defer done()
	if err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	where, args, err := forgetFilter(r)
	if err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	if len(r.IDs) > 0 {
		// Every id must exist, whether or not the filter selects it.
		cond, arg := idsIn("m.id", r.IDs)
		found, err := selectRows(ctx, s.db, "", false, cond, arg)
		if err != nil {
			return ForgetResult{}, fmt.Errorf("forget: %w", err)
		}
		have := make(map[string]bool, len(found))
		for _, f := range found {
			have[f.m.ID] = true
		}
		for _, id := range r.IDs {
			if !have[id] {
				return ForgetResult{}, fmt.Errorf("forget %s: %w", Clip(id), ErrNotFound)
			}
		}
	}
	res := ForgetResult{IDs: []string{}, Purged: r.Purge && !r.DryRun, DryRun: r.DryRun}
	if r.DryRun {
		rows, err := selectRows(ctx, s.db, "", false, where, args...)
		if err != nil {
			return ForgetResult{}, fmt.Errorf("forget: %w", err)
		}
		for _, row := range rows {
			res.IDs = append(res.IDs, row.m.ID)
		}
		return res, nil
	}
	if err := s.checkUsable(); err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	now := s.opts.Now()
	_, err = s.change(ctx, func(w *wtx) error {
		rows, err := selectRows(ctx, w, "", false, where, args...)
		if err != nil || len(rows) == 0 {
			return err
		}
		rev, err := w.bump()
		if err != nil {
			return err
		}
		for _, row := range rows {
			m := row.m
			if r.Purge {
				err = purge(w, m.ID, rev)
			} else {
				if err = addHistory(ctx, w, m, "archive", now); err != nil {
					return err
				}
				m.Archived, m.Updated = now, now
				err = writeMemory(ctx, w, m, rev, false)
				w.touch(m.ID)
			}
			if err != nil {
				return err
			}
			res.IDs = append(res.IDs, m.ID)
		}
		return nil
	})
	if err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	return res, nil
}

// forgetFilter turns a request into a condition on memories m.
func forgetFilter(r ForgetRequest) (string, []any, error) {
	var conds []string
	var args []any
	if len(r.IDs) > 0 {
		cond, arg := idsIn("m.id", r.IDs)
		conds = append(conds, cond)
		args = append(args, arg)
	}
	if scope := strings.TrimSpace(r.Scope); scope != "" {
		conds = append(conds, `m.scope = ?`)
		args = append(args, scope)
	}
	if tag := strings.ToLower(strings.TrimSpace(r.Tag)); tag != "" {
		conds = append(conds, `EXISTS (SELECT 1 FROM json_each(m.tags) WHERE json_each.value = ?)`)
		args = append(args, tag)
	}
	if !r.Before.IsZero() {
		conds = append(conds, `m.event_time < ?`)
		args = append(args, toNanos(r.Before))
	}
	if len(conds) == 0 {
		return "", nil, fmt.Errorf("%w: give ids or a filter (scope, tag or before) of the memories to forget", ErrInvalid)
	}
	if !r.Purge {
		conds = append(conds, `m.archived IS NULL`)
	}
	return strings.Join(conds, " AND "), args, nil
}

// purge deletes the memory id with its vector, history and text index
// entry, and leaves a tombstone at rev.
func purge(w *wtx, id string, rev int64) error {
	if _, err := w.ExecContext(w.ctx, `DELETE FROM memories_fts WHERE rowid = (SELECT pk FROM memories WHERE id = ?)`, id); err != nil {
		return fmt.Errorf("purge %s: %w", id, err)
	}
	if _, err := w.ExecContext(w.ctx, `DELETE FROM memories WHERE id = ?`, id); err != nil {
		return fmt.Errorf("purge %s: %w", id, err)
	}
	if _, err := w.ExecContext(w.ctx, `INSERT INTO tombstones (id, rev) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET rev = excluded.rev`, id, rev); err != nil {
		return fmt.Errorf("purge %s: %w", id, err)
	}
	w.dropped = append(w.dropped, id)
	return nil
}
