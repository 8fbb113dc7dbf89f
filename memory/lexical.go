package memory

import (
	"container/heap"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mneme-mcp/mneme/embed"
)

// The lexical side of the index is our own in-memory BM25 rather than
// SQLite FTS5's bm25(): FTS5 fixes k1 = 1.2 and b = 0.75, which measure worse
// on LoCoMo than a lower saturation and almost no length normalisation
// (k1 about 0.8-1.0, b about 0.1-0.2; see DefaultRanking), and it cannot add
// the neighbouring turns of a thread or expand the query with feedback terms.
// FTS5 stays in SQLite for the store's own exact look-ups.

// termFreq is one distinct term of a document with its (weighted) frequency.
type termFreq struct {
	term string
	tf   float32
}

// posting is one document holding a term.
type posting struct {
	slot int32
	tf   float32
}

// weightedTerm is a query term with its weight (1 for the user's words,
// less for pseudo-relevance feedback terms).
type weightedTerm struct {
	term   string
	weight float64
}

// speakerWeight is how many times the speaker of a transcript line
// ("Caroline: ...") counts: the name is what most questions about a person
// share with the lines that answer them. Measured on LoCoMo (recall@5 dev /
// held-out, default ranking otherwise): ×2 0.617 / 0.594, ×1 0.614 / 0.596,
// within noise; kept at the dev choice.
const speakerWeight = 2

// maxSpeakerPrefix bounds the length of a "Name:" prefix taken as a speaker.
const maxSpeakerPrefix = 40

// analyze returns the distinct lexical terms of a memory with their
// frequencies and the document length: its content, the structured fields
// not already in the content, its tags (as terms), the terms of its speaker
// (speakerTerms of its content) counted speakerWeight times and, when
// dateWords is set, its event date as words ("8 May 2023" in loc).
func analyze(m Memory, speaker []string, dateWords bool, loc *time.Location) ([]termFreq, float32) {
	var terms []string
	terms = append(terms, embed.LexicalTerms(m.Content)...)
	for _, f := range []string{m.Subject, m.Predicate, m.Object, m.Context, m.Observation, m.Thoughts, m.Action, m.Result} {
		if f != "" && !strings.Contains(m.Content, f) {
			terms = append(terms, embed.LexicalTerms(f)...)
		}
	}
	for _, t := range m.Tags {
		terms = append(terms, embed.LexicalTerms(t)...)
	}
	for range speakerWeight - 1 {
		terms = append(terms, speaker...)
	}
	var dates []string
	if dateWords && !m.Time.IsZero() {
		if loc == nil {
			loc = time.Local
		}
		dates = embed.Terms(m.Time.In(loc).Format("2 January 2006"))
	}
	n := len(terms) + len(dates)
	if n == 0 {
		return nil, 0
	}
	slices.Sort(terms)
	out := make([]termFreq, 0, n)
	for _, t := range terms {
		if k := len(out); k > 0 && out[k-1].term == t {
			out[k-1].tf++
			continue
		}
		out = append(out, termFreq{term: strings.Clone(t), tf: 1})
	}
	for _, t := range dates {
		i, found := slices.BinarySearchFunc(out, t, func(tf termFreq, t string) int { return strings.Compare(tf.term, t) })
		if !found {
			out = slices.Insert(out, i, termFreq{term: t})
		}
		out[i].tf++
	}
	return out, float32(n)
}

// speaker returns the "Name" of a transcript line "Name: text", or "".
// A name is one to three words starting with a capital letter.
func speaker(content string) string {
	i := strings.IndexByte(content, ':')
	if i <= 0 || i > maxSpeakerPrefix || i+1 >= len(content) || content[i+1] != ' ' {
		return ""
	}
	name := content[:i]
	if c := name[0]; c < 'A' || c > 'Z' {
		return ""
	}
	if strings.Count(name, " ") > 2 || strings.ContainsAny(name, ".,;!?\"()[]") {
		return ""
	}
	return name
}

// speakerTerms returns the lexical terms of content's speaker (see
// speaker), as queries are read, or nil (also for a name of stopwords
// only, "The: ...", which no query can name).
func speakerTerms(content string) []string {
	if ts := embed.LexicalTerms(speaker(content)); len(ts) > 0 {
		return ts
	}
	return nil
}

// bm25 holds the parameters of one BM25 evaluation over a scope.
type bm25 struct {
	k1, b float64
}

