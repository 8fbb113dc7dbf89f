package timeexpr

import "time"

// holidaySpec is one holiday: its day in a given year and how "<holiday> weekend" is read.
type holidaySpec struct {
	on   func(y int) (time.Month, int)
	long [2]int // "<holiday> weekend": days from the holiday to its first and past its last day; zero: by weekday (longWeekend)
	the  bool   // the name takes "the": "the May bank holiday"
}

// bankHoliday is a UK bank holiday by its weekday rule: "the May bank holiday".
func bankHoliday(n int, m time.Month) holidaySpec {
	h := nth(n, time.Monday, m)
	h.the = true
	return h
}

func fixed(m time.Month, d int) holidaySpec {
	return holidaySpec{on: func(int) (time.Month, int) { return m, d }}
}

// nth returns the n-th weekday w of month m in year y; n = -1 is the last.
func nth(n int, w time.Weekday, m time.Month) holidaySpec {
	return holidaySpec{on: func(y int) (time.Month, int) {
		if n < 0 {
			last := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC)
			return m, last.Day() - (int(last.Weekday())-int(w)+7)%7
		}
		first := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
		return m, 1 + (int(w)-int(first.Weekday())+7)%7 + 7*(n-1)
	}}
}

// easter returns Easter Sunday of the Gregorian calendar (the anonymous Gregorian computus, as in
// Meeus, Astronomical Algorithms) shifted by shift days.
func easter(shift int) holidaySpec {
	return holidaySpec{on: func(y int) (time.Month, int) {
		a, b, c := y%19, y/100, y%100
		d, e := b/4, b%4
		f := (b + 8) / 25
		g := (b - f + 1) / 3
		h := (19*a + b - d - g + 15) % 30
		i, k := c/4, c%4
		l := (32 + 2*e + 2*i - h - k) % 7
		m := (a + 11*h + 22*l) / 451
		t := time.Date(y, time.Month((h+l-7*m+114)/31), (h+l-7*m+114)%31+1+shift, 0, 0, 0, 0, time.UTC)
		return t.Month(), t.Day()
	}, long: [2]int{-2, 2}} // Good Friday to Easter Monday
}

var (
	christmas    = fixed(12, 25)
	christmasEve = fixed(12, 24)
	newYear      = fixed(1, 1)
	newYearsEve  = fixed(12, 31)
	thanksgiving = nth(4, time.Thursday, time.November)
)

