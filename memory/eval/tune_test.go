package eval

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-mcp/mneme/memory"
)

// Dev and held-out halves of LoCoMo for tuning (issue 3): tune on dev,
// report both.
var (
	devScopes  = []string{"conv-26", "conv-30", "conv-41", "conv-42", "conv-43"}
	heldScopes = []string{"conv-44", "conv-47", "conv-48", "conv-49", "conv-50"}
)

// tuneCategories are LoCoMo's question categories in report order.
var tuneCategories = []string{"single-hop", "multi-hop", "temporal", "open-domain", "adversarial"}

// TestTune compares rankings on LoCoMo's dev and held-out halves. It only
// runs with MNEME_TUNE set (it is a measuring tool, not a check):
//
//	MNEME_TUNE=1 go test -run TestTune -v ./memory/eval/
//	MNEME_TUNE='k1=1.2,b=0.3;prev=0.4' go test -run TestTune -v ./memory/eval/
//
// Each config is asked every question once; it logs recall@5 and recall@10
// for dev, held-out and all questions, and both by category for dev and
// held-out (R@5/R@10), and recall@5 of the temporal questions by the window
// their text gave (none, exact/filter, exact/boost-fallback, vague/boost),
// which is where the two halves differ most. With MNEME_DUMP=<file> the first config's dev questions whose
// evidence is not all in the top 5 are written to the file (question,
// evidence, top 5), to look for what the ranker misses; only dev is dumped,
// so the held-out half stays unseen.
//
// The data is ingested once; each ranking reopens the same database file,
// which reloads the index from SQLite with that ranking.
func TestTune(t *testing.T) {
	spec := os.Getenv("MNEME_TUNE")
	if spec == "" {
		t.Skip("set MNEME_TUNE=1 (or a list of configs) to compare rankings on LoCoMo")
	}
	if _, err := os.Stat(locomoDir); err != nil {
		t.Skipf("LoCoMo data not found at %s", locomoDir)
	}
	ds, err := Load(filepath.Join(locomoDir, "memories.jsonl"), filepath.Join(locomoDir, "queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(os.TempDir(), "mneme-tune-locomo.db")
	ctx := context.Background()
	var ids map[string]string
	{
		os.Remove(path)
		os.Remove(path + "-wal")
		os.Remove(path + "-shm")
		st := openStore(t, path, memory.DefaultRanking())
		if ids, _, err = ingest(ctx, st, ds, Options{}); err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
	text := make(map[string]string, len(ds.Memories)) // store id -> dataset id and text
	for _, m := range ds.Memories {
		text[ids[m.ID]] = m.ID + " " + m.Text
	}
	for i, c := range tuneConfigs(spec) {
		os.Setenv("MNEME_X", c.x)
		st := openStore(t, path, c.rk)
		var dump *os.File
		if p := os.Getenv("MNEME_DUMP"); p != "" && i == 0 {
			if dump, err = os.Create(p); err != nil {
				t.Fatal(err)
			}
		}
		dev, held, all := newTally([]int{1, 5, 10}), newTally([]int{1, 5, 10}), newTally([]int{1, 5, 10})
		devCat, heldCat := map[string]*tally{}, map[string]*tally{}
		for _, k := range tuneCategories {
			devCat[k], heldCat[k] = newTally([]int{5, 10}), newTally([]int{5, 10})
		}
		var lat []time.Duration
		winTally := map[string]*tally{}
		for _, q := range ds.Queries {
			if len(q.Evidence) == 0 {
				continue
			}
			start := time.Now()
			res, err := st.Recall(ctx, memory.Query{Text: q.Query, Scopes: []string{q.Scope}, Now: q.Now, Limit: 10})
			lat = append(lat, time.Since(start))
			if err != nil {
				t.Fatalf("%s: %v", q.ID, err)
			}
			got := make([]string, len(res.Hits))
			for i, h := range res.Hits {
				got[i] = h.Memory.ID
			}
			want := make([]string, len(q.Evidence))
			for i, e := range q.Evidence {
				want[i] = ids[e]
			}
			all.add(got, want)
			if q.Category == "temporal" {
				k := "none"
				if res.Window != nil {
					k = res.Window.Kind + "/" + res.Window.Applied
				}
				half := "held"
				if slices.Contains(devScopes, q.Scope) {
					half = "dev"
				}
				if winTally[half+" "+k] == nil {
					winTally[half+" "+k] = newTally([]int{5, 10})
				}
				winTally[half+" "+k].add(got, want)
			}
			switch {
			case slices.Contains(devScopes, q.Scope):
				dev.add(got, want)
				devCat[q.Category].add(got, want)
				if dump != nil {
					dumpMiss(dump, q, res, got, want, text)
				}
			case slices.Contains(heldScopes, q.Scope):
				held.add(got, want)
				heldCat[q.Category].add(got, want)
			}
		}
		st.Close()
		if dump != nil {
			dump.Close()
		}
		d, h, a := dev.metrics(), held.metrics(), all.metrics()
		cats := func(m map[string]*tally) string {
			var s []string
			for _, k := range tuneCategories {
				r := m[k].metrics().Recall
				s = append(s, fmt.Sprintf("%s %.3f/%.3f", k[:4], r[5], r[10]))
			}
			return strings.Join(s, " ")
		}
		t.Logf("%-32s R@5 dev %.3f held %.3f all %.3f | R@10 dev %.3f held %.3f all %.3f | R@1 all %.3f | p50 %.2fms\n"+
			"%32s dev  %s\n%32s held %s",
			c.name, d.Recall[5], h.Recall[5], a.Recall[5], d.Recall[10], h.Recall[10], a.Recall[10], a.Recall[1], percentileMs(lat, 0.5),
			"", cats(devCat), "", cats(heldCat))
		for _, k := range slices.Sorted(maps.Keys(winTally)) {
			t.Logf("  temporal %-30s n=%3d R@5 %.3f", k, winTally[k].n, winTally[k].metrics().Recall[5])
		}
	}
}

// dumpMiss writes a dev question whose evidence is not all in the top 5:
// the question, the window applied, each evidence memory (with its rank in
// the top 10, or "-") and the top 5.
func dumpMiss(f *os.File, q Query, res memory.Result, got, want []string, text map[string]string) {
	found := 0
	for _, w := range want {
		if slices.Contains(got[:min(5, len(got))], w) {
			found++
		}
	}
	if found == len(want) {
		return
	}
	win := ""
	if res.Window != nil {
		win = fmt.Sprintf(" [window %s %q %s..%s %s]", res.Window.Kind, res.Window.Expr,
			res.Window.From.Format("2006-01-02"), res.Window.To.Format("2006-01-02"), res.Window.Applied)
	}
	fmt.Fprintf(f, "### %s (%s) now %s: %s%s\n", q.ID, q.Category, q.Now.Format("2006-01-02"), q.Query, win)
	for _, w := range want {
		rank := "-"
		if i := slices.Index(got, w); i >= 0 {
			rank = strconv.Itoa(i + 1)
		}
		fmt.Fprintf(f, "  want %-2s %s\n", rank, text[w])
	}
	for i, h := range res.Hits[:min(5, len(res.Hits))] {
		fmt.Fprintf(f, "  top%d r %.3f lex %.3f %s %s\n", i+1, h.Score.Relevance, h.Score.Lexical, h.Memory.Time.Format("2006-01-02"), text[h.Memory.ID])
	}
}

type tuneConfig struct {
	name string
	rk   memory.Ranking
	x    string
}

// tuneConfigs parses MNEME_TUNE: "1" = the built-in list, otherwise
// ";"-separated configs of "key=value,..." applied to DefaultRanking
// (keys k1, b, w, unit (days), prev, next, dates, prf, cand).
func tuneConfigs(spec string) []tuneConfig {
	if spec == "1" {
		spec = "unit=30;unit=1;unit=7;unit=365;unit=36500"
	}
	var out []tuneConfig
	for _, c := range strings.Split(spec, ";") {
		rk := memory.DefaultRanking()
		var x []string
		for _, kv := range strings.Split(c, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
			f, _ := strconv.ParseFloat(v, 64)
			switch k {
			case "k1":
				rk.K1 = f
			case "b":
				rk.B = f
			case "w":
				rk.VectorWeight = f
			case "unit":
				rk.DecayUnit = time.Duration(f * float64(24*time.Hour))
			case "prev":
				rk.PrevWeight = f
			case "next":
				rk.NextWeight = f
			case "dates":
				rk.DateWords = f != 0
			case "prf":
				rk.PRFTerms = int(f)
			case "cand":
				rk.Candidates = int(f)
			default:
				x = append(x, strings.TrimSpace(kv))
			}
		}
		out = append(out, tuneConfig{name: c, rk: rk, x: strings.Join(x, ",")})
	}
	return out
}
