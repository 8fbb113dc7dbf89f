package memory

// fuzzyWeight is the weight of a vocabulary term standing in for a query
// term the scope has never seen (a typo, a compound written apart).
const fuzzyWeight = 0.8

// expandUnseen returns terms with every query term the scope has never
// seen replaced by what the scope does hold: a term one or two edits
// away (a typo: "fesetival"), or its two halves when it is a compound
// written together ("roadtrip" -> "road", "trip"); and, for two
// neighbouring query terms, their compound when the scope holds it
// ("road trip" -> "roadtrip").
func expandUnseen(sc *scopeIndex, terms []weightedTerm) []weightedTerm {
	var out []weightedTerm
	for i, t := range terms {
		out = append(out, t)
		if i+1 < len(terms) {
			if j := t.term + terms[i+1].term; len(sc.post[j]) > 0 {
				// It stands for both words.
				out = append(out, weightedTerm{j, fuzzyWeight * (t.weight + terms[i+1].weight)})
			}
		}
		if len(sc.post[t.term]) > 0 || len(t.term) < 5 {
			continue
		}
		if a, b, ok := splitCompound(sc, t.term); ok {
			out = append(out, weightedTerm{a, fuzzyWeight * t.weight}, weightedTerm{b, fuzzyWeight * t.weight})
			continue
		}
		maxEd := 1
		if len(t.term) >= 8 {
			maxEd = 2
		}
		best, bestEd := "", maxEd+1
		for v := range sc.post {
			if d := len(v) - len(t.term); d > maxEd || -d > maxEd || v[0] != t.term[0] && maxEd == 1 {
				continue
			}
			// The limit is bestEd itself, not bestEd-1: editDistance answers
			// limit+1 for anything farther, which must not tie with bestEd.
			ed := editDistance(t.term, v, min(bestEd, maxEd))
			if ed <= maxEd && (ed < bestEd || ed == bestEd && v < best) {
				best, bestEd = v, ed
			}
		}
		if best != "" {
			out = append(out, weightedTerm{best, fuzzyWeight * t.weight})
		}
	}
	return out
}

// splitCompound splits term into two terms of at least three letters the
// scope holds, the most frequent pair first.
func splitCompound(sc *scopeIndex, term string) (string, string, bool) {
	best, bestN := 0, 0
	for k := 3; k <= len(term)-3; k++ {
		a, b := sc.post[term[:k]], sc.post[term[k:]]
		if len(a) > 0 && len(b) > 0 && min(len(a), len(b)) > bestN {
			best, bestN = k, min(len(a), len(b))
		}
	}
	if best == 0 {
		return "", "", false
	}
	return term[:best], term[best:], true
}

// editDistance returns the optimal-string-alignment distance between a and
// b (insertions, deletions, substitutions, transpositions of bytes), or
// limit+1 when it is larger than limit.
func editDistance(a, b string, limit int) int {
	if limit < 0 {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if prev[len(b)] > limit {
		return limit + 1
	}
	return prev[len(b)]
}
