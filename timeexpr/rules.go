package timeexpr

import (
	"regexp"
	"strconv"
	"time"
)

// expr reads one expression at token i; ctx says a preposition or operator came before, which lets a
// bare month, year or season count. The longest rule wins; a single day may be refined by a part of
// the day ("yesterday morning").
func (p *parser) expr(i int, ctx bool) (result, bool) {
	if i >= len(p.toks) {
		return result{}, false
	}
	var best result
	found := false
	try := func(r result, ok bool) {
		if ok && r.end > i && (!found || r.end > best.end) {
			best, found = r, true
		}
	}
	try(p.subPeriod(i))
	try(p.partOf(i))
	try(p.dayPartOf(i))
	try(p.relative(i))
	try(p.inFuture(i))
	try(p.forward(i))
	try(p.numeric(i))
	try(p.relDay(i))
	try(p.relUnit(i))
	try(p.ago(i))
	try(p.agoHalf(i))
	try(p.vaguePhrase(i))
	try(asNamed(p.iso(i)))
	try(asNamed(p.yearOnly(i, ctx)))
	try(asNamed(p.decade(i, ctx)))
	try(p.monthFirst(i, ctx))
	try(p.dayFirst(i))
	try(p.weekdayRule(i, ctx))
	try(p.seasonRule(i, ctx))
	try(p.holiday(i, ctx))
	try(p.holidaySeason(i, ctx))
	try(p.turnOfYear(i))
	try(p.quarter(i))
	try(p.weekNumber(i, ctx))
	try(p.thisTimeLast(i))
	try(p.clockFirst(i))
	try(p.dayFirstRange(i))
	try(p.weekdayRange(i))
	try(p.wholeOf(i))
	if !found {
		return result{}, false
	}
	if best.oneDay {
		j := best.end
		if p.is(j, "morning", "afternoon", "evening", "night") {
			best = p.dayPart(best, p.tok(j))
			best.end = j + 1
		} else if k := p.seq(j, "in", "the"); k >= 0 && p.is(k, "morning", "afternoon", "evening") {
			best = p.dayPart(best, p.tok(k))
			best.end = k + 1
		} else if k := p.seq(j, "at", "night"); k >= 0 {
			best = p.dayPart(best, "night")
			best.end = k
		} else if h, m, next, ok := p.clock(p.opt(j, "at", "around")); ok {
			return p.atClock(best, h, m, next), true
		}
	}
	if best.part {
		// "this morning at 9", "last night at 11pm": the hour, when it lies in that part
		k := p.opt(best.end, "at", "around")
		h, m, next, ok := p.clock(k)
		flip := false
		if !ok && k > best.end {
			h, m, next, ok = p.bareHour(k)
			flip = true
		}
		if ok {
			if r, ok := p.clockInPart(best, h, m, next, flip); ok {
				return r, true
			}
		}
	}
	return best, true
}

// asNamed marks a rule's result as fixed by a named date (see result.named).
func asNamed(r result, ok bool) (result, bool) {
	r.named = true
	return r, ok
}

// modifier reads last/this/next: -1, 0 or 1.
func (p *parser) modifier(i int) (mod, next int, ok bool) {
	switch {
	case p.seq(i, "this", "past") >= 0:
		return -1, i + 2, true
	case p.seq(i, "this", "coming") >= 0:
		return 1, i + 2, true
	case p.is(i, "last", "previous"):
		return -1, i + 1, true
	case p.is(i, "this", "current"):
		return 0, i + 1, true
	case p.is(i, "next", "coming"):
		return 1, i + 1, true
	}
	return 0, i, false
}

