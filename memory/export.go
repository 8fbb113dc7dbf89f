package memory

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// The export format: JSON Lines, a header line then one line per memory.
const (
	ExportFormat  = "mneme-export"
	ExportVersion = 1
)

// exportBatch is how many memories Export reads per query.
const exportBatch = 500

// exportHeader is the first line of an export.
type exportHeader struct {
	Type     string    `json:"type"` // "header"
	Format   string    `json:"format"`
	Version  int       `json:"version"`
	Model    string    `json:"model"`
	Exported time.Time `json:"exported"`
	Scope    string    `json:"scope,omitempty"` // the scope exported, "" = all
}

// exportMemory is one memory line of an export.
type exportMemory struct {
	Type    string    `json:"type"` // "memory"
	Memory  Memory    `json:"memory"`
	History []Version `json:"history,omitempty"`
	Model   string    `json:"model,omitempty"` // model of its stored vector, "" = none
}

// Export writes the memories of scope ("" = all scopes), archived ones
// included, with their history, to w as JSON Lines: first a header
// {"type":"header","format":"mneme-export","version":1,"model":...,"exported":...},
// then one {"type":"memory","memory":{...},"history":[...],"model":...}
// per memory, ordered by id (creation order for mneme's UUIDv7 ids).
// Vectors are not exported: Import re-embeds. The export is one consistent
// snapshot, read in batches; it returns the number of memories written.
// Export is safe for concurrent use.
func (s *Store) Export(ctx context.Context, w io.Writer, scope string) (n int, err error) {
	done, err := s.enter()
	defer done()
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	scope = strings.TrimSpace(scope)
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	defer tx.Rollback()
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(exportHeader{Type: "header", Format: ExportFormat, Version: ExportVersion,
		Model: s.ModelID(), Exported: s.opts.Now().UTC(), Scope: scope}); err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	after := ""
	for {
		where, args := `m.id IN (SELECT id FROM memories WHERE id > ?`, []any{after}
		if scope != "" {
			where += ` AND scope = ?`
			args = append(args, scope)
		}
		where += ` ORDER BY id LIMIT ?)`
		args = append(args, exportBatch)
		rows, err := selectRows(ctx, tx, "", false, where, args...)
		if err != nil {
			return n, fmt.Errorf("export: %w", err)
		}
		if len(rows) == 0 {
			break
		}
		slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.m.ID, b.m.ID) })
		ids := make([]string, len(rows))
		for i, r := range rows {
			ids[i] = r.m.ID
		}
		models, hist, err := exportExtras(ctx, tx, ids)
		if err != nil {
			return n, fmt.Errorf("export: %w", err)
		}
		for _, r := range rows {
			line := exportMemory{Type: "memory", Memory: r.m, History: hist[r.m.ID], Model: models[r.m.ID]}
			if err := enc.Encode(line); err != nil {
				return n, fmt.Errorf("export %s: %w", r.m.ID, err)
			}
			n++
		}
		after = ids[len(ids)-1]
		if err := ctx.Err(); err != nil {
			return n, fmt.Errorf("export: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	return n, nil
}

// exportExtras reads the vector model and the history of the memories ids.
func exportExtras(ctx context.Context, q querier, ids []string) (map[string]string, map[string][]Version, error) {
	models := map[string]string{}
	rs, err := q.QueryContext(ctx, `SELECT memory_id, model FROM vectors WHERE memory_id IN (`+placeholders(len(ids))+`)`, anys(ids)...)
	if err != nil {
		return nil, nil, err
	}
	for rs.Next() {
		var id, model string
		if err := rs.Scan(&id, &model); err != nil {
			rs.Close()
			return nil, nil, err
		}
		models[id] = model
	}
	if err := rs.Close(); err != nil {
		return nil, nil, err
	}
	hist := map[string][]Version{}
	rs, err = q.QueryContext(ctx, `SELECT memory_id, version, changed, reason, snapshot FROM history
		WHERE memory_id IN (`+placeholders(len(ids))+`) ORDER BY memory_id, version`, anys(ids)...)
	if err != nil {
		return nil, nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var v Version
		var changed int64
		var snap string
		if err := rs.Scan(&v.MemoryID, &v.Version, &changed, &v.Reason, &snap); err != nil {
			return nil, nil, err
		}
		v.Changed = fromNanos(changed)
		if err := json.Unmarshal([]byte(snap), &v.Memory); err != nil {
			return nil, nil, fmt.Errorf("history of %s, version %d: %w", v.MemoryID, v.Version, err)
		}
		hist[v.MemoryID] = append(hist[v.MemoryID], v)
	}
	return models, hist, rs.Err()
}
