package timeexpr

// decadeWords are the decades said in words, by their two digits.
var decadeWords = map[string]int{
	"noughties": 0, "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60,
	"seventies": 70, "eighties": 80, "nineties": 90,
}

// decadeToken reads a decade at token j: "90s", "1990s", "90's", "1990’s" or a word ("the
// nineties"). It returns the number written (90, 1990), how many digits it had (2 or 4; a word
// counts as 2) and the token after it.
func (p *parser) decadeToken(j int) (v, digits, next int, ok bool) {
	t := p.tok(j)
	if len(t) >= 7 && t[len(t)-4:] == "ties" { // every decade word ends so: skip the map for others
		if w, ok := decadeWords[t]; ok {
			return w, 2, j + 1, true
		}
		return 0, 0, j, false
	}
	next = j + 1
	switch {
	case (len(t) == 3 || len(t) == 5) && t[len(t)-1] == 's':
		t = t[:len(t)-1]
	case (len(t) == 2 || len(t) == 4) && p.is(j+1, "'", "’") && p.glued(j+1) && p.tok(j+2) == "s" && p.glued(j+2):
		next = j + 3 // "90's"
	default:
		return 0, 0, j, false
	}
	if v = digitsValue(t, 4); v < 0 || v%10 != 0 {
		return 0, 0, j, false
	}
	return v, len(t), next, true
}

// decade reads a decade: "the 90s", "the 1990s", "the '90s", "the 90's", "the nineties", "the
// early|mid|late 2000s" (also "the mid-90s"); a four-digit one also without "the" after a
// preposition or early/mid/late ("in 1990s", "early 1990s"). Two digits are the most recent such
// decade that has started ("the 20s" in 2026 are the 2020s, "the 30s" the 1930s). Early, mid and
// late are its years 0-3, 4-6 and 7-9. "my 30s" (an age) needs "the" to be read, "the 1900s"
// (a century) is not read, and neither is a decade followed by a unit ("the 90s days").
func (p *parser) decade(i int, ctx bool) (result, bool) {
	switch t := p.tok(i); {
	case t == "the", t == "early", t == "mid", t == "late":
	case t == "" || t[0] < '0' || t[0] > '9':
		return result{}, false // the cheap refusal of most words
	}
	j := p.opt(i, "the")
	the := j > i
	part := ""
	if p.is(j, "early", "mid", "late") {
		part, j = p.tok(j), p.opt(j+1, "-")
	}
	apos := p.is(j, "'", "’") && p.glued(j+1)
	if apos {
		j++
	}
	v, digits, next, ok := p.decadeToken(j)
	if !ok {
		return result{}, false
	}
	if u, _ := unitOf(p.tok(next)); u != "" || p.is(next, "%", "percent") {
		return result{}, false
	}
	y := v
	switch {
	case digits == 2 && the:
		y = p.now.Year()/100*100 + v
		if y > p.now.Year() {
			y -= 100
		}
	case digits == 4 && !apos && (the || ctx || part != "") && v >= 1000:
		if v%100 == 0 && v != 2000 {
			return result{}, false // "the 1900s" is a century
		}
	default:
		return result{}, false
	}
	from, to := y, y+10
	switch part {
	case "early":
		to = y + 4
	case "mid":
		from, to = y+4, y+7
	case "late":
		from = y + 7
	}
	return p.window(p.date(from, 1, 1), p.date(to, 1, 1), next), true
}