// subPeriod reads "early/mid/late X" and "the beginning/middle/end of X" for a month or a year X,
// and "the beginning/middle/end of" a calendar week.
func (p *parser) subPeriod(i int) (result, bool) {
	part, j := "", -1
	switch {
	case p.is(i, "early", "mid", "late"):
		part, j = p.tok(i), p.opt(i+1, "-")
	default:
		k := p.opt(i, "the")
		if p.is(k, "beginning", "start", "middle", "end") && p.is(k+1, "of") {
			part, j = map[string]string{"beginning": "early", "start": "early", "middle": "mid", "end": "late"}[p.tok(k)], k+2
		}
	}
	if part == "" || p.nested {
		return result{}, false
	}
	if monday, end, ok := p.weekAt(j); ok && !p.is(i, "early", "mid", "late") {
		// "the beginning|middle|end of last week": Monday-Wednesday, Tuesday-Thursday,
		// Friday-Sunday ("late last week" may be "I was late last week": not read)
		from := map[string]int{"early": 0, "mid": 1, "late": 4}[part]
		return p.window(p.addDays(monday, from), p.addDays(monday, from+3), end), true
	}
	p.nested = true // "early early early ..." must not recurse per token
	x, month, ok := p.period(j)
	p.nested = false
	if !ok {
		return result{}, false
	}
	y, m, _ := x.from.Date()
	r := result{kind: Exact, end: x.end, named: x.named}
	idx := map[string]int{"early": 0, "mid": 1, "late": 2}[part]
	if month {
		starts := []int{1, 11, 21, 32}
		r.from = p.date(y, m, starts[idx])
		r.to = p.date(y, m, starts[idx+1])
		if idx == 2 {
			r.to = x.to
		}
	} else {
		r.from = p.date(y, time.Month(1+4*idx), 1)
		r.to = p.date(y, time.Month(5+4*idx), 1)
	}
	return r, true
}

// relDay reads today, yesterday, tomorrow, tonight, last night, this morning, earlier today, ...
func (p *parser) relDay(i int) (result, bool) {
	switch p.tok(i) {
	case "today":
		return p.dayOf(p.now, i+1), true
	case "yesterday":
		return p.dayOf(p.today(-1), i+1), true
	case "tomorrow":
		return p.dayOf(p.today(1), i+1), true
	case "tonight":
		r := p.dayPart(p.dayOf(p.now, i+1), "night")
		return r, true
	case "now":
		if p.whole {
			return result{kind: Exact, from: p.now, to: p.now.Add(time.Second), end: i + 1}, true
		}
	case "right":
		if p.whole && p.is(i+1, "now") {
			return result{kind: Exact, from: p.now, to: p.now.Add(time.Second), end: i + 2}, true
		}
	case "last":
		if p.is(i+1, "night") {
			return p.dayPart(p.dayOf(p.today(-1), i+2), "night"), true
		}
		if p.is(i+1, "evening") && !p.is(i+2, "of") && !p.someOtherLast(i) {
			// "last evening" is yesterday evening; "my last evening in Paris", "the last evening
			// of the trip" are some other one
			return p.dayPart(p.dayOf(p.today(-1), i+2), "evening"), true
		}
	case "this":
		if p.is(i+1, "morning", "afternoon", "evening") {
			return p.dayPart(p.dayOf(p.now, i+2), p.tok(i+1)), true
		}
	case "earlier", "later":
		if p.is(i+1, "today") {
			if p.tok(i) == "earlier" {
				return p.window(p.today(0), p.now, i+2), true
			}
			return p.window(p.now, p.today(1), i+2), true
		}
		k := p.seq(i+1, "this")
		if k < 0 {
			k = p.seq(i+1, "in", "the") // "earlier in the week" is "earlier this week"
		}
		if p.tok(i) == "earlier" && k >= 0 {
			switch p.tok(k) {
			case "week":
				return p.window(p.weekStart(0), p.now, k+1), true
			case "month":
				return p.window(p.date(p.now.Year(), p.now.Month(), 1), p.now, k+1), true
			case "year":
				return p.window(p.date(p.now.Year(), 1, 1), p.now, k+1), true
			case "day":
				if k == i+3 {
					return p.window(p.today(0), p.now, k+1), true // "earlier in the day"
				}
			}
		}
	}
	j := p.opt(i, "the")
	if k := p.seq(j, "day", "before", "yesterday"); k >= 0 {
		return p.dayOf(p.today(-2), k), true
	}
	if k := p.seq(j, "day", "after", "tomorrow"); k >= 0 {
		return p.dayOf(p.today(2), k), true
	}
	return result{}, false
}

