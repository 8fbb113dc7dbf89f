package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-mcp/mneme/embed"
)

// The recall benchmarks run Store.Recall end to end (validation, the sync
// check against SQLite, time-expression search, query embedding, ranking,
// paging) over an index filled directly with generated memories, so that
// setting up 100,000 memories does not take 100,000 SQLite transactions.
//
//	go test -run '^$' -bench 'BenchmarkRecall|BenchmarkIndexLoad' -benchtime 200x ./memory/

// benchGen generates realistic short memories from a seeded source: a
// vocabulary of a few thousand made-up words drawn with a Zipf law, 8 to 25
// words per memory, times spread over a year, 1 to 3 tags.
type benchGen struct {
	r     *rand.Rand
	zipf  *rand.Zipf
	words []string
	tags  []string
}

func newBenchGen(seed uint64) *benchGen {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	syl := []string{"ka", "lo", "mi", "ne", "ru", "ta", "po", "shi", "ve", "den", "mar", "tel", "or", "an", "qui", "bra", "sol", "fen", "gri", "hu"}
	g := &benchGen{r: r, zipf: rand.NewZipf(r, 1.1, 2, 3999)}
	seen := map[string]bool{}
	for len(g.words) < 4000 {
		n := 1 + r.IntN(3)
		var b strings.Builder
		for range n {
			b.WriteString(syl[r.IntN(len(syl))])
		}
		if w := b.String(); !seen[w] && !embed.IsStopword(w) && len(embed.Terms(w)) == 1 {
			seen[w] = true
			g.words = append(g.words, w)
		}
	}
	for i := range 30 {
		g.tags = append(g.tags, fmt.Sprintf("topic%d", i))
	}
	return g
}

func (g *benchGen) text(minWords, maxWords int) string {
	n := minWords + g.r.IntN(maxWords-minWords+1)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.words[g.zipf.Uint64()]
	}
	return strings.Join(ws, " ")
}

var benchStart = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func (g *benchGen) memory(i int) Memory {
	tags := make([]string, 1+g.r.IntN(3))
	for j := range tags {
		tags[j] = g.tags[g.r.IntN(len(g.tags))]
	}
	t := benchStart.Add(time.Duration(g.r.Int64N(int64(365 * 24 * time.Hour))))
	return Memory{ID: fmt.Sprintf("m%07d", i), Scope: DefaultScope, Kind: KindThought, Content: g.text(8, 25),
		Tags: tags, Time: t, Created: t, Updated: t, Strength: 1, Source: "bench"}
}

// benchMemories returns n generated memories with their built-in embeddings.
func benchMemories(b *testing.B, n int) ([]Memory, [][]float32) {
	b.Helper()
	g := newBenchGen(42)
	e := embed.Builtin(0)
	ms := make([]Memory, n)
	vs := make([][]float32, n)
	for i := range ms {
		ms[i] = g.memory(i)
		v, err := e.Func(context.Background(), ms[i].Content)
		if err != nil {
			b.Fatal(err)
		}
		vs[i] = v
	}
	return ms, vs
}

// benchQueries are the shapes of query BenchmarkRecall runs: words alone,
// words with an exact time expression (a filter), and a pure time question.
var benchQueries = []struct {
	name   string
	suffix string
	words  bool
}{
	{"text", "", true},
	{"text+window", " in March", true},
	{"time-only", "what happened in March?", false},
	{"text+unseen", " qwertyuiopx", true}, // a word no memory holds: the typo scan of the vocabulary
}

func BenchmarkRecall(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchRecall(b, n, benchQueries[0].suffix, true)
		})
	}
}

// BenchmarkRecallTime runs the queries with a time window, and one with a
// word no memory holds, at 100,000 memories.
func BenchmarkRecallTime(b *testing.B) {
	for _, q := range benchQueries[1:] {
		b.Run(fmt.Sprintf("%s/n=100000", q.name), func(b *testing.B) {
			benchRecall(b, 100000, q.suffix, q.words)
		})
	}
}

func benchRecall(b *testing.B, n int, suffix string, words bool) {
	ms, vs := benchMemories(b, n)
	e := embed.Builtin(0)
	st, err := Open(context.Background(), Options{
		Path:     filepath.Join(b.TempDir(), "bench.db"),
		ModelID:  e.ModelID,
		Embed:    e.Func,
		Location: time.UTC,
		Now:      func() time.Time { return benchStart.AddDate(1, 0, 0) },
	})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if err := st.sync(context.Background()); err != nil { // wait for the (empty) load
		b.Fatal(err)
	}
	for i := range ms {
		st.idx.put(ms[i], vs[i])
	}
	g := newBenchGen(7)
	queries := make([]string, 256)
	for i := range queries {
		if words {
			queries[i] = g.text(3, 6) + suffix
		} else {
			queries[i] = suffix
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		res, err := st.Recall(ctx, Query{Text: queries[i%len(queries)], Limit: 10})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Hits) == 0 {
			b.Fatal("no hits")
		}
	}
}

// BenchmarkIndexLoad measures filling an index with n memories and their
// vectors: the in-memory part of loading a store at Open (reading the rows
// from SQLite is the store's part; BenchmarkOpenAndLoad measures both).
func BenchmarkIndexLoad(b *testing.B) {
	for _, n := range []int{10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ms, vs := benchMemories(b, n)
			b.ResetTimer()
			for b.Loop() {
				ix := newIndex(indexOptions{Ranking: DefaultRanking(), Embed: embed.Builtin(0).Func, Location: time.UTC})
				for i := range ms {
					ix.put(ms[i], vs[i])
				}
			}
		})
	}
}
