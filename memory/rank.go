package memory

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mneme-mcp/mneme/decay"
	"github.com/mneme-mcp/mneme/embed"
)

// Ranking, step by step (see index.rank):
//
//  1. Candidates per scope: the Ranking.Candidates best by BM25 (with the
//     thread neighbours and feedback terms when configured), the
//     Ranking.Candidates nearest by cosine (in scopes up to vectorScanMax
//     memories, or when the words matched nothing), and every memory
//     carrying one of the query tags. A query without content words (a
//     pure time question such as "what did we do yesterday?") takes every
//     memory of its window instead, or every memory when it has no window.
//  2. Relevance r in [0,1]: (1−w)·bm25/max bm25 among the candidates +
//     w·max(cosine, 0), w = Ranking.VectorWeight (w = 0 when the query has no
//     vector). Query tags mix in the share of them a memory carries:
//     r = (1−tagWeight)·r + tagWeight·share, or r = share without text.
//     Without content words r = 1, so the window ranks by time and strength.
//  3. Time: an exact window filters. A memory is in it when it was said in
//     it or its text tells of a time in it ("last Friday" said on the 16th
//     is in the week of the 10th, see readTimes; at least toldShare of that
//     time must lie in the window). When the window holds nothing, the
//     filter becomes a strong boost by closeness to the window
//     ("boost-fallback"). When the window's memories match none of the
//     words, the question is answered as a pure time question over the
//     window, unless the words that say what it is about (contentTerms)
//     match memories outside it: then those rank by closeness as in
//     "boost-fallback", among the window's memories at r = windowFloor.
//     Measured on LoCoMo (recall@5 dev / held-out, temporal questions in
//     brackets): boosting a window read from the text instead (r × 0.2..1
//     by closeness) 0.711 / 0.688 (0.809 / 0.620), filtering 0.702 / 0.688
//     (0.827 / 0.636). LoCoMo's questions say "yesterday" of the
//     conversation's day and ask about events told weeks later, which a
//     boost forgives; a person asking what was said yesterday means
//     yesterday, and the told times cover events told later, so the
//     window filters.
//     With words in the query, a memory in the window that tells of no
//     time in it (it was only said there) is scaled by 1−toldWeight.
//     A question naming a speaker of the candidates' transcript lines
//     ("when did Joanna ...?") scales r of lines spoken by someone else by
//     1−speakerPrior.
//     A question asking for a time ("when did ...") scales r of memories
//     that state no time by 1−whenWeight, and a memory that itself ends
//     with a question is scaled by 1−questionPenalty (its answer, the next
//     turn, inherits its words through answerWeight).
//     A vague expression boosts by closeness to its anchor over its spread,
//     multiplying r by 0.5..1, so closeness reorders memories of similar
//     relevance but never lifts one less than half as relevant over another.
//     Measured on LoCoMo (recall@5 dev / held-out; its "recently" and "years
//     ago" questions are asked weeks after the conversations): the additive
//     r = 0.5·r + 0.5·closeness gave 0.617 / 0.594, this 0.631 / 0.607, no
//     vague handling at all 0.623 over all questions against this 0.619.
//  4. The rank key is log p_n(t) of decay (Hou et al.) with that r, t = time
//     since last recall (or since the event) in Ranking.DecayUnit and g the
//     memory's strength. Ties go to the more recent memory, then the smaller id.

