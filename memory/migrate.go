package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
)

// migrations are the schema steps; PRAGMA user_version counts the applied
// ones. Append new steps, never edit an applied one.
var migrations = []string{
	// 1: the initial schema.
	`
CREATE TABLE memories (
	pk            INTEGER PRIMARY KEY,  -- stable rowid, shared with memories_fts
	id            TEXT NOT NULL UNIQUE, -- UUIDv7
	scope         TEXT NOT NULL,
	kind          TEXT NOT NULL,
	content       TEXT NOT NULL,
	norm          TEXT NOT NULL,        -- normalised content for dedup
	tags          TEXT NOT NULL DEFAULT '[]', -- JSON array
	subject       TEXT NOT NULL DEFAULT '',
	predicate     TEXT NOT NULL DEFAULT '',
	object        TEXT NOT NULL DEFAULT '',
	context       TEXT NOT NULL DEFAULT '',
	fact_key      TEXT,                 -- facts: normalised subject US predicate, for supersession
	observation   TEXT NOT NULL DEFAULT '',
	thoughts      TEXT NOT NULL DEFAULT '',
	action        TEXT NOT NULL DEFAULT '',
	result        TEXT NOT NULL DEFAULT '',
	event_time    INTEGER NOT NULL,     -- unix nanoseconds, UTC
	created       INTEGER NOT NULL,
	updated       INTEGER NOT NULL,
	last_recalled INTEGER,              -- NULL: never recalled
	recall_count  INTEGER NOT NULL DEFAULT 0,
	strength      REAL NOT NULL DEFAULT 1,
	archived      INTEGER,              -- NULL: active
	superseded_by TEXT NOT NULL DEFAULT '',
	source        TEXT NOT NULL DEFAULT '',
	thread        TEXT NOT NULL DEFAULT '',
	seq           INTEGER NOT NULL DEFAULT 0,
	meta          TEXT NOT NULL DEFAULT '', -- JSON object, '' for none
	rev           INTEGER NOT NULL      -- meta.rev of the transaction that last wrote the row
);
CREATE INDEX memories_dedup ON memories (scope, norm) WHERE archived IS NULL;
CREATE INDEX memories_rev ON memories (rev);
CREATE INDEX memories_fact ON memories (scope, fact_key) WHERE archived IS NULL AND fact_key IS NOT NULL;
CREATE INDEX memories_thread ON memories (thread, seq) WHERE thread <> '';
CREATE INDEX memories_event ON memories (event_time);
CREATE INDEX memories_superseded ON memories (superseded_by) WHERE superseded_by <> '';

CREATE TABLE vectors (
	memory_id TEXT PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
	model     TEXT NOT NULL,
	dim       INTEGER NOT NULL,
	data      BLOB NOT NULL -- little-endian float32
);

CREATE TABLE history (
	memory_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
	version   INTEGER NOT NULL,
	changed   INTEGER NOT NULL,
	reason    TEXT NOT NULL,
	snapshot  TEXT NOT NULL, -- JSON of the Memory before the change
	PRIMARY KEY (memory_id, version)
) WITHOUT ROWID;

CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID; -- value untyped: rev integer, model text
INSERT INTO meta (key, value) VALUES ('rev', 0), ('model', '');

CREATE TABLE tombstones (id TEXT PRIMARY KEY, rev INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX tombstones_rev ON tombstones (rev);

-- Own rowid mapping: rowid = memories.pk, rows written with the memory.
CREATE VIRTUAL TABLE memories_fts USING fts5 (content, tags, tokenize = 'porter unicode61');
`,
}

// migrate applies the missing migrations, each in its own write
// transaction. user_version is read again inside the transaction, so two
// processes opening a new store at once apply every step once.
//
// Several processes creating a brand-new store at the same instant can get
// SQLITE_BUSY without SQLite calling the busy handler (the switch of a new
// file to WAL and the first initialisation of its shared memory are not
// covered by busy_timeout); measured: 2 of 750 concurrent first opens
// failed. Those attempts are retried with a short backoff for up to the
// busy timeout, so two clients starting together on a fresh machine both
// come up.
func migrate(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(10 * time.Second)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		err := migrateOnce(ctx, db)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("migrate: %w", ctx.Err())
		case <-time.After(wait):
		}
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (any extended code).
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == 5
}

func migrateOnce(ctx context.Context, db *sql.DB) error {
	v, err := userVersion(ctx, db)
	if err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this mneme knows (%d): upgrade mneme", v, len(migrations))
	}
	for v < len(migrations) {
		err := func() error {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if v, err = userVersion(ctx, tx); err != nil || v >= len(migrations) {
				return err
			}
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migration %d: %w", v+1, err)
			}
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
				return fmt.Errorf("migration %d: %w", v+1, err)
			}
			v++
			return tx.Commit()
		}()
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}

func userVersion(ctx context.Context, q querier) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}