// holidayName reads a holiday's name at token j.
func (p *parser) holidayName(j int) (h holidaySpec, next int, ok bool) {
	// day reads "day" after a name, or "'s day" / "s' day" / "s day" when s is set.
	day := func(k int, s bool) int {
		if s {
			if k2 := p.possessive(k); k2 > k {
				k = k2
			} else if p.is(k, "'", "’") && p.glued(k) {
				k++
			}
		}
		if p.is(k, "day") {
			return k + 1
		}
		return -1
	}
	switch t := p.tok(j); t {
	case "christmas", "xmas":
		if p.is(j+1, "eve") {
			return christmasEve, j + 2, true
		}
		return christmas, p.opt(j+1, "day"), true
	case "halloween":
		return fixed(10, 31), j + 1, true
	case "nye":
		return newYearsEve, j + 1, true
	case "new":
		k := -1
		if p.is(j+1, "years") {
			k = j + 2
		} else if p.is(j+1, "year") {
			k = p.possessive(j + 2)
		}
		if k < 0 {
			return h, j, false
		}
		if p.is(k, "eve") {
			return newYearsEve, k + 1, true
		}
		return newYear, p.opt(k, "day"), true
	case "valentine", "valentines":
		if k := day(j+1, t == "valentine"); k > 0 {
			return fixed(2, 14), k, true
		}
	case "boxing":
		if p.is(j+1, "day") {
			return fixed(12, 26), j + 2, true
		}
	case "independence":
		if p.is(j+1, "day") {
			return fixed(7, 4), j + 2, true
		}
	case "st", "saint", "patrick", "patricks", "paddy", "paddys":
		k := j
		if t == "st" || t == "saint" {
			k = p.opt(j+1, ".")
		}
		if p.is(k, "patrick", "paddy") {
			if k2 := day(k+1, true); k2 > 0 {
				return fixed(3, 17), k2, true
			}
		} else if p.is(k, "patricks", "paddys") && p.is(k+1, "day") {
			return fixed(3, 17), k + 2, true
		}
	case "easter":
		if p.is(j+1, "monday") {
			return easter(1), j + 2, true
		}
		return easter(0), p.opt(j+1, "sunday", "day"), true
	case "good":
		if p.is(j+1, "friday") {
			return easter(-2), j + 2, true
		}
	case "thanksgiving":
		return thanksgiving, p.opt(j+1, "day"), true
	case "memorial":
		if p.is(j+1, "day") {
			return nth(-1, time.Monday, time.May), j + 2, true
		}
	case "labor", "labour":
		if p.is(j+1, "day") {
			return nth(1, time.Monday, time.September), j + 2, true
		}
	case "mother", "mothers", "father", "fathers":
		if k := day(j+1, true); k > 0 {
			if t[0] == 'm' {
				return nth(2, time.Sunday, time.May), k, true
			}
			return nth(3, time.Sunday, time.June), k, true
		}
	case "martin", "mlk":
		k := j + 1
		if t == "martin" {
			if p.seq(k, "luther", "king") < 0 {
				return h, j, false
			}
			k += 2
		}
		k = p.opt(k, ",")
		if p.is(k, "jr") {
			k = p.opt(k+1, ".")
		}
		if p.is(k, "day") {
			return nth(3, time.Monday, time.January), k + 1, true
		}
	case "presidents", "president":
		if k := day(j+1, true); k > 0 {
			return nth(3, time.Monday, time.February), k, true
		}
	case "canadian":
		if p.is(j+1, "thanksgiving") {
			return nth(2, time.Monday, time.October), p.opt(j+2, "day"), true
		}
	case "columbus":
		if p.is(j+1, "day") {
			return nth(2, time.Monday, time.October), j + 2, true
		}
	case "indigenous":
		if p.is(j+1, "peoples", "people") {
			if k := day(j+2, true); k > 0 {
				return nth(2, time.Monday, time.October), k, true
			}
		}
	case "veterans", "veteran":
		if k := day(j+1, true); k > 0 {
			return fixed(11, 11), k, true
		}
	case "juneteenth":
		return fixed(6, 19), p.opt(j+1, "day"), true
	case "groundhog":
		if k := day(j+1, true); k > 0 {
			return fixed(2, 2), k, true
		}
	case "earth":
		if p.is(j+1, "day") {
			return fixed(4, 22), j + 2, true
		}
	case "cinco":
		if k := p.seq(j+1, "de", "mayo"); k > 0 {
			return fixed(5, 5), k, true
		}
	case "may", "early", "late", "spring", "august":
		// UK bank holidays: "the (early) May bank holiday" is the first Monday of May, "the spring
		// (or late May) bank holiday" the last, "the August bank holiday" the last of August
		k := j
		if t == "early" || t == "late" {
			if !p.is(j+1, "may") {
				return h, j, false
			}
			k = j + 1
		}
		if n := p.seq(k+1, "bank", "holiday"); n > 0 {
			n = p.opt(n, "monday")
			switch {
			case t == "august":
				return bankHoliday(-1, time.August), n, true
			case t == "spring" || t == "late":
				return bankHoliday(-1, time.May), n, true
			}
			return bankHoliday(1, time.May), n, true
		}
	case "fourth", "4th":
		if p.seq(j+1, "of", "july") > 0 {
			return fixed(7, 4), j + 3, true
		}
	case "july":
		if p.is(j+1, "fourth", "4th", "4") {
			return fixed(7, 4), j + 2, true
		}
	}
	return h, j, false
}

// notHoliday are words after a holiday's name that make it a thing, not a day ("Easter egg",
// "Christmas tree", "Easter Island").
var notHoliday = map[string]bool{
	"egg": true, "eggs": true, "bunny": true, "bunnies": true, "basket": true, "baskets": true,
	"tree": true, "trees": true, "card": true, "cards": true, "sale": true, "sales": true, "carol": true,
	"carols": true, "song": true, "songs": true, "movie": true, "movies": true, "film": true,
	"films": true, "sweater": true, "sweaters": true, "jumper": true, "jumpers": true, "costume": true,
	"costumes": true, "candy": true, "decorations": true, "ornament": true, "ornaments": true,
	"lights": true, "special": true, "specials": true, "episode": true, "island": true, "pudding": true,
	"cake": true, "cactus": true, "lily": true, "lilies": true, "present": true, "presents": true,
}