// Weights of the boosts mixed into r.
const (
	tagWeight      = 0.3 // share of r given to the query tags a memory carries
	vagueWeight    = 0.5 // r is scaled by 1−vagueWeight+vagueWeight·closeness to a vague anchor
	fallbackWeight = 0.7 // share of r given to closeness to an exact window that held nothing

	// windowFloor is r of the window's memories when the words match none of
	// them but match memories outside it (rank). A match outside ranks
	// above them while its closeness exceeds about 0.3: within a day and a
	// quarter of a one-day window, nine days of a week, five weeks of a
	// month ("which book did Ana recommend last week?" asked of a lunch
	// this Tuesday finds the lunch first, then last week's memories).
	windowFloor = 0.5

	// whenWeight: a question asking for a time ("When did ...", "what year",
	// "how long") scales r of memories whose text states no time (no
	// "yesterday", "last May", "in 2019") by 1−whenWeight. Most answers to
	// such questions say when (four in five on LoCoMo, against one memory in
	// eight overall). Measured (recall@5 dev / held-out, recall@1 all): off
	// 0.671 / 0.637, 0.323; 0.2 0.670 / 0.638, 0.337; 0.4 0.669 / 0.640, 0.348;
	// 0.6 0.669 / 0.637, 0.347: it mostly lifts the answer to the top.
	// Counting stated durations ("for 3 years", see statesDuration) as
	// times, with the later defaults: 0.707 / 0.681 (R@10 0.793 / 0.766)
	// without, 0.707 / 0.683 (0.795 / 0.771) with; whenWeight 0.25 and 0.6
	// then measure within 0.001 of 0.4 on dev. Counting "which week", "what
	// time" and "how many weeks" as asking for a time too: recall@5 0.702 /
	// 0.688 -> 0.704 / 0.688, temporal 0.827 / 0.636 -> 0.831 / 0.642.
	whenWeight = 0.4

	// questionPenalty: r of a memory that ends with a question ("What got
	// you into running?") is scaled by 1−questionPenalty when the query has
	// words: it shares the question's words but holds no answer (that is
	// the next turn, see answerWeight). Measured on LoCoMo (recall@5 dev /
	// held-out, with answerWeight 0.8): 0 0.701 / 0.674, 0.2 0.707 / 0.681,
	// 0.2 for turns with a statement before the question and 0.4 for bare
	// questions 0.707 / 0.682, 0.1 / 0.3 0.705 / 0.679, 0.3 / 0.5 0.706 /
	// 0.683: one penalty for both.
	questionPenalty = 0.2

	// toldWeight: within an exact window, a memory matching the query's
	// words that tells of no time in the window (it was only said in it)
	// has r scaled by 1−toldWeight. Asked "what did Joanna achieve in
	// January?", a person thinks of what happened in January ("I finished
	// my screenplay last Friday"), before the small talk of that month's
	// chats. Pure time questions ("what did we talk about yesterday?") ask
	// for what was said and are left alone. Measured on LoCoMo with
	// toldShare 0.25 (recall@5 dev; dev's 16 temporal questions with an
	// exact window in brackets): off 0.711 (0.698), 0.3 0.713 (0.729), 0.5
	// 0.713 (0.771), 0.7 0.711 (0.771). With any overlap counting as
	// telling, 0.5 was also dev's best; counting any stated time or duration
	// (not only one in the window) was within noise, and a memory of "last
	// year" said in June says little of June.
	toldWeight = 0.5

	// speakerPrior: when the query names the speaker of some candidate
	// transcript lines ("Joanna: ..."; see speaker), r of the lines spoken
	// by anyone the query does not name is scaled by 1−speakerPrior. Asked
	// "which outdoor spot did Joanna visit in May?", a person looks at what
	// Joanna said, not at Nate's "glad you found a spot that calms you".
	// The speaker field of the lexical index (speakerWeight) cannot do
	// this: in a chat of two, a speaker's name is on half the lines, so its
	// IDF is small beside a rare word such as "spot". Lines without a
	// speaker and questions naming none (or every speaker) are left alone.
	// Measured on LoCoMo (recall@5 dev / held-out; temporal, adversarial and
	// recall@1 of all questions in brackets): off 0.728 / 0.713 (temporal
	// 0.865 / 0.674, adversarial 0.848 / 0.835, recall@1 0.422); 0.1 0.731
	// / 0.721; 0.2 0.731 / 0.720; 0.25 0.731 / 0.722; 0.3 0.732 / 0.723
	// (0.890 / 0.703, 0.793 / 0.785, 0.413); 0.4 0.731 / 0.722; 0.5 0.724 /
	// 0.711. 0.3 is dev's best. The price is LoCoMo's adversarial
	// questions, which name the wrong person on purpose ("what did Melanie
	// realise after the race?" of Caroline's race): their answer is now
	// the other speaker's line, scaled down, but still found (recall@10
	// 0.920 -> 0.899 on dev). Applied to "when" questions only it gave
	// 0.730 / 0.719: less on both halves.
	speakerPrior = 0.3
)