// relUnit reads last/this/next week|month|year|weekend, "last week (on) Tuesday", "the week before
// last", the rolling "the past 3 days" and "the weekend".
func (p *parser) relUnit(i int) (result, bool) {
	if p.seq(i, "past", "weekend") >= 0 && p.barePast(i, "weekend") {
		return p.window(p.weekStart(-1).AddDate(0, 0, 5), p.weekStart(0), i+2), true
	}
	if k := p.seq(i, "the"); k >= 0 {
		if p.is(k, "week", "month", "year") && p.seq(k+1, "before", "last") >= 0 {
			return p.calendarUnit(p.tok(k), -2, k+3)
		}
		if p.seq(k, "past", "weekend") >= 0 {
			return p.window(p.weekStart(-1).AddDate(0, 0, 5), p.weekStart(0), k+2), true
		}
		if p.is(k+1, "prior") && p.is(k, "day", "week", "month", "year") && !p.is(k+2, "to") {
			// "the week prior" is "the previous week": rolling ("the week prior to X" is relative's);
			// "the day prior" is "the previous day", yesterday
			if p.is(k, "day") {
				return p.window(p.today(-1), p.today(0), k+2), true
			}
			return p.window(p.rollFrom(1, p.tok(k)), p.today(1), k+2), true
		}
		if p.is(k, "weekend") {
			n := -1
			if wd := p.now.Weekday(); wd == time.Saturday || wd == time.Sunday || p.upcoming(i) {
				n = 0 // under way, or the coming one in a clause about plans
			}
			return p.window(p.weekStart(n).AddDate(0, 0, 5), p.weekStart(n+1), k+1), true
		}
	}
	if r, ok := p.rolling(i); ok {
		return r, true
	}
	mod, j, ok := p.modifier(i)
	if !ok || p.is(j+1, "of") {
		return result{}, false // "my last week of school" is no calendar week
	}
	if p.is(j, "weekend") {
		return p.window(p.weekStart(mod).AddDate(0, 0, 5), p.weekStart(mod+1), j+1), true
	}
	if p.is(j, "fortnight") {
		// a fortnight has no calendar bounds, so "last fortnight" is "the past fortnight", the
		// rolling 14 days ("my last fortnight in Spain" is some other one)
		if mod >= 0 || p.someOtherLast(i) {
			return result{}, false
		}
		return p.window(p.rollFrom(1, "fortnight"), p.today(1), j+1), true
	}
	if p.is(j, "week") {
		// "last week on Tuesday", "last week Tuesday" (a name that is no other word without "on":
		// "last week sat down" is last week); "last week Monday to Wednesday" is those days of it
		k := p.opt(j+1, "on")
		if w, next, full, ok := p.weekday(k); ok {
			from := p.addDays(p.weekStart(mod), (int(w)+6)%7)
			if _, w2, end, ok := p.weekdayPair(k); ok {
				return p.window(from, p.addDays(p.onOrAfter(from, w2), 1), end), true
			}
			if full || k > j+1 {
				return p.dayOf(from, next), true
			}
		}
	}
	return p.calendarUnit(p.tok(j), mod, j+1)
}

func (p *parser) calendarUnit(unit string, n, end int) (result, bool) {
	y, m, _ := p.now.Date()
	switch unit {
	case "week":
		return p.window(p.weekStart(n), p.weekStart(n+1), end), true
	case "month":
		return p.monthWindow(y, m+time.Month(n), end), true
	case "year":
		return p.yearWindow(y+n, end), true
	case "quarter":
		start := (m-1)/3*3 + 1 + time.Month(3*n)
		return p.window(p.date(y, start, 1), p.date(y, start+3, 1), end), true
	}
	return result{}, false
}

