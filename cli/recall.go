package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/mneme-mcp/mneme/memory"
)

// recallJSON is the shape of `mneme recall --json`.
type recallJSON struct {
	Memories []hitJSON      `json:"memories"`
	Window   *memory.Window `json:"window"`
	More     bool           `json:"more"`
	Total    int            `json:"total"`
}

// hitJSON is a recalled memory with its score beside its fields.
type hitJSON struct {
	memory.Memory
	Score memory.Score `json:"score"`
}

// runRecall ranks memories for a query: `mneme recall QUERY [flags]`.
func runRecall(a *app, args []string) error {
	fs := a.newFlagSet()
	var (
		tags, scopes    stringList
		limit, offset   int
		when            string
		includeArchived bool
		noReinforce     bool
	)
	fs.IntVar(&limit, "limit", 0, fmt.Sprintf("how many memories, 1 to %d (default from config, 5)", memory.MaxLimit))
	fs.IntVar(&offset, "offset", 0, "skip this many ranked memories (paging)")
	fs.Var(&scopes, "scope", "scope `S` to search (repeatable; default the configured scope)")
	fs.StringVar(&when, "when", "", "time `expression` such as yesterday, last week, in April, 2024-05-04")
	fs.Var(&tags, "tag", "prefer memories tagged `T` (repeatable)")
	fs.BoolVar(&includeArchived, "include-archived", false, "also return forgotten and superseded memories")
	fs.BoolVar(&noReinforce, "no-reinforce", false, "do not count this recall as a rehearsal (no consolidation)")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if limit < 0 || limit > memory.MaxLimit {
		return usagef("--limit %d: want 1 to %d", limit, memory.MaxLimit)
	}
	if offset < 0 {
		return usagef("--offset %d: want 0 or more", offset)
	}
	text := strings.TrimSpace(strings.Join(pos, " "))
	if text == "" && when == "" && len(tags) == 0 {
		return usagef("nothing to recall: give a query, --when or --tag")
	}
	return a.withStore(func(e *env, st *memory.Store) error {
		if limit == 0 {
			limit = e.cfg.Recall.Limit
		}
		res, err := st.Recall(a.ctx, memory.Query{
			Text:            text,
			When:            when,
			Tags:            tags,
			Scopes:          scopes,
			Limit:           limit,
			Offset:          offset,
			IncludeArchived: includeArchived,
			Reinforce:       !noReinforce,
			MinProbability:  e.cfg.Recall.MinProbability,
		})
		if err != nil {
			return storeError("recall", err)
		}
		if a.g.json {
			out := recallJSON{Memories: make([]hitJSON, 0, len(res.Hits)), Window: res.Window, More: res.More, Total: res.Total}
			for _, h := range res.Hits {
				out.Memories = append(out.Memories, hitJSON{h.Memory, h.Score})
			}
			return a.printJSON(out)
		}
		printHits(a, res, e.loc)
		return nil
	})
}

// printHits writes a recall result for a person: one block per memory.
func printHits(a *app, res memory.Result, loc *time.Location) {
	if w := res.Window; w != nil {
		fmt.Fprintf(a.stdout, "window %s: %s .. %s (%s)\n", w.Expr, fmtTime(w.From, loc), fmtTime(w.To, loc), w.Applied)
	}
	if len(res.Hits) == 0 {
		fmt.Fprintln(a.stdout, "no memories matched")
		return
	}
	for _, h := range res.Hits {
		m := h.Memory
		line := fmt.Sprintf("%s  %s  %s", m.ID, fmtTime(m.Time, loc), m.Content)
		if len(m.Tags) > 0 {
			line += "  [" + strings.Join(m.Tags, ", ") + "]"
		}
		if m.IsArchived() {
			line += "  (archived)"
		}
		fmt.Fprintf(a.stdout, "%s\n    relevance %.2f  probability %.2f  scope %s\n", line, h.Score.Relevance, h.Score.Probability, m.Scope)
	}
	if res.More {
		fmt.Fprintf(a.stdout, "(%d matched; more with --offset)\n", res.Total)
	}
}

// fmtTime shows t in loc to the minute, or "-" when zero.
func fmtTime(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "-"
	}
	return t.In(loc).Format("2006-01-02 15:04")
}