// vectorScanMax is the largest scope whose every vector is compared with
// the query (chromem-go's exhaustive search costs about 1 ms per 1,000
// 512-dimensional vectors here, far over the recall budget at 10,000). In a
// larger scope the nearest neighbours join the candidates only when the
// words found nothing; otherwise the cosine is computed for the lexical
// candidates alone, which keeps recall at 10,000 memories under 5 ms.
const vectorScanMax = 2000

// window is a resolved time window for ranking.
type window struct {
	from, to time.Time     // exact: filter [from, to); zero = open
	vague    bool          // boost by closeness to anchor instead of filtering
	anchor   time.Time     // vague: centre
	spread   time.Duration // vague: scale
}

// closeness returns how close t is to the window in (0,1]: a Gaussian of the
// distance to the anchor over the spread for a vague window; for an exact
// one, exp of minus the distance to [from, to) over the window's length (at
// least a day).
func (w *window) closeness(t time.Time) float64 {
	if w.vague {
		s := max(w.spread, time.Hour).Hours()
		d := math.Abs(t.Sub(w.anchor).Hours()) / s
		return math.Exp(-d * d / 2)
	}
	var d time.Duration
	switch {
	case !w.from.IsZero() && t.Before(w.from):
		d = w.from.Sub(t)
	case !w.to.IsZero() && !t.Before(w.to):
		d = t.Sub(w.to)
	}
	scale := 24 * time.Hour
	if !w.from.IsZero() && !w.to.IsZero() {
		scale = max(scale, w.to.Sub(w.from))
	}
	return math.Exp(-d.Hours() / scale.Hours())
}

// closenessOf returns how close the memory is to the window: the closeness
// of when it was said or, when nearer, of a time its text tells of
// (doc.refs), measured from the nearest point of that span.
func (w *window) closenessOf(d *doc) float64 {
	c := w.closeness(d.m.Time)
	for _, r := range d.refs {
		if c == 1 {
			break
		}
		c = max(c, w.spanCloseness(r))
	}
	return c
}

// spanCloseness is closeness for the point of [r.from, r.to) nearest to the
// window (its anchor when vague).
func (w *window) spanCloseness(r span) float64 {
	last := r.to.Add(-time.Nanosecond)
	if w.vague {
		switch {
		case w.anchor.Before(r.from):
			return w.closeness(r.from)
		case w.anchor.After(last):
			return w.closeness(last)
		}
		return 1
	}
	switch {
	case !w.to.IsZero() && !r.from.Before(w.to):
		return w.closeness(r.from)
	case !w.from.IsZero() && last.Before(w.from):
		return w.closeness(last)
	}
	return 1
}

// search is one resolved ranking request against the index.
type search struct {
	terms    []weightedTerm // lexical query terms; none = a pure time question
	qvec     []float32      // unit query vector; nil = none
	tags     []string
	scopes   []string
	now      time.Time
	win      *window // nil = none
	archived bool    // include archived memories
	minP     float64
	when     bool // the question asks for a time ("when did ...")
}

// lexicalRanking is rk as the lexical search of s uses it: without
// pseudo-relevance feedback when s asks for a time or names an exact window.
// Such a question looks for one event; the top three memories it would feed
// back (within a window, lines of the same day) bring in their topic and
// date words and lift more of the same talk over the event asked about. On
// LoCoMo (recall@5 dev / held-out, recall@1 over all): 0.732 / 0.723, 0.413
// with feedback everywhere; 0.735 / 0.723 without it for "when" questions;
// 0.735 / 0.724 without it in exact windows; 0.737 / 0.724, 0.423 with
// both, temporal 0.890 / 0.703 -> 0.892 / 0.746.
func (s search) lexicalRanking(rk Ranking) Ranking {
	if s.when || (s.win != nil && !s.win.vague) {
		rk.PRFTerms = 0
	}
	return rk
}

// candidate is one memory being ranked.
type candidate struct {
	d        *doc
	lex      float64 // raw BM25 (with neighbours and feedback)
	tagShare float64
	inWindow bool // boost-fallback: a memory of the window matching no words (windowFloor)
}

// filter decides which slots of a scope may be candidates: active ones
// (or archived too) and, with a window, those whose event time is in it.
// It reads the scope's flat slices only.
type filter struct {
	archived bool
	window   bool
	from, to int64 // [from, to) in Unix microseconds
}

