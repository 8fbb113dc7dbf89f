package timeexpr

import "time"

// Fractions of a unit: "half a year", "a half hour", "a year and a half", "one and a half years",
// "two and a half weeks", "1.5 years". A count with a half is read as a number of halves.

// decimal reports whether token i is the fractional part of a decimal number: the "5" of "1.5",
// which is no count of its own ("1.5 years ago" is not "5 years ago").
func (p *parser) decimal(i int) bool {
	if !p.glued(i) || !p.glued(i-1) || p.tok(i-1) != "." {
		return false
	}
	t := p.tok(i - 2)
	return t != "" && t[len(t)-1] >= '0' && t[len(t)-1] <= '9'
}

// fraction reads an amount with a half at token i and returns it in halves of unit (an odd
// number) and the token after it:
//   - "half a|an <unit>", "a half <unit>": one half;
//   - "<count> and a half <units>", "<count> <unit(s)> and a half" ("a year and a half"): 2N+1;
//   - "<digits>.5 <units>": 2N+1; any other decimal is none.
func (p *parser) fraction(i int) (halves int, unit string, next int, ok bool) {
	t := p.tok(i)
	if t == "" {
		return 0, "", i, false
	}
	if t[0] >= '0' && t[0] <= '9' && p.is(i+1, ".") {
		// "1.5 years": the whole part, a glued dot and a glued 5
		n := p.num(i)
		if n < 0 || n >= 1000 || p.decimal(i) || !p.glued(i+1) || !p.glued(i+2) || p.tok(i+2) != "5" {
			return 0, "", i, false
		}
		if u, _ := unitOf(p.tok(i + 3)); u != "" {
			return 2*n + 1, u, i + 4, true
		}
		return 0, "", i, false
	}
	// every other form holds "half" at or after token i: most texts hold none
	if p.lastHalf == -2 {
		p.lastHalf = -1
		for k := len(p.toks) - 1; k >= 0; k-- {
			if p.toks[k].text == "half" {
				p.lastHalf = k
				break
			}
		}
	}
	if i > p.lastHalf {
		return 0, "", i, false
	}
	switch {
	case t == "half":
		j := i + 1
		if !p.is(j, "a", "an") {
			return 0, "", i, false
		}
		if u, plural := unitOf(p.tok(j + 1)); u != "" && !plural {
			return 1, u, j + 2, true
		}
		return 0, "", i, false
	case t == "a" && p.is(i+1, "half"):
		j := p.opt(i+2, "-")
		if u, plural := unitOf(p.tok(j)); u != "" && !plural {
			return 1, u, j + 1, true
		}
		return 0, "", i, false
	}
	n, j, ok := p.count(i)
	if !ok {
		return 0, "", i, false
	}
	if k := p.seq(j, "and", "a", "half"); k >= 0 { // "two and a half weeks"
		if u, plural := unitOf(p.tok(k)); u != "" && (plural || n == 1) {
			return 2*n + 1, u, k + 1, true
		}
		return 0, "", i, false
	}
	u, _ := unitOf(p.tok(j)) // "a year and a half"
	if k := p.seq(j+1, "and", "a", "half"); u != "" && k >= 0 {
		return 2*n + 1, u, k, true
	}
	return 0, "", i, false
}

// halfOffset returns the point halves half units before now (sign -1) or after it (sign 1) and
// the spread "N units ago" has for it: a year's halves are months ("half a year" is "6 months"),
// a day's hours, an hour's minutes, a fortnight's weeks; half a month is 15 days and half a week
// 3.5 days, with the spread halfway between N and N+1 units.
func (p *parser) halfOffset(halves int, unit string, sign int) (time.Time, time.Duration, bool) {
	n := halves / 2
	between := func(u string) time.Duration { return (agoSpread(u, n) + agoSpread(u, n+1)) / 2 }
	switch unit {
	case "year":
		return p.now.AddDate(0, sign*6*halves, 0), agoSpread("month", 6*halves), true
	case "month":
		return p.now.AddDate(0, sign*n, sign*15), between("month"), true
	case "fortnight":
		return p.now.AddDate(0, 0, sign*7*halves), agoSpread("week", halves), true
	case "week":
		return p.now.AddDate(0, 0, sign*(7*n+3)).Add(time.Duration(sign) * 12 * time.Hour), between("week"), true
	case "day":
		return p.now.Add(time.Duration(sign*12*halves) * time.Hour), agoSpread("hour", 12*halves), true
	case "hour":
		return p.now.Add(time.Duration(sign*30*halves) * time.Minute), agoSpread("minute", 30*halves), true
	case "minute":
		return p.now.Add(time.Duration(sign*30*halves) * time.Second), time.Minute, true
	}
	return time.Time{}, 0, false // half a second
}

// agoHalf reads "half a year ago", "a year and a half back", "1.5 years ago" and "a year and a
// half from now": vague around that point (see halfOffset).
func (p *parser) agoHalf(i int) (result, bool) {
	h, unit, j, ok := p.fraction(i)
	if !ok {
		return result{}, false
	}
	sign, end := -1, j+1
	switch {
	case p.is(j, "ago") || p.backEnds(j):
	case p.seq(j, "from", "now") >= 0:
		sign, end = 1, j+2
	default:
		return result{}, false
	}
	t, spread, ok := p.halfOffset(h, unit, sign)
	if !ok {
		return result{}, false
	}
	return p.vague(t, spread, end), true
}

// inHalf reads the rest of "in half an hour", "in a year and a half", "in 2.5 weeks" from token j
// (after "in" at token i), with inFuture's reading of a duration; "in half a minute" is an idiom.
func (p *parser) inHalf(i, j int) (result, bool) {
	h, unit, end, ok := p.fraction(j)
	if !ok || unit == "minute" || (!p.whole && !p.futureClause(i)) {
		return result{}, false
	}
	t, spread, ok := p.halfOffset(h, unit, 1)
	if !ok {
		return result{}, false
	}
	return p.vague(t, spread, end), true
}
