package timeexpr

import "time"

// yearSuffix reads a year after a month or date: ", 2023", "of 2023", "2023", "last year", "this
// year". It returns the year, the next token and whether a year was there.
func (p *parser) yearSuffix(j int) (y, next int, ok bool) {
	k := p.opt(j, ",", "of")
	if v, ok := p.year(k, 1000, 9999); ok && !(k < len(p.toks)-1 && p.glued(k+1) && p.is(k+1, "-", "/", ":")) {
		return v, k + 1, true
	}
	k = p.opt(j, "of", ",")
	if p.is(k, "last", "this") && p.is(k+1, "year") {
		if p.tok(k) == "last" {
			return p.now.Year() - 1, k + 2, true
		}
		return p.now.Year(), k + 2, true
	}
	return 0, j, false
}

// dateResult builds the day m-d, in year y when given, else the most recent one not after today
// (the first one not before today in a clause about plans, see upcoming); i is where it starts.
func (p *parser) dateResult(i, y int, hasYear bool, m time.Month, d, end int) (result, bool) {
	var t time.Time
	var ok bool
	switch {
	case hasYear:
		t, ok = p.validDate(y, m, d)
	case p.upcoming(i):
		t, ok = p.comingDay(m, d)
	default:
		t, ok = p.recentDay(m, d)
	}
	if !ok {
		return result{}, false
	}
	r := p.dayOf(t, end)
	r.date, r.yearless, r.named = true, !hasYear, true
	return r, true
}

// monthFirst reads "May 4th", "May 4, 2023", "May the 4th", "April 2023", "last April", "in April".
func (p *parser) monthFirst(i int, ctx bool) (result, bool) {
	mod, j, hasMod := p.modifier(i)
	m, j, ok := p.month(j)
	if !ok {
		return result{}, false
	}
	if !hasMod {
		k := p.opt(j, "the")
		if d, next, ordinal, ok := p.dayNum(k); ok && (k == j || ordinal) && !p.isUnit(next) {
			y, after, hasYear := p.yearSuffix(next)
			if !hasYear {
				after = next
			}
			return p.dateResult(i, y, hasYear, m, d, after)
		}
		if y, after, ok := p.yearSuffix(j); ok {
			r := p.monthWindow(y, m, after)
			r.named = true
			return r, true
		}
	}
	if !hasMod && !ctx {
		return result{}, false
	}
	y := p.monthYear(m, 2)
	switch {
	case hasMod:
		y = p.monthYear(m, mod)
	case p.upcoming(i):
		y = p.comingMonth(m)
	}
	r := p.monthWindow(y, m, j)
	r.yearless, r.named = true, !hasMod
	return r, true
}

// isUnit reports whether token i is a unit word or a number-like continuation that makes the
// preceding number a quantity ("March 3 days" is not March 3rd).
func (p *parser) isUnit(i int) bool {
	u, _ := unitOf(p.tok(i))
	return u != "" || p.is(i, "%", "percent", "times", "people", "am", "pm", ":")
}

// dayFirst reads "4 May", "4th May 2023", "the 4th of May", "the fourth of May last year".
func (p *parser) dayFirst(i int) (result, bool) {
	k := p.opt(i, "the")
	d, j, ordinal, ok := p.dayNum(k)
	if !ok || (k > i && !ordinal) {
		return result{}, false
	}
	hasOf := p.is(j, "of")
	if r, ok := p.dayOfMonthUnit(i, k, d, ordinal, j); ok {
		return r, true
	}
	j = p.opt(j, "of")
	m, j, ok := p.month(j)
	if !ok {
		return result{}, false
	}
	if !ordinal && !hasOf && len(p.tok(k)) > 2 {
		return result{}, false
	}
	y, after, hasYear := p.yearSuffix(j)
	if !hasYear {
		after = j
	}
	return p.dateResult(i, y, hasYear, m, d, after)
}

