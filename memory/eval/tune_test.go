package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// TestTune compares rankings on LoCoMo's dev and held-out halves. It only
// runs with MNEME_TUNE set (it is a measuring tool, not a check):
//
//	MNEME_TUNE=1 go test -run TestTune -v ./memory/eval/
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
	configs := tuneConfigs(spec)
	for _, c := range configs {
		st := openStore(t, path, c.rk)
		dev, err := ask(ctx, st, ds, ids, Options{Scopes: devScopes})
		if err != nil {
			t.Fatal(err)
		}
		held, err := ask(ctx, st, ds, ids, Options{Scopes: heldScopes})
		if err != nil {
			t.Fatal(err)
		}
		all, err := ask(ctx, st, ds, ids, Options{})
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		cats := []string{}
		for _, k := range []string{"single-hop", "multi-hop", "temporal", "open-domain", "adversarial"} {
			cats = append(cats, fmt.Sprintf("%s %.3f", k, all.ByCategory[k].Recall[5]))
		}
		t.Logf("%-40s R@5 dev %.3f held %.3f all %.3f (R@1 %.3f R@10 %.3f) | %s | p50 %.2fms",
			c.name, dev.All.Recall[5], held.All.Recall[5], all.All.Recall[5], all.All.Recall[1], all.All.Recall[10], strings.Join(cats, ", "), all.RecallMsP50)
	}
}

type tuneConfig struct {
	name string
	rk   memory.Ranking
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
			}
		}
		out = append(out, tuneConfig{name: c, rk: rk})
	}
	return out
}
