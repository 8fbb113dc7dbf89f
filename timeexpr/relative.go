package timeexpr

import (
	"strings"
	"time"
)

// addDays returns midnight of t's day plus n days, in the parser's location.
func (p *parser) addDays(t time.Time, n int) time.Time {
	y, m, d := t.In(p.loc).Date()
	return p.date(y, m, d+n)
}

// onOrBefore returns the latest day with weekday w not after t's day.
func (p *parser) onOrBefore(t time.Time, w time.Weekday) time.Time {
	return p.addDays(t, -((int(t.In(p.loc).Weekday()) - int(w) + 7) % 7))
}

// onOrAfter returns the earliest day with weekday w not before t's day.
func (p *parser) onOrAfter(t time.Time, w time.Weekday) time.Time {
	return p.addDays(t, (int(w)-int(t.In(p.loc).Weekday())+7)%7)
}

// mondayOf returns the Monday of the Monday-Sunday week holding t's day.
func (p *parser) mondayOf(t time.Time) time.Time {
	return p.onOrBefore(t, time.Monday)
}

// span returns the first day of x and the day after its last day (x.to rounded up to a midnight).
func (p *parser) span(x result) (first, after time.Time) {
	first = p.addDays(x.from, 0)
	after = p.addDays(x.to, 0)
	if !after.Equal(x.to) || !after.After(first) {
		after = p.addDays(x.to, 1)
	}
	return first, after
}

// anchorOf reads the expression X that a relative form is placed against: an exact window with
// both ends.
func (p *parser) anchorOf(j int) (result, bool) {
	x, ok := p.sub(j)
	if !ok || x.kind != Exact || x.from.IsZero() || x.to.IsZero() {
		return result{}, false
	}
	return x, true
}

// relative reads forms placed against another expression X (any exact window with both ends) or
// against last/next:
//   - "the day|week|weekend|night|Friday before|after X", "the week|weekend of X" (X may also be
//     a bare day: "the weekend of the 7th", "the weekend of the 7th and 8th"); "(the) last
//     weekend before X" and "the first|next Friday after X" are "the weekend before X" and "the
//     Friday after X";
//   - "the Friday|weekend|night before last", "the Monday|week|weekend|month|year after next";
//   - "N days|weeks|months|years before|after|from X", "N weekends|Mondays|summers ago", "a week
//     ago Monday".
func (p *parser) relative(i int) (result, bool) {
	if p.is(i-1, "every", "each") {
		return result{}, false
	}
	if r, ok := p.countedRelative(i); ok {
		return r, true
	}
	j := p.opt(i, "the")
	nearest := "" // "(the) last weekend before X", "the first Friday after X"
	if p.is(j, "last", "first", "next") {
		nearest, j = p.tok(j), j+1
	}
	what := p.tok(j)
	w, _, full, isWeekday := p.weekday(j)
	switch {
	case isWeekday && full:
		if !p.is(j+1, "before", "after") && p.seq(j+1, "prior", "to") < 0 {
			return result{}, false
		}
		what = "weekday"
	case what == "day" || what == "night" || what == "week" || what == "weekend":
		if j == i && what != "day" {
			return result{}, false // "week of", "night before": only with "the"
		}
	case (what == "month" || what == "year") && nearest == "" && p.seq(j+1, "after", "next") >= 0:
		return p.calendarUnit(what, 2, j+3)
	default:
		return result{}, false
	}
	k := j + 1
	op, at := p.tok(k), k+1 // X starts at token at
	if p.seq(k, "prior", "to") >= 0 {
		op, at = "before", k+2 // "the week prior to X"
	}
	switch {
	case nearest == "last" && (op != "before" || p.is(at, "last")):
		return result{}, false
	case nearest != "" && nearest != "last" && (!p.is(k, "after") || p.is(k+1, "next")):
		return result{}, false
	case p.seq(k, "before", "last") >= 0:
		switch what {
		case "night":
			return p.dayPart(p.dayOf(p.today(-2), k+2), "night"), true
		case "weekend":
			return p.window(p.weekStart(-2).AddDate(0, 0, 5), p.weekStart(-1), k+2), true
		case "weekday":
			return p.dayOf(p.addDays(p.weekdayOnOrBefore(w, -1), -7), k+2), true
		}
		return result{}, false // "the week before last" is relUnit's
	case p.seq(k, "after", "next") >= 0:
		switch what {
		case "week":
			return p.calendarUnit("week", 2, k+2)
		case "weekend":
			return p.window(p.weekStart(2).AddDate(0, 0, 5), p.weekStart(3), k+2), true
		case "weekday":
			return p.dayOf(p.addDays(p.weekdayOnOrBefore(w, 7), 7), k+2), true
		}
		return result{}, false
	case p.is(k, "of"):
		if what != "week" && what != "weekend" {
			return result{}, false
		}
		x, ok := p.anchorOf(k + 1)
		if !ok {
			x, ok = p.bareNth(k + 1) // "the weekend of the 7th"
		}
		if !ok && what == "weekend" {
			x, ok = p.nthPair(k + 1) // "the weekend of the 7th and 8th"
		}
		if !ok {
			return result{}, false
		}
		first, after := p.span(x)
		if !after.Equal(p.addDays(first, 1)) {
			return result{}, false // "the week of" a single day only
		}
		mon := p.mondayOf(first)
		r := p.window(mon, p.addDays(mon, 7), x.end)
		if what == "weekend" {
			r.from = p.addDays(mon, 5)
			if first.Weekday() == time.Monday {
				// a Monday ends the weekend before it, as a holiday Monday ends its long weekend
				r.from, r.to = p.addDays(first, -2), first
			}
		}
		r.named = x.named
		return r, true
	case op != "before" && op != "after":
		return result{}, false
	}
	before := op == "before"
	x, ok := p.anchorOf(at)
	if !ok {
		return result{}, false
	}
	r, ok := p.placed(what, w, before, x)
	r.named = x.named
	return r, ok
}

