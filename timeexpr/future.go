package timeexpr

import (
	"strings"
	"time"
)

// offset is the future mirror of "N units ago" ("in N units", "N units from now"): N days is that
// calendar day, anything else vague around now plus N units with the spread "N units ago" has. scale
// names a vague count ("few", "couple", "several") and then n is ignored.
func (p *parser) offset(n int, unit, scale string, end int) result {
	if scale != "" {
		s := vagueScale[scale][unit]
		return p.vague(p.now.Add(s[0]), s[1], end)
	}
	switch unit {
	case "day":
		return p.dayOf(p.today(n), end)
	case "week":
		return p.vague(p.now.AddDate(0, 0, 7*n), agoSpread(unit, n), end)
	case "month":
		return p.vague(p.now.AddDate(0, n, 0), agoSpread(unit, n), end)
	case "year":
		return p.vague(p.now.AddDate(n, 0, 0), agoSpread(unit, n), end)
	case "hour":
		return p.vague(p.now.Add(time.Duration(n)*time.Hour), agoSpread(unit, n), end)
	}
	return p.vague(p.now.Add(time.Duration(n)*time.Minute), agoSpread("minute", n), end)
}

// inFuture reads "in N units", "in a few units", "in N units' time". "In" followed by a span is also
// how a duration is said ("I read it in 2 days"), so the words before it in the same clause decide:
// a past-tense verb or a number there makes it a duration and no match; a future marker (will, 'll,
// going to, ...), the start of the clause, or no deciding word within 12 tokens makes it a future
// time.
func (p *parser) inFuture(i int) (result, bool) {
	if !p.is(i, "in") {
		return result{}, false
	}
	if r, ok := p.inHalf(i, i+1); ok {
		return r, true
	}
	j := i + 1
	n, scale := 0, ""
	if k := p.opt(j, "a"); p.is(k, "few", "couple", "several") {
		scale, j = p.tok(k), p.opt(k+1, "of")
	} else if c, next, ok := p.count(j); ok {
		n, j = c, next
	} else {
		return result{}, false
	}
	unit, plural := unitOf(p.tok(j))
	switch {
	case unit == "" || unit == "second" || (scale != "" && !plural):
		return result{}, false // "in a second": an idiom
	case unit == "minute" && (p.is(i+1, "a") || scale != ""):
		return result{}, false // "in a minute", "in a few minutes": idioms
	case unit == "fortnight":
		unit, n = "week", 2*n
	}
	end := j + 1
	if k := p.possessive(end); p.is(k, "time") {
		end = k + 1 // "in a week's time"
	} else if (p.is(end, "'", "’")) && p.glued(end) && p.is(end+1, "time") {
		end += 2 // "in two weeks' time"
	}
	if !p.whole && !p.futureClause(i) {
		return result{}, false
	}
	return p.offset(n, unit, scale, end), true
}

var futureWords = map[string]bool{
	"will": true, "ll": true, "shall": true, "gonna": true, "going": true, "wanna": true, "might": true,
	"may": true, "could": true, "would": true, "should": true, "must": true, "can": true, "plan": true,
	"plans": true, "planning": true, "hope": true, "hoping": true, "expect": true, "expecting": true,
	"due": true, "scheduled": true, "again": true, "back": true, "is": true, "are": true, "am": true,
	"re": true, "and": true, "but": true, "so": true, "then": true, "or": true, "because": true,
	"maybe": true, "hopefully": true, "probably": true, "see": true, "remind": true,
}

var pastWords = map[string]bool{
	"was": true, "were": true, "had": true, "did": true, "done": true, "made": true, "ran": true,
	"read": true, "wrote": true, "written": true, "took": true, "taken": true, "lost": true, "won": true,
	"built": true, "drove": true, "flew": true, "went": true, "gone": true, "came": true, "saw": true,
	"seen": true, "found": true, "learnt": true, "spent": true, "left": true, "began": true, "begun": true,
	"became": true, "bought": true, "ate": true, "eaten": true, "swam": true, "rode": true, "knew": true,
	"grew": true, "grown": true, "got": true, "gotten": true, "paid": true, "sold": true, "sent": true,
	"fell": true, "gave": true, "given": true, "kept": true, "brought": true, "caught": true, "taught": true,
	"wore": true, "been": true,
}

var notPast = map[string]bool{
	"need": true, "feed": true, "seed": true, "speed": true, "proceed": true, "succeed": true,
	"exceed": true, "indeed": true, "embed": true, "bed": true, "red": true, "shed": true, "wed": true,
	"scheduled": true,
}

// futureClause reports whether "in" at token i reads as the start of a future time: the nearest
// deciding word before it in its clause, at most 12 tokens back, is not past (see inFuture).
func (p *parser) futureClause(i int) bool {
	for k := i - 1; k >= 0 && k >= i-12; k-- {
		t := p.toks[k]
		if !t.word {
			if strings.ContainsAny(t.text, ",.?!;:()\"") {
				return true
			}
			continue
		}
		switch w := t.text; {
		case futureWords[w]:
			return true
		case pastWords[w] || (len(w) >= 4 && strings.HasSuffix(w, "ed") && !notPast[w]):
			return false
		case w[0] >= '0' && w[0] <= '9':
			return false // "ran 20 km in 2 hours"
		}
	}
	return true
}

// forward reads "the next N days", "the coming two weeks", "next 3 days", "the next few weeks": from
// the start of today to the end of the day N units on, the mirror of "the past N days". "the next
// week" without a count stays the calendar week; "(the) next fortnight", which has no calendar
// bounds, is the next 14 days.
func (p *parser) forward(i int) (result, bool) {
	j := p.opt(i, "the")
	if !p.is(j, "next", "coming") {
		return result{}, false
	}
	j++
	n := 0
	if c, next, ok := p.count(j); ok && p.tok(j) != "a" && p.tok(j) != "an" {
		n, j = c, next
	} else if k := p.opt(j, "a"); p.is(k, "few", "couple", "several") {
		n = map[string]int{"few": 3, "couple": 2, "several": 7}[p.tok(k)]
		j = p.opt(k+1, "of")
	} else if p.is(j, "fortnight") && !p.is(j+1, "of") && !notBeforeBarePast[p.tok(i-1)] {
		n = 1 // "(the) next fortnight": a fortnight has no calendar bounds, so the coming 14 days
	} else {
		return result{}, false
	}
	unit, _ := unitOf(p.tok(j))
	today := p.today(0)
	var to time.Time
	switch unit {
	case "day":
		to = p.today(n + 1)
	case "week", "fortnight":
		if unit == "fortnight" {
			n *= 2
		}
		to = p.today(7*n + 1)
	case "month":
		to = p.addDays(today.AddDate(0, n, 0), 1)
	case "year":
		to = p.addDays(today.AddDate(n, 0, 0), 1)
	case "hour":
		return p.window(p.now, p.now.Add(time.Duration(n)*time.Hour), j+1), true
	case "minute":
		return p.window(p.now, p.now.Add(time.Duration(n)*time.Minute), j+1), true
	default:
		return result{}, false
	}
	return p.window(today, to, j+1), true
}
