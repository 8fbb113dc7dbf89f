package timeexpr

import "strings"

// Deadlines: "by X", "as of X", "as at X", "up to X", "up until X" are [open, end of X), as
// "until X" is.

// byVerbs are verbs whose particle "by" is no deadline: "I stopped by yesterday" is yesterday.
var byVerbs = map[string]bool{
	"come": true, "comes": true, "came": true, "coming": true, "stop": true, "stops": true,
	"stopped": true, "stopping": true, "drop": true, "drops": true, "dropped": true, "dropping": true,
	"swing": true, "swings": true, "swung": true, "swinging": true, "pop": true, "pops": true,
	"popped": true, "popping": true, "pass": true, "passes": true, "passed": true, "passing": true,
	"go": true, "goes": true, "went": true, "going": true, "gone": true, "walk": true, "walked": true,
	"walking": true, "drive": true, "drove": true, "driving": true, "driven": true, "run": true,
	"ran": true, "running": true, "fly": true, "flew": true, "flying": true, "stand": true,
	"stood": true, "standing": true, "get": true, "got": true, "getting": true, "sit": true,
	"sat": true, "sitting": true, "stay": true, "stayed": true, "call": true, "called": true,
	"head": true, "headed": true, "rode": true, "ride": true, "step": true, "stepped": true,
}

// upToBefore are words after which "up to" is what someone does ("what have you been up to
// lately?", "what did you get up to last weekend?"), not a deadline.
var upToBefore = map[string]bool{
	"be": true, "been": true, "being": true, "was": true, "were": true, "is": true, "are": true,
	"am": true, "s": true, "re": true, "m": true, "get": true, "got": true, "gets": true,
	"getting": true, "gotten": true,
}

// yearFollowers are the words that may follow a bare year after a deadline word: anything else
// makes it a quantity ("won by 2000 votes", "up to 1500 people").
var yearFollowers = map[string]bool{
	"and": true, "or": true, "but": true, "at": true, "in": true, "on": true, "when": true,
	"then": true, "so": true, "if": true, "i": true, "we": true, "you": true, "he": true, "she": true,
	"they": true, "it": true, "the": true, "my": true, "our": true, "your": true, "his": true,
	"her": true, "their": true, "this": true, "that": true, "there": true, "will": true,
}

// deadline reads "by X", "as of|at X", "up to X" and "up until|till X" at token i and returns X.
// "by" after a verb it is the particle of ("stopped by", "stand by") is not read, nor after a
// past participle when X is a bare month, season or holiday ("inspired by autumn"); "up to" needs
// a named X and no be or get before it; a bare year must not be followed by a noun.
func (p *parser) deadline(i int) (result, bool) {
	j := -1
	switch {
	case p.is(i, "by") && !byVerbs[p.tok(i-1)]:
		j = i + 1
	case p.is(i, "as") && p.is(i+1, "of", "at"):
		j = i + 2
	case p.is(i, "up") && p.is(i+1, "until", "till", "til"):
		j = i + 2
	case p.is(i, "up") && p.is(i+1, "to") && !upToBefore[p.tok(i-1)]:
		j = i + 2
	}
	if j < 0 {
		return result{}, false
	}
	x, ok := p.expr(j, true)
	if !ok || (p.is(i+1, "to") && !x.named) {
		return result{}, false
	}
	if x.end == j+1 && len(p.tok(j)) == 4 && p.num(j) >= 0 && x.end < len(p.toks) && p.toks[x.end].word && !yearFollowers[p.tok(x.end)] {
		return result{}, false // "won by 2000 votes"
	}
	if p.is(i, "by") && p.participle(i-1) && x.end == p.opt(j, "the")+1 && bareName(p.tok(x.end-1)) {
		return result{}, false // "inspired by autumn": who or what did it
	}
	return x, true
}

// doneWords are participles of getting something done, after which "by May" is a deadline.
var doneWords = map[string]bool{
	"done": true, "finished": true, "completed": true, "fixed": true, "repaired": true, "built": true,
	"delivered": true, "submitted": true, "paid": true, "shipped": true, "published": true,
	"released": true, "launched": true, "sorted": true, "booked": true, "settled": true,
	"prepared": true, "planned": true, "organized": true, "organised": true, "renovated": true,
	"moved": true, "packed": true, "sent": true, "made": true,
}

// participle reports whether token i looks like a past participle after which "by" names who or
// what did something ("inspired", "ravaged"), not one of getting something done (doneWords).
func (p *parser) participle(i int) bool {
	w := p.tok(i)
	return !doneWords[w] && (pastWords[w] || (len(w) >= 4 && strings.HasSuffix(w, "ed") && !notPast[w]))
}

// bareName reports whether w names a month, season or holiday on its own.
func bareName(w string) bool {
	_, month := monthNames[w]
	_, season := seasonStart[w]
	switch w {
	case "christmas", "xmas", "easter", "halloween", "thanksgiving":
		return true
	}
	return month || season
}
