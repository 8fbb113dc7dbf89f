package memory

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// openDB opens the database with every connection configured by the DSN:
//   - journal_mode WAL: readers never block the writer, several processes
//     can share the file.
//   - busy_timeout 10s: a writer waits for another process's transaction
//     instead of failing at once with SQLITE_BUSY.
//   - synchronous NORMAL: in WAL mode a committed transaction survives a
//     crash of the process (it is in the WAL file); only an OS crash or
//     power loss can lose the last transactions before a checkpoint, and
//     the database stays consistent either way. That is durable enough for
//     memories and saves an fsync per write.
//   - foreign_keys on: vectors and history go with their memory on purge.
//   - _txlock=immediate: write transactions start with BEGIN IMMEDIATE, so
//     concurrent writers queue on busy_timeout instead of failing when a
//     read lock is upgraded. Read-only transactions (sql.TxOptions{ReadOnly:
//     true}) start with a plain BEGIN.
func openDB(path string) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	dsn := (&url.URL{Scheme: "file", Path: path, RawQuery: q.Encode()}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	// One process writes through one connection at a time anyway (SQLite
	// has one writer); a few connections let reads run beside a write.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	db.SetConnMaxIdleTime(time.Minute)
	return db, nil
}

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// row is a memory as stored, with its vector when asked for.
type row struct {
	m   Memory
	vec []float32
	rev int64
}

const memoryColumns = `m.id, m.scope, m.kind, m.content, m.tags, m.subject, m.predicate, m.object, m.context,
	m.observation, m.thoughts, m.action, m.result, m.event_time, m.created, m.updated, m.last_recalled,
	m.recall_count, m.strength, m.archived, m.superseded_by, m.source, m.thread, m.seq, m.meta, m.rev`

