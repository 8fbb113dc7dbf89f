package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/mneme-mcp/mneme/embed"
)

// Remember stores a draft, or updates the memory Draft.ID names, in one
// transaction. A new draft whose normalised content equals an active memory
// of the same scope reinforces that memory instead (Outcome.Duplicate),
// unless Draft.NoDedup. A new fact archives the active facts of the same
// scope, subject and predicate with another object (Outcome.Superseded).
// An update keeps the previous state as history. Invalid drafts fail with
// ErrInvalid; an unknown Draft.ID with ErrNotFound.
func (s *Store) Remember(ctx context.Context, d Draft) (Memory, Outcome, error) {
	done, err := s.enter()
	defer done()
	if err != nil {
		return Memory{}, Outcome{}, fmt.Errorf("remember: %w", err)
	}
	if err := s.checkUsable(); err != nil {
		return Memory{}, Outcome{}, fmt.Errorf("remember: %w", err)
	}
	now := s.opts.Now()
	if d.ID != "" {
		m, out, err := s.update(ctx, d, now)
		if err != nil {
			return Memory{}, Outcome{}, fmt.Errorf("remember: %w", err)
		}
		return m, out, nil
	}
	m, err := newMemory(d, now, s.opts.DefaultScope)
	if err != nil {
		return Memory{}, Outcome{}, fmt.Errorf("remember: %w", err)
	}
	norm := normalizeText(m.Content)
	if !d.NoDedup {
		// Look before embedding: a duplicate needs no (possibly remote) embedding call.
		if id, err := findDuplicate(ctx, s.db, m.Scope, norm); err != nil {
			return Memory{}, Outcome{}, fmt.Errorf("remember: %w", err)
		} else if id != "" {
			if dup, ok, err := s.reinforceDuplicate(ctx, m.Scope, norm, now); err != nil {
				return Memory{}, Outcome{}, fmt.Errorf("remember: %w", err)
			} else if ok {
				return dup, Outcome{Duplicate: true}, nil
			}
		}
	}
	// Never hold the write lock during the embedding call.
	vec, err := s.embed(ctx, m.Content)
	if err != nil {
		return Memory{}, Outcome{}, fmt.Errorf("remember: %w", err)
	}
	var out Outcome
	var dupID string
	written, err := s.change(ctx, func(w *wtx) error {
		if !d.NoDedup {
			// Another process may have stored it since the look above.
			id, err := findDuplicate(ctx, w, m.Scope, norm)
			if err != nil {
				return err
			}
			if id != "" {
				dupID = id
				return s.reinforceByID(w, id, now)
			}
		}
		rev, err := w.bump()
		if err != nil {
			return err
		}
		if err := writeMemory(ctx, w, m, rev, true); err != nil {
			return err
		}
		if err := putVector(ctx, w, m.ID, s.opts.ModelID, vec); err != nil {
			return err
		}
		w.touch(m.ID)
		out.Superseded, err = s.supersede(w, m, now)
		return err
	})
	if err != nil {
		return Memory{}, Outcome{}, fmt.Errorf("remember: %w", err)
	}
	if dupID != "" {
		return written[dupID], Outcome{Duplicate: true}, nil
	}
	return written[m.ID], out, nil
}

// findDuplicate returns the id of the active memory of scope with the
// normalised content norm, or "".
func findDuplicate(ctx context.Context, q querier, scope, norm string) (string, error) {
	var id string
	err := q.QueryRowContext(ctx, `SELECT id FROM memories WHERE scope = ? AND norm = ? AND archived IS NULL ORDER BY pk LIMIT 1`,
		scope, norm).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("find duplicate: %w", err)
	}
	return id, nil
}

// reinforceDuplicate reinforces the active duplicate of (scope, norm) in a
// transaction of its own; ok is false if it vanished meanwhile.
func (s *Store) reinforceDuplicate(ctx context.Context, scope, norm string, now time.Time) (Memory, bool, error) {
	var id string
	written, err := s.change(ctx, func(w *wtx) error {
		var err error
		if id, err = findDuplicate(ctx, w, scope, norm); err != nil || id == "" {
			return err
		}
		return s.reinforceByID(w, id, now)
	})
	if err != nil || id == "" {
		return Memory{}, false, err
	}
	return written[id], true, nil
}

