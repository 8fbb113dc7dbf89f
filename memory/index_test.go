package memory

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mneme-mcp/mneme/embed"
)

// rankEmbedder is the built-in embedder at a small dimension.
var rankEmbedder = embed.Builtin(64)

// rankVec embeds text with the test embedder (nil when it has no features).
func rankVec(t testing.TB, text string) []float32 {
	t.Helper()
	v, err := rankEmbedder.Func(context.Background(), text)
	if err != nil {
		return nil
	}
	return v
}

// rankDay0 is the reference time of the tests.
var rankDay0 = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// mem builds an active memory in scope "s" at rankDay0 + days.
func rmem(id, content string, days int, tags ...string) Memory {
	return Memory{ID: id, Scope: "s", Kind: KindThought, Content: content, Tags: tags,
		Time: rankDay0.AddDate(0, 0, days), Strength: 1}
}

// rturn is turn seq of thread "t", said at rankDay0.
func rturn(id, content string, seq int) Memory {
	m := rmem(id, content, 0)
	m.Thread, m.Seq = "t", seq
	return m
}

func newTestIndex(rk Ranking) *index {
	return newIndex(indexOptions{Ranking: rk, Embed: rankEmbedder.Func, Location: time.UTC})
}

func putAll(t testing.TB, ix *index, ms ...Memory) {
	t.Helper()
	for _, m := range ms {
		ix.put(m, rankVec(t, m.Content))
	}
}

func TestIndexPutGetDrop(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix, rmem("a", "the cat sat on the mat", 0), rmem("b", "dogs bark at night", 1))
	if n := ix.len(); n != 2 {
		t.Fatalf("len = %d, want 2", n)
	}
	m, ok := ix.get("a")
	if !ok || m.Content != "the cat sat on the mat" {
		t.Fatalf("get(a) = %+v, %v", m, ok)
	}
	sc := ix.scopes["s"]
	if got := sc.coll.Count(); got != 2 {
		t.Fatalf("collection holds %d, want 2", got)
	}

	// Replacing with new text re-indexes: the old words no longer match.
	putAll(t, ix, rmem("a", "parrots talk", 0))
	if _, ok := sc.post[embed.Stem("cat")]; ok {
		t.Error("old term still indexed after replace")
	}
	if ps := sc.post["parrot"]; len(ps) != 1 {
		t.Errorf("postings of parrot = %v, want one", ps)
	}
	if ix.len() != 2 || sc.live != 2 {
		t.Errorf("len %d live %d after replace, want 2 2", ix.len(), sc.live)
	}

	ix.drop("a")
	ix.drop("unknown")
	if _, ok := ix.get("a"); ok || ix.len() != 1 || sc.coll.Count() != 1 {
		t.Errorf("after drop: get ok=%v len=%d coll=%d", ok, ix.len(), sc.coll.Count())
	}
	if len(sc.post["parrot"]) != 0 {
		t.Error("dropped memory still in postings")
	}
	// The freed slot is reused.
	putAll(t, ix, rmem("c", "fish swim", 2))
	if len(sc.docs) != 2 {
		t.Errorf("slots = %d, want 2 (reused)", len(sc.docs))
	}
}

func TestIndexArchivedLeavesVectorsButStaysLexical(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	m := rmem("a", "the cat sat on the mat", 0)
	putAll(t, ix, m)
	m.Archived = rankDay0
	putAll(t, ix, m)
	sc := ix.scopes["s"]
	if sc.coll.Count() != 0 {
		t.Error("archived memory still in chromem")
	}
	if len(sc.post["cat"]) != 1 {
		t.Error("archived memory left the lexical index")
	}
	m.Archived = time.Time{}
	putAll(t, ix, m)
	if sc.coll.Count() != 1 {
		t.Error("unarchived memory not back in chromem")
	}
}

func TestIndexNilAndZeroVectors(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	ix.put(rmem("a", "no vector", 0), nil)
	ix.put(rmem("b", "zero vector", 0), make([]float32, 8))
	if c := ix.scopes["s"].coll.Count(); c != 0 {
		t.Errorf("collection holds %d, want 0", c)
	}
	if ix.len() != 2 {
		t.Errorf("len = %d, want 2", ix.len())
	}
}

func TestIndexThreadLinks(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	turn := func(id string, seq int) Memory {
		m := rmem(id, "turn "+id, 0)
		m.Thread, m.Seq = "t1", seq
		return m
	}
	// Out of order on purpose.
	putAll(t, ix, turn("c", 3), turn("a", 1), turn("b", 2), turn("d", 4))
	sc := ix.scopes["s"]
	order := func() string {
		var s string
		for _, slot := range sc.threads["t1"] {
			d := sc.docs[slot]
			prev, next := "-", "-"
			if p := sc.prev[slot]; p >= 0 {
				prev = sc.docs[p].m.ID
			}
			if n := sc.next[slot]; n >= 0 {
				next = sc.docs[n].m.ID
			}
			s += fmt.Sprintf("%s(%s,%s) ", prev, d.m.ID, next)
		}
		return s
	}
	if got, want := order(), "-(a,b) a(b,c) b(c,d) c(d,-) "; got != want {
		t.Fatalf("thread = %q, want %q", got, want)
	}
	ix.drop("b")
	if got, want := order(), "-(a,c) a(c,d) c(d,-) "; got != want {
		t.Fatalf("after drop thread = %q, want %q", got, want)
	}
	// Moving a turn re-links both places.
	putAll(t, ix, turn("a", 5))
	if got, want := order(), "-(c,d) c(d,a) d(a,-) "; got != want {
		t.Fatalf("after move thread = %q, want %q", got, want)
	}
}

func TestIndexFirstLastSpan(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	th := func(id, thread string, days int) Memory {
		m := rmem(id, "hello "+id, days)
		m.Thread = thread
		return m
	}
	putAll(t, ix, th("a", "t1", 0), th("b", "t1", 1), th("c", "t2", 10), th("d", "t3", 20))
	first, ok := ix.firstSpan([]string{"s"}, time.UTC)
	if !ok || !first.from.Equal(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)) || !first.to.Equal(time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("first = %v..%v %v", first.from, first.to, ok)
	}
	// Asked on day 20, the last conversation is t2 (t3 is today's).
	last, ok := ix.lastSpan([]string{"s"}, rankDay0.AddDate(0, 0, 20), time.UTC)
	if !ok || !last.from.Equal(time.Date(2024, 5, 11, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("last = %v..%v %v", last.from, last.to, ok)
	}
	if _, ok := ix.firstSpan([]string{"none"}, time.UTC); ok {
		t.Error("first span of an empty scope")
	}
}

func TestIndexConcurrent(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				m := rmem(fmt.Sprintf("%d-%d", w, i), fmt.Sprintf("note %d about topic %d", i, w), i)
				ix.put(m, rankVec(t, m.Content))
				_, _, _, _ = ix.rank(context.Background(), search{terms: queryTerms("topic note"), scopes: []string{"s"}, now: rankDay0}, 0, 10)
				if i%3 == 0 {
					ix.drop(m.ID)
				}
			}
		}()
	}
	wg.Wait()
	if got := ix.len(); got != 4*(50-17) {
		t.Errorf("len = %d, want %d", got, 4*(50-17))
	}
}
