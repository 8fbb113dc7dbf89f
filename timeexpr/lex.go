package timeexpr

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// token is a run of letters and digits, or one other non-space character.
type token struct {
	text       string // lower case
	start, end int    // byte offsets in the input
	word       bool   // letters and digits
	upper      bool   // starts with an upper-case letter
}

// lex splits s into tokens. ASCII, most of any text, takes a fast path; FuzzLex checks it against
// decoding every rune.
func lex(s string) []token {
	toks := make([]token, 0, len(s)/4+1) // about one token per 4-5 bytes of chat text: one allocation
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		if !isWordRune(r) {
			toks = append(toks, token{text: s[i : i+size], start: i, end: i + size})
			i += size
			continue
		}
		j := i + size
		for j < len(s) {
			if c := s[j]; c < utf8.RuneSelf {
				if !asciiWord(c) {
					break
				}
				j++
				continue
			}
			r2, sz := utf8.DecodeRuneInString(s[j:])
			if !isWordRune(r2) {
				break
			}
			j += sz
		}
		toks = append(toks, token{text: strings.ToLower(s[i:j]), start: i, end: j, word: true, upper: unicode.IsUpper(r)})
		i = j
	}
	return toks
}

func asciiWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// parser matches rules over the tokens of one input.
type parser struct {
	src        string
	toks       []token
	now        time.Time // in loc
	loc        *time.Location
	whole      bool // Parse: a bare month, year or season is accepted
	dmy        bool // Options.DayFirst: ambiguous slashed dates are day/month
	nested     bool // inside early/mid/late: no second one
	inClock    bool // inside "3pm <day>": no second time of day
	rangeEnd   bool // reading the end of a range: a yearless "5/10" is a date
	noPrecheck bool // tests: match at every token, not only up to the last trigger (precheck.go)
	depth      int  // how deeply rules that wrap an expression are nested (see sub)
	lastTrig   int  // in scan: no expression starts after this token (precheck.go)
	lastHalf   int  // the last token "half", -1 if none, -2 until fraction first looks (fraction.go)
}

func newParser(s string, now time.Time, opt Options, whole bool) *parser {
	loc := opt.Location
	if loc == nil {
		loc = now.Location()
	}
	return &parser{src: s, toks: lex(s), now: now.In(loc), loc: loc, whole: whole, dmy: opt.DayFirst, lastTrig: -1, lastHalf: -2}
}

// tok returns the lower-case text of token i, or "" past the end.
func (p *parser) tok(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].text
}

// is reports whether token i is one of words.
func (p *parser) is(i int, words ...string) bool {
	t := p.tok(i)
	if t == "" {
		return false
	}
	for _, w := range words {
		if t == w {
			return true
		}
	}
	return false
}

// seq returns the index after words if they follow from i, or -1.
func (p *parser) seq(i int, words ...string) int {
	for _, w := range words {
		if p.tok(i) != w {
			return -1
		}
		i++
	}
	return i
}

// opt skips token i when it is one of words.
func (p *parser) opt(i int, words ...string) int {
	if p.is(i, words...) {
		return i + 1
	}
	return i
}

// glued reports whether token i directly follows token i-1 (no space between).
func (p *parser) glued(i int) bool {
	return i > 0 && i < len(p.toks) && p.toks[i-1].end == p.toks[i].start
}

// endOfClause reports whether token i is past the end or punctuation.
func (p *parser) endOfClause(i int) bool {
	return i >= len(p.toks) || (!p.toks[i].word && strings.ContainsAny(p.toks[i].text, ",.?!;:)"))
}

// backEnds reports whether token i is "back" saying how long ago, as "ago" does ("two weekends
// back", "a while back"): it ends the clause, or a new one starts after it with a subject ("a few
// weeks back I said"), what was said was "about" something ("what did I say a while back about
// it?") or a day follows ("a week back today", as "a week ago today"). Else "back" is where
// someone went or is ("a weekend back home", "two weeks back at work", "some time back with my
// parents", "two Mondays back to back"), no time.
func (p *parser) backEnds(i int) bool {
	return p.is(i, "back") && (p.endOfClause(i+1) || p.is(i+1, "i", "we", "you", "he", "she", "they", "about", "today", "yesterday"))
}

