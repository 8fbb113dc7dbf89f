package memory

import (
	"context"
	"fmt"
)

// reembedBatch is how many memories Reembed embeds per write transaction.
const reembedBatch = 64

// Reembed recomputes every vector with the configured embedder, batch by
// batch (embedding outside the transactions, each batch written in one),
// then records the configured model id, which ends a model mismatch. It is
// the one write allowed on a store opened with AllowModelMismatch. progress
// (may be nil) is called after each batch. If it fails part-way, calling
// it again starts over; the store keeps its old model id until it succeeds.
func (s *Store) Reembed(ctx context.Context, progress func(done, total int)) error {
	end, err := s.enter()
	defer end()
	if err != nil {
		return fmt.Errorf("reembed: %w", err)
	}
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM memories`).Scan(&total); err != nil {
		return fmt.Errorf("reembed: %w", err)
	}
	type item struct {
		id, content string
		vec         []float32
	}
	var lastPK int64
	done := 0
	for {
		rs, err := s.db.QueryContext(ctx, `SELECT pk, id, content FROM memories WHERE pk > ? ORDER BY pk LIMIT ?`, lastPK, reembedBatch)
		if err != nil {
			return fmt.Errorf("reembed: %w", err)
		}
		var batch []item
		for rs.Next() {
			var it item
			if err := rs.Scan(&lastPK, &it.id, &it.content); err != nil {
				rs.Close()
				return fmt.Errorf("reembed: %w", err)
			}
			batch = append(batch, it)
		}
		if err := rs.Close(); err != nil {
			return fmt.Errorf("reembed: %w", err)
		}
		if len(batch) == 0 {
			break
		}
		for i := range batch {
			if batch[i].vec, err = s.embed(ctx, batch[i].content); err != nil {
				return fmt.Errorf("reembed %s: %w", batch[i].id, err)
			}
		}
		_, err = s.change(ctx, func(w *wtx) error {
			rev, err := w.bump()
			if err != nil {
				return err
			}
			for _, it := range batch {
				// Skip a memory purged or rewritten since it was read; its
				// writer stored a fresh vector.
				var content string
				if err := w.QueryRowContext(ctx, `SELECT content FROM memories WHERE id = ?`, it.id).Scan(&content); err != nil || content != it.content {
					continue
				}
				if err := putVector(ctx, w, it.id, s.opts.ModelID, it.vec); err != nil {
					return err
				}
				if _, err := w.ExecContext(ctx, `UPDATE memories SET rev = ? WHERE id = ?`, rev, it.id); err != nil {
					return err
				}
				w.touch(it.id)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("reembed: %w", err)
		}
		done += len(batch)
		if progress != nil {
			progress(min(done, max(total, done)), max(total, done))
		}
	}
	if err := s.setModel(ctx, s.opts.ModelID); err != nil {
		return fmt.Errorf("reembed: %w", err)
	}
	s.modelMu.Lock()
	s.model, s.mismatch = s.opts.ModelID, false
	s.modelMu.Unlock()
	s.opts.Logger.Info("memory store re-embedded", "memories", done, "model", s.opts.ModelID)
	return nil
}
