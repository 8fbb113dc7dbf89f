package timeexpr

import "time"

// tier orders the matches Find chooses between: an expression read from the day it was said on
// (compose.go), exact windows fixed by a named date and conversational anchors, then exact windows
// counted from now, then vague expressions fixed by a named date, then the rest.
func tier(r result) int {
	switch {
	case r.composed:
		return 4
	case r.kind == Vague && r.named:
		return 1
	case r.kind == Vague:
		return 0
	case r.kind == Exact && !r.named:
		return 2
	}
	return 3
}

// find scans left to right, takes the longest match at each position and keeps the first match of
// the best tier.
func (p *parser) find() (Match, bool) {
	var best Match
	bestTier := -1
	p.scan(func(m Match, r result) {
		if t := tier(r); t > bestTier {
			best, bestTier = m, t
		}
	})
	return best, bestTier >= 0
}

// scan calls f with every match left to right, the longest at each position, never overlapping,
// and the result it was built from. No match starts after the last trigger token (see
// precheck.go).
func (p *parser) scan(f func(Match, result)) {
	n := len(p.toks)
	if !p.noPrecheck {
		n = p.lastTrigger() + 1
	}
	p.lastTrig = n - 1
	for i := 0; i < n; {
		if !p.toks[i].word {
			i++
			continue
		}
		r, ok := p.match(i)
		if !ok || r.end <= i || !sane(r) {
			i++
			continue
		}
		if c, ok := p.compose(i, r); ok {
			r = c
		} else if (p.tok(r.end) == "'" || p.tok(r.end) == "’") && p.glued(r.end) && p.tok(r.end+1) == "s" && p.glued(r.end+1) {
			r.end += 2
		}
		start, end := p.toks[i].start, p.toks[r.end-1].end
		m := Match{Kind: r.kind, Expr: p.src[start:end], Start: start, End: end}
		switch r.kind {
		case Exact:
			m.From, m.To = r.from, r.to
		case Vague:
			m.From, m.To, m.Anchor, m.Spread = r.from, r.to, r.anchor, r.spread
		}
		f(m, r)
		i = r.end
	}
}

// sane rejects windows that end before they start.
func sane(r result) bool {
	if r.kind != Exact && r.kind != Vague {
		return true
	}
	return r.from.IsZero() || r.to.IsZero() || !r.to.Before(r.from)
}