// dayOfMonthUnit reads the rest of "the 21st of last|this|next month", "the 21st last month" (an
// ordinal, with or without "the") and "the 1st of the month" (this one): that day of the calendar
// month; none when the month is shorter. i is where the expression starts, k the day's token, j
// the token after it.
func (p *parser) dayOfMonthUnit(i, k, d int, ordinal bool, j int) (result, bool) {
	if !ordinal || (k == i && !p.is(j, "of")) {
		return result{}, false // "21 last month" is a count, "21st of last month" needs no "the"
	}
	mod, next, ok := p.modifier(p.opt(j, "of"))
	if n := p.seq(j, "of", "the"); n >= 0 && p.is(n, "month") {
		mod, next, ok = 0, n, true // "the first of the month"
	}
	if !ok || !p.is(next, "month") || p.is(next+1, "of") {
		return result{}, false
	}
	y, m, _ := p.now.Date()
	first := p.date(y, m+time.Month(mod), 1) // normalised: "next month" in December is January
	t, ok := p.validDate(first.Year(), first.Month(), d)
	if !ok {
		return result{}, false
	}
	r := p.dayOf(t, next+1)
	r.date = true
	return r, true
}

// weekdayRule reads "Monday", "last Monday", "this Friday", "next Tuesday", "Monday last week" and
// "Monday, May 4" (the date wins).
func (p *parser) weekdayRule(i int, ctx bool) (result, bool) {
	mod, j, hasMod := p.modifier(i)
	w, j, full, ok := p.weekday(j)
	if !ok {
		return result{}, false
	}
	if !hasMod {
		k := p.opt(j, ",")
		if r, ok := p.monthFirst(k, false); ok && r.date {
			return r, true
		}
		if r, ok := p.dayFirst(k); ok {
			return r, true
		}
		if d, next, ordinal, ok := p.dayNum(p.opt(k, "the")); ok && ordinal && p.dayEnds(next) {
			return p.nthWeekday(i, w, d, next) // "Monday the 2nd", "Friday the 13th"
		}
		if n, next, ok := p.count(j); ok && full && !p.is(i-1, "every", "each") {
			if u, _ := unitOf(p.tok(next)); (u == "week" || u == "fortnight") && p.is(next+1, "ago") {
				if u == "fortnight" {
					n *= 2
				}
				return p.weekdayWeeksAgo(w, n, next+2), true // "Saturday two weeks ago"
			}
		}
		k = p.opt(j, "of")
		if m2, next, ok := p.modifier(k); ok && p.is(next, "week") {
			return p.dayOf(p.weekStart(m2).AddDate(0, 0, (int(w)+6)%7), next+1), true
		}
	}
	if !hasMod && !ctx {
		if !full || p.is(i-1, "every", "each") {
			return result{}, false
		}
		// "Black Friday", "Cyber Monday": a capitalised word straight before looks like a name.
		if i > 0 && p.toks[i-1].word && p.toks[i-1].upper && p.tok(i-1) != "i" {
			return result{}, false
		}
		// "Sunday Times", "Monday Motors": a capitalised word straight after looks like a name.
		if p.toks[i].upper && j < len(p.toks) && p.toks[j].upper && p.toks[j].word && p.tok(j) != "i" {
			if _, isMonth := monthNames[p.tok(j)]; !isMonth {
				return result{}, false
			}
		}
	}
	switch {
	case !hasMod:
		shift := 0
		if p.upcoming(i) {
			shift = 6 // the first on or after today
		}
		r := p.dayOf(p.weekdayOnOrBefore(w, shift), j)
		r.weekly = true
		return r, true
	case mod < 0:
		return p.dayOf(p.weekdayOnOrBefore(w, -1), j), true
	case mod == 0:
		return p.dayOf(p.weekStart(0).AddDate(0, 0, (int(w)+6)%7), j), true
	}
	return p.dayOf(p.weekdayOnOrBefore(w, 7), j), true
}

// nthWeekday reads "Monday the 2nd": the most recent 2nd not after today that is a Monday (in a
// clause about plans the first not before today), searching three years; else the 2nd alone, as
// "on the 2nd". i is where the expression starts and end the token after it.
func (p *parser) nthWeekday(i int, w time.Weekday, d, end int) (result, bool) {
	y, m, _ := p.now.Date()
	today := p.today(0)
	step := -1
	if p.upcoming(i) {
		step = 1
	}
	for k := 0; k < 36; k++ {
		first := p.date(y, m+time.Month(step*k), 1) // normalised across years
		t, valid := p.validDate(first.Year(), first.Month(), d)
		if valid && t.Weekday() == w && (step < 0 && !t.After(today) || step > 0 && !t.Before(today)) {
			r := p.dayOf(t, end)
			r.date, r.named = true, true
			return r, true
		}
	}
	return p.nthDay(i, d, end)
}