// unitOf reads a unit word: day, week, month, year, hour, minute or second (singular or plural).
func unitOf(t string) (unit string, plural bool) {
	switch t {
	case "day", "week", "month", "year", "hour", "minute", "second":
		return t, false
	case "days", "weeks", "months", "years", "hours", "minutes", "seconds":
		return t[:len(t)-1], true
	case "min", "mins":
		return "minute", t == "mins"
	case "fortnight", "fortnights":
		return "fortnight", t == "fortnights"
	}
	return "", false
}

// rolling reads "(the) past/last/previous N units", "the past week", "the last few days", "the
// prior week".
func (p *parser) rolling(i int) (result, bool) {
	if p.is(i, "recent") {
		// "in recent weeks" is "the past few weeks" ("my recent weeks at the gym" may be any)
		if unit, plural := unitOf(p.tok(i + 1)); plural && unit != "fortnight" && p.is(i-1, "in", "over", "during", "throughout", "within", "across") {
			return p.window(p.rollFrom(3, unit), p.today(1), i+2), true
		}
		return result{}, false
	}
	j := p.opt(i, "the")
	the := j > i
	if !p.is(j, "past", "last", "previous") && !(the && p.is(j, "prior")) {
		return result{}, false
	}
	before := p.is(j, "previous", "prior")
	j++
	n := 1
	counted := false
	if c, next, ok := p.count(j); ok && p.tok(j) != "a" && p.tok(j) != "an" {
		n, j, counted = c, next, true
	} else if k := p.opt(j, "a"); p.is(k, "few", "couple", "several") {
		n = map[string]int{"few": 3, "couple": 2, "several": 7}[p.tok(k)]
		j, counted = p.opt(k+1, "of"), true
	}
	unit, plural := unitOf(p.tok(j))
	if !the && !counted && !plural && p.barePast(i, unit) {
		return p.window(p.rollFrom(1, unit), p.today(1), j+1), true // "what did I say past week"
	}
	if unit == "" || (!counted && (!the || plural)) || p.is(j+1, "of") {
		return result{}, false // "the last week of school" is not the past week
	}
	if before && !counted && unit == "day" {
		return p.window(p.today(-1), p.today(0), j+1), true // "the previous day" is yesterday
	}
	return p.window(p.rollFrom(n, unit), p.today(1), j+1), true
}

// notBeforeBarePast are words before "past" that make it an adjective of some other period ("a past
// year", "each past month") or a clock ("half past").
var notBeforeBarePast = map[string]bool{
	"a": true, "an": true, "any": true, "each": true, "every": true, "one": true, "some": true,
	"no": true, "per": true, "my": true, "your": true, "his": true, "her": true, "its": true,
	"our": true, "their": true, "whose": true, "that": true, "half": true, "quarter": true,
	"well": true, "way": true, "long": true, "just": true,
}

// someOtherLast reports whether "last" at token i follows "the" or a determiner, which make it
// the last of some other series: "my last evening in Paris", "the last fortnight of the trip".
func (p *parser) someOtherLast(i int) bool {
	return notBeforeBarePast[p.tok(i-1)] || p.is(i-1, "the")
}

// barePast reports whether "past <unit>" at token i, without "the" or a count, reads as "the past
// <unit>": the unit is week, fortnight, month or year, no determiner, number or "half" comes before
// ("a past year", "half past"), and no number after ("we're past week 3"); "past week" glued into a
// compound ("past-week") is none. "past weekend" (relUnit) is last weekend, as "the past weekend".
func (p *parser) barePast(i int, unit string) bool {
	if !p.is(i, "past") || (unit != "week" && unit != "weekend" && unit != "fortnight" && unit != "month" && unit != "year") {
		return false
	}
	if prev := p.tok(i - 1); notBeforeBarePast[prev] || p.num(i-1) >= 0 || smallNumbers[prev] > 0 || (p.glued(i) && p.is(i-1, "-")) {
		return false
	}
	j := i + 2
	if _, _, ok := p.count(j); ok && !p.is(j, "a", "an") {
		return false
	}
	if _, _, _, ok := p.dayNum(j); ok || (p.glued(j) && p.is(j, "-", "/")) {
		return false
	}
	return true
}