// num returns the value of token i when it is 1 to 4 digits, else -1.
func (p *parser) num(i int) int {
	return digitsValue(p.tok(i), 4)
}

// digitsValue returns the value of s when it is 1 to maxLen ASCII digits,
// else -1.
func digitsValue(s string, maxLen int) int {
	if s == "" || len(s) > maxLen {
		return -1
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

var smallNumbers = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"a": 1, "an": 1,
}

// count reads a cardinal number (digits up to 999, or words such as "three", "twenty-one", "a").
// The fractional part of a decimal ("5" in "1.5") is none.
func (p *parser) count(i int) (n, next int, ok bool) {
	if v := p.num(i); v > 0 && v < 1000 {
		if p.decimal(i) {
			return 0, i, false
		}
		return v, i + 1, true
	}
	v, ok := smallNumbers[p.tok(i)]
	if !ok {
		return 0, i, false
	}
	if v >= 20 && v%10 == 0 {
		j := p.opt(i+1, "-")
		if u, ok := smallNumbers[p.tok(j)]; ok && u < 10 && p.tok(j) != "a" && p.tok(j) != "an" {
			return v + u, j + 1, true
		}
	}
	return v, i + 1, true
}

var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
	"ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
	"fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
	"twentieth": 20, "thirtieth": 30,
}

// dayNum reads a day of the month: "4", "04", "4th", "fourth", "twenty-first". ordinal says whether
// it was written as an ordinal.
func (p *parser) dayNum(i int) (d, next int, ordinal, ok bool) {
	t := p.tok(i)
	if v := p.num(i); v >= 1 && v <= 31 && len(t) <= 2 {
		return v, i + 1, false, true
	}
	if len(t) >= 3 && len(t) <= 4 {
		digits, suf := t[:len(t)-2], t[len(t)-2:]
		if suf == "st" || suf == "nd" || suf == "rd" || suf == "th" {
			if v := digitsValue(digits, 2); v >= 1 && v <= 31 {
				return v, i + 1, true, true
			}
		}
		return 0, i, false, false
	}
	if v, ok := ordinalWords[t]; ok {
		return v, i + 1, true, true
	}
	if t == "twenty" || t == "thirty" {
		j := p.opt(i+1, "-")
		if u, ok := ordinalWords[p.tok(j)]; ok && u < 10 && (t == "twenty" || u == 1) {
			return smallNumbers[t] + u, j + 1, true, true
		}
	}
	return 0, i, false, false
}

// year reads a four-digit year in [lo, hi].
func (p *parser) year(i, lo, hi int) (y int, ok bool) {
	if len(p.tok(i)) != 4 {
		return 0, false
	}
	y = p.num(i)
	return y, y >= lo && y <= hi
}

var monthNames = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
	"september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
	"nov": 11, "dec": 12,
}

// month reads a month name (an abbreviation may carry a dot).
func (p *parser) month(i int) (m time.Month, next int, ok bool) {
	m, ok = monthNames[p.tok(i)]
	if !ok {
		return 0, i, false
	}
	if len(p.tok(i)) <= 4 && p.tok(i) != "june" && p.tok(i) != "july" && p.tok(i) != "may" && p.tok(i+1) == "." && p.glued(i+1) {
		return m, i + 2, true
	}
	return m, i + 1, true
}

var weekdayNames = map[string]time.Weekday{
	"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday, "thursday": time.Thursday,
	"friday": time.Friday, "saturday": time.Saturday, "sunday": time.Sunday,
	"mon": time.Monday, "tue": time.Tuesday, "tues": time.Tuesday, "wed": time.Wednesday, "weds": time.Wednesday,
	"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "fri": time.Friday,
	"sat": time.Saturday, "sun": time.Sunday,
}

// weekday reads a weekday name; full says whether it was spelled out or abbreviated so that it is
// no other word ("Tues", "Weds", "Thur", "Thurs"; not "Sun", "Sat", "Wed", "Mon").
func (p *parser) weekday(i int) (w time.Weekday, next int, full, ok bool) {
	w, ok = weekdayNames[p.tok(i)]
	if !ok {
		return 0, i, false, false
	}
	return w, i + 1, strings.HasSuffix(p.tok(i), "day") || len(p.tok(i)) >= 4, true
}