func (f filter) pass(sc *scopeIndex, slot int32) bool {
	if sc.docs[slot] == nil || (!f.archived && sc.gone[slot]) {
		return false
	}
	if f.window {
		if t := sc.when[slot]; t >= f.from && t < f.to {
			return true
		}
		if sc.toldHi[slot] <= f.from || sc.toldLo[slot] >= f.to {
			return false // no told time near the window (or none at all)
		}
		return f.tells(sc.docs[slot])
	}
	return true
}

// toldShare: a memory tells of a time in a window when at least this share
// of the time it tells of lies in the window. "I'm hosting a competition
// next month" said in April tells of May, but of May 23 hardly: it neither
// enters the window of "on May 23" nor counts as telling of it (toldWeight).
// "camping last week" tells of June when that week is in June, and "this
// summer" of June (a third of it). Measured on LoCoMo (recall@5 dev /
// held-out; dev's 16 temporal questions with an exact window in brackets):
// any overlap 0.707 / 0.690 (0.771), a tenth 0.705, a quarter 0.713 / 0.694
// (0.771), 0.35 0.713 (0.708), a half 0.712 (0.646).
const toldShare = 0.25

// tells reports whether d's text tells of a time in f's window (see
// toldShare).
func (f filter) tells(d *doc) bool {
	for _, r := range d.refs {
		from, to := r.from.UnixMicro(), r.to.UnixMicro()
		lo, hi := max(from, f.from), min(to, f.to)
		if hi > lo && float64(hi-lo) >= toldShare*float64(to-from) {
			return true
		}
	}
	return false
}

// newFilter returns the filter of the search, with its exact window when
// window is set.
func newFilter(s search, window bool) filter {
	f := filter{archived: s.archived}
	if window && s.win != nil && !s.win.vague {
		f.window, f.from, f.to = true, math.MinInt64, math.MaxInt64
		if !s.win.from.IsZero() {
			f.from = s.win.from.UnixMicro()
		}
		if !s.win.to.IsZero() {
			f.to = s.win.to.UnixMicro()
		}
	}
	return f
}

// rank returns the page [offset, offset+limit) of the ranked hits of the
// search, best first, the number of hits in all, and how the window was
// applied ("filter", "boost" for a vague window, "boost-fallback" or "" for none).
func (ix *index) rank(ctx context.Context, s search, offset, limit int) ([]Hit, int, string, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	applied := ""
	if s.win != nil {
		applied = "boost"
		if !s.win.vague {
			applied = "filter"
		}
	}
	f := newFilter(s, true)
	cands, err := ix.candidates(ctx, s, f)
	if err != nil {
		return nil, 0, "", err
	}
	if applied == "filter" && len(s.terms) > 0 && !anyLexical(cands) {
		// The words match nothing in the window. When the words that say
		// what the question is about match memories elsewhere ("which book
		// did Ana recommend last week?" of a lunch this Tuesday), the date
		// may be off: those rank by closeness to the window as when it holds
		// nothing, among the window's own memories (see windowFloor).
		if about := contentTerms(s.terms); len(about) > 0 {
			as := s
			as.terms, as.qvec = about, nil
			outside, err := ix.candidates(ctx, as, newFilter(s, false))
			if err != nil {
				return nil, 0, "", err
			}
			if anyLexical(outside) {
				all, err := ix.candidates(ctx, s, newFilter(s, false))
				if err != nil {
					return nil, 0, "", err
				}
				pure := s
				pure.terms, pure.qvec = nil, nil
				inside, err := ix.candidates(ctx, pure, f)
				if err != nil {
					return nil, 0, "", err
				}
				seen := make(map[*doc]bool, len(all))
				for i := range all {
					seen[all[i].d] = true
					all[i].inWindow = all[i].lex == 0 && f.pass(all[i].d.scope, all[i].d.slot)
				}
				for _, c := range inside {
					if !seen[c.d] {
						c.inWindow = true
						all = append(all, c)
					}
				}
				hits, total := ix.score(s, all, "boost-fallback", offset, limit)
				return hits, total, "boost-fallback", nil
			}
		}
		// Otherwise ("what did we talk about last time?") answer it as the
		// pure time question it is.
		pure := s
		pure.terms, pure.qvec = nil, nil
		if pc, err := ix.candidates(ctx, pure, f); err != nil {
			return nil, 0, "", err
		} else if len(pc) > 0 {
			hits, total := ix.score(pure, pc, applied, offset, limit)
			return hits, total, applied, nil
		}
	}
	if len(cands) == 0 && applied == "filter" {
		applied = "boost-fallback"
		if cands, err = ix.candidates(ctx, s, newFilter(s, false)); err != nil {
			return nil, 0, "", err
		}
	}
	hits, total := ix.score(s, cands, applied, offset, limit)
	return hits, total, applied, nil
}

