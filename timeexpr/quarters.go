package timeexpr

import "time"

// quarterNames are the ways to name a calendar quarter by number.
var quarterNames = map[string]int{"q1": 1, "q2": 2, "q3": 3, "q4": 4}

// quarter reads a calendar quarter (January-March, April-June, July-September,
// October-December):
//   - "Q1", "Q3 2023", "Q4 of last year": a token q1 to q4 standing alone ("q1x", "Q10",
//     "x.q1" and "q1.txt" are identifiers);
//   - "the first|second|third|fourth quarter" (also "1st" to "4th"), "the last|final quarter of
//     2022", "the first quarter of the year" (this one).
//
// Without a year it is the most recent one that has started (in a clause about plans the one
// that has not ended), as a month is. "last|this|next quarter" are calendarUnit's; "the first
// quarter of the game" is none.
func (p *parser) quarter(i int) (result, bool) {
	q, j := 0, -1
	if n, ok := quarterNames[p.tok(i)]; ok {
		if p.glued(i) && !p.is(i-1, "(", "\"", "'", "“", "‘") {
			return result{}, false // "x.q1", "_q1"
		}
		if p.glued(i+1) && !p.endOfClause(i+1) && !p.is(i+1, "'", "’", "\"", "”") {
			return result{}, false // "q1-2", "q1/x"
		}
		if p.is(i+1, ".") && p.glued(i+1) && p.glued(i+2) && i+2 < len(p.toks) && p.toks[i+2].word {
			return result{}, false // "q1.txt"
		}
		q, j = n, i+1
	} else {
		k := p.opt(i, "the")
		n, ok := weekOrdinals[p.tok(k)]
		if !ok || k == i || !p.is(k+1, "quarter") {
			return result{}, false
		}
		q, j = n, k+2
		if !p.is(j, "of") && q < 0 {
			return result{}, false // "the last quarter" is last quarter, relUnit's
		}
	}
	y, end, hasYear := p.yearSuffix(j)
	if !hasYear && p.seq(j, "of", "the", "year") >= 0 {
		y, end, hasYear = p.now.Year(), j+3, true
	}
	if !hasYear && p.is(j, "of") {
		return result{}, false // "the first quarter of the game"
	}
	if q < 0 {
		q = 4
	}
	if !hasYear {
		end = j
		y = p.now.Year()
		if p.upcoming(i) {
			if !p.date(y, time.Month(3*q+1), 1).After(p.now) {
				y++ // ended: the coming one
			}
		} else if p.date(y, time.Month(3*q-2), 1).After(p.now) {
			y-- // not begun: the most recent one
		}
	}
	r := p.window(p.date(y, time.Month(3*q-2), 1), p.date(y, time.Month(3*q+1), 1), end)
	r.named, r.yearless = true, !hasYear
	return r, true
}
