package timeexpr

import "time"

// maxDepth bounds how deeply rules that read another expression ("the week before X", "the first
// week of X") nest, so that "the day before the day before ..." costs linear time.
const maxDepth = 4

// sub reads an expression at token j for a rule that wraps it; ctx as in expr.
func (p *parser) sub(j int) (result, bool) {
	if p.depth >= maxDepth {
		return result{}, false
	}
	p.depth++
	r, ok := p.expr(j, true)
	p.depth--
	return r, ok
}

// period reads a whole calendar month or year at token j: "May", "May 2023", "last month", "2023",
// "the month" and "the year" (the current ones). month says which.
func (p *parser) period(j int) (x result, month, ok bool) {
	y, m, _ := p.now.Date()
	switch {
	case p.seq(j, "the", "month") >= 0:
		return p.monthWindow(y, m, j+2), true, true
	case p.seq(j, "the", "year") >= 0:
		return p.yearWindow(y, j+2), false, true
	}
	x, ok = p.sub(j)
	if !ok || x.kind != Exact || x.from.IsZero() || x.to.IsZero() || !midnight(x.from) || x.from.Day() != 1 {
		return result{}, false, false
	}
	y, m, _ = x.from.Date()
	switch {
	case x.to.Equal(p.date(y, m+1, 1)):
		return x, true, true
	case m == 1 && x.to.Equal(p.date(y+1, 1, 1)):
		return x, false, true
	}
	return result{}, false, false
}

var weekOrdinals = map[string]int{
	"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
	"last": -1, "final": -1,
}

// partOf reads parts of a month or year that count days from its start or end:
//   - "the first|second|third|fourth|last week of X": days 1-7, 8-14, 15-21, 22-28, the final 7;
//   - "the first|second half of X": a month's days 1-15 and 16-end, a year's January-June and
//     July-December;
//   - "the first|last few days of X": the first or the final 5 days.
func (p *parser) partOf(i int) (result, bool) {
	j := p.opt(i, "the")
	n, ok := weekOrdinals[p.tok(j)]
	if !ok {
		return result{}, false
	}
	var what string
	k := j + 1
	switch {
	case p.is(k, "week") && p.is(k+1, "of"):
		what, k = "week", k+2
	case p.is(k, "half") && p.is(k+1, "of") && (n == 1 || n == 2):
		what, k = "half", k+2
	case p.is(k, "few") && p.is(k+1, "days") && p.is(k+2, "of") && (n == 1 || n == -1):
		what, k = "few", k+3
	default:
		return result{}, false
	}
	x, month, ok := p.period(k)
	if !ok {
		return result{}, false
	}
	from, to, end := x.from, x.to, x.end
	y, m, _ := from.Date()
	last := to.AddDate(0, 0, -1).Day() // a month's last day
	win := func(from, to time.Time) (result, bool) {
		r := p.window(from, to, end)
		r.named = x.named
		return r, true
	}
	switch {
	case what == "half" && !month:
		return win(p.date(y, time.Month(1+6*(n-1)), 1), p.date(y, time.Month(7+6*(n-1)), 1))
	case what == "half" && n == 1:
		return win(from, p.date(y, m, 16))
	case what == "half":
		return win(p.date(y, m, 16), to)
	}
	if what == "week" && !month && n != 1 && n != -1 {
		return result{}, false // "the third week of 2023" reads as a week number: not understood
	}
	size := 7
	if what == "few" {
		size = 5
	}
	if n == -1 {
		if !month {
			return win(p.date(y, 12, 32-size), to)
		}
		return win(p.date(y, m, last+1-size), to)
	}
	return win(p.date(y, m, 1+size*(n-1)), p.date(y, m, 1+size*n))
}