// rollFrom returns where "the past n units" begins: the start of the day n days, weeks, months or
// years back, or n hours, minutes or seconds before now.
func (p *parser) rollFrom(n int, unit string) time.Time {
	switch unit {
	case "day":
		return p.today(-n)
	case "week":
		return p.today(-7 * n)
	case "fortnight":
		return p.today(-14 * n)
	case "month":
		return p.today(0).AddDate(0, -n, 0)
	case "year":
		return p.today(0).AddDate(-n, 0, 0)
	case "hour":
		return p.now.Add(-time.Duration(n) * time.Hour)
	case "minute":
		return p.now.Add(-time.Duration(n) * time.Minute)
	}
	return p.now.Add(-time.Duration(n) * time.Second)
}

// vagueScale gives anchor offsets and spreads for vague counts ("a few", "a couple of", "several",
// and a bare plural "weeks ago").
var vagueScale = map[string]map[string][2]time.Duration{
	"few":     {"day": {3 * day, 2 * day}, "week": {21 * day, 7 * day}, "month": {91 * day, 30 * day}, "year": {3 * 365 * day, 365 * day}, "hour": {3 * time.Hour, time.Hour}, "minute": {5 * time.Minute, 5 * time.Minute}, "second": {time.Minute, time.Minute}},
	"couple":  {"day": {2 * day, day}, "week": {14 * day, 4 * day}, "month": {61 * day, 21 * day}, "year": {2 * 365 * day, 180 * day}, "hour": {2 * time.Hour, time.Hour}, "minute": {2 * time.Minute, 2 * time.Minute}, "second": {time.Minute, time.Minute}},
	"several": {"day": {5 * day, 3 * day}, "week": {35 * day, 14 * day}, "month": {152 * day, 60 * day}, "year": {5 * 365 * day, 2 * 365 * day}, "hour": {5 * time.Hour, 2 * time.Hour}, "minute": {10 * time.Minute, 5 * time.Minute}, "second": {time.Minute, time.Minute}},
	"":        {"day": {4 * day, 3 * day}, "week": {21 * day, 14 * day}, "month": {122 * day, 60 * day}, "year": {3 * 365 * day, 2 * 365 * day}, "hour": {4 * time.Hour, 3 * time.Hour}, "minute": {10 * time.Minute, 10 * time.Minute}, "second": {time.Minute, time.Minute}},
}

