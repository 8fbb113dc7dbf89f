package memory

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// ImportReport says what Import did. The counts are of memories, not lines
// (an entity line of memory.json gives one memory per observation):
// Imported were written (new, or replacing an older copy), Unchanged were
// already there, Skipped were left out (the store holds a newer copy, the
// same text exists under another id, or an entity has no observations).
// Lines counts the non-blank lines read; Errors lists the lines that
// could not be imported.
type ImportReport struct {
	Lines     int         `json:"lines"`
	Imported  int         `json:"imported"`
	Unchanged int         `json:"unchanged"`
	Skipped   int         `json:"skipped"`
	Errors    []LineError `json:"errors"`
}

// LineError is a line Import could not import, numbered from 1.
type LineError struct {
	Line int    `json:"line"`
	Err  string `json:"error"`
}

// Error returns "line N: what was wrong".
func (e LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Err) }

// maxImportLine is the longest line Import reads (a memory with a long
// history is one line).
const maxImportLine = 64 << 20

var (
	errLineTooLong = fmt.Errorf("the line is longer than %d MiB", maxImportLine>>20)
	errChanged     = errors.New("the store changed while the line was imported: import the file again (importing twice is safe)")
)

// Import reads JSON Lines and stores what they hold, detecting the format
// of each line by its "type":
//
//   - mneme's own export (Export): "header" lines are checked, "memory"
//     lines keep their id, scope and every field. A memory whose id is
//     present with the same content and updated time is Unchanged; present
//     with an older updated time it is replaced, the replaced state kept as
//     history (reason "import"); present with a newer or equal updated time
//     it is Skipped. A new id is inserted with its history, unless it is
//     active and an active memory of its scope has the same normalised
//     text (Skipped). Purged ids come back.
//   - the reference MCP memory server's memory.json knowledge graph, into
//     scope ("" = the store's default scope): each observation of an
//     "entity" line becomes a thought "<name>: <observation>" tagged with
//     the entityType when that is one word, each "relation" line a fact
//     from / relationType / to. Text already present (normalised) in the
//     scope is Unchanged, so importing a file again changes nothing.
//     Relations do not supersede each other: a graph may hold several
//     objects for one subject and predicate.
//
// Memories are re-embedded with the configured model. A bad line (not
// JSON, unknown type, invalid memory) is reported in ImportReport.Errors
// with its line number and skipped; the rest is imported. Lines are
// written in batches of up to 200 per transaction, each line inside a
// savepoint of its own, so neither a crash nor a failing line leaves a line
// half written. Import returns an error (with the report of the batches
// committed so far) only when reading, embedding or the store fails;
// importing the file again then completes it. It is safe for concurrent
// use.
func (s *Store) Import(ctx context.Context, r io.Reader, scope string) (ImportReport, error) {
	done, err := s.enter()
	defer done()
	rep := ImportReport{Errors: []LineError{}}
	if err != nil {
		return rep, fmt.Errorf("import: %w", err)
	}
	if err := s.checkUsable(); err != nil {
		return rep, fmt.Errorf("import: %w", err)
	}
	if scope = strings.TrimSpace(scope); scope == "" {
		scope = s.opts.DefaultScope
	}
	defer func() { slices.SortStableFunc(rep.Errors, func(a, b LineError) int { return a.Line - b.Line }) }()
	br := bufio.NewReaderSize(r, 64<<10)
	var batch []importJob
	for no := 1; ; no++ {
		line, rerr := readLine(br)
		switch {
		case errors.Is(rerr, errLineTooLong):
			rep.Lines++
			rep.Errors = append(rep.Errors, LineError{Line: no, Err: rerr.Error()})
			continue
		case rerr != nil && !errors.Is(rerr, io.EOF):
			return rep, fmt.Errorf("import: read line %d: %w", no, rerr)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			rep.Lines++
			if err := ctx.Err(); err != nil {
				return rep, fmt.Errorf("import: %w", err)
			}
			job, lineErr, err := s.prepareLine(ctx, no, line, scope)
			switch {
			case err != nil:
				return rep, fmt.Errorf("import: line %d: %w", no, err)
			case lineErr != nil:
				rep.Errors = append(rep.Errors, LineError{Line: no, Err: lineErr.Error()})
			case job.mem != nil || job.graph != nil:
				batch = append(batch, job)
			}
		}
		if len(batch) == importBatch || errors.Is(rerr, io.EOF) && len(batch) > 0 {
			if err := s.writeBatch(ctx, batch, &rep); err != nil {
				return rep, fmt.Errorf("import: lines %d to %d: %w", batch[0].line, batch[len(batch)-1].line, err)
			}
			batch = batch[:0]
		}
		if errors.Is(rerr, io.EOF) {
			return rep, nil
		}
	}
}

