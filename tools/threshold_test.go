package tools

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mneme-mcp/mneme/memory/eval"

	"github.com/mneme-mcp/mneme/embed"
	"github.com/mneme-mcp/mneme/memory"
)

// locomoDir is the LoCoMo dataset in the bench format, beside the repository.
const locomoDir = "../../shared/datasets/locomo"

// TestMeasureMessageThreshold measures what recall's message-mode threshold
// (DefaultMessageMinProbability) costs and buys on LoCoMo: for each
// candidate threshold, recall@5 when the top 5 hits below it are dropped,
// and the share of the top-5 hits outside the evidence that it drops. It is
// a measuring tool, not a check; it runs only with MNEME_MEASURE set:
//
//	MNEME_MEASURE=1 go test -run TestMeasureMessageThreshold -v ./tools
//
// Hits are ranked by recall probability, so dropping those below a
// threshold from the top 5 is what Query.MinProbability does with Limit 5.
// Each question is asked twice: at its own "now" (months after the
// conversation: decay dominates) and at the time of its newest evidence
// (fresh memories: relevance dominates), to see whether one threshold
// serves both.
func TestMeasureMessageThreshold(t *testing.T) {
	if os.Getenv("MNEME_MEASURE") == "" {
		t.Skip("set MNEME_MEASURE=1 to measure the message-mode threshold on LoCoMo")
	}
	ds, err := eval.Load(filepath.Join(locomoDir, "memories.jsonl"), filepath.Join(locomoDir, "queries.jsonl"))
	if err != nil {
		t.Skipf("LoCoMo not available: %v", err)
	}
	ctx := context.Background()
	e := embed.Builtin(0)
	st, err := memory.Open(ctx, memory.Options{
		Path: filepath.Join(t.TempDir(), "locomo.db"), ModelID: e.ModelID, Embed: e.Func, Location: time.UTC,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ids := map[string]string{}
	times := map[string]time.Time{}
	seq := map[string]int{}
	for _, m := range ds.Memories {
		got, _, err := st.Remember(ctx, memory.Draft{
			Scope: m.Scope, Content: m.Text, Time: m.Time, Thread: m.Thread, Seq: seq[m.Thread],
			Source: "import", NoDedup: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		seq[m.Thread]++
		ids[m.ID], times[m.ID] = got.ID, m.Time
	}
	thresholds := []float64{0, 0.1, 0.2, 0.3, 0.35, 0.4, 0.42, 0.44, 0.46, 0.48, 0.5, 0.6, 0.7, 0.86}
	for _, mode := range []string{"asked-at-now", "asked-when-fresh"} {
		type tally struct{ recall, others, dropped float64 }
		tallies := make([]tally, len(thresholds))
		n := 0
		var probs []float64
		for _, q := range ds.Queries {
			if len(q.Evidence) == 0 {
				continue
			}
			now := q.Now
			want := map[string]bool{}
			if mode == "asked-when-fresh" {
				now = time.Time{}
			}
			for _, ev := range q.Evidence {
				want[ids[ev]] = true
				if mode == "asked-when-fresh" && times[ev].After(now) {
					now = times[ev]
				}
			}
			if mode == "asked-when-fresh" {
				now = now.Add(time.Hour)
			}
			res, err := st.Recall(ctx, memory.Query{Text: q.Query, Scopes: []string{q.Scope}, Now: now, Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			n++
			for i, th := range thresholds {
				found := 0
				for _, h := range res.Hits {
					kept := h.Score.Probability >= th
					if want[h.Memory.ID] {
						if kept {
							found++
						}
						continue
					}
					tallies[i].others++
					if !kept {
						tallies[i].dropped++
					}
				}
				tallies[i].recall += float64(found) / float64(len(q.Evidence))
			}
			for _, h := range res.Hits {
				probs = append(probs, h.Score.Probability)
			}
		}
		slices.Sort(probs)
		t.Logf("%s: %d questions; probability of top-5 hits: p10 %.4f, median %.4f, p90 %.4f",
			mode, n, probs[len(probs)/10], probs[len(probs)/2], probs[len(probs)*9/10])
		for i, th := range thresholds {
			t.Logf("%s threshold %-6g recall@5 %.3f  non-evidence hits dropped %5.1f%%", mode, th,
				tallies[i].recall/float64(n), 100*tallies[i].dropped/max(tallies[i].others, 1))
		}
	}
}
