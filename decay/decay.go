// Package decay is the pure math of the human-like memory model of Hou et al.
// (2024), "My agent understands me better": Integrating Dynamic Human-like
// Memory Recall and Consolidation in LLM-Based Agents (equations 4-9).
//
// # The model
//
// A memory is recalled with probability
//
//	p_n(t) = (1 − exp(−r·e^(−t/g_n))) / (1 − e^(−1))
//
// where
//
//   - r in [0,1] is the relevance of the memory to the current cue (the paper
//     uses cosine similarity; mneme fuses lexical and vector scores);
//   - t >= 0 is the time elapsed since the memory was last recalled (or since
//     it was formed, when never recalled), measured in a caller-chosen unit
//     (see [Elapsed]);
//   - g_n > 0 is the consolidation strength after n recalls; 1/g_n is the
//     decay rate, so a larger g_n forgets more slowly.
//
// The denominator normalises p so that p = 1 exactly for a perfectly relevant
// memory (r = 1) at t = 0. The probability falls with t, rises with r and g,
// and is never zero for r > 0: there is no complete forgetting, an old memory
// only becomes ever less likely.
//
// Each recall consolidates the memory:
//
//	g_n = g_(n−1) + (1 − e^(−t)) / (1 + e^(−t)) = g_(n−1) + tanh(t/2),  g_0 = 1
//
// where t is the time since the previous recall, in the same unit. The gain
// is in [0,1): recalls spaced far apart consolidate more than recalls in quick
// succession (spacing effect), and strength never decreases.
//
// # Ranking with log p
//
// For old memories p underflows to 0 in float64 long before the memories stop
// being distinguishable, so rankers should sort by [LogProbability], which stays
// finite and strictly ordered for any r > 0 and finite t.
//
// Every function here is pure (no I/O, no clock, no shared state) and safe to
// call concurrently.
package decay

import (
	"math"
	"time"
)

// InitialStrength is g_0, the consolidation strength of a memory that has
// never been recalled.
const InitialStrength = 1.0

// minStrength replaces a non-positive strength g so that t/g stays defined;
// being the smallest positive float64, it keeps p monotone in g.
const minStrength = math.SmallestNonzeroFloat64

// smallLogX is the log of x = r·e^(−t/g) below which log(1 − e^(−x)) is
// computed from its series log x − x/2 (error below x²/24, far under one ulp)
// instead of from x itself, which would lose precision and then underflow.
const smallLogX = -30

// Probability returns the recall probability p_n(t) in [0,1] of a memory with
// relevance r, elapsed time t (in the decay unit) and consolidation strength g.
//
// r is clamped to [0,1], a negative t counts as 0 and a g <= 0 is replaced by
// a tiny positive strength. p is exactly 1 at r = 1, t = 0 and exactly 0 only
// for r = 0 (or when it underflows float64; rank by [LogProbability] instead).
// NaN in any argument gives NaN.
func Probability(r, t, g float64) float64 {
	p := math.Exp(LogProbability(r, t, g))
	switch {
	case p > 1:
		return 1
	case p < 0:
		return 0
	}
	return p
}

// LogProbability returns log p_n(t), the natural log of [Probability], computed
// so that it never underflows: for r > 0 and finite t it is finite and strictly
// decreasing in t even when t/g is huge (old memories keep their order rather
// than all tying at −Inf). r == 0 gives −Inf. Arguments are clamped as in
// [Probability]; NaN in any argument gives NaN.
func LogProbability(r, t, g float64) float64 {
	r, t, g = clampArgs(r, t, g)
	if r == 0 {
		return math.Inf(-1)
	}
	return logOneMinusExpNeg(math.Log(r)-ratio(t, g)) - logOneMinusExpNeg(0)
}

// clampArgs applies the documented clamps, letting NaN through.
func clampArgs(r, t, g float64) (float64, float64, float64) {
	if r < 0 {
		r = 0
	} else if r > 1 {
		r = 1
	}
	if t < 0 {
		t = 0
	}
	if g <= 0 {
		g = minStrength
	}
	return r, t, g
}

// ratio returns t/g, kept finite for finite t so that log p stays finite.
func ratio(t, g float64) float64 {
	q := t / g
	if math.IsInf(q, 1) && !math.IsInf(t, 1) {
		return math.MaxFloat64
	}
	return q
}

// logOneMinusExpNeg returns log(1 − e^(−x)) for x = e^lx given log x, stably:
// log(−expm1(−x)) while x is representable with full precision, and the
// series log x − x/2 below that.
func logOneMinusExpNeg(lx float64) float64 {
	x := math.Exp(lx)
	if lx < smallLogX {
		return lx - x/2
	}
	return math.Log(-math.Expm1(-x))
}

// Consolidate returns the strength after one more recall: g + (1−e^(−t))/(1+e^(−t)),
// which equals g + tanh(t/2), where t is the time since the previous recall in
// the decay unit. The gain is in [0,1), larger for recalls spaced further
// apart, so Consolidate never lowers g. A negative or NaN t counts as 0 (no gain).
func Consolidate(g, t float64) float64 {
	if !(t > 0) {
		return g
	}
	return g + math.Tanh(t/2)
}

// Elapsed returns the time from from to to in units of unit, as used for t by
// [Probability] and [Consolidate]. It is never negative: an event in the
// future of to counts as 0. A unit <= 0 is treated as one nanosecond. Spans
// too long for a time.Duration (about 292 years) are measured without
// saturating.
func Elapsed(from, to time.Time, unit time.Duration) float64 {
	if unit <= 0 {
		unit = time.Nanosecond
	}
	if !to.After(from) {
		return 0
	}
	d := to.Sub(from)
	if d < math.MaxInt64 {
		return float64(d) / float64(unit)
	}
	// Sub saturated: measure in seconds instead.
	secs := float64(to.Unix()-from.Unix()) + float64(to.Nanosecond()-from.Nanosecond())/1e9
	return secs / unit.Seconds()
}
