// Package eval measures recall quality and speed of a memory.Store on a
// conversation dataset in the neutral bench format (see
// ../shared/datasets/README.md beside the repository): memories.jsonl, one
// memory per line in conversation order, and queries.jsonl, one question per
// line with the ids of the memories that hold its answer.
//
// Run ingests the dataset into a throw-away store and asks every question
// through Store.Recall, the same path the MCP tools use; it reports
// recall@k (the share of a question's evidence in the top k) and hit@k (1
// when any of it is), overall and by category, plus ingest rate and recall
// latency. The ranker never sees evidence or categories.
//
// The package uses only memory's public API. Its functions are safe for
// concurrent use on distinct stores.
package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Memory is one line of memories.jsonl.
type Memory struct {
	ID     string    `json:"id"`
	Scope  string    `json:"scope"`  // partition a query may search (one conversation)
	Thread string    `json:"thread"` // session the memory came from
	Time   time.Time `json:"time"`   // when it was said
	Text   string    `json:"text"`
}

// Query is one line of queries.jsonl.
type Query struct {
	ID       string    `json:"id"`
	Scope    string    `json:"scope"`
	Query    string    `json:"query"`
	Now      time.Time `json:"now"`      // when the question is asked
	Evidence []string  `json:"evidence"` // ids of the memories holding the answer
	Category string    `json:"category"` // for reporting only
}

// Dataset is a loaded bench dataset.
type Dataset struct {
	Memories []Memory
	Queries  []Query
}

// Load reads a dataset in the neutral bench format. Every line must parse,
// ids must be unique and every evidence id must name a memory of the same
// scope, so that a broken file cannot pass for a bad ranker.
func Load(memoriesPath, queriesPath string) (*Dataset, error) {
	ds := &Dataset{}
	if err := readJSONL(memoriesPath, func(m Memory) { ds.Memories = append(ds.Memories, m) }); err != nil {
		return nil, fmt.Errorf("load memories: %w", err)
	}
	if err := readJSONL(queriesPath, func(q Query) { ds.Queries = append(ds.Queries, q) }); err != nil {
		return nil, fmt.Errorf("load queries: %w", err)
	}
	scopeOf := make(map[string]string, len(ds.Memories))
	for _, m := range ds.Memories {
		if m.ID == "" || m.Scope == "" {
			return nil, fmt.Errorf("load memories: memory %q has no id or scope", m.ID)
		}
		if _, dup := scopeOf[m.ID]; dup {
			return nil, fmt.Errorf("load memories: duplicate id %q", m.ID)
		}
		scopeOf[m.ID] = m.Scope
	}
	for _, q := range ds.Queries {
		for _, e := range q.Evidence {
			if scopeOf[e] != q.Scope {
				return nil, fmt.Errorf("load queries: %s: evidence %q is not a memory of scope %q", q.ID, e, q.Scope)
			}
		}
	}
	return ds, nil
}

// readJSONL decodes every non-blank line of path into a T and hands it to add.
func readJSONL[T any](path string, add func(T)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		add(v)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
