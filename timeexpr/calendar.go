package timeexpr

import "time"

const day = 24 * time.Hour

// result is what a rule produced; end is the token index after the match.
type result struct {
	kind     Kind
	from, to time.Time
	anchor   time.Time
	spread   time.Duration
	end      int
	oneDay   bool // the window is one calendar day (a part of day may refine it)
	date     bool // an explicit calendar date (may stand on either side of a bare range)
	yearless bool // the year was inferred
	weekly   bool // a bare weekday: the week was inferred
	named    bool // fixed by a named date, month, season, holiday or year, not counted from now
	composed bool // read from the day it was said on (compose.go)
	part     bool // a part of one day ("this morning", "last night"): a time of day may narrow it
}

// date returns midnight of y-m-d (normalised) in the parser's location.
func (p *parser) date(y int, m time.Month, d int) time.Time {
	return time.Date(y, m, d, 0, 0, 0, 0, p.loc)
}

// today returns midnight of now's day plus n days.
func (p *parser) today(n int) time.Time {
	y, m, d := p.now.Date()
	return p.date(y, m, d+n)
}

// dayOf returns the calendar day of t as an exact result.
func (p *parser) dayOf(t time.Time, end int) result {
	y, m, d := t.In(p.loc).Date()
	return result{kind: Exact, from: p.date(y, m, d), to: p.date(y, m, d+1), end: end, oneDay: true}
}

func (p *parser) window(from, to time.Time, end int) result {
	return result{kind: Exact, from: from, to: to, end: end}
}

// weekStart returns the Monday of the week containing now, plus n weeks.
func (p *parser) weekStart(n int) time.Time {
	back := (int(p.now.Weekday()) + 6) % 7
	return p.today(-back + 7*n)
}

func (p *parser) monthWindow(y int, m time.Month, end int) result {
	return p.window(p.date(y, m, 1), p.date(y, m+1, 1), end)
}

func (p *parser) yearWindow(y, end int) result {
	return p.window(p.date(y, 1, 1), p.date(y+1, 1, 1), end)
}

// vague builds a vague result with its plausible window.
func (p *parser) vague(anchor time.Time, spread time.Duration, end int) result {
	from, to := anchor.Add(-2*spread), anchor.Add(2*spread)
	if spread >= day {
		y, m, d := from.Date()
		from = p.date(y, m, d)
		y, m, d = to.Date()
		to = p.date(y, m, d+1)
	}
	if !anchor.After(p.now) {
		if tomorrow := p.today(1); to.After(tomorrow) {
			to = tomorrow
		}
	}
	return result{kind: Vague, from: from, to: to, anchor: anchor, spread: spread, end: end}
}

// dayPart refines a one-day result to a part of that day.
func (p *parser) dayPart(r result, part string) result {
	y, m, d := r.from.Date()
	h := func(hour int) time.Time { return time.Date(y, m, d, hour, 0, 0, 0, p.loc) }
	switch part {
	case "morning":
		r.from, r.to = h(5), h(12)
	case "afternoon":
		r.from, r.to = h(12), h(18)
	case "evening":
		r.from, r.to = h(17), h(24)
	case "night", "tonight":
		r.from, r.to = h(18), h(30)
	default:
		return r
	}
	r.oneDay, r.part = false, true
	return r
}

// recentDay returns the most recent y such that y-m-d exists and is not after today, searching back
// up to eight years (for February 29).
func (p *parser) recentDay(m time.Month, d int) (time.Time, bool) {
	today := p.today(0)
	for y := p.now.Year(); y > p.now.Year()-9; y-- {
		t, ok := p.validDate(y, m, d)
		if ok && !t.After(today) {
			return t, true
		}
	}
	return time.Time{}, false
}

// validDate returns y-m-d when that day exists.
func (p *parser) validDate(y int, m time.Month, d int) (time.Time, bool) {
	t := p.date(y, m, d)
	ty, tm, td := t.Date()
	return t, ty == y && tm == m && td == d
}

// weekdayOnOrBefore returns the most recent w not after today plus shift days.
func (p *parser) weekdayOnOrBefore(w time.Weekday, shift int) time.Time {
	t := p.today(shift)
	back := (int(t.Weekday()) - int(w) + 7) % 7
	y, m, d := t.Date()
	return p.date(y, m, d-back)
}

var seasonStart = map[string]time.Month{
	"spring": time.March, "summer": time.June, "autumn": time.September, "fall": time.September,
	"winter": time.December,
}

// season returns the window of the season starting in month start of year y.
func (p *parser) season(start time.Month, y int) (time.Time, time.Time) {
	return p.date(y, start, 1), p.date(y, start+3, 1)
}

// seasonYear picks the year of a season occurrence for a modifier: -1 last (most recent ended),
// 0 this (the one under way, else the one starting this calendar year), 1 next (first starting
// after now), 2 plain (most recent started).
func (p *parser) seasonYear(start time.Month, mod int) int {
	y := p.now.Year()
	switch mod {
	case -1:
		for {
			if _, to := p.season(start, y); !to.After(p.now) {
				return y
			}
			y--
		}
	case 1:
		for {
			if from, _ := p.season(start, y); from.After(p.now) {
				return y
			}
			y++
		}
	case 0:
		if from, _ := p.season(start, y-1); !p.now.Before(from) && p.now.Before(p.date(y-1, start+3, 1)) {
			return y - 1 // January or February of a winter that started last December
		}
		return y
	}
	for {
		if from, _ := p.season(start, y); !from.After(p.now) {
			return y
		}
		y--
	}
}

// monthYear picks the year of a month occurrence for a modifier (as seasonYear).
func (p *parser) monthYear(m time.Month, mod int) int {
	y := p.now.Year()
	switch mod {
	case -1:
		if !p.date(y, m+1, 1).After(p.now) {
			return y
		}
		return y - 1
	case 0:
		return y
	case 1:
		if p.date(y, m, 1).After(p.now) {
			return y
		}
		return y + 1
	}
	if !p.date(y, m, 1).After(p.now) {
		return y
	}
	return y - 1
}