// ago reads "N units ago|back", "a few/a couple of/several units ago" and "weeks ago"; also a
// range of counts ("three or four days ago", "2-3 weeks ago", "a week or two ago"), "or so" ("a
// month or so ago" is "a month ago"), "N units ago today|yesterday" (that day, N units back) and,
// after "less than", "under" or "no|not more than", the rolling past N units.
func (p *parser) ago(i int) (result, bool) {
	j := i
	n, m, counted, scale := 0, 0, false, ""
	within := -1 // "less than N units ago": the token after "than"
	if k := p.seq(i, "less", "than"); k >= 0 {
		within = k
	} else if k := p.seq(p.opt(i, "no", "not"), "more", "than"); k > i+2 {
		within = k
	} else if p.is(i, "under") {
		within = i + 1
	}
	if within >= 0 && p.is(i-1, "just", "slightly", "little", "bit") {
		return result{}, false // "just under a month ago" is about a month ago, not within it
	}
	if within >= 0 {
		j = within
	}
	if k := p.opt(j, "a"); p.is(k, "few", "couple", "several") && within < 0 {
		scale, j = p.tok(k), p.opt(k+1, "of")
	} else if c, next, ok := p.count(j); ok {
		n, j, counted = c, next, true
		if c2, next2, ok := p.count(j + 1); ok && within < 0 && p.is(j, "or", "to", "-", "–") && c2 > n && !p.is(j+1, "a", "an") {
			m, j = c2, next2 // "three or four days ago", "2-3 weeks ago"
		}
	} else if within >= 0 {
		return result{}, false
	}
	unit, plural := unitOf(p.tok(j))
	k := j + 1 // "ago" or "back"
	orSo := false
	if counted && m == 0 && within < 0 && p.is(k, "or") {
		if p.is(k+1, "so") {
			k, orSo = k+2, true // "a month or so ago"
		} else if c2, next2, ok := p.count(k + 1); ok && c2 > n && !p.is(k+1, "a", "an") {
			m, k = c2, next2 // "a week or two ago"
		}
	} else if scale != "" && p.seq(k, "or", "so") >= 0 {
		k += 2 // "a couple of weeks or so ago"
	}
	if unit == "" || !p.is(k, "ago") && !p.backEnds(k) || (!counted && !plural) {
		return result{}, false
	}
	if !counted && scale == "" && (p.is(i-1, "many") && p.is(i-2, "how") || p.decimal(i-1)) {
		// "how many days ago did I ...?" asks for the time, it states none; "1.25 years ago" is
		// a count this does not read
		return result{}, false
	}
	end := k + 1
	if unit == "fortnight" {
		unit, n, m = "week", 2*n, 2*m
		if !counted {
			unit, n, counted = "week", 4, true // "fortnights ago": about a month
		}
	}
	if !counted {
		s := vagueScale[scale][unit]
		return p.vague(p.now.Add(-s[0]), s[1], end), true
	}
	if within >= 0 {
		return p.window(p.rollFrom(n, unit), p.today(1), end), true // "less than a week ago"
	}
	if orSo && unit == "day" {
		return p.window(p.today(-n-1), p.today(2-n), end), true // "a day or so ago": a day either side
	}
	if m > 0 {
		if unit == "day" {
			return p.window(p.today(-m), p.today(1-n), end), true // "three or four days ago"
		}
		if unit == "second" {
			return result{}, false
		}
		// around the middle of N and M units ago, spread wider by half the gap
		near, far := p.back(n, unit), p.back(m, unit)
		half := near.Sub(far) / 2
		return p.vague(far.Add(half), agoSpread(unit, m)+half, end), true
	}
	if p.is(end, "today", "yesterday", "tomorrow") && unit != "hour" && unit != "minute" && unit != "second" {
		// "a week ago today", "a year ago yesterday": that day, N units before the named one
		base := map[string]int{"today": 0, "yesterday": -1, "tomorrow": 1}[p.tok(end)]
		t := p.today(base)
		switch unit {
		case "day":
			t = p.addDays(t, -n)
		case "week":
			t = p.addDays(t, -7*n)
		case "month":
			t = t.AddDate(0, -n, 0)
		case "year":
			t = t.AddDate(-n, 0, 0)
		}
		return p.dayOf(t, end+1), true
	}
	switch unit {
	case "day":
		return p.dayOf(p.today(-n), end), true
	case "week":
		return p.vague(p.now.AddDate(0, 0, -7*n), agoSpread(unit, n), end), true
	case "month":
		return p.vague(p.now.AddDate(0, -n, 0), agoSpread(unit, n), end), true
	case "year":
		return p.vague(p.now.AddDate(-n, 0, 0), agoSpread(unit, n), end), true
	case "hour":
		return p.vague(p.now.Add(-time.Duration(n)*time.Hour), agoSpread(unit, n), end), true
	case "minute":
		return p.vague(p.now.Add(-time.Duration(n)*time.Minute), agoSpread(unit, n), end), true
	}
	return p.vague(p.now.Add(-time.Duration(n)*time.Second), time.Minute, end), true
}

