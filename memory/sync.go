package memory

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/mneme-mcp/mneme/decay"
)

// wtx is a write transaction (BEGIN IMMEDIATE) that bumps meta.rev once
// when it first changes something and remembers what it touched, so the
// index can be updated after the commit.
type wtx struct {
	*sql.Tx
	ctx     context.Context
	rev     int64 // 0 until bump
	touched []string
	seen    map[string]bool
	dropped []string
}

// bump increments meta.rev (once per transaction) and returns the new value.
func (w *wtx) bump() (int64, error) {
	if w.rev != 0 {
		return w.rev, nil
	}
	if err := w.QueryRowContext(w.ctx, `UPDATE meta SET value = value + 1 WHERE key = 'rev' RETURNING value`).Scan(&w.rev); err != nil {
		return 0, fmt.Errorf("bump rev: %w", err)
	}
	return w.rev, nil
}

// touch records that the memory id was written in this transaction.
func (w *wtx) touch(id string) {
	if !w.seen[id] {
		w.seen[id] = true
		w.touched = append(w.touched, id)
	}
}

// write runs fn in a write transaction without index bookkeeping.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// change runs fn in one write transaction. Before the commit it reads back
// every memory fn touched (with its vector); after the commit it puts those
// into the index and drops the purged ones, so this process sees its own
// write at once. It returns the rows read back, keyed by id.
func (s *Store) change(ctx context.Context, fn func(w *wtx) error) (map[string]Memory, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	w := &wtx{Tx: tx, ctx: ctx, seen: map[string]bool{}}
	if err := fn(w); err != nil {
		return nil, err
	}
	var rows []row
	if len(w.touched) > 0 {
		cond, arg := idsIn("m.id", w.touched)
		if rows, err = selectRows(ctx, tx, s.opts.ModelID, true, cond, arg); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	out := make(map[string]Memory, len(rows))
	for _, r := range rows {
		out[r.m.ID] = r.m
	}
	if w.rev != 0 {
		s.applyOwn(w.rev, rows, w.dropped)
	}
	return out, nil
}

// applyOwn puts this process's committed write (at rev) into the index. If
// no other change came between the index and this write, lastRev moves on
// to rev; otherwise the next sync applies the gap (and this write again,
// which is harmless). Before the initial load has finished it does nothing:
// the load or the sync after it picks the write up.
//
// Invariant (under syncMu): an index copy older than its row in the
// database belongs to a row with rev > lastRev, so the next sync replaces
// it. A write applied late (after a newer one of the same memory, by
// another goroutine) may put a stale copy only while its rev > lastRev;
// once a sync has passed rev, the write is skipped.
func (s *Store) applyOwn(rev int64, rows []row, dropped []string) {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if !s.loaded || rev <= s.lastRev {
		return
	}
	s.apply(rows, dropped)
	if s.lastRev == rev-1 {
		s.lastRev = rev
	}
}

func (s *Store) apply(rows []row, dropped []string) {
	for _, r := range rows {
		s.idx.put(r.m, r.vec)
	}
	for _, id := range dropped {
		s.idx.drop(id)
	}
}

// load fills the index from the database in one read transaction; run in
// the background by Open. Vectors of another model than the configured one
// are left out (they are useless for queries until Reembed).
func (s *Store) load(ctx context.Context) {
	defer close(s.loadDone)
	start := time.Now()
	rows, rev, err := s.readAll(ctx)
	if err != nil {
		s.loadErr = fmt.Errorf("load index: %w", err)
		if ctx.Err() == nil { // not stopped by Close
			s.opts.Logger.Error("memory index load failed", "err", err)
		}
		return
	}
	// Own writes leave idx alone until loaded is set (see applyOwn), so
	// filling it needs no lock; the read transaction is already over.
	s.apply(rows, nil)
	s.syncMu.Lock()
	s.lastRev, s.loaded = rev, true
	s.syncMu.Unlock()
	s.opts.Logger.Debug("memory index loaded", "memories", len(rows), "rev", rev, "took", time.Since(start))
}

// readAll reads every memory with its vector and meta.rev in one snapshot.
func (s *Store) readAll(ctx context.Context) ([]row, int64, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	var rev int64
	if err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'rev'`).Scan(&rev); err != nil {
		return nil, 0, err
	}
	rows, err := selectRows(ctx, tx, s.opts.ModelID, true, "")
	return rows, rev, err
}

// sync waits for the initial index load, then applies the changes other
// processes (and handles) committed since lastRev: rows with a higher rev
// and tombstones of purged memories. When meta.rev has not moved it costs
// one small query. Safe for concurrent use.
func (s *Store) sync(ctx context.Context) error {
	done, err := s.enter()
	defer done()
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	select {
	case <-s.loadDone:
	case <-ctx.Done():
		return fmt.Errorf("sync: %w", ctx.Err())
	}
	if s.loadErr != nil {
		return fmt.Errorf("sync: %w", s.loadErr)
	}
	if err := s.checkUsable(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if err := s.syncLocked(ctx); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	return nil
}

func (s *Store) syncLocked(ctx context.Context) error {
	var rev int64
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'rev'`).Scan(&rev); err != nil {
		return err
	}
	if rev <= s.lastRev {
		return nil
	}
	// Read the delta in one snapshot; rows committed after it are left for
	// the next sync (they have rev > the snapshot's meta.rev).
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'rev'`).Scan(&rev); err != nil {
		return err
	}
	rows, err := selectRows(ctx, tx, s.opts.ModelID, true, `m.rev > ?`, s.lastRev)
	if err != nil {
		return err
	}
	var dropped []string
	ts, err := tx.QueryContext(ctx, `SELECT id FROM tombstones WHERE rev > ?`, s.lastRev)
	if err != nil {
		return err
	}
	defer ts.Close()
	for ts.Next() {
		var id string
		if err := ts.Scan(&id); err != nil {
			return err
		}
		dropped = append(dropped, id)
	}
	if err := ts.Err(); err != nil {
		return err
	}
	s.apply(rows, dropped)
	s.opts.Logger.Debug("memory index synced", "from", s.lastRev, "to", rev, "changed", len(rows), "purged", len(dropped))
	s.lastRev = rev
	return nil
}

// reinforce records a recall of the memories ids at now in one
// transaction: recall_count+1, strength consolidated by the time since the
// last recall (or the event time), last_recalled = now. Unknown ids (purged
// meanwhile) are skipped. The index copies are updated after the commit.
func (s *Store) reinforce(ctx context.Context, ids []string, now time.Time) error {
	done, err := s.enter()
	defer done()
	if err != nil {
		return fmt.Errorf("reinforce: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	_, err = s.change(ctx, func(w *wtx) error {
		cond, arg := idsIn("m.id", ids)
		rows, err := selectRows(ctx, w, "", false, cond, arg)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := s.reinforceRow(w, r.m, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("reinforce: %w", err)
	}
	return nil
}

// reinforceRow writes one recall of m at now inside w.
func (s *Store) reinforceRow(w *wtx, m Memory, now time.Time) error {
	rev, err := w.bump()
	if err != nil {
		return err
	}
	from := m.LastRecalled
	if from.IsZero() {
		from = m.Time
	}
	m.Strength = decay.Consolidate(m.Strength, decay.Elapsed(from, now, s.opts.Ranking.DecayUnit))
	m.RecallCount++
	m.LastRecalled = now
	if _, err := w.ExecContext(w.ctx, `UPDATE memories SET recall_count = ?, strength = ?, last_recalled = ?, rev = ? WHERE id = ?`,
		m.RecallCount, m.Strength, toNanos(now), rev, m.ID); err != nil {
		return fmt.Errorf("reinforce %s: %w", m.ID, err)
	}
	w.touch(m.ID)
	return nil
}
