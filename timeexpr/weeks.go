package timeexpr

import "time"

// weekNumberNotAfter are words before "week N" that make it a week of something else, counted
// from its own start: "the week 1 meeting", "my week 3 check-in", "each week 2 people".
var weekNumberNotAfter = map[string]bool{
	"the": true, "a": true, "an": true, "my": true, "our": true, "your": true, "his": true, "her": true,
	"their": true, "its": true, "this": true, "that": true, "each": true, "every": true, "per": true,
	"last": true, "next": true, "same": true,
}

// weekNumber reads an ISO 8601 week (Monday to Sunday; week 1 holds the year's first Thursday):
//   - "week 46", "wk 46", "KW 46" (German), with a year after it as a date takes one ("week 46 of
//     2025", "week 46 2025", "week 46, 2025", "week 46 last year", "week 46 of the year"). The
//     number is 1 to 53 in one or two digits standing alone ("week 3.5", "week 3-4" are none);
//     none when a unit follows ("week 3 days"), "of" with neither a year nor a month ("week 3 of
//     the course") or when a determiner or possessive comes before ("the week 1 meeting", "my
//     week 3 check-in", "per week 40 hours"). "week 3 of May" (any month "in" takes) is the
//     month's days 15-21, as "the third week of May"; "week 5 of May" days 29-31;
//   - "W46", "KW46": a token of an upper-case W or KW and one or two digits standing alone; a W
//     only after a preposition ("in W46", "during W7"), since "room W12", "upgrade to W10" and "my
//     W2 form" are no weeks, and a window read from them would filter out what was asked for;
//   - "2026-W46" (exactly two digits), and "2026-W46-3" that week's third day, Wednesday.
//
// Without a year it is the most recent such week that has started (in a clause about plans the
// first that has not ended), as a month is; week 53 only exists in some years ("week 53" is the
// most recent year that has one). A year without that week is none.
func (p *parser) weekNumber(i int, ctx bool) (result, bool) {
	t := p.toks[i]
	if c := t.text[0]; c != 'w' && c != 'k' && (c < '0' || c > '9') {
		return result{}, false
	}
	w, j, d := 0, 0, 0
	switch {
	case p.is(i, "week", "wk") || p.is(i, "kw") && t.upper:
		prev := p.tok(i - 1)
		if weekNumberNotAfter[prev] || prev == "s" && p.possessive(i-2) == i {
			return result{}, false
		}
		if w = p.weekNum(i + 1); w == 0 {
			return result{}, false
		}
		j = i + 2
		if p.isUnit(j) {
			return result{}, false // "week 3 days", "week 12 hours"
		}
	case len(t.text) == 4 && p.is(i+1, "-") && p.glued(i+1) && p.glued(i+2):
		y, ok := p.year(i, 1000, 9999)
		wt := p.tok(i + 2)
		if !ok || len(wt) != 3 || wt[0] != 'w' || p.glued(i) && p.toks[i-1].word {
			return result{}, false
		}
		if w = p.digits2(wt[1:]); w < 1 || w > 53 {
			return result{}, false
		}
		j = i + 3
		if p.is(j, "-") && p.glued(j) && p.glued(j+1) {
			if d = p.digits(j+1, 1, 1); d < 1 || d > 7 {
				return result{}, false
			}
			j += 2
		}
		if !p.standsAlone(j) {
			return result{}, false // "2026-W46x", "2026-W46-3-1", "2026-W46.5"
		}
		return p.isoWeek(y, w, d, j)
	default:
		k := 1
		if t.text[0] == 'k' {
			k = 2
		}
		if !t.upper || len(t.text) < k+1 || len(t.text) > k+2 || t.text[k-1] != 'w' || k == 2 && t.text[0] != 'k' {
			return result{}, false
		}
		if w = p.digits2(t.text[k:]); w < 1 || w > 53 || k == 1 && !ctx {
			return result{}, false
		}
		if p.glued(i) && !p.is(i-1, "(", "\"", "'", "“", "‘") || !p.standsAlone(i+1) {
			return result{}, false // "x.W46", "W46-2", "W46.txt"
		}
		j = i + 1
	}
	if y, end, ok := p.yearSuffix(j); ok {
		return p.isoWeek(y, w, 0, end)
	}
	if p.is(j, "of") {
		x, month, ok := p.period(j + 1)
		switch {
		case !ok:
			return result{}, false // "week 3 of the course"
		case !month:
			return p.isoWeek(x.from.Year(), w, 0, x.end) // "week 3 of the year"
		}
		// "week 3 of May" is the third week of the month, days 15-21, as "the third week of May"
		// (not "3 of May", May 3)
		from := p.addDays(x.from, 7*(w-1))
		if !from.Before(x.to) {
			return result{}, false
		}
		r := p.window(from, minTime(p.addDays(from, 7), x.to), x.end)
		r.named = x.named
		return r, true
	}
	y, _ := p.now.ISOWeek()
	up := p.upcoming(i)
	for range 8 {
		if weeksIn(y) >= w {
			monday := isoMonday(p, y, w)
			if !up && !monday.After(p.now) || up && p.addDays(monday, 7).After(p.now) {
				return p.isoWeek(y, w, 0, j)
			}
		}
		if up {
			y++
		} else {
			y--
		}
	}
	return result{}, false
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// weekNum returns the week number at token i (one or two digits, 1 to 53, standing alone), else 0.
func (p *parser) weekNum(i int) int {
	w := p.digits(i, 1, 2)
	if w < 1 || w > 53 || p.decimal(i) || !p.standsAlone(i+1) {
		return 0
	}
	return w
}

// standsAlone reports whether token j may follow a number or code: it is not glued to it as a
// word, a "-", "/" or ":" or a "." with a word after it ("3.5", "W46.txt").
func (p *parser) standsAlone(j int) bool {
	if j >= len(p.toks) || !p.glued(j) {
		return true
	}
	if p.toks[j].word || p.is(j, "-", "/", ":") {
		return false
	}
	return !(p.is(j, ".") && p.glued(j+1) && j+1 < len(p.toks) && p.toks[j+1].word)
}

// digits2 returns the value of one or two ASCII digits, else -1.
func (p *parser) digits2(s string) int {
	return digitsValue(s, 2)
}

// weeksIn returns the number of ISO weeks of ISO year y, 52 or 53 (December 28 is always in the
// year's last week).
func weeksIn(y int) int {
	_, w := time.Date(y, 12, 28, 0, 0, 0, 0, time.UTC).ISOWeek()
	return w
}

// isoMonday returns the Monday of ISO week w of ISO year y (January 4 is always in week 1).
func isoMonday(p *parser, y, w int) time.Time {
	jan4 := p.date(y, 1, 4)
	return p.addDays(jan4, -(int(jan4.Weekday())+6)%7+7*(w-1))
}

// isoWeek returns ISO week w of year y, or its day d (1 is Monday) when d > 0; none when the year
// has no such week.
func (p *parser) isoWeek(y, w, d, end int) (result, bool) {
	if w > weeksIn(y) {
		return result{}, false
	}
	monday := isoMonday(p, y, w)
	if d > 0 {
		r := p.dayOf(p.addDays(monday, d-1), end)
		r.date, r.named = true, true
		return r, true
	}
	r := p.window(monday, p.addDays(monday, 7), end)
	r.named = true
	return r, true
}