// seasonRule reads "last summer", "in the fall", "winter 2022", "the summer of 2021".
func (p *parser) seasonRule(i int, ctx bool) (result, bool) {
	mod, j, hasMod := p.modifier(i)
	if !hasMod {
		j = p.opt(i, "the")
	}
	start, ok := seasonStart[p.tok(j)]
	if !ok {
		return result{}, false
	}
	j++
	if !hasMod {
		if y, after, ok := p.yearSuffix(j); ok {
			from, to := p.season(start, y)
			r := p.window(from, to, after)
			r.named = true
			return r, true
		}
		if !ctx {
			return result{}, false
		}
		mod = 2
	}
	y := p.seasonYear(start, mod)
	if !hasMod && p.upcoming(i) {
		y = p.comingSeason(start)
	}
	from, to := p.season(start, y)
	r := p.window(from, to, j)
	r.named = !hasMod
	return r, true
}

var talkVerbs = map[string]bool{
	"talked": true, "spoke": true, "spoken": true, "chatted": true, "met": true, "talk": true, "speak": true,
	"chat": true, "meet": true, "told": true, "asked": true, "said": true, "mentioned": true,
	"discussed": true, "conversed": true, "messaged": true, "wrote": true,
}

var conversationNouns = map[string]bool{
	"conversation": true, "chat": true, "session": true, "discussion": true, "exchange": true,
}

// anchor reads conversational anchors: "our first conversation", "the first time we talked", "when
// we first met", "last time", "the last time we spoke", "our previous chat", "(on) the first|last
// day we spoke" (the day needs its clause: "the last day" is the rolling day).
func (p *parser) anchor(i int) (result, bool) {
	j := p.opt(i, "in", "during", "at", "from", "on")
	kindOf := func(t string) Kind {
		switch t {
		case "first", "earliest":
			return AnchorFirst
		case "last", "previous", "latest":
			return AnchorLast
		}
		return None
	}
	// when we first talked / we last spoke / you and I first met
	w := p.opt(j, "when")
	switch {
	case p.seq(w, "you", "and", "i") >= 0:
		w += 3
	case p.is(w, "we"):
		w++
	default:
		w = -1
	}
	if w >= 0 {
		if kd := kindOf(p.tok(w)); kd != None && talkVerbs[p.tok(w+1)] {
			return result{kind: kd, end: p.talkTail(w + 2)}, true
		}
	}
	// our first conversation, the last chat, my previous session
	k := p.opt(j, "our", "the", "my", "that")
	det := p.tok(k - 1)
	if k > j && p.is(k, "very") {
		k++
	}
	if p.seq(k, "most", "recent") >= 0 {
		if conversationNouns[p.tok(k+2)] || (det == "our" && p.is(k+2, "meeting", "talk")) {
			return result{kind: AnchorLast, end: k + 3}, true
		}
	}
	kd := kindOf(p.tok(k))
	if kd == None {
		return result{}, false
	}
	if conversationNouns[p.tok(k+1)] || (det == "our" && p.is(k+1, "meeting", "talk")) {
		end := k + 2
		if p.is(end, "we") && p.is(end+1, "had") {
			end += 2
		}
		return result{kind: kd, end: end}, true
	}
	if !p.is(k, "first", "last") || !p.is(k+1, "time", "day") {
		return result{}, false
	}
	isDay := p.is(k+1, "day") // "the first day we spoke" needs its clause: "the first day" is none
	// "for the first time", "next time" are not anchors.
	b := k - 1
	for b >= 0 && p.is(b, "the", "very") {
		b--
	}
	if p.is(b, "for", "every", "each") {
		return result{}, false
	}
	end := k + 2
	if p.is(end, "that") {
		end++
	}
	switch {
	case p.seq(end, "you", "and", "i") >= 0:
		end += 3
	case p.is(end, "we", "i", "you"):
		end++
	case p.is(end, "he", "she", "they", "it", "my", "our", "there") || isDay:
		return result{}, false
	default:
		return result{kind: kd, end: k + 2}, true
	}
	end = p.opt(end, "ever", "have", "had")
	if !talkVerbs[p.tok(end)] {
		return result{}, false // "the last time I went running"
	}
	return result{kind: kd, end: p.talkTail(end + 1)}, true
}

// talkTail skips "to you", "with me", "about it" style tails of a talk verb: only "to/with you|me".
func (p *parser) talkTail(j int) int {
	if p.is(j, "to", "with") && p.is(j+1, "you", "me") {
		return j + 2
	}
	if p.is(j, "you", "me") {
		return j + 1
	}
	return j
}
