package timeexpr

import (
	"strings"
	"time"
)

// clock reads a time of day: "3pm", "3 pm", "3:30 p.m.", "15:00", "noon", "midnight". A bare
// number is not a time.
func (p *parser) clock(i int) (h, m, next int, ok bool) {
	switch p.tok(i) {
	case "noon", "midday":
		return 12, 0, i + 1, true
	case "midnight":
		return 0, 0, i + 1, true
	}
	t := p.tok(i)
	ampm := ""
	j := i + 1
	if n := len(t); n >= 3 && n <= 4 && (strings.HasSuffix(t, "am") || strings.HasSuffix(t, "pm")) {
		ampm, t = t[n-2:], t[:n-2]
		h = -1
		if len(t) <= 2 && t[0] >= '0' && t[0] <= '9' && (len(t) == 1 || (t[1] >= '0' && t[1] <= '9')) {
			h = int(t[0] - '0')
			if len(t) == 2 {
				h = h*10 + int(t[1]-'0')
			}
		}
	} else {
		if len(t) > 2 {
			return 0, 0, i, false
		}
		h = p.num(i)
		if p.tok(j) == ":" && p.glued(j) && p.glued(j+1) && len(p.tok(j+1)) == 2 {
			if m = p.num(j + 1); m < 0 || m > 59 {
				return 0, 0, i, false
			}
			j += 2
		} else {
			m = -1
		}
		switch {
		case p.is(j, "am", "pm"):
			ampm = p.tok(j)
			j++
		case p.is(j, "a", "p") && p.tok(j+1) == "." && p.is(j+2, "m"):
			ampm = p.tok(j) + "m"
			j = p.opt(j+3, ".")
		}
		if m < 0 {
			if ampm == "" {
				return 0, 0, i, false
			}
			m = 0
		}
	}
	switch {
	case ampm == "" && h >= 0 && h <= 23:
		return h, m, j, true
	case ampm != "" && h >= 1 && h <= 12:
		h %= 12
		if ampm == "pm" {
			h += 12
		}
		return h, m, j, true
	}
	return 0, 0, i, false
}

// atClock narrows a one-day result to the hour starting at h:m.
func (p *parser) atClock(r result, h, m, end int) result {
	y, mo, d := r.from.Date()
	t := time.Date(y, mo, d, h, m, 0, 0, p.loc)
	return result{kind: Exact, from: t, to: t.Add(time.Hour), end: end, named: r.named}
}

// clockFirst reads "3pm yesterday", "15:00 on Monday".
func (p *parser) clockFirst(i int) (result, bool) {
	if p.inClock {
		return result{}, false
	}
	h, m, j, ok := p.clock(i)
	if !ok {
		return result{}, false
	}
	p.inClock = true
	r, ok := p.expr(p.opt(j, "on", ","), true)
	p.inClock = false
	if ok && r.part {
		return p.clockInPart(r, h, m, r.end, false) // "at 11pm last night"
	}
	if !ok || !r.oneDay {
		return result{}, false
	}
	return p.atClock(r, h, m, r.end), true
}

// habitWords before a time of day in its clause make it a habit, not a time: "I usually eat at
// 6pm", "every day at noon".
var habitWords = map[string]bool{
	"every": true, "each": true, "usually": true, "always": true, "often": true, "normally": true,
	"typically": true, "generally": true, "sometimes": true, "daily": true, "nightly": true,
	"weekdays": true, "weekends": true,
}

// scoreWords before "at 10:08" make it a score or odds, not a time ("the odds at 11:10").
var scoreWords = map[string]bool{
	"score": true, "scored": true, "scores": true, "odds": true, "ratio": true, "won": true,
	"lost": true, "lead": true, "led": true, "tied": true, "drew": true, "beat": true, "result": true,
	"final": true, "halftime": true, "leading": true, "trailing": true,
}