// holiday reads holidays: Christmas (Eve, Day), New Year's (Eve, Day), Halloween, Valentine's Day,
// St. Patrick's Day, Independence Day, the Fourth of July, Boxing Day, Juneteenth, Veterans Day,
// Groundhog Day, Earth Day, Cinco de Mayo, and movable ones: Easter (Sunday, Monday), Good Friday,
// Thanksgiving (US), Memorial Day, Labor Day, Mother's Day, Father's Day (US), Martin Luther King
// Jr. Day, Presidents' Day, Columbus Day, Indigenous Peoples' Day, Canadian Thanksgiving and the
// UK's May, spring and August bank holidays. A bare holiday needs a preposition, last/this/next,
// a year or "weekend" after it ("the Christmas tree" is not a date).
func (p *parser) holiday(i int, ctx bool) (result, bool) {
	return p.holidayRead(i, ctx, false)
}

// holidayOver reads "over Easter", "over Christmas" after "over" (at i-1): the long weekend of
// "<holiday> weekend", since "over" says a span. A name that says the day ("over Christmas Day",
// "over Easter Sunday", "over New Year's Eve") stays that day, and so does one followed by a meal or
// a gathering ("over Thanksgiving dinner").
func (p *parser) holidayOver(i int) (result, bool) {
	r, ok := p.holidayRead(i, true, true)
	if !ok || p.is(r.end-1, "day", "eve", "sunday", "monday", "friday") ||
		p.is(r.end, "dinner", "lunch", "breakfast", "brunch", "meal", "party", "service", "mass") {
		return result{}, false
	}
	return r, true
}

// holidayRead is holiday; span reads the holiday as its long weekend, as "<holiday> weekend".
func (p *parser) holidayRead(i int, ctx, span bool) (result, bool) {
	mod, j, hasMod := p.modifier(i)
	the := !hasMod && p.is(j, "the")
	if the {
		j++
	}
	name := j
	h, j, ok := p.holidayName(j)
	if !ok || notHoliday[p.tok(j)] {
		return result{}, false
	}
	if p.is(j-1, "day") && p.is(j, "before", "after") && p.is(j+1, "yesterday", "tomorrow") {
		return result{}, false // "in Columbus day before yesterday" is a place
	}
	if h.the {
		the = false // "the May bank holiday" is the day, "over the May bank holiday" its weekend
	}
	brk := p.is(j, breakWords...) && !p.is(j-1, "day", "eve", "sunday", "monday", "friday")
	if brk && p.is(name, "christmas", "xmas") {
		return result{}, false // "Christmas break" is the holidays (holidaySeason)
	}
	weekend := p.is(j, "weekend")
	if weekend || brk {
		j++
	} else if span && !the {
		weekend = true
	} else if the {
		return result{}, false // "the Fourth of July" is dayFirst's; "the Easter weekend" is ours
	}
	today := p.today(0)
	y, hasYear := p.now.Year(), hasMod
	switch {
	case hasMod && mod < 0:
		if !p.holidayOn(h, y).Before(today) {
			y--
		}
	case hasMod && mod > 0:
		if !p.holidayOn(h, y).After(today) {
			y++
		}
	case hasMod:
	default:
		if yy, after, ok := p.yearSuffix(j); ok {
			y, hasYear, j = yy, true, after
		} else if !ctx && !weekend && !p.bareHoliday(i, name, j) {
			return result{}, false
		} else if p.upcoming(i) {
			if p.holidayOn(h, y).Before(today) {
				y++ // the first one not before today
			}
		} else if p.holidayOn(h, y).After(today) {
			y-- // the most recent one not after today
		}
	}
	t := p.holidayOn(h, y)
	if !weekend && !brk {
		r := p.dayOf(t, j)
		r.date, r.yearless, r.named = true, !hasYear, !hasMod
		return r, true
	}
	from, to := h.long[0], h.long[1]
	if from == 0 && to == 0 {
		from, to = longWeekend(t.Weekday())
	}
	r := p.window(p.addDays(t, from), p.addDays(t, to), j)
	if brk {
		// "Thanksgiving break", "the Easter holidays": a school's or a firm's break may be longer
		// than the long weekend, so around its middle
		r = p.vague(r.from.Add(r.to.Sub(r.from)/2), 3*day, j)
	}
	r.named = !hasMod
	return r, true
}

// bareHoliday reports whether the holiday named from token name to token end (the expression
// starting at i) stands without a preposition: its name says a day that is no thing ("Christmas
// Day", "Christmas Eve", "New Year's Day", "New Year's Eve", "Valentine's Day", "Halloween"), and it
// ends its clause ("What did we do Christmas Day?"), so "Christmas tree", "Halloween costume" and
// "Christmas Day dinner" stay none; a greeting ("Happy Halloween!") is none too.
func (p *parser) bareHoliday(i, name, end int) bool {
	if name != i || !p.endOfClause(end) || p.is(i-1, "happy", "merry") {
		return false
	}
	switch p.tok(name) {
	case "halloween":
		return true
	case "christmas", "xmas", "new":
		return p.is(end-1, "day", "eve")
	case "valentine", "valentines":
		return true // the name needs "day" (holidayName)
	}
	return false
}

