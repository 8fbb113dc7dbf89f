package memory

import (
	"context"
	"fmt"
	"math"

	chromem "github.com/philippgille/chromem-go"
)

// The vector side of the index: one chromem-go collection per scope, in
// memory only (chromem's own file persistence is not used: SQLite holds the
// vectors). Documents are added with their stored embedding, so nothing is
// re-embedded at load; the collections' embedding function is only there
// because chromem-go must never get a nil one (nil means OpenAI). Archived
// memories are not in the collections. Each doc also keeps its unit vector,
// so cosines of lexical candidates are computed directly.

// unit returns v scaled to unit length, or nil when v is empty, zero or not
// finite (chromem-go would turn a zero vector into NaNs).
func unit(v []float32) []float32 {
	if len(v) == 0 {
		return nil
	}
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 || math.IsNaN(ss) || math.IsInf(ss, 0) {
		return nil
	}
	n := math.Sqrt(ss)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

// syncVector makes the scope's collection hold d's vector exactly when d is
// active and has one. The caller holds the write lock.
func (ix *index) syncVector(d *doc) {
	coll := d.scope.coll
	if d.m.IsArchived() || d.vec == nil {
		// Deleting an absent id is a no-op.
		_ = coll.Delete(context.Background(), nil, nil, d.m.ID)
		return
	}
	// The embedding is set and of unit length, so chromem neither embeds nor
	// renormalises; the only error is an empty id, which a stored memory never has.
	_ = coll.AddDocument(context.Background(), chromem.Document{ID: d.m.ID, Embedding: d.vec})
}

// cosine returns the cosine of two unit vectors, 0 when either is missing or
// their dimensions differ.
func cosine(a, b []float32) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

// vectorTop returns up to n active documents of the scope nearest to the
// unit query vector by cosine, best first, using chromem-go's exhaustive
// search. n is clamped to the collection size (chromem-go refuses more).
func (ix *index) vectorTop(ctx context.Context, sc *scopeIndex, qvec []float32, n int) ([]*doc, []float64, error) {
	n = min(n, sc.coll.Count())
	if n <= 0 || qvec == nil {
		return nil, nil, nil
	}
	res, err := sc.coll.QueryEmbedding(ctx, qvec, n, nil, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("vector search %s: %w", sc.name, err)
	}
	docs := make([]*doc, 0, len(res))
	sims := make([]float64, 0, len(res))
	for _, r := range res {
		// The caller holds the read lock, so the collection and the docs agree.
		if d, ok := ix.byID[r.ID]; ok && d.scope == sc {
			docs = append(docs, d)
			sims = append(sims, float64(r.Similarity))
		}
	}
	return docs, sims, nil
}