// match tries every rule at token i: anchors, operators (between, from..to, since, after, before,
// until, around), a preposition followed by an expression, or a bare expression.
func (p *parser) match(i int) (result, bool) {
	if r, ok := p.anchor(i); ok {
		return r, true
	}
	switch p.tok(i) {
	case "between":
		if x, ok := p.expr(i+1, true); ok && p.is(x.end, "and") {
			if r, ok := p.rangeTo(x, x.end+1); ok {
				return r, true
			}
		}
		return p.dayRange(i+1, "and")
	case "from":
		if x, ok := p.expr(i+1, true); ok {
			if p.is(x.end, "to", "until", "till", "til", "through", "thru", "-", "–", "—") {
				if r, ok := p.rangeTo(x, x.end+1); ok {
					return r, true
				}
			}
			return x, true
		}
		return p.dayRange(i+1, "to", "until", "till", "til", "through", "thru", "-", "–", "—")
	case "since":
		if x, ok := p.expr(i+1, true); ok {
			from, _ := bounds(x)
			r := result{kind: Exact, from: from, end: x.end, named: x.named}
			if p.now.After(from) {
				r.to = p.now
			}
			return r, true
		}
	case "after":
		if x, ok := p.expr(i+1, true); ok {
			_, to := bounds(x)
			return result{kind: Exact, from: to, end: x.end, named: x.named}, true
		}
	case "before":
		if x, ok := p.expr(i+1, true); ok {
			from, _ := bounds(x)
			return result{kind: Exact, to: from, end: x.end, named: x.named}, true
		}
	case "prior":
		if p.is(i+1, "to") {
			if x, ok := p.expr(i+2, true); ok {
				from, _ := bounds(x)
				return result{kind: Exact, to: from, end: x.end, named: x.named}, true
			}
		}
	case "until", "till", "til":
		if x, ok := p.expr(i+1, true); ok {
			_, to := bounds(x)
			return result{kind: Exact, to: to, end: x.end, named: x.named}, true
		}
	case "by", "as", "up":
		if x, ok := p.deadline(i); ok {
			_, to := bounds(x)
			return result{kind: Exact, to: to, end: x.end, named: x.named}, true
		}
	case "around", "circa", "approximately", "roughly":
		if r, ok := p.turnOfYear(i); ok {
			return r, true // "around New Year" is the turn of the year, not January 1
		}
		if x, ok := p.expr(i+1, true); ok && x.kind == Exact {
			mid := x.from.Add(x.to.Sub(x.from) / 2)
			spread := max(x.to.Sub(x.from)/2, 2*day)
			if x.to.Sub(x.from) <= time.Hour {
				mid, spread = x.from, time.Hour // "around 3pm yesterday": within hours of 3pm
			}
			r := p.vague(mid, spread, x.end)
			r.named = x.named
			return r, true
		}
	case "on":
		if r, ok := p.expr(i+1, true); ok {
			return p.bareRange(r)
		}
		if r, ok := p.theNth(i + 1); ok {
			return r, true
		}
		return result{}, false
	case "back":
		if p.is(i+1, "in", "on", "during", "around") {
			if r, ok := p.match(i + 1); ok {
				return r, true
			}
		}
	case "in", "during", "at", "over", "within", "throughout", "for":
		if p.tok(i) == "over" {
			if r, ok := p.turnOfYear(i); ok {
				return r, true // "over the new year" is the turn of the year, not a long weekend
			}
			if r, ok := p.holidayOver(i + 1); ok {
				if x, ok := p.expr(i+1, true); !ok || x.end <= r.end {
					return r, true
				}
			}
		}
		if r, ok := p.expr(i+1, true); ok {
			return p.bareRange(r)
		}
		if p.tok(i) == "at" {
			if r, ok := p.clockAlone(i); ok {
				return r, true
			}
		}
	}
	if r, ok := p.expr(i, p.whole); ok {
		return p.bareRange(r)
	}
	return result{}, false
}

// bounds returns the window of x, or its anchor on both sides when x is vague.
func bounds(x result) (time.Time, time.Time) {
	if x.kind == Vague {
		return x.anchor, x.anchor
	}
	return x.from, x.to
}

// bareRange extends an explicit date by "- Y" / "to Y" ("April 1-10", "May 4 to May 6").
func (p *parser) bareRange(x result) (result, bool) {
	if x.date && p.is(x.end, "to", "until", "till", "through", "thru", "-", "–", "—") {
		if r, ok := p.rangeTo(x, x.end+1); ok {
			return r, true
		}
	}
	return x, true
}

// rangeTo reads the end Y of a range starting with x at token j and returns [start of x, end of y).
func (p *parser) rangeTo(x result, j int) (result, bool) {
	if x.kind == Vague {
		return result{}, false
	}
	p.rangeEnd = true
	y, ok := p.expr(j, true)
	p.rangeEnd = false
	if x.date && x.oneDay {
		// "April 1 to 10", "October 1st through the 10th": a bare day in the month of x.
		k := p.opt(j, "the")
		if d, next, ordinal, ok2 := p.dayNum(k); ok2 && (k == j || ordinal && p.dayEnds(next)) && (!ok || y.end <= next) {
			yy, mm, _ := x.from.Date()
			t, valid := p.validDate(yy, mm, d)
			if !valid {
				return result{}, false
			}
			y, ok = p.dayOf(t, next), true
			y.date = true
		}
	}
	if !ok || y.kind == Vague {
		return result{}, false
	}
	if y.weekly && y.from.Before(x.from) {
		// "from Monday to Wednesday" on a Tuesday: this Wednesday, not the one before Monday.
		y.from, y.to = p.addDays(y.from, 7), p.addDays(y.to, 7)
	}
	if y.yearless {
		for k := 0; k < 2 && y.from.Before(x.from); k++ {
			y.from, y.to = y.from.AddDate(1, 0, 0), y.to.AddDate(1, 0, 0)
		}
	}
	if x.yearless && !y.yearless && x.from.After(y.from) {
		x.from, x.to = x.from.AddDate(-1, 0, 0), x.to.AddDate(-1, 0, 0)
	}
	from, to := x.from, y.to
	if y.from.Before(from) {
		from = y.from
	}
	if x.to.After(to) {
		to = x.to
	}
	return result{kind: Exact, from: from, to: to, end: y.end, named: x.named || y.named}, true
}