// breakWords after a holiday's name make a break around it ("Thanksgiving break", "the Easter
// holidays", "Christmas vacation").
var breakWords = []string{"break", "vacation", "holidays", "holiday", "hols", "recess"}

// longWeekend gives the days of "<holiday> weekend" relative to the holiday by its weekday: the
// weekend and the holiday when it touches one (Thursday or Friday to Sunday, Saturday to Monday or
// Tuesday), the weekend it falls on, and for a Wednesday the weekend after.
func longWeekend(w time.Weekday) (from, to int) {
	switch w {
	case time.Monday:
		return -2, 1
	case time.Tuesday:
		return -3, 1
	case time.Wednesday:
		return 3, 5
	case time.Thursday:
		return 0, 4
	case time.Friday:
		return 0, 3
	case time.Saturday:
		return 0, 2
	}
	return -1, 1
}

// holidayOn returns midnight of h in year y.
func (p *parser) holidayOn(h holidaySpec, y int) time.Time {
	m, d := h.on(y)
	return p.date(y, m, d)
}

// holidaySeason reads "the holidays", "the holiday season", "the Christmas|winter holidays" and
// "the festive season|period" after a preposition, and "(the) Christmas|winter break|vacation|
// holidays" after one or "last": vague around the middle of the most recent Christmas Eve to New
// Year's Day that has begun (December 28 at midday, spread 3 days, so a window from December 22 to
// January 3; after "last" the most recent that has ended). "The holidays" may also be a summer's; a
// vague reading only boosts.
func (p *parser) holidaySeason(i int, ctx bool) (result, bool) {
	mod, j, hasMod := p.modifier(i)
	if hasMod && mod != -1 || !ctx && !hasMod {
		return result{}, false
	}
	the := !hasMod && p.is(j, "the")
	if the {
		j++
	}
	switch {
	case the && p.is(j, "festive") && p.is(j+1, "season", "period"):
		j += 2
	case the && p.is(j, "holiday") && p.is(j+1, "season", "period"):
		j += 2
	default:
		k := p.opt(j, "christmas", "xmas", "winter")
		if k == j && !(the && p.is(j, "holidays")) || k > j && !p.is(k, breakWords...) {
			return result{}, false
		}
		j = k + 1
	}
	y := p.now.Year()
	if p.upcoming(i) && !hasMod {
		if p.today(0).Before(p.date(y, 1, 2)) {
			y-- // under way since last December
		}
	} else if p.date(y, 12, 24).After(p.today(0)) {
		y--
	}
	if hasMod && p.today(0).Before(p.date(y+1, 1, 3)) {
		y-- // "last Christmas break": one that has ended
	}
	r := p.vague(time.Date(y, 12, 28, 12, 0, 0, 0, p.loc), 3*day, j)
	r.named = !hasMod
	return r, true
}

// turnOfYear reads "the turn of the year" (with a preposition or none) and "over|around (the) New
// Year('s)" without Day or Eve: vague around the midnight that begins the most recent January 1
// not after today (in a clause about plans the coming one; "around New Year 2025" that year's),
// spread 3 days, so a window from December 26 to January 7. "over New Year" is not the long
// weekend of January 1, which would leave out New Year's Eve.
func (p *parser) turnOfYear(i int) (result, bool) {
	j := i
	prep := p.is(i, "over", "around", "circa", "approximately", "roughly")
	if prep {
		j++
	}
	j = p.opt(j, "the")
	hasYear, y := false, 0
	if k := p.seq(j, "turn", "of", "the", "year"); k > 0 {
		j = k
	} else if prep && p.is(j, "new") {
		k := -1
		if p.is(j+1, "years") {
			k = j + 2
		} else if p.is(j+1, "year") {
			k = p.possessive(j + 2)
		}
		if k < 0 || p.is(k, "day", "eve", "weekend", "resolution", "resolutions") || p.is(k, breakWords...) || notHoliday[p.tok(k)] {
			return result{}, false // "around New Year's Eve" is the holiday's
		}
		j = k
		y, j, hasYear = p.yearSuffix(j)
		if !hasYear {
			j = k
		}
	} else {
		return result{}, false
	}
	if !hasYear {
		y = p.now.Year()
		if p.upcoming(i) && p.date(y, 1, 1).Before(p.today(0)) {
			y++ // the coming one
		}
	}
	r := p.vague(p.date(y, 1, 1), 3*day, j)
	r.named = true
	return r, true
}