// idf is the non-negative BM25 inverse document frequency.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// score accumulates the BM25 score of every document holding one of the
// terms into acc (indexed by slot, len(sc.docs)) and returns the slots it
// touched. Archived documents are skipped unless archived is set.
func (p bm25) score(sc *scopeIndex, terms []weightedTerm, archived bool, acc []float64, touched []int32) []int32 {
	if sc.live == 0 {
		return touched
	}
	avgdl := sc.totalLen / float64(sc.live)
	if avgdl <= 0 {
		avgdl = 1
	}
	for _, qt := range terms {
		ps := sc.post[qt.term]
		if len(ps) == 0 {
			continue
		}
		w := qt.weight * idf(sc.live, len(ps))
		for _, ps := range ps {
			if !archived && sc.gone[ps.slot] {
				continue
			}
			tf := float64(ps.tf)
			s := w * tf * (p.k1 + 1) / (tf + p.k1*(1-p.b+p.b*float64(sc.length[ps.slot])/avgdl))
			if acc[ps.slot] == 0 {
				touched = append(touched, ps.slot)
			}
			acc[ps.slot] += s
		}
	}
	return touched
}

// farNeighbour is the weight of the turns two places away in a thread,
// relative to the adjacent ones (so with PrevWeight 0.4 the turn two before
// counts 0.16). A question and its answer are often a turn or two apart
// ("How was it?" between them). Measured on LoCoMo (recall@5 dev /
// held-out, with the defaults otherwise as in DefaultRanking before the
// neighbour weights were raised): off 0.671 / 0.637, 0.25 0.676 / 0.648,
// 0.4 0.679 / 0.652, 0.5 0.678 / 0.662; 0.4 was dev's best.
const farNeighbour = 0.4

// answerWeight is the weight of the previous turn when that turn ends with
// a question ("What got you into running?"): its words are the question's
// words, and the turn after it is the answer. Measured on LoCoMo (recall@5
// dev / held-out, recall@10 in brackets, with question turns penalised
// 0.2, or 0.4 when bare): prevW (0.4) everywhere 0.686 / 0.661 (0.784 /
// 0.760); 0.7 0.706 / 0.679; 0.8 0.707 / 0.682 (0.793 / 0.766); 0.9 0.709 /
// 0.676; 1.0 (bare questions penalised 0.3) 0.700 / 0.665. 0.8 is the
// middle of dev's plateau.
const answerWeight = 0.8

// addNeighbours returns the scores with each document's thread neighbours
// mixed in: out[d] = base[d] + pw·base[prev(d)] + nextW·base[next(d)]
// + farNeighbour·(prevW·base[prev(prev(d))] + nextW·base[next(next(d))]),
// pw = max(prevW, answerWeight) when prev(d) ends with a question, else
// prevW, so a turn that answers a question inherits the question's words.
// The returned touched list covers every slot with a score.
func addNeighbours(sc *scopeIndex, base []float64, touched []int32, prevW, nextW float64, archived bool) ([]float64, []int32) {
	if prevW == 0 && nextW == 0 {
		return base, touched
	}
	out := make([]float64, len(base))
	var all []int32
	add := func(slot int32, v float64) {
		if slot < 0 || v == 0 {
			return
		}
		if !archived && sc.gone[slot] {
			return
		}
		if out[slot] == 0 {
			all = append(all, slot)
		}
		out[slot] += v
	}
	for _, s := range touched {
		v := base[s]
		add(s, v)
		if n := sc.next[s]; n >= 0 { // s is the previous turn of n
			w := prevW
			if sc.asks[s] && prevW > 0 {
				w = max(prevW, answerWeight)
			}
			add(n, w*v)
			add(sc.next[n], farNeighbour*prevW*v)
		}
		if p := sc.prev[s]; p >= 0 { // s is the next turn of p
			add(p, nextW*v)
			add(sc.prev[p], farNeighbour*nextW*v)
		}
	}
	return out, all
}

// prfDocs is how many top documents feed pseudo-relevance feedback, and
// prfWeight the weight of the strongest expansion term relative to a query
// word. Measured on LoCoMo (recall@5 dev / held-out, recall@1 over all, with
// 5 feedback terms): 5 documents 0.631 / 0.607, 0.306; 2 0.634 / 0.611; 3
// 0.634 / 0.614; 4 0.630 / 0.608; 10 0.605 / 0.589. With 3 documents, weight
// 0.2 0.628 / 0.606, 0.3 0.634 / 0.614, 0.4 0.640 / 0.619, 0.5 (10 terms)
// 0.650 / 0.630 but recall@1 falling to 0.279: heavier feedback trades the
// first hit for the fifth, so the weight stays at 0.3. Re-measured with
// the defaults of DefaultRanking's last paragraph (recall@5 dev / held-out,
// recall@10, recall@1 over all): weight 0.3 0.707 / 0.681, 0.793 / 0.766,
// 0.400; 0.2 0.711 / 0.680, 0.790 / 0.754, 0.416; 0.15 0.713 / 0.675, 0.792
// / 0.755, 0.417; no feedback 0.706 / 0.674, 0.782 / 0.748, 0.430. The dev
// gain of lighter feedback is within noise and did not hold on held-out,
// so 0.3 stays; feedback now mostly buys recall@10 at the price of recall@1.
const (
	prfDocs   = 3
	prfWeight = 0.3
)