// readLine reads one line (with its newline); a line longer than
// maxImportLine is consumed and reported as errLineTooLong.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > maxImportLine {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, errLineTooLong
		}
		buf = append(buf, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}

// lineJSON is every field of every kind of line Import reads.
type lineJSON struct {
	Type string `json:"type"`
	// header
	Format  string `json:"format"`
	Version int    `json:"version"`
	// memory
	Memory  *Memory   `json:"memory"`
	History []Version `json:"history"`
	// memory.json entity
	Name         string   `json:"name"`
	EntityType   string   `json:"entityType"`
	Observations []string `json:"observations"`
	// memory.json relation
	From         string `json:"from"`
	To           string `json:"to"`
	RelationType string `json:"relationType"`
}

// parsedLine is what one line holds: a header, one mneme memory with its
// history, or the memories made from a memory.json line.
type parsedLine struct {
	header  bool
	mneme   *Memory
	history []Version
	graph   []Memory
	skipped int // entities without observations
}

// parseLine reads one line of an export or a memory.json file. Memories
// from memory.json get scope, fresh ids and the time now. It is pure: the
// fuzz target calls it directly.
func parseLine(line []byte, scope string, now time.Time) (parsedLine, error) {
	var l lineJSON
	if err := json.Unmarshal(line, &l); err != nil {
		return parsedLine{}, fmt.Errorf("not a line of a mneme export or a memory.json file: %v", err)
	}
	switch l.Type {
	case "header":
		if l.Format != ExportFormat {
			return parsedLine{}, fmt.Errorf("header of format %s: want %q", Quote(l.Format), ExportFormat)
		}
		if l.Version != ExportVersion {
			return parsedLine{}, fmt.Errorf("export format version %d: this mneme reads version %d", l.Version, ExportVersion)
		}
		return parsedLine{header: true}, nil
	case "memory":
		if l.Memory == nil {
			return parsedLine{}, errors.New(`a "memory" line needs the memory object`)
		}
		m := *l.Memory
		if err := checkImported(&m); err != nil {
			return parsedLine{}, err
		}
		hist, err := checkHistory(m.ID, l.History)
		if err != nil {
			return parsedLine{}, err
		}
		return parsedLine{mneme: &m, history: hist}, nil
	case "entity":
		name := strings.TrimSpace(l.Name)
		if name == "" {
			return parsedLine{}, errors.New("an entity needs a name")
		}
		var tags []string
		if t := strings.ToLower(strings.TrimSpace(l.EntityType)); isTag(t) && len(t) <= MaxTagBytes {
			tags = []string{t}
		}
		var p parsedLine
		for _, obs := range l.Observations {
			if strings.TrimSpace(obs) == "" {
				continue
			}
			m, err := newMemory(Draft{Scope: scope, Content: name + ": " + obs, Tags: tags, Time: now, Source: "import"}, now, scope)
			if err != nil {
				return parsedLine{}, fmt.Errorf("entity %s: %s", Quote(name), strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "))
			}
			p.graph = append(p.graph, m)
		}
		if len(p.graph) == 0 {
			p.skipped = 1
		}
		return p, nil
	case "relation":
		var missing []string
		for _, f := range []struct{ name, v string }{{"from", l.From}, {"to", l.To}, {"relationType", l.RelationType}} {
			if strings.TrimSpace(f.v) == "" {
				missing = append(missing, f.name)
			}
		}
		if len(missing) > 0 {
			return parsedLine{}, fmt.Errorf("a relation needs from, to and relationType: give %s", strings.Join(missing, " and "))
		}
		m, err := newMemory(Draft{Scope: scope, Kind: KindFact, Subject: l.From, Predicate: l.RelationType, Object: l.To,
			Time: now, Source: "import"}, now, scope)
		if err != nil {
			return parsedLine{}, fmt.Errorf("relation: %s", strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "))
		}
		return parsedLine{graph: []Memory{m}}, nil
	case "":
		return parsedLine{}, errors.New(`the line has no "type": want header, memory, entity or relation`)
	default:
		return parsedLine{}, fmt.Errorf("unknown type %s: want header, memory, entity or relation", Quote(l.Type))
	}
}

// checkImported validates a memory read from an export and fills defaults
// a hand-edited file may lack.
func checkImported(m *Memory) error {
	if u, err := uuid.Parse(m.ID); err != nil || u.String() != m.ID {
		return fmt.Errorf("memory id %s is not a UUID in canonical form", Quote(m.ID))
	}
	if m.Scope = strings.TrimSpace(m.Scope); m.Scope == "" {
		return fmt.Errorf("memory %s has no scope", m.ID)
	}
	if err := CheckScope(m.Scope); err != nil {
		return fmt.Errorf("memory %s: %s", m.ID, strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "))
	}
	if m.Kind == "" {
		m.Kind = KindThought
	}
	if m.Tags == nil {
		m.Tags = []string{}
	}
	if strings.TrimSpace(m.Source) == "" {
		m.Source = "import"
	}
	if err := finishMemory(m); err != nil {
		return fmt.Errorf("memory %s: %s", m.ID, strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "))
	}
	if m.Created.IsZero() {
		m.Created = m.Time
	}
	if m.Updated.IsZero() {
		m.Updated = m.Created
	}
	for _, t := range []struct {
		name string
		t    time.Time
	}{{"created", m.Created}, {"updated", m.Updated}, {"last_recalled", m.LastRecalled}, {"archived", m.Archived}} {
		if !t.t.IsZero() && (t.t.Before(minTime) || t.t.After(maxTime)) {
			return fmt.Errorf("memory %s: %s time is outside the years 1678 to 2262", m.ID, t.name)
		}
	}
	if !(m.Strength > 0) || math.IsInf(m.Strength, 0) {
		return fmt.Errorf("memory %s: strength %v is not a positive number", m.ID, m.Strength)
	}
	if m.RecallCount < 0 {
		return fmt.Errorf("memory %s: recall_count %d is negative", m.ID, m.RecallCount)
	}
	return nil
}

// checkHistory validates the history of memory id from an export and
// numbers its versions 1, 2, ... in the order given.
func checkHistory(id string, hist []Version) ([]Version, error) {
	out := make([]Version, len(hist))
	for i, v := range hist {
		if v.Changed.Before(minTime) || v.Changed.After(maxTime) {
			return nil, fmt.Errorf("memory %s: history version %d has a time outside the years 1678 to 2262", id, i+1)
		}
		v.MemoryID, v.Version = id, i+1
		if strings.TrimSpace(v.Reason) == "" {
			v.Reason = "update"
		}
		out[i] = v
	}
	return out, nil
}

// importBatch is how many lines Import writes per transaction; each line
// is a savepoint of its own inside it.
const importBatch = 200

// importJob is one line ready to be written: what it holds, looked at and
// embedded outside the write transaction.
type importJob struct {
	line    int
	mem     *importItem
	graph   *importGraphItem
	skipped int
}

// importItem is a memory of a mneme export with what a first look at the
// store decided: whether it needs a vector (then vec holds it).
type importItem struct {
	m       Memory
	hist    []Version
	needVec bool
	vec     []float32
}

// importGraphItem is the memories of one memory.json line; need[i] says
// whether ms[i] was new at the first look (then vecs[i] holds its vector).
type importGraphItem struct {
	ms   []Memory
	need []bool
	vecs [][]float32
}

// prepareLine parses a line and, outside any transaction, looks at the
// store and embeds what will probably be written. lineErr is a problem of
// the line (reported, the import goes on); err a failure of the store or
// the embedder.
func (s *Store) prepareLine(ctx context.Context, no int, line []byte, scope string) (job importJob, lineErr, err error) {
	p, perr := parseLine(line, scope, s.opts.Now())
	if perr != nil {
		return job, perr, nil
	}
	job.line = no
	switch {
	case p.header:
	case p.mneme != nil:
		it := &importItem{m: *p.mneme, hist: p.history}
		if _, _, it.needVec, err = decideImport(ctx, s.db, it.m); err != nil {
			return job, nil, err
		}
		if it.needVec {
			// Never hold the write lock during an embedding call.
			if it.vec, err = s.embed(ctx, it.m.Content); err != nil {
				return job, nil, err
			}
		}
		job.mem = it
	default:
		job.skipped = p.skipped
		g := &importGraphItem{ms: p.graph, need: make([]bool, len(p.graph)), vecs: make([][]float32, len(p.graph))}
		for i, m := range g.ms {
			dup, err := findDuplicate(ctx, s.db, m.Scope, normalizeText(m.Content))
			if err != nil {
				return job, nil, err
			}
			if g.need[i] = dup == ""; g.need[i] {
				if g.vecs[i], err = s.embed(ctx, m.Content); err != nil {
					return job, nil, err
				}
			}
		}
		job.graph = g
	}
	return job, nil, nil
}

// writeBatch writes prepared lines in one transaction, each line inside a
// savepoint: a line that meets a store changed since the first look
// (errChanged) is rolled back alone and reported; any other failure rolls
// back the batch. The report is updated only after the commit.
func (s *Store) writeBatch(ctx context.Context, jobs []importJob, rep *ImportReport) error {
	var delta ImportReport
	_, err := s.change(ctx, func(w *wtx) error {
		delta = ImportReport{}
		for _, j := range jobs {
			revBefore := w.rev
			if _, err := w.ExecContext(ctx, `SAVEPOINT import_line`); err != nil {
				return err
			}
			var d ImportReport
			var err error
			if j.mem != nil {
				err = s.writeImported(w, j.mem, &d)
			} else {
				d.Skipped = j.skipped
				err = s.writeGraph(w, j.graph, &d)
			}
			if errors.Is(err, errChanged) {
				if _, err := w.ExecContext(ctx, `ROLLBACK TO import_line`); err != nil {
					return err
				}
				w.rev = revBefore // a rev bumped inside the savepoint was rolled back with it
				d = ImportReport{Errors: []LineError{{Line: j.line, Err: errChanged.Error()}}}
			} else if err != nil {
				return err
			}
			if _, err := w.ExecContext(ctx, `RELEASE import_line`); err != nil {
				return err
			}
			delta.add(d)
		}
		return nil
	})
	if err != nil {
		return err
	}
	rep.add(delta)
	return nil
}

// add counts d's outcomes (not its Lines) into r.
func (r *ImportReport) add(d ImportReport) {
	r.Imported += d.Imported
	r.Unchanged += d.Unchanged
	r.Skipped += d.Skipped
	r.Errors = append(r.Errors, d.Errors...)
}

// importAction is what importing a mneme memory does.
type importAction int

const (
	importInsert importAction = iota
	importReplace
	importUnchanged
	importSkip
)

// decideImport works out what importing m does, as q sees the store, and
// whether a vector of m's content is needed for it.
func decideImport(ctx context.Context, q querier, m Memory) (importAction, Memory, bool, error) {
	rows, err := selectRows(ctx, q, "", false, `m.id = ?`, m.ID)
	if err != nil {
		return 0, Memory{}, false, err
	}
	if len(rows) == 0 {
		if !m.IsArchived() {
			dup, err := findDuplicate(ctx, q, m.Scope, normalizeText(m.Content))
			if err != nil {
				return 0, Memory{}, false, err
			}
			if dup != "" {
				return importSkip, Memory{}, false, nil
			}
		}
		return importInsert, Memory{}, true, nil
	}
	cur := rows[0].m
	switch {
	case cur.Content == m.Content && cur.Updated.Equal(m.Updated):
		return importUnchanged, cur, false, nil
	case cur.Updated.Before(m.Updated):
		return importReplace, cur, cur.Content != m.Content, nil
	}
	return importSkip, cur, false, nil
}

// writeImported writes one memory of a mneme export inside w.
func (s *Store) writeImported(w *wtx, it *importItem, d *ImportReport) error {
	ctx, m := w.ctx, it.m
	act, cur, need, err := decideImport(ctx, w, m)
	switch {
	case err != nil:
		return err
	case need && !it.needVec:
		return errChanged
	case act == importUnchanged:
		d.Unchanged++
		return nil
	case act == importSkip:
		d.Skipped++
		return nil
	}
	rev, err := w.bump()
	if err != nil {
		return err
	}
	if act == importReplace {
		if err := addHistory(ctx, w, cur, "import", s.opts.Now()); err != nil {
			return err
		}
	}
	if err := writeMemory(ctx, w, m, rev, act == importInsert); err != nil {
		return err
	}
	if need {
		if err := putVector(ctx, w, m.ID, s.opts.ModelID, it.vec); err != nil {
			return err
		}
	}
	if act == importInsert {
		// A purged memory comes back: its tombstone must not drop it again.
		if _, err := w.ExecContext(ctx, `DELETE FROM tombstones WHERE id = ?`, m.ID); err != nil {
			return err
		}
		if err := insertHistory(ctx, w, it.hist); err != nil {
			return err
		}
	}
	w.touch(m.ID)
	d.Imported++
	return nil
}

// insertHistory writes the versions of a memory imported new.
func insertHistory(ctx context.Context, q querier, hist []Version) error {
	for _, v := range hist {
		snap, err := json.Marshal(v.Memory)
		if err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO history (memory_id, version, changed, reason, snapshot) VALUES (?, ?, ?, ?, ?)`,
			v.MemoryID, v.Version, toNanos(v.Changed), v.Reason, string(snap)); err != nil {
			return fmt.Errorf("write history %s: %w", v.MemoryID, err)
		}
	}
	return nil
}

// writeGraph writes the memories of one memory.json line inside w, leaving
// out those whose text the scope already holds.
func (s *Store) writeGraph(w *wtx, g *importGraphItem, d *ImportReport) error {
	for i, m := range g.ms {
		dup, err := findDuplicate(w.ctx, w, m.Scope, normalizeText(m.Content))
		if err != nil {
			return err
		}
		if dup != "" {
			d.Unchanged++
			continue
		}
		if !g.need[i] {
			return errChanged
		}
		rev, err := w.bump()
		if err != nil {
			return err
		}
		if err := writeMemory(w.ctx, w, m, rev, true); err != nil {
			return err
		}
		if err := putVector(w.ctx, w, m.ID, s.opts.ModelID, g.vecs[i]); err != nil {
			return err
		}
		w.touch(m.ID)
		d.Imported++
	}
	return nil
}