// reinforceByID reinforces the memory id inside w.
func (s *Store) reinforceByID(w *wtx, id string, now time.Time) error {
	rows, err := selectRows(w.ctx, w, "", false, `m.id = ?`, id)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("reinforce %s: %w", id, ErrNotFound)
	}
	return s.reinforceRow(w, rows[0].m, now)
}

// update applies an update draft to the memory d.ID.
func (s *Store) update(ctx context.Context, d Draft, now time.Time) (Memory, Outcome, error) {
	old, err := s.getOne(ctx, s.db, d.ID)
	if err != nil {
		return Memory{}, Outcome{}, err
	}
	m, err := mergeDraft(old, d, now)
	if err != nil {
		return Memory{}, Outcome{}, err
	}
	var vec []float32
	embedded := old.Content // the text vec belongs to
	if m.Content != old.Content {
		if vec, err = s.embed(ctx, m.Content); err != nil {
			return Memory{}, Outcome{}, err
		}
		embedded = m.Content
	}
	out := Outcome{Updated: true}
	written, err := s.change(ctx, func(w *wtx) error {
		// Read again under the write lock and merge onto the current state:
		// another writer may have changed it since.
		cur, err := s.getOne(ctx, w, d.ID)
		if err != nil {
			return err
		}
		if m, err = mergeDraft(cur, d, now); err != nil {
			return err
		}
		reembed := m.Content != cur.Content
		if reembed && m.Content != embedded {
			return fmt.Errorf("update %s: it changed while being updated: try again", d.ID)
		}
		rev, err := w.bump()
		if err != nil {
			return err
		}
		if err := addHistory(ctx, w, cur, "update", now); err != nil {
			return err
		}
		if err := writeMemory(ctx, w, m, rev, false); err != nil {
			return err
		}
		if reembed {
			if err := putVector(ctx, w, m.ID, s.opts.ModelID, vec); err != nil {
				return err
			}
		}
		w.touch(m.ID)
		if !m.IsArchived() {
			out.Superseded, err = s.supersede(w, m, now)
		}
		return err
	})
	if err != nil {
		return Memory{}, Outcome{}, err
	}
	return written[m.ID], out, nil
}

// getOne reads one memory; ErrNotFound when there is none.
func (s *Store) getOne(ctx context.Context, q querier, id string) (Memory, error) {
	rows, err := selectRows(ctx, q, "", false, `m.id = ?`, id)
	if err != nil {
		return Memory{}, fmt.Errorf("get %s: %w", Clip(id), err)
	}
	if len(rows) == 0 {
		return Memory{}, fmt.Errorf("get %s: %w", Clip(id), ErrNotFound)
	}
	return rows[0].m, nil
}

// supersede archives the active facts of m's scope with m's subject and
// predicate but another object, linking them to m, and returns their ids.
func (s *Store) supersede(w *wtx, m Memory, now time.Time) ([]string, error) {
	key := factKey(m)
	if key == nil {
		return nil, nil
	}
	rows, err := selectRows(w.ctx, w, "", false, `m.scope = ? AND m.fact_key = ? AND m.archived IS NULL AND m.id <> ?`,
		m.Scope, key, m.ID)
	if err != nil {
		return nil, err
	}
	rev, err := w.bump()
	if err != nil {
		return nil, err
	}
	var ids []string
	object := normalizeText(m.Object)
	for _, r := range rows {
		old := r.m
		if normalizeText(old.Object) == object {
			continue
		}
		if err := addHistory(w.ctx, w, old, "supersede", now); err != nil {
			return nil, err
		}
		old.Archived, old.SupersededBy, old.Updated = now, m.ID, now
		if err := writeMemory(w.ctx, w, old, rev, false); err != nil {
			return nil, err
		}
		w.touch(old.ID)
		ids = append(ids, old.ID)
	}
	return ids, nil
}

// embed embeds text for storage. Text without features (embed.ErrEmptyText)
// gets no vector; any other failure is returned.
func (s *Store) embed(ctx context.Context, text string) ([]float32, error) {
	vec, err := s.opts.Embed(ctx, text)
	if errors.Is(err, embed.ErrEmptyText) {
		s.opts.Logger.Debug("memory stored without a vector", "reason", err)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	for _, f := range vec {
		if f != 0 {
			return vec, nil
		}
	}
	return nil, nil // empty or all-zero: unusable for cosine similarity
}
