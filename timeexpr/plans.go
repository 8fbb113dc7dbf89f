package timeexpr

import (
	"strings"
	"time"
)

// Plans: in a clause about plans or the future ("What are Melanie's plans for the summer?", "I'll
// call you on Friday", "we're going to Rome in May") a date, month, season, holiday, weekday or
// weekend named without a year or last/this/next is the next one that has not ended, not the most
// recent one that has begun.

// planWords mark a clause as about the future. They are few on purpose: a wrong future reading
// moves a window a year on, so "want", "hope" and "expect" ("I want to know what I did in May")
// do not count.
var planWords = map[string]bool{
	"will": true, "ll": true, "shall": true, "gonna": true, "plan": true, "plans": true,
	"planning": true,
}

// saidWords are past tenses that pastWords (future.go) leaves out.
var saidWords = map[string]bool{
	"said": true, "told": true, "thought": true, "heard": true, "felt": true, "meant": true,
	"didn": true, "wasn": true, "weren": true, "hadn": true, "used": true,
}

// upcoming reports whether the clause before token i is about plans: back to the clause's start
// (a punctuation mark, at most 15 words) there is a plan word (will, 'll, won't, shall, gonna,
// going to, plan, plans, planning) and no past tense (was, did, had, said, a word ending in -ed,
// ...; see pastWords). A capitalised "Will" inside a sentence is a name.
func (p *parser) upcoming(i int) bool {
	plan := false
	for k := i - 1; k >= 0 && k >= i-15; k-- {
		t := p.toks[k]
		if !t.word {
			if strings.ContainsAny(t.text, ",.?!;:()\"“”") {
				break
			}
			continue
		}
		w := t.text
		switch {
		case w == "won" && p.is(k+1, "'", "’") && p.is(k+2, "t"):
			plan = true // won't
		case w == "going" && p.is(k+1, "to"):
			plan = true
		case w == "will" && t.upper && k > 0 && p.toks[k-1].word:
			// "I met Will in May": a name
		case planWords[w]:
			plan = true
		case pastWords[w] || saidWords[w] || (len(w) >= 4 && strings.HasSuffix(w, "ed") && !notPast[w]):
			return false
		}
	}
	return plan
}

// comingDay returns the first y-m-d, from this year on, that exists and is not before today,
// searching up to eight years (for February 29).
func (p *parser) comingDay(m time.Month, d int) (time.Time, bool) {
	today := p.today(0)
	for y := p.now.Year(); y < p.now.Year()+9; y++ {
		t, ok := p.validDate(y, m, d)
		if ok && !t.Before(today) {
			return t, true
		}
	}
	return time.Time{}, false
}

// comingMonth returns the year of the month m that has not ended: this one while under way, else
// the next.
func (p *parser) comingMonth(m time.Month) int {
	if p.now.Month() == m {
		return p.now.Year()
	}
	return p.monthYear(m, 1)
}

// comingSeason returns the year of the season starting in start that has not ended: the one under
// way, else the next.
func (p *parser) comingSeason(start time.Month) int {
	y := p.seasonYear(start, 2)
	if _, to := p.season(start, y); !to.After(p.now) {
		return p.seasonYear(start, 1)
	}
	return y
}
