package eval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/mneme-mcp/mneme/memory"
)

// DefaultKs are the cut-offs reported when Options.Ks is empty.
var DefaultKs = []int{1, 5, 10}

// Options tune Run.
type Options struct {
	Ks       []int     // cut-offs k for recall@k and hit@k; empty = DefaultKs
	Scopes   []string  // only these scopes (conversations), e.g. a dev or held-out half; empty = all
	Progress io.Writer // progress lines, nil = none
}

// Run ingests ds into st (which should be empty and thrown away afterwards)
// and asks every question of ds through st.Recall, reporting recall@k and
// hit@k overall and by category, the ingest rate and recall latency.
//
// Memories are stored with NoDedup, their scope, thread, event time and
// their line order within the thread as Seq. Each question is asked of its
// own scope at its own "now", for the largest k, without reinforcement (so
// questions do not influence each other).
func Run(ctx context.Context, st *memory.Store, ds *Dataset, opt Options) (Report, error) {
	ids, rate, err := ingest(ctx, st, ds, opt)
	if err != nil {
		return Report{}, err
	}
	rep, err := ask(ctx, st, ds, ids, opt)
	if err != nil {
		return Report{}, err
	}
	rep.IngestPerS = rate
	return rep, nil
}

// inScope returns whether scope is among the selected ones (all when none).
func inScope(opt Options, scope string) bool {
	return len(opt.Scopes) == 0 || slices.Contains(opt.Scopes, scope)
}

// ingest stores the dataset's memories of the selected scopes and returns
// the map from dataset id to store id and the rate in memories per second.
func ingest(ctx context.Context, st *memory.Store, ds *Dataset, opt Options) (map[string]string, float64, error) {
	ids := make(map[string]string, len(ds.Memories))
	seq := map[string]int{}
	start := time.Now()
	n := 0
	for _, m := range ds.Memories {
		if !inScope(opt, m.Scope) {
			continue
		}
		s := seq[m.Thread]
		seq[m.Thread]++
		got, _, err := st.Remember(ctx, memory.Draft{
			Scope:   m.Scope,
			Content: m.Text,
			Time:    m.Time,
			Thread:  m.Thread,
			Seq:     s,
			Source:  "import",
			Meta:    map[string]string{"bench_id": m.ID},
			NoDedup: true,
		})
		if err != nil {
			return nil, 0, fmt.Errorf("ingest %s: %w", m.ID, err)
		}
		ids[m.ID] = got.ID
		n++
		if opt.Progress != nil && n%1000 == 0 {
			fmt.Fprintf(opt.Progress, "ingested %d memories\n", n)
		}
	}
	el := time.Since(start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(n) / el
	}
	return ids, rate, nil
}

// ask runs every selected question against st and scores the answers.
func ask(ctx context.Context, st *memory.Store, ds *Dataset, ids map[string]string, opt Options) (Report, error) {
	ks := opt.Ks
	if len(ks) == 0 {
		ks = DefaultKs
	}
	ks = slices.Clone(ks)
	slices.Sort(ks)
	ks = slices.Compact(ks)
	if ks[0] < 1 || ks[len(ks)-1] > memory.MaxLimit {
		return Report{}, fmt.Errorf("eval: cut-offs must be between 1 and %d", memory.MaxLimit)
	}
	maxK := ks[len(ks)-1]
	all := newTally(ks)
	byCat := map[string]*tally{}
	var lat []time.Duration
	n := 0
	for _, q := range ds.Queries {
		if !inScope(opt, q.Scope) || len(q.Evidence) == 0 {
			continue
		}
		start := time.Now()
		res, err := st.Recall(ctx, memory.Query{Text: q.Query, Scopes: []string{q.Scope}, Now: q.Now, Limit: maxK})
		lat = append(lat, time.Since(start))
		if err != nil {
			return Report{}, fmt.Errorf("ask %s: %w", q.ID, err)
		}
		got := make([]string, len(res.Hits))
		for i, h := range res.Hits {
			got[i] = h.Memory.ID
		}
		want := make([]string, 0, len(q.Evidence))
		for _, e := range q.Evidence {
			if id, ok := ids[e]; ok {
				want = append(want, id)
			} else {
				want = append(want, "missing:"+e) // never matches: counts as a miss
			}
		}
		all.add(got, want)
		c := byCat[q.Category]
		if c == nil {
			c = newTally(ks)
			byCat[q.Category] = c
		}
		c.add(got, want)
		n++
		if opt.Progress != nil && n%200 == 0 {
			fmt.Fprintf(opt.Progress, "asked %d questions, recall@%d so far %.3f\n", n, ks[min(1, len(ks)-1)], all.metrics().Recall[ks[min(1, len(ks)-1)]])
		}
	}
	rep := Report{All: all.metrics(), ByCategory: map[string]Metrics{}}
	for c, t := range byCat {
		rep.ByCategory[c] = t.metrics()
	}
	rep.RecallMsP50, rep.RecallMsP95 = percentileMs(lat, 0.50), percentileMs(lat, 0.95)
	return rep, nil
}

// tally accumulates per-question scores.
type tally struct {
	ks          []int
	n           int
	recall, hit []float64 // sums, by position of k in ks
}

func newTally(ks []int) *tally {
	return &tally{ks: ks, recall: make([]float64, len(ks)), hit: make([]float64, len(ks))}
}

// add scores one question: got is the ranked answer, want its evidence.
func (t *tally) add(got, want []string) {
	t.n++
	for i, k := range t.ks {
		top := got[:min(k, len(got))]
		found := 0
		for _, w := range want {
			if slices.Contains(top, w) {
				found++
			}
		}
		t.recall[i] += float64(found) / float64(len(want))
		if found > 0 {
			t.hit[i]++
		}
	}
}

func (t *tally) metrics() Metrics {
	m := Metrics{N: t.n, Recall: map[int]float64{}, Hit: map[int]float64{}}
	for i, k := range t.ks {
		if t.n > 0 {
			m.Recall[k] = t.recall[i] / float64(t.n)
			m.Hit[k] = t.hit[i] / float64(t.n)
		} else {
			m.Recall[k], m.Hit[k] = 0, 0
		}
	}
	return m
}

// percentileMs returns the p-quantile (nearest rank) of d in milliseconds.
func percentileMs(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(p*float64(len(s))+0.999999) - 1
	i = max(0, min(i, len(s)-1))
	return float64(s[i].Microseconds()) / 1000
}