// back returns the moment n units before now (calendar months and years, as "N months ago").
func (p *parser) back(n int, unit string) time.Time {
	switch unit {
	case "day":
		return p.now.AddDate(0, 0, -n)
	case "week":
		return p.now.AddDate(0, 0, -7*n)
	case "month":
		return p.now.AddDate(0, -n, 0)
	case "year":
		return p.now.AddDate(-n, 0, 0)
	case "hour":
		return p.now.Add(-time.Duration(n) * time.Hour)
	case "minute":
		return p.now.Add(-time.Duration(n) * time.Minute)
	}
	return p.now.Add(-time.Duration(n) * time.Second)
}

// vaguePhrase reads recently, lately, these days, nowadays, a while back, the other day, a long
// time ago, earlier, ...
func (p *parser) vaguePhrase(i int) (result, bool) {
	v := func(back, spread time.Duration, end int) (result, bool) {
		return p.vague(p.now.Add(-back), spread, end), true
	}
	switch p.tok(i) {
	case "recently", "lately", "nowadays":
		return v(0, 7*day, i+1)
	case "these":
		// "these days" is "lately"; not after "of" ("one of these days" is some day to come) or a
		// preposition that makes them days named before ("on these days", "for all these days")
		if p.is(i+1, "days") && !p.is(i-1, "of", "on", "for", "during", "all", "between", "from", "at", "by", "to") {
			return v(0, 7*day, i+2)
		}
	case "of":
		if p.is(i+1, "late") {
			return v(0, 7*day, i+2)
		}
	case "as":
		if p.seq(i+1, "of", "late") >= 0 {
			return v(0, 7*day, i+3)
		}
	case "not":
		k := p.opt(i+1, "so", "too", "that")
		if p.is(k, "long") && p.is(k+1, "ago") {
			return v(7*day, 7*day, k+2)
		}
	case "just":
		if p.is(i+1, "now") {
			return v(0, 10*time.Minute, i+2)
		}
	case "moments":
		if p.is(i+1, "ago") {
			return v(0, 10*time.Minute, i+2)
		}
	case "long", "ages":
		if p.is(i+1, "ago") && !p.is(i-1, "how") { // "how long ago did I ...?" asks for the time
			return v(365*day, 365*day, i+2)
		}
	case "earlier":
		if k := p.seq(i+1, "in", "the"); k >= 0 && p.is(k, "conversation", "chat", "session") {
			return v(time.Hour, time.Hour, k+1)
		}
		if k := p.seq(i+1, "in", "our"); k >= 0 && p.is(k, "conversation", "chat", "session") {
			return v(time.Hour, time.Hour, k+1)
		}
		k := p.opt(i+1, "on")
		if p.endOfClause(k) {
			return v(3*time.Hour, 3*time.Hour, k)
		}
	case "some":
		if p.is(i+1, "time", "while") && (p.is(i+2, "ago") || p.backEnds(i+2)) {
			return v(30*day, 30*day, i+3)
		}
	case "the":
		if p.is(i+1, "other") {
			switch p.tok(i + 2) {
			case "day", "night", "evening", "morning":
				return v(3*day, 3*day, i+3)
			case "week":
				return v(14*day, 7*day, i+3)
			}
		}
	case "a", "quite":
		k := i + 1
		if p.tok(i) == "quite" {
			if p.seq(k, "a") < 0 {
				return result{}, false
			}
			k++
		}
		switch {
		case p.is(k, "while") && (p.is(k+1, "ago") || p.backEnds(k+1)):
			if p.tok(i) == "quite" {
				return v(60*day, 45*day, k+2)
			}
			return v(30*day, 30*day, k+2)
		case p.is(k, "little") && p.is(k+1, "while") && (p.is(k+2, "ago") || p.backEnds(k+2)):
			return v(7*day, 5*day, k+3)
		case p.is(k, "long") && p.is(k+1, "time", "while") && (p.is(k+2, "ago") || p.backEnds(k+2)):
			return v(365*day, 365*day, k+3)
		case p.is(k, "moment") && p.is(k+1, "ago"):
			return v(0, 10*time.Minute, k+2)
		case p.is(k, "few") && p.is(k+1, "moments") && p.is(k+2, "ago"):
			return v(0, 10*time.Minute, k+3)
		}
	}
	return result{}, false
}