// nthPair reads two days in a row after "the weekend of": "the 7th and 8th", "the 7th and the
// 8th", "the 7th-8th", "7th & 8th"; the first, as bareNth reads it, ending after the second.
func (p *parser) nthPair(i int) (result, bool) {
	d, next, ordinal, ok := p.dayNum(p.opt(i, "the"))
	if !ok || !ordinal || !p.is(next, "and", "&", "-", "–", "/") {
		return result{}, false
	}
	d2, end, ordinal2, ok := p.dayNum(p.opt(next+1, "the"))
	if !ok || !ordinal2 || d2 != d+1 || !p.dayEnds(end) {
		return result{}, false
	}
	return p.nthDay(i, d, end)
}

// placed returns "the <what> before|after X": what is day, night, week, weekend or weekday (then
// w is the weekday).
func (p *parser) placed(what string, w time.Weekday, before bool, x result) (result, bool) {
	first, after := p.span(x)
	switch what {
	case "day":
		if before {
			return p.dayOf(p.addDays(first, -1), x.end), true
		}
		return p.dayOf(after, x.end), true
	case "night":
		if !before {
			return result{}, false
		}
		return p.dayPart(p.dayOf(p.addDays(first, -1), x.end), "night"), true
	case "week":
		if before {
			return p.window(p.addDays(first, -7), first, x.end), true
		}
		return p.window(after, p.addDays(after, 7), x.end), true
	case "weekend":
		sat := p.onOrAfter(after, time.Saturday)
		if before {
			sat = p.onOrBefore(p.addDays(first, -2), time.Saturday)
		}
		return p.window(sat, p.addDays(sat, 2), x.end), true
	}
	if before {
		return p.dayOf(p.onOrBefore(p.addDays(first, -1), w), x.end), true
	}
	return p.dayOf(p.onOrAfter(after, w), x.end), true
}