// theNth reads "the 4th" after "on": the most recent 4th of a month not after today.
func (p *parser) theNth(i int) (result, bool) {
	if !p.is(i, "the") {
		return result{}, false
	}
	return p.bareNth(i)
}

// bareNth reads a day of the month alone, "the 4th", "4th" or "the fourth" (an ordinal that
// stands as a date, see dayEnds: "the 4th floor" is none), as theNth; "4th" without "the" only
// where a day is expected ("the weekend of 7th").
func (p *parser) bareNth(i int) (result, bool) {
	d, next, ordinal, ok := p.dayNum(p.opt(i, "the"))
	if !ok || !ordinal || !p.dayEnds(next) {
		return result{}, false
	}
	return p.nthDay(i, d, next)
}

// dayEnds reports whether a bare ordinal day ("the 4th") followed by token next stands as a date:
// "on the 4th floor", "on the second try" are not dates.
func (p *parser) dayEnds(next int) bool {
	return p.endOfClause(next) || p.is(next, "i", "we", "you", "he", "she", "they", "my", "our", "at", "when", "about", "did", "was", "in")
}

// nthDay returns day d of the most recent month that has it, not after today (in a clause about
// plans, see upcoming, the first not before today); i is where the expression starts and end
// the token after it.
func (p *parser) nthDay(i, d, end int) (result, bool) {
	y, m, _ := p.now.Date()
	today := p.today(0)
	step := -1
	if p.upcoming(i) {
		step = 1 // the first one not before today
	}
	for k := 0; k < 12; k++ {
		mm, yy := m+time.Month(step*k), y
		if mm < 1 {
			mm += 12
			yy--
		} else if mm > 12 {
			mm -= 12
			yy++
		}
		if t, valid := p.validDate(yy, mm, d); valid && (step < 0 && !t.After(today) || step > 0 && !t.Before(today)) {
			r := p.dayOf(t, end)
			r.date, r.named = true, true
			return r, true
		}
	}
	return result{}, false
}

// dayRange reads a range after "from" or "between" whose first end is a bare day at token i,
// joined by one of seps: "the 1st to the 10th of October", "the 3rd and the 5th", "1 and 5 May".
// The day takes the month of the other end when that is a date (the month before when the day is
// later: "from the 28th to the 3rd of March" starts on February 28); between two bare days, both
// ordinals, the first is the most recent such day, as "on the 4th", and the second in its month
// (or the next, when smaller). A cardinal first day ("between 1 and 5 May") needs a date after it.
func (p *parser) dayRange(i int, seps ...string) (result, bool) {
	s, ok := p.rangeStartDay(i, seps...)
	if !ok {
		return result{}, false
	}
	j, d := s.sep+1, s.d
	p.rangeEnd = true
	y, ok := p.expr(j, true)
	p.rangeEnd = false
	if ok && y.kind == Exact && y.date && y.oneDay {
		return p.dayToDate(d, y)
	}
	k2 := p.opt(j, "the")
	d2, end, ordinal2, ok := p.dayNum(k2)
	if !ok || !s.ordinal || !ordinal2 || !p.dayEnds(end) {
		return result{}, false
	}
	x, ok := p.nthDay(s.day, d, s.sep)
	if !ok {
		return result{}, false
	}
	yy, mm, _ := x.from.Date()
	if d2 < d {
		mm++
	}
	t, valid := p.dayIn(yy, mm, d2)
	if !valid {
		return result{}, false
	}
	return result{kind: Exact, from: x.from, to: p.addDays(t, 1), end: end, named: true}, true
}