var isoRE = regexp.MustCompile(`^(\d{4})([-/.])(\d{1,2})(?:([-/.])(\d{1,2})(?:(?:[Tt]|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?)?)?`)

// iso reads 2023-05-04, 2023/05/04, 2023.05.04, 2023-05 and ISO date-times (zone optional, else the
// location).
func (p *parser) iso(i int) (result, bool) {
	t := p.toks[i]
	if t.text[0] < '0' || t.text[0] > '9' {
		return result{}, false
	}
	rest := p.src[t.start:]
	if len(rest) > 64 { // the longest form is about 40 bytes; keep the regexp's work per token bounded
		rest = rest[:64]
	}
	g := isoRE.FindStringSubmatchIndex(rest)
	if g == nil {
		return result{}, false
	}
	endByte := t.start + g[1]
	end := i
	for end < len(p.toks) && p.toks[end].end <= endByte {
		end++
	}
	if end == i || p.toks[end-1].end != endByte {
		return result{}, false // ends inside a token: "2023-05-04x"
	}
	if end < len(p.toks) && p.glued(end) && (p.toks[end].word || p.is(end, "-", "/", ":")) {
		return result{}, false
	}
	if p.is(end, ".") && p.glued(end) && p.glued(end+1) && end+1 < len(p.toks) && p.toks[end+1].word {
		return result{}, false // "2023.05.04.1", "2023-05-04.5"
	}
	sub := func(k int) string {
		if g[2*k] < 0 {
			return ""
		}
		return p.src[t.start+g[2*k] : t.start+g[2*k+1]]
	}
	atoi := func(k int) int { n, _ := strconv.Atoi(sub(k)); return n }
	y, mo := atoi(1), time.Month(atoi(3))
	if mo < 1 || mo > 12 {
		return result{}, false
	}
	if sub(5) == "" {
		if sub(2) == "." {
			return result{}, false // "2023.5" is a number
		}
		return p.monthWindow(y, mo, end), true
	}
	if sub(4) != sub(2) {
		return result{}, false
	}
	d, ok := p.validDate(y, mo, atoi(5))
	if !ok {
		return result{}, false
	}
	if sub(6) == "" {
		r := p.dayOf(d, end)
		r.date = true
		return r, true
	}
	h, mi, s := atoi(6), atoi(7), atoi(8)
	if h > 23 || mi > 59 || s > 59 {
		return result{}, false
	}
	ns := 0
	if f := sub(9); f != "" {
		ns, _ = strconv.Atoi((f + "000000000")[:9])
	}
	loc := p.loc
	if z := sub(10); z == "Z" || z == "z" {
		loc = time.UTC
	} else if z != "" {
		zh, _ := strconv.Atoi(z[1:3])
		zm, _ := strconv.Atoi(z[len(z)-2:])
		off := zh*3600 + zm*60
		if z[0] == '-' {
			off = -off
		}
		loc = time.FixedZone(z, off)
	}
	ts := time.Date(y, mo, d.Day(), h, mi, s, ns, loc).In(p.loc)
	return result{kind: Exact, from: ts, to: ts.Add(time.Second), end: end}, true
}

// yearOnly reads "2022" after a preposition ("in 2022").
func (p *parser) yearOnly(i int, ctx bool) (result, bool) {
	if !ctx {
		return result{}, false
	}
	lo, hi := 1900, 2199
	if p.whole {
		lo, hi = 1000, 9999
	}
	y, ok := p.year(i, lo, hi)
	if !ok || (p.glued(i+1) && p.is(i+1, "-", "/", ":")) {
		return result{}, false
	}
	if p.glued(i+1) && p.is(i+1, ".") && p.glued(i+2) && i+2 < len(p.toks) && p.toks[i+2].word {
		return result{}, false // "2023.5"; a full stop after "in 2022." is fine
	}
	return p.yearWindow(y, i+1), true
}