// countedRelative reads "N days|weeks|fortnights|months|years before|after|from X", "N
// weekends|Mondays|summers ago" and "N weeks ago Monday". Days and weeks give that day; months
// and years are vague around it, as "N months ago" is.
func (p *parser) countedRelative(i int) (result, bool) {
	n, j, ok := p.count(i)
	if !ok {
		return result{}, false
	}
	if p.is(j, "weekend", "weekends") && (p.is(j+1, "ago") || p.backEnds(j+1)) {
		return p.window(p.weekStart(-n).AddDate(0, 0, 5), p.weekStart(1-n), j+2), true
	}
	if r, ok := p.countedAgo(n, j); ok {
		return r, true
	}
	unit, _ := unitOf(p.tok(j))
	if unit == "fortnight" {
		unit, n = "week", 2*n
	}
	if unit == "week" && p.is(j+1, "ago") {
		if w, next, _, ok := p.weekday(j + 3); ok && p.is(j+2, "on") {
			return p.weekdayWeeksAgo(w, n, next), true // "two weeks ago on Saturday"
		}
		if w, next, full, ok := p.weekday(j + 2); ok && full {
			return p.dayOf(p.addDays(p.weekdayOnOrBefore(w, 0), -7*n), next), true
		}
		return result{}, false
	}
	if unit != "day" && unit != "week" && unit != "month" && unit != "year" {
		return result{}, false
	}
	op, at := p.tok(j+1), j+2 // X starts at token at
	if p.seq(j+1, "prior", "to") >= 0 {
		op, at = "before", j+3 // "3 days prior to X"
	}
	if op != "before" && op != "after" && op != "from" {
		return result{}, false
	}
	if op == "from" && p.is(at, "now") {
		return p.offset(n, unit, "", at+1), true
	}
	x, ok := p.anchorOf(at)
	if !ok {
		return result{}, false
	}
	first, after := p.span(x)
	ref := p.addDays(after, -1)
	if op == "before" {
		ref, n = first, -n
	}
	if w, _, _, ok := p.weekday(j + 2); ok && op == "from" && x.end == j+3 {
		ref = p.weekdayOnOrBefore(w, 6) // "two weeks from Friday": the coming Friday
	}
	var r result
	switch unit {
	case "day":
		r = p.dayOf(p.addDays(ref, n), x.end)
	case "week":
		r = p.dayOf(p.addDays(ref, 7*n), x.end)
	default:
		t := p.addDays(ref, 0)
		if unit == "month" {
			t = t.AddDate(0, n, 0)
		} else {
			t = t.AddDate(n, 0, 0)
		}
		t = t.Add(p.addDays(t, 1).Sub(t) / 2) // midday
		r = p.vague(t, agoSpread(unit, abs(n)), x.end)
	}
	r.named = x.named
	return r, true
}

// countedAgo reads the rest of "N Mondays ago" and "N summers ago" (the name at token j, singular
// when N is one: "a Monday ago", "one summer ago"), counted back from the most recent one before
// today, as "N weekends ago" from last weekend: "a Monday ago" is "last Monday", "two Mondays ago"
// "the Monday before last", "a summer ago" "last summer" (the most recent that has ended). Only
// spelled-out weekdays count; "back" must end the clause (see backEnds: "two summers back home"
// is none).
func (p *parser) countedAgo(n, j int) (result, bool) {
	end := j + 2
	if !p.is(j+1, "ago") && !p.backEnds(j+1) {
		return result{}, false
	}
	name := p.tok(j)
	if n > 1 {
		if len(name) < 2 || name[len(name)-1] != 's' {
			return result{}, false
		}
		name = name[:len(name)-1]
	}
	if w, ok := weekdayNames[name]; ok && strings.HasSuffix(name, "day") {
		return p.dayOf(p.addDays(p.weekdayOnOrBefore(w, -1), -7*(n-1)), end), true
	}
	if start, ok := seasonStart[name]; ok {
		from, to := p.season(start, p.seasonYear(start, -1)-(n-1))
		return p.window(from, to, end), true
	}
	return result{}, false
}

// weekdayWeeksAgo returns weekday w of the Monday-Sunday week n weeks before this one ("two weeks
// ago on Saturday", "Saturday two weeks ago"), ending at token end.
func (p *parser) weekdayWeeksAgo(w time.Weekday, n, end int) result {
	return p.dayOf(p.addDays(p.weekStart(-n), (int(w)+6)%7), end)
}

// agoSpread is the spread of "N units ago" and of the same distance from another day.
func agoSpread(unit string, n int) time.Duration {
	switch unit {
	case "week":
		return min(time.Duration(2+n)*day, 14*day)
	case "month":
		return min(time.Duration(10+5*n)*day, 60*day)
	case "year":
		return min(time.Duration(60*n)*day, 365*day)
	case "hour":
		return min(max(time.Duration(n)*30*time.Minute, 30*time.Minute), 12*time.Hour)
	case "minute":
		return max(time.Duration(n)*30*time.Second, 5*time.Minute)
	}
	return time.Minute
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
