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

// weekAt reads a calendar week at token j: "last|this|next week" or "the week" (this one). It
// returns its Monday and the token after it.
func (p *parser) weekAt(j int) (monday time.Time, end int, ok bool) {
	if k := p.seq(j, "the", "week"); k >= 0 {
		if p.is(k, "of", "before", "after") {
			return time.Time{}, 0, false // "the end of the week of May 4", "the week before last"
		}
		return p.weekStart(0), k, true
	}
	mod, k, ok := p.modifier(j)
	if !ok || !p.is(k, "week") || p.is(k+1, "of") {
		return time.Time{}, 0, false
	}
	return p.weekStart(mod), k + 1, true
}

var weekOrdinals = map[string]int{
	"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
	"last": -1, "final": -1,
}

// partOf reads parts of a month or year that count days from its start or end:
//   - "the first|second|third|fourth|last week of X": days 1-7, 8-14, 15-21, 22-28, the final 7;
//     of a year too, counted from January 1 ("the third week of 2023" is January 15-21), as a
//     person counting weeks means; the ISO week is "week 3 of 2023" (weekNumber);
//   - "the first|second half of X": a month's days 1-15 and 16-end, a year's January-June and
//     July-December;
//   - "the first|last few days of X" (also "the first|last days of X"): the first or the final 5
//     days;
//   - "the first|last day of X", "the first|last N days|weeks of X", and "the first|last N months
//     of" a year.
func (p *parser) partOf(i int) (result, bool) {
	j := p.opt(i, "the")
	n, ok := weekOrdinals[p.tok(j)]
	if !ok {
		return result{}, false
	}
	var what string
	count := 0 // "the first two weeks of X": what is the unit
	k := j + 1
	switch {
	case p.is(k, "week") && p.is(k+1, "of"):
		what, k = "week", k+2
	case p.is(k, "half") && p.is(k+1, "of") && (n == 1 || n == 2):
		what, k = "half", k+2
	case p.is(k, "few") && p.is(k+1, "days") && p.is(k+2, "of") && (n == 1 || n == -1):
		what, k = "few", k+3
	case p.is(k, "days") && p.is(k+1, "of") && (n == 1 || n == -1):
		what, k = "few", k+2 // "the first days of January" are its first few
	case (n == 1 || n == -1) && p.is(k, "day") && p.is(k+1, "of"):
		what, count, k = "day", 1, k+2 // "the last day of May"
	case n == 1 || n == -1:
		c, next, ok := p.count(k)
		unit, _ := unitOf(p.tok(next))
		if !ok || p.is(k, "a", "an") || c < 2 || (unit != "day" && unit != "week" && unit != "month") || !p.is(next+1, "of") {
			return result{}, false
		}
		what, count, k = unit, c, next+2
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
	if count > 0 {
		return p.counted(x, month, n, what, count)
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

// counted returns the first (n = 1) or last (n = -1) count days, weeks or months (of a year) of the
// month or year x: "the last two weeks of August" is August 18-31. A span longer than x is none.
func (p *parser) counted(x result, month bool, n int, unit string, count int) (result, bool) {
	from, to := x.from, x.to
	if unit == "month" {
		if month || count > 12 {
			return result{}, false
		}
		if n == 1 {
			to = from.AddDate(0, count, 0)
		} else {
			from = to.AddDate(0, -count, 0)
		}
	} else {
		days := count
		if unit == "week" {
			days *= 7
		}
		if p.addDays(from, days).After(to) {
			return result{}, false
		}
		if n == 1 {
			to = p.addDays(from, days)
		} else {
			from = p.addDays(to, -days)
		}
	}
	r := p.window(from, to, x.end)
	r.named = x.named
	return r, true
}

// dayPartOf reads "the morning|afternoon|evening|night of X" for a single day X ("the evening of
// May 4", "the morning of yesterday") or a bare ordinal day ("the night of the 12th", read as "on
// the 12th"): that part of that day.
func (p *parser) dayPartOf(i int) (result, bool) {
	if !p.is(i, "the") || !p.is(i+1, "morning", "afternoon", "evening", "night") || !p.is(i+2, "of") {
		return result{}, false
	}
	x, ok := p.sub(i + 3)
	if !ok || !x.oneDay {
		if x, ok = p.theNth(i + 3); !ok {
			return result{}, false
		}
	}
	r := p.dayPart(x, p.tok(i+1))
	r.end, r.named = x.end, x.named
	return r, true
}