// candidates gathers the candidates of every scope that f passes.
func (ix *index) candidates(ctx context.Context, s search, f filter) ([]candidate, error) {
	rk := ix.opts.Ranking
	n := max(rk.Candidates, 1)
	var out []candidate
	for _, name := range s.scopes {
		sc := ix.scopes[name]
		if sc == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(s.terms) == 0 {
			// A pure time question (or a tag-only one): the window, or everything.
			for slot, d := range sc.docs {
				if !f.pass(sc, int32(slot)) {
					continue
				}
				share := tagShare(d.m.Tags, s.tags)
				if len(s.tags) == 0 || share > 0 {
					out = append(out, candidate{d: d, tagShare: share})
				}
			}
			continue
		}
		seen := map[int32]int{} // slot -> index in out
		add := func(d *doc, lex float64) {
			if i, dup := seen[d.slot]; dup {
				out[i].lex = max(out[i].lex, lex)
				return
			}
			seen[d.slot] = len(out)
			out = append(out, candidate{d: d, lex: lex, tagShare: tagShare(d.m.Tags, s.tags)})
		}
		scores, top := lexicalSearch(sc, s.lexicalRanking(rk), s.terms, n, s.archived, func(slot int32) bool { return f.pass(sc, slot) })
		for _, slot := range top {
			add(sc.docs[slot], scores[slot])
		}
		// Within a window, words that match nothing make a pure time
		// question (see rank), so the vectors are not searched then.
		if s.qvec != nil && rk.VectorWeight > 0 && !(f.window && len(top) == 0) {
			docs, err := ix.vectorCandidates(ctx, sc, s.qvec, n, len(top) == 0, f)
			if err != nil {
				return nil, err
			}
			for _, d := range docs {
				add(d, scores[d.slot])
			}
		}
		if len(s.tags) > 0 {
			for slot, d := range sc.docs {
				if f.pass(sc, int32(slot)) && tagShare(d.m.Tags, s.tags) > 0 {
					add(d, scores[slot])
				}
			}
		}
	}
	return out, nil
}

// anyLexical reports whether a candidate matched words of the query.
func anyLexical(cands []candidate) bool {
	for _, c := range cands {
		if c.lex > 0 {
			return true
		}
	}
	return false
}

// vectorCandidates returns up to n memories of the scope nearest to qvec
// that f passes: those of f's window compared one by one, or chromem-go's
// nearest neighbours of the whole scope. When there are more than
// vectorScanMax to compare, it only searches if force is set (the words
// found nothing). A vector search error (vectors of another dimension
// during a re-embed, say) leaves the lexical candidates alone.
func (ix *index) vectorCandidates(ctx context.Context, sc *scopeIndex, qvec []float32, n int, force bool, f filter) ([]*doc, error) {
	if f.window {
		var in []*doc
		for slot, d := range sc.docs {
			if f.pass(sc, int32(slot)) && d.vec != nil {
				in = append(in, d)
			}
		}
		if len(in) > vectorScanMax && !force {
			return nil, nil
		}
		return nearest(in, qvec, n), nil
	}
	if sc.coll.Count() > vectorScanMax && !force {
		return nil, nil
	}
	docs, _, err := ix.vectorTop(ctx, sc, qvec, n)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil
	}
	return slices.DeleteFunc(docs, func(d *doc) bool { return !f.pass(sc, d.slot) }), nil
}