// feedbackTerms returns up to n expansion terms drawn from the top documents
// (by tf/len·idf summed over them), excluding the query's own terms and terms
// found in a single document, weighted relative to the strongest.
//
// With date words on, the top documents' dates are terms like any other, so
// feedback also pulls in memories of the same days: on LoCoMo that locality
// is worth about a point of recall@5 on the dev conversations (0.617 with,
// 0.606 with date words kept out of feedback), so it stays.
func feedbackTerms(sc *scopeIndex, top []int32, query []weightedTerm, n int) []weightedTerm {
	if n <= 0 || len(top) == 0 {
		return nil
	}
	in := make(map[string]bool, len(query))
	for _, q := range query {
		in[q.term] = true
	}
	w := map[string]float64{}
	for _, s := range top {
		d, length := sc.docs[s], sc.length[s]
		if length == 0 {
			continue
		}
		for _, tf := range d.terms {
			df := len(sc.post[tf.term])
			if in[tf.term] || df < 2 {
				continue
			}
			w[tf.term] += float64(tf.tf) / float64(length) * idf(sc.live, df)
		}
	}
	out := make([]weightedTerm, 0, len(w))
	for t, v := range w {
		out = append(out, weightedTerm{t, v})
	}
	slices.SortFunc(out, func(a, b weightedTerm) int {
		if a.weight != b.weight {
			if a.weight > b.weight {
				return -1
			}
			return 1
		}
		return strings.Compare(a.term, b.term)
	})
	if len(out) > n {
		out = out[:n]
	}
	if len(out) > 0 {
		max := out[0].weight
		for i := range out {
			out[i].weight = prfWeight * out[i].weight / max
		}
	}
	return out
}

// scored is a slot with a score, for top-n selection.
type scored struct {
	slot  int32
	score float64
}

// minHeap keeps the n best scored slots with the worst on top.
type minHeap []scored

func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].slot > h[j].slot
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// topN returns the n touched slots with the highest score that keep passes
// (nil keep = all), best first.
func topN(scores []float64, touched []int32, n int, keep func(int32) bool) []int32 {
	if n <= 0 {
		return nil
	}
	h := make(minHeap, 0, min(n, len(touched)))
	for _, s := range touched {
		v := scores[s]
		if v <= 0 || (keep != nil && !keep(s)) {
			continue
		}
		if len(h) < n {
			heap.Push(&h, scored{s, v})
			continue
		}
		if top := h[0]; v > top.score || (v == top.score && s < top.slot) {
			h[0] = scored{s, v}
			heap.Fix(&h, 0)
		}
	}
	out := make([]int32, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&h).(scored).slot
	}
	return out
}

// lexicalSearch runs BM25 over a scope for the query terms, with the thread
// neighbours mixed in and, when prfTerms > 0, one round of pseudo-relevance
// feedback. It returns the score of every slot (indexed by slot) and the
// top n slots that keep passes.
func lexicalSearch(sc *scopeIndex, rk Ranking, terms []weightedTerm, n int, archived bool, keep func(int32) bool) ([]float64, []int32) {
	p := bm25{k1: rk.K1, b: rk.B}
	terms = expandUnseen(sc, terms)
	run := func(terms []weightedTerm) ([]float64, []int32) {
		acc := make([]float64, len(sc.docs))
		touched := p.score(sc, terms, archived, acc, nil)
		return addNeighbours(sc, acc, touched, rk.PrevWeight, rk.NextWeight, archived)
	}
	scores, touched := run(terms)
	if rk.PRFTerms > 0 {
		top := topN(scores, touched, prfDocs, keep)
		if fb := feedbackTerms(sc, top, terms, rk.PRFTerms); len(fb) > 0 {
			scores, touched = run(append(slices.Clone(terms), fb...))
		}
	}
	return scores, topN(scores, touched, n, keep)
}

// queryTerms turns text into weighted query terms, one per distinct term.
func queryTerms(text string) []weightedTerm {
	ts := embed.LexicalTerms(text)
	out := make([]weightedTerm, 0, len(ts))
	seen := make(map[string]bool, len(ts))
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, weightedTerm{t, 1})
		}
	}
	return out
}

// sharesSuffix is how the LoCoMo transcripts append a shared photo to a
// turn ("... [shares a photo of a dog]"); it is not part of what was said.
const sharesSuffix = " [shares"

// asksQuestion reports whether a memory's text ends with a question, after
// any shared-photo caption: such a turn asks rather than tells, and its
// answer is the next turn.
func asksQuestion(content string) bool {
	s := content
	if i := strings.LastIndex(s, sharesSuffix); i > 0 {
		s = s[:i]
	}
	return strings.HasSuffix(strings.TrimSpace(s), "?")
}
