package timeexpr

import "time"

// Numeric dates: "5/4/2023", "25/4/2023", "5/4/23", "4.5.2023" and, in context, "5/4". ISO forms
// (2023-05-04, 2023/05/04, 2023.05.04) are iso's.

// numericBefore are the words after which a yearless "5/4" is read as a date. "by" is left out:
// "cut by 1/2" is a fraction.
var numericBefore = map[string]bool{
	"on": true, "since": true, "until": true, "till": true, "til": true, "from": true, "before": true,
	"after": true, "between": true,
}

// numericNotAfter are words that make a preceding "3/4" a quantity.
var numericNotAfter = map[string]bool{
	"of": true, "cup": true, "cups": true, "inch": true, "inches": true, "mile": true, "miles": true,
	"teaspoon": true, "teaspoons": true, "tablespoon": true, "tablespoons": true, "tsp": true,
	"tbsp": true, "oz": true, "lb": true, "lbs": true, "kg": true, "km": true, "pound": true,
	"pounds": true, "done": true, "finished": true, "complete": true, "full": true, "empty": true,
}

// digits returns the value of token i when it is exactly n1 to n2 digits, else -1.
func (p *parser) digits(i, n1, n2 int) int {
	if l := len(p.tok(i)); l < n1 || l > n2 {
		return -1
	}
	return p.num(i)
}

// numeric reads day and month written as numbers. A part above 12 is the day; otherwise dotted
// dates are day first ("4.5.2023" is 4 May) and slashed ones month first ("5/4/2023" is May 4)
// unless the DayFirst option is set. Two-digit years are the nearest that is at most 20 years
// ahead. Without a year ("5/4") it needs a word such as "on" or "since" before it, a time of day
// after it or to end a range ("from 5/4 to 5/10"), and is the most recent such day not after today.
// Fractions, scores and versions are refused: "3/4 of", "won 3/2", "version 1.2.3", "1.5".
func (p *parser) numeric(i int) (result, bool) {
	a := p.digits(i, 1, 2)
	sep := p.tok(i + 1)
	if a < 0 || (sep != "/" && sep != ".") || !p.glued(i+1) || !p.glued(i+2) {
		return result{}, false
	}
	b := p.digits(i+2, 1, 2)
	if b < 0 || (p.glued(i) && !p.is(i-1, "(", "[", "\"", "'", "“", "‘")) {
		return result{}, false // "1/5/4/2023", "v1.2.3", "$5/4"
	}
	end, y, hasYear := i+3, 0, false
	if p.tok(i+3) == sep && p.glued(i+3) && p.glued(i+4) {
		if y = p.digits(i+4, 4, 4); y < 0 && sep == "/" {
			if yy := p.digits(i+4, 2, 2); yy >= 0 {
				y = p.now.Year()/100*100 + yy
				if y > p.now.Year()+20 {
					y -= 100
				}
			}
		}
		if y < 0 {
			return result{}, false
		}
		end, hasYear = i+5, true
	} else if sep == "." {
		return result{}, false // "4.5": a decimal number
	}
	if end < len(p.toks) && p.glued(end) {
		t := p.toks[end]
		switch {
		case t.word || !p.is(end, ".", ",", ")", "?", "!", ";", ":", "]", "\"", "'", "”", "’"):
			return result{}, false // "5/4/2023x", "3/4%", "1/2/3/4"
		case p.is(end, ".", ":") && p.glued(end+1) && p.toks[end+1].word:
			return result{}, false // "1.2.2023.4"
		}
	}
	if !hasYear && !p.whole && !p.rangeEnd && !numericBefore[p.tok(i-1)] {
		if _, _, _, ok := p.clock(p.opt(end, "at")); !ok {
			return result{}, false
		}
	}
	if u, _ := unitOf(p.tok(end)); u != "" || numericNotAfter[p.tok(end)] || p.is(end, "%", "percent", "times", "people") {
		return result{}, false
	}
	if a == 24 && b == 7 && !hasYear {
		return result{}, false // "24/7": always
	}
	d, m := a, b // day first
	switch {
	case a > 12 && b <= 12:
	case b > 12 && a <= 12:
		d, m = b, a
	case sep == "/" && !p.dmy:
		d, m = b, a
	}
	if m < 1 || m > 12 || d < 1 {
		return result{}, false
	}
	return p.dateResult(i, y, hasYear, time.Month(m), d, end)
}