// nearest returns the n docs nearest to qvec by cosine, best first.
func nearest(docs []*doc, qvec []float32, n int) []*doc {
	type sim struct {
		d   *doc
		cos float64
	}
	sims := make([]sim, 0, len(docs))
	for _, d := range docs {
		if c := cosine(qvec, d.vec); c > 0 {
			sims = append(sims, sim{d, c})
		}
	}
	slices.SortFunc(sims, func(a, b sim) int { return cmp.Compare(b.cos, a.cos) })
	out := make([]*doc, 0, min(n, len(sims)))
	for _, s := range sims[:min(n, len(sims))] {
		out = append(out, s.d)
	}
	return out
}

// tagShare returns the share of the query tags the memory carries. A query
// tag matches the same tag or one below it in the tag tree ("work" matches
// "work/meeting"), case-insensitively.
func tagShare(have, want []string) float64 {
	if len(want) == 0 {
		return 0
	}
	n := 0
	for _, w := range want {
		for _, h := range have {
			if strings.EqualFold(h, w) || (len(h) > len(w) && h[len(w)] == '/' && strings.EqualFold(h[:len(w)], w)) {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(want))
}

// score ranks the candidates and returns the page [offset, offset+limit)
// of hits and the number of hits in all. Candidates are sorted as small
// records; only the page's memories are copied into hits.
func (ix *index) score(s search, cands []candidate, applied string, offset, limit int) ([]Hit, int) {
	rk := ix.opts.Ranking
	maxLex := 0.0
	for _, c := range cands {
		maxLex = max(maxLex, c.lex)
	}
	w := rk.VectorWeight
	wf := newFilter(s, true) // the exact window, for toldWeight
	if s.qvec == nil {
		w = 0
	}
	type ranked struct {
		c  *candidate
		sc Score
	}
	rs := make([]ranked, 0, len(cands))
	named := namedSpeakers(s.terms, cands)
	for i := range cands {
		c := &cands[i]
		m := &c.d.m
		var sc Score
		var r float64
		if len(s.terms) > 0 {
			if maxLex > 0 {
				sc.Lexical = c.lex / maxLex
			}
			if s.qvec != nil {
				sc.Vector = cosine(s.qvec, c.d.vec)
			}
			r = (1-w)*sc.Lexical + w*max(sc.Vector, 0)
			if len(s.tags) > 0 {
				r = (1-tagWeight)*r + tagWeight*c.tagShare
			}
		} else {
			r = 1
			if len(s.tags) > 0 {
				r = c.tagShare
			}
		}
		sc.Tags = c.tagShare
		if len(s.terms) > 0 && c.d.scope.asks[c.d.slot] {
			r *= 1 - questionPenalty
		}
		if named != nil && c.d.speaker != nil && !slices.ContainsFunc(c.d.speaker, func(t string) bool { return named[t] }) {
			r *= 1 - speakerPrior
		}
		if s.when && len(s.terms) > 0 && !c.d.timed {
			r *= 1 - whenWeight
		}
		if applied == "filter" && len(s.terms) > 0 && !wf.tells(c.d) {
			r *= 1 - toldWeight
		}
		if s.win != nil {
			switch {
			case s.win.vague && len(s.terms) == 0:
				r *= s.win.closenessOf(c.d)
			case s.win.vague:
				r *= 1 - vagueWeight + vagueWeight*s.win.closenessOf(c.d)
			case applied == "boost-fallback" && len(s.terms) == 0:
				r *= s.win.closenessOf(c.d)
			case applied == "boost-fallback" && c.inWindow:
				r = windowFloor
			case applied == "boost-fallback":
				r = (1-fallbackWeight)*r + fallbackWeight*s.win.closenessOf(c.d)*boolf(r > 0)
			}
		}
		if r <= 0 {
			continue
		}
		sc.Relevance = min(r, 1)
		sc.LogP = logP(sc.Relevance, *m, s.now, rk.DecayUnit)

		sc.Probability = math.Exp(sc.LogP)
		if sc.Probability < s.minP {
			continue
		}
		rs = append(rs, ranked{c, sc})
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		if c := cmp.Compare(b.sc.LogP, a.sc.LogP); c != 0 {
			return c
		}
		if c := b.c.d.m.Time.Compare(a.c.d.m.Time); c != 0 {
			return c
		}
		return cmp.Compare(a.c.d.m.ID, b.c.d.m.ID)
	})
	end := min(offset+limit, len(rs))
	if offset >= end {
		return []Hit{}, len(rs)
	}
	hits := make([]Hit, 0, end-offset)
	for _, r := range rs[offset:end] {
		hits = append(hits, Hit{Memory: detach(r.c.d.m), Score: r.sc})
	}
	return hits, len(rs)
}

// namedSpeakers returns the query terms that name the speaker of one of
// the candidates (see speakerPrior), or nil when none does or when every
// speaker is named ("when did John and Maria meet?").
func namedSpeakers(terms []weightedTerm, cands []candidate) map[string]bool {
	if len(terms) == 0 {
		return nil
	}
	var named map[string]bool
	others := false
	for i := range cands {
		sp := cands[i].d.speaker
		hit := false
		for _, t := range sp {
			if slices.ContainsFunc(terms, func(q weightedTerm) bool { return q.term == t }) {
				if named == nil {
					named = map[string]bool{}
				}
				named[t], hit = true, true
			}
		}
		others = others || (sp != nil && !hit)
	}
	if !others {
		return nil
	}
	return named
}

// boolf is 1 for true, 0 for false.
func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// logP is the rank key: log p_n(t) for relevance r, t since the memory was
// last recalled (or happened) in unit, g its strength.
func logP(r float64, m Memory, now time.Time, unit time.Duration) float64 {
	from := m.Time
	if !m.LastRecalled.IsZero() {
		from = m.LastRecalled
	}
	g := m.Strength
	if g <= 0 {
		g = decay.InitialStrength
	}
	return decay.LogProbability(r, decay.Elapsed(from, now, unit), g)
}

// durationUnits are the units of a stated duration.
var durationUnits = map[string]bool{
	"day": true, "days": true, "week": true, "weeks": true, "month": true, "months": true,
	"year": true, "years": true, "decade": true, "decades": true,
}

// countWords are the number words that begin a duration ("a year", "three weeks").
var countWords = map[string]bool{
	"a": true, "an": true, "one": true, "two": true, "three": true, "four": true, "five": true, "six": true,
	"seven": true, "eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true, "few": true,
	"several": true, "couple": true, "many": true, "fifteen": true, "twenty": true,
}

// statesDuration reports whether text states a duration ("for 3 years",
// "seven years now", "a couple of months"): the answer to "how long" and
// often to "when" ("I've had them for 3 years").
func statesDuration(text string) bool {
	ws := embed.Words(text)
	for i := 1; i < len(ws); i++ {
		if !durationUnits[ws[i]] {
			continue
		}
		p := ws[i-1]
		if p == "of" && i >= 2 { // "a couple of months"
			p = ws[i-2]
		}
		if countWords[p] || p[0] >= '0' && p[0] <= '9' {
			return true
		}
	}
	return false
}

// asksWhen reports whether a question asks for a time.
func asksWhen(text string) bool {
	ws := embed.Words(text)
	if len(ws) == 0 {
		return false
	}
	if ws[0] == "when" {
		return true
	}
	for i := 0; i+1 < len(ws); i++ {
		switch ws[i] + " " + ws[i+1] {
		case "what year", "which year", "what month", "which month", "what date", "what day", "how long", "when did", "when was", "when is",
			"which week", "what week", "which day", "what time":
			return true
		}
		if ws[i] == "how" && ws[i+1] == "many" && i+2 < len(ws) && durationUnits[ws[i+2]] { // "how many weeks passed ..."
			return true
		}
	}
	return false
}

// conversationTerms are the query terms that ask about a conversation
// rather than name what it was about: "what did we talk about yesterday?",
// "what did I mention last week?", "what happened on Monday?". They are
// read with embed.LexicalTerms, as queries are, so "said", "told" and "went"
// are "say", "tell" and "go" here too.
var conversationTerms = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range embed.LexicalTerms("talk talked talking discuss discussed discussing say said saying " +
		"tell told telling mention mentioned speak spoke spoken chat chatted ask asked happen happened " +
		"happening go going went get got remember recall thing things stuff conversation conversations " +
		"topic topics anything everything up new lately recently") {
		m[t] = true
	}
	return m
}()

// contentTerms returns the terms that say what a question is about: all
// but conversationTerms.
func contentTerms(terms []weightedTerm) []weightedTerm {
	var out []weightedTerm
	for _, t := range terms {
		if !conversationTerms[t.term] {
			out = append(out, t)
		}
	}
	return out
}