// selectRows reads the memories matching where (a condition on alias m),
// ordered by pk. With model != "" it also reads their vectors of that model.
func selectRows(ctx context.Context, q querier, model string, withVec bool, where string, args ...any) ([]row, error) {
	query := `SELECT ` + memoryColumns
	if withVec {
		query += `, v.data FROM memories m LEFT JOIN vectors v ON v.memory_id = m.id AND v.model = ?`
		args = append([]any{model}, args...)
	} else {
		query += ` FROM memories m`
	}
	if where != "" {
		query += ` WHERE ` + where
	}
	query += ` ORDER BY m.pk`
	rs, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []row
	for rs.Next() {
		r, err := scanRow(rs, withVec)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rs.Err()
}

func scanRow(rs *sql.Rows, withVec bool) (row, error) {
	var (
		r                       row
		m                       = &r.m
		kind, tags, meta        string
		event, created, updated int64
		lastRecalled, archived  sql.NullInt64
		blob                    []byte
	)
	dest := []any{&m.ID, &m.Scope, &kind, &m.Content, &tags, &m.Subject, &m.Predicate, &m.Object, &m.Context,
		&m.Observation, &m.Thoughts, &m.Action, &m.Result, &event, &created, &updated, &lastRecalled,
		&m.RecallCount, &m.Strength, &archived, &m.SupersededBy, &m.Source, &m.Thread, &m.Seq, &meta, &r.rev}
	if withVec {
		dest = append(dest, &blob)
	}
	if err := rs.Scan(dest...); err != nil {
		return row{}, err
	}
	m.Kind = Kind(kind)
	m.Time, m.Created, m.Updated = fromNanos(event), fromNanos(created), fromNanos(updated)
	if lastRecalled.Valid {
		m.LastRecalled = fromNanos(lastRecalled.Int64)
	}
	if archived.Valid {
		m.Archived = fromNanos(archived.Int64)
	}
	if err := json.Unmarshal([]byte(tags), &m.Tags); err != nil {
		return row{}, fmt.Errorf("memory %s: tags: %w", m.ID, err)
	}
	if m.Tags == nil {
		m.Tags = []string{}
	}
	if meta != "" {
		if err := json.Unmarshal([]byte(meta), &m.Meta); err != nil {
			return row{}, fmt.Errorf("memory %s: meta: %w", m.ID, err)
		}
	}
	if len(blob) > 0 {
		r.vec = decodeVector(blob)
	}
	return r, nil
}

// writeMemory inserts m (insert) or overwrites the row with m's id, at rev,
// and keeps memories_fts in step.
func writeMemory(ctx context.Context, q querier, m Memory, rev int64, insert bool) error {
	tags, err := json.Marshal(m.Tags)
	if err != nil {
		return err
	}
	if m.Tags == nil {
		tags = []byte("[]")
	}
	meta := ""
	if m.Meta != nil {
		b, err := json.Marshal(m.Meta)
		if err != nil {
			return err
		}
		meta = string(b)
	}
	args := []any{m.Scope, string(m.Kind), m.Content, normalizeText(m.Content), string(tags),
		m.Subject, m.Predicate, m.Object, m.Context, factKey(m),
		m.Observation, m.Thoughts, m.Action, m.Result,
		toNanos(m.Time), toNanos(m.Created), toNanos(m.Updated), nullNanos(m.LastRecalled),
		m.RecallCount, m.Strength, nullNanos(m.Archived), m.SupersededBy, m.Source, m.Thread, m.Seq, meta, rev, m.ID}
	var pk int64
	if insert {
		err = q.QueryRowContext(ctx, `INSERT INTO memories (scope, kind, content, norm, tags,
			subject, predicate, object, context, fact_key, observation, thoughts, action, result,
			event_time, created, updated, last_recalled, recall_count, strength, archived, superseded_by,
			source, thread, seq, meta, rev, id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			RETURNING pk`, args...).Scan(&pk)
	} else {
		err = q.QueryRowContext(ctx, `UPDATE memories SET scope = ?, kind = ?, content = ?, norm = ?, tags = ?,
			subject = ?, predicate = ?, object = ?, context = ?, fact_key = ?,
			observation = ?, thoughts = ?, action = ?, result = ?,
			event_time = ?, created = ?, updated = ?, last_recalled = ?, recall_count = ?, strength = ?,
			archived = ?, superseded_by = ?, source = ?, thread = ?, seq = ?, meta = ?, rev = ?
			WHERE id = ? RETURNING pk`, args...).Scan(&pk)
		if err == nil {
			_, err = q.ExecContext(ctx, `DELETE FROM memories_fts WHERE rowid = ?`, pk)
		}
	}
	if err != nil {
		return fmt.Errorf("write memory %s: %w", m.ID, err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO memories_fts (rowid, content, tags) VALUES (?, ?, ?)`,
		pk, m.Content, strings.Join(m.Tags, " ")); err != nil {
		return fmt.Errorf("write memory %s: fts: %w", m.ID, err)
	}
	return nil
}

// putVector stores (or, for a nil vec, removes) the vector of a memory.
func putVector(ctx context.Context, q querier, id, model string, vec []float32) error {
	var err error
	if vec == nil {
		_, err = q.ExecContext(ctx, `DELETE FROM vectors WHERE memory_id = ?`, id)
	} else {
		_, err = q.ExecContext(ctx, `INSERT INTO vectors (memory_id, model, dim, data) VALUES (?, ?, ?, ?)
			ON CONFLICT (memory_id) DO UPDATE SET model = excluded.model, dim = excluded.dim, data = excluded.data`,
			id, model, len(vec), encodeVector(vec))
	}
	if err != nil {
		return fmt.Errorf("write vector %s: %w", id, err)
	}
	return nil
}

// addHistory keeps m, the state before a change, as the next version of it.
func addHistory(ctx context.Context, q querier, m Memory, reason string, changed time.Time) error {
	snap, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO history (memory_id, version, changed, reason, snapshot)
		VALUES (?, (SELECT coalesce(max(version), 0) + 1 FROM history WHERE memory_id = ?), ?, ?, ?)`,
		m.ID, m.ID, toNanos(changed), reason, string(snap))
	if err != nil {
		return fmt.Errorf("write history %s: %w", m.ID, err)
	}
	return nil
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// Times are stored as INTEGER unix nanoseconds (UTC); a zero time.Time is
// NULL where it may occur. That covers the years 1678 to 2262.
var (
	minTime = time.Unix(0, math.MinInt64).UTC()
	maxTime = time.Unix(0, math.MaxInt64).UTC()
)

func toNanos(t time.Time) int64 { return t.UnixNano() }

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

func nullNanos(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// placeholders returns "?, ?, ?" for n arguments.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
