package timeexpr

import "time"

// Ranges whose first end is a bare day or a weekday, and a whole period said with "all of".

// rangeDashes join the ends of a range written without "from" or "between": "1-5 May",
// "Mon-Fri".
var rangeDashes = []string{"-", "–", "—"}

// rangeSeps join a first day to the end of its range when the day is an ordinal ("1st to 5th
// May"); a cardinal one takes only rangeDashes.
var rangeSeps = append(rangeDashes[:len(rangeDashes):len(rangeDashes)], "to", "through", "thru", "till", "until")

// rangeStart is the first end of a range of days: the day d of the month at token day, and the
// separator at token sep.
type rangeStart struct {
	day, d, sep int
	ordinal     bool
}

// rangeStartDay reads the first end of a range of days at token i, a day of the month ("1",
// "1st", "the 1st") followed by one of seps.
func (p *parser) rangeStartDay(i int, seps ...string) (rangeStart, bool) {
	k := p.opt(i, "the")
	d, next, ordinal, ok := p.dayNum(k)
	if !ok || (k > i && !ordinal) || !p.is(next, seps...) {
		return rangeStart{}, false
	}
	return rangeStart{day: k, d: d, sep: next, ordinal: ordinal}, true
}

// dayIn returns day d of month mm of year yy (mm normalised: month 0 is last year's December),
// when the month has it.
func (p *parser) dayIn(yy int, mm time.Month, d int) (time.Time, bool) {
	first := p.date(yy, mm, 1)
	return p.validDate(first.Year(), first.Month(), d)
}

// dayToDate returns the range from day d to the one-day date y, d in y's month (in the month
// before when d is later: "28-3 March" starts on February 28).
func (p *parser) dayToDate(d int, y result) (result, bool) {
	yy, mm, yd := y.from.Date()
	if d > yd {
		mm--
	}
	t, valid := p.dayIn(yy, mm, d)
	if !valid {
		return result{}, false
	}
	return result{kind: Exact, from: t, to: y.to, end: y.end, named: true}, true
}

// dayFirstRange reads a range of days written day first without "from" or "between": "1-5 May",
// "1st-5th May", "1st to 5th May", "the 1st-5th of May 2023": from the first day, in the month of
// the date that ends it, to that date. The end must be a day-first date ("5 May"), so that "2-3
// days ago", "won 3-5" and "1-5/10" are none; a cardinal first day takes only a dash ("1 to 5 May"
// is none: "rated 1 to 5").
func (p *parser) dayFirstRange(i int) (result, bool) {
	s, ok := p.rangeStartDay(i, rangeSeps...)
	if !ok || !s.ordinal && !p.is(s.sep, rangeDashes...) {
		return result{}, false
	}
	j := s.sep + 1
	if _, _, _, ok := p.dayNum(p.opt(j, "the")); !ok {
		return result{}, false
	}
	y, ok := p.dayFirst(j)
	if !ok || !y.date || !y.oneDay {
		return result{}, false
	}
	return p.dayToDate(s.d, y)
}

// weekdayRange reads "Monday to Friday", "Monday through Friday", "Monday-Friday" and "Mon-Fri":
// from the weekday the first name is alone (the most recent one; in a clause about plans the
// coming one) to the first day after it with the second name, as "between Monday and Friday". A
// week after the names ("Monday to Friday last week", "Mon-Fri this week", "Monday through
// Wednesday of next week") puts the first in that week, as "Monday last week" and "last week
// Monday to Friday" do. Abbreviations that are other words ("Mon", "Wed", "Sat", "Sun") need a
// dash or both names capitalised ("Mon to Fri"); "every Monday to Friday" and a name before
// ("Cyber Monday to ...") are none, as is a weekday to itself.
func (p *parser) weekdayRange(i int) (result, bool) {
	w1, w2, end, ok := p.weekdayPair(i)
	if !ok {
		return result{}, false
	}
	var from time.Time
	if mod, next, ok := p.modifier(p.opt(end, "of")); ok && p.is(next, "week") {
		from, end = p.addDays(p.weekStart(mod), (int(w1)+6)%7), next+1
	} else {
		shift := 0
		if p.upcoming(i) {
			shift = 6 // the first on or after today
		}
		from = p.weekdayOnOrBefore(w1, shift)
	}
	return p.window(from, p.addDays(p.onOrAfter(from, w2), 1), end), true
}

// weekdayPair reads the names of a range of weekdays at token i (see weekdayRange): the first and
// the last, and the token after them.
func (p *parser) weekdayPair(i int) (w1, w2 time.Weekday, end int, ok bool) {
	if p.is(i-1, "every", "each") || i > 0 && p.toks[i-1].word && p.toks[i-1].upper && p.tok(i-1) != "i" {
		return 0, 0, 0, false
	}
	w1, j, full1, ok := p.weekday(i)
	if !ok {
		return 0, 0, 0, false
	}
	dash := p.is(j, rangeDashes...)
	if !dash && !p.is(j, "to", "through", "thru", "till", "until") {
		return 0, 0, 0, false
	}
	w2, end, full2, ok := p.weekday(j + 1)
	if !ok || w1 == w2 {
		return 0, 0, 0, false
	}
	if (!full1 || !full2) && !dash && !(p.toks[i].upper && p.toks[j+1].upper) {
		return 0, 0, 0, false
	}
	return w1, w2, end, true
}

// wholeOf reads "all of X" and "the whole of X" (also "the entirety of X") for X a month, season,
// year or other exact window with both ends, as after a preposition ("all of June" is "in June"):
// X's window.
func (p *parser) wholeOf(i int) (result, bool) {
	j := p.seq(i, "all", "of")
	if j < 0 {
		if k := p.seq(i, "the"); k >= 0 && p.is(k, "whole", "entirety") && p.is(k+1, "of") {
			j = k + 2
		}
	}
	if j < 0 {
		return result{}, false
	}
	if p.is(j, "may") && !p.toks[j].upper {
		return result{}, false // "all of may": the verb, not the month
	}
	x, ok := p.sub(j)
	if !ok || x.kind != Exact || x.from.IsZero() || x.to.IsZero() {
		return result{}, false
	}
	return x, true
}
