package timeexpr

import "time"

// Composition: an expression counted from now followed by a named day that says when it was said
// ("last Friday on 23 January, 2022", "last week, as mentioned on November 6, 2023") is read from
// that day, as one match. See the package documentation for the rule.

// mentionVerbs are the verbs of "as mentioned on", "said on", "as I told you on".
var mentionVerbs = map[string]bool{
	"said": true, "told": true, "mentioned": true, "written": true, "wrote": true, "noted": true,
	"stated": true, "posted": true, "reported": true, "asked": true, "discussed": true, "shared": true,
	"recorded": true, "messaged": true, "texted": true, "talked": true, "spoke": true,
}

var mentionSubjects = map[string]bool{
	"i": true, "we": true, "you": true, "he": true, "she": true, "they": true, "it": true,
}

// reference reads what joins an expression ending at token j to the day it was said on: "as of",
// "as at", "as (I) mentioned|told (you) on|in", "said|told|mentioned on|in" (marker), "on" alone,
// or nothing after a comma or an opening parenthesis. It returns the token where that day
// starts, whether a marker said it is the day of saying, and whether a comma or parenthesis came
// first ("(" is returned as paren, which needs its ")").
func (p *parser) reference(j int) (k int, marker, comma, paren bool) {
	switch {
	case p.is(j, ","):
		comma, j = true, j+1
	case p.is(j, "("):
		paren, j = true, j+1
	}
	if p.is(j, "as") && p.is(j+1, "of", "at") {
		return j + 2, true, comma, paren
	}
	v := j
	as := p.is(v, "as")
	if as {
		v++
		if mentionSubjects[p.tok(v)] {
			v++
		}
	}
	if mentionVerbs[p.tok(v)] {
		v++
		if as { // "as I told you on": without "as", "told him on May 4" is another clause
			v = p.opt(p.opt(v, "to", "with"), "you", "me", "him", "her", "them", "us")
		}
		if p.is(v, "on", "in") {
			return v + 1, true, comma, paren
		}
		return -1, false, false, false
	}
	if v > j {
		return -1, false, false, false
	}
	if p.is(j, "on") {
		return j + 1, false, comma, paren
	}
	if comma || paren {
		return j, false, comma, paren
	}
	return -1, false, false, false
}

// compose reads what may follow r, matched at token i, as the day it was said on, and returns the
// composed result (see the package documentation), or r and false.
func (p *parser) compose(i int, r result) (result, bool) {
	if (r.kind != Exact && r.kind != Vague) || r.named {
		return r, false
	}
	k, marker, comma, paren := p.reference(r.end)
	if k < 0 || k > p.lastTrig {
		return r, false // no expression starts after the last trigger
	}
	d, ok := p.expr(k, true)
	if !ok || d.kind != Exact || !d.named || d.from.IsZero() || d.to.IsZero() {
		return r, false
	}
	end := d.end
	switch {
	case paren && !p.is(end, ")"):
		return r, false
	case paren:
		end++
	case !marker && !p.endOfClause(end):
		return r, false // "yesterday, May 4 was fun": two expressions
	}
	first, after := p.span(d)
	alone := d
	alone.end, alone.composed = end, true
	if !after.Equal(p.addDays(first, 1)) {
		return alone, true // said over more than a day: the named one alone
	}
	if !marker {
		switch {
		case (r.from.IsZero() || !d.from.Before(r.from)) && (r.to.IsZero() || !d.to.After(r.to)):
			return alone, true // the same day said twice ("yesterday, May 4" on May 5)
		case comma || paren:
			return alone, true // an aside naming another day: ambiguous, the named one
		}
		if w, _, _, isWeekday := p.weekday(r.end - 1); isWeekday && first.Weekday() == w {
			return alone, true // "last Friday on 21 January 2022", a Friday: that Friday
		}
	}
	saved := p.now
	y, m, dd := first.Date()
	p.now = time.Date(y, m, dd, 12, 0, 0, 0, p.loc)
	c, ok := p.match(i)
	p.now = saved
	if !ok || c.end != r.end || !sane(c) {
		return r, false
	}
	c.end, c.composed, c.named = end, true, true
	return c, true
}