// clockAlone reads "at 3pm", "at 15:00", "at noon" after "at" (at token i) with no day: the hour
// [t, t+1h) of the most recent such time that has begun, today's if it has, else yesterday's (in a
// clause about plans the first whose hour has not ended). "at 3pm on the 5th" is that day's. A
// bare number ("at 3") is no time (clock), and neither is a habit ("I usually eat at 6pm", "at
// 6pm every day") or a score ("the odds at 11:10", "won at 10:08").
func (p *parser) clockAlone(i int) (result, bool) {
	h, m, next, ok := p.clock(i + 1)
	if !ok || p.glued(next) && p.is(next, ":", ".", "/") && p.glued(next+1) && next+1 < len(p.toks) && p.toks[next+1].word {
		return result{}, false // "at 10:30:15", "at 3.30pm", "at 12/5"
	}
	if p.is(next, "every", "each", "daily") {
		return result{}, false
	}
	ampm := false
	for k := i + 1; k < next; k++ {
		if t := p.tok(k); t == "m" || t == "noon" || t == "midday" || t == "midnight" || strings.HasSuffix(t, "am") || strings.HasSuffix(t, "pm") {
			ampm = true
		}
	}
	for k := i - 1; k >= 0 && k >= i-15 && !p.endOfClause(k); k-- {
		if habitWords[p.tok(k)] || !ampm && k >= i-3 && scoreWords[p.tok(k)] {
			return result{}, false
		}
	}
	if p.is(next, "on") {
		if d, ok := p.theNth(next + 1); ok {
			return p.atClock(d, h, m, d.end), true // "at 3pm on the 5th"
		}
	}
	t := time.Date(p.now.Year(), p.now.Month(), p.now.Day(), h, m, 0, 0, p.loc)
	if p.upcoming(i) {
		if !t.Add(time.Hour).After(p.now) {
			y, mo, d := p.today(1).Date()
			t = time.Date(y, mo, d, h, m, 0, 0, p.loc)
		}
	} else if t.After(p.now) {
		y, mo, d := p.today(-1).Date()
		t = time.Date(y, mo, d, h, m, 0, 0, p.loc)
	}
	return result{kind: Exact, from: t, to: t.Add(time.Hour), end: next}, true
}

// bareHour reads an hour without am or pm ("at 9" after "this morning"): 1 to 12, as in the
// morning or the afternoon; clockInPart picks the one in the part of the day.
func (p *parser) bareHour(i int) (h, m, next int, ok bool) {
	if v := p.num(i); v >= 1 && v <= 12 && len(p.tok(i)) <= 2 && !p.isUnit(i+1) && !p.is(i+1, ".", "/", "-") {
		return v % 12, 0, i + 1, true
	}
	return 0, 0, i, false
}

// clockInPart narrows a part of a day r to the hour starting at h:m, the next day's after
// midnight ("last night at 2am"); a bare hour (flip) may also be h+12 ("last night at 11" is
// 23:00). A time outside the part ("this morning at 3pm") is no match.
func (p *parser) clockInPart(r result, h, m, end int, flip bool) (result, bool) {
	y, mo, d := r.from.Date()
	for _, hh := range []int{h, h + 12, h + 24, h + 36} {
		if !flip && (hh-h)%24 != 0 {
			continue
		}
		t := time.Date(y, mo, d, hh, m, 0, 0, p.loc)
		if !t.Before(r.from) && t.Before(r.to) {
			return result{kind: Exact, from: t, to: t.Add(time.Hour), end: end, named: r.named}, true
		}
	}
	return result{}, false
}

// possessive skips "'s" (or "’s") glued to token i-1 and returns the next index, else i.
func (p *parser) possessive(i int) int {
	if (p.tok(i) == "'" || p.tok(i) == "’") && p.glued(i) && p.tok(i+1) == "s" && p.glued(i+1) {
		return i + 2
	}
	return i
}

// thisTimeLast reads "this time last year|month|week" (also "(the) same time last ..."): vague
// around the same moment back then; "(on) this day|date last year" and "(the) same day last
// week|month|year": that calendar day.
func (p *parser) thisTimeLast(i int) (result, bool) {
	k := i + 1
	if !p.is(i, "this") {
		k = p.opt(i, "the")
		if !p.is(k, "same") {
			return result{}, false
		}
		k++
	}
	what := p.tok(k)
	if (what != "time" && what != "day" && what != "date") || !p.is(k+1, "last") {
		return result{}, false
	}
	k += 2
	if what != "time" {
		t := p.today(0)
		switch p.tok(k) {
		case "year":
			t = t.AddDate(-1, 0, 0)
		case "month":
			t = t.AddDate(0, -1, 0)
		case "week":
			t = p.addDays(t, -7)
		default:
			return result{}, false
		}
		return p.dayOf(t, k+1), true
	}
	switch p.tok(k) {
	case "year":
		return p.vague(p.now.AddDate(-1, 0, 0), 14*day, k+1), true
	case "month":
		return p.vague(p.now.AddDate(0, -1, 0), 3*day, k+1), true
	case "week":
		return p.vague(p.now.AddDate(0, 0, -7), day, k+1), true
	}
	return result{}, false
}
