package timeexpr

// The pre-check: every expression any rule reads holds at least one trigger token (a token starting
// with a digit, or one of triggerWords), at or after the token it starts at. So matching can stop
// after the last trigger, and text without one (most stored memories) needs no rule at all.
// TestPrecheck runs every string in the tests through both paths, and FuzzFind compares them.

// triggerWords are the words of which every expression holds one, by rule: units, relative days,
// parts of days, vague phrases, conversational anchors, months, weekdays, seasons, holidays,
// ordinals and the words of parts of a period.
var triggerWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		// units (ago, rolling, in N units, N units before X, relUnit, partOf, "the month|year")
		"day", "days", "week", "weeks", "weekend", "month", "months", "year", "years",
		"hour", "hours", "minute", "minutes", "min", "mins", "second", "seconds", "fortnight",
		"fortnights",
		// relative days and parts of a day
		"today", "yesterday", "tomorrow", "tonight", "now", "night", "morning", "afternoon", "evening",
		// times of day without a digit ("at noon")
		"noon", "midday", "midnight",
		// vague phrases ("of late", "some time back", "moments ago", "earlier", "nowadays")
		"recently", "lately", "nowadays", "late", "ago", "back", "earlier",
		// conversational anchors and "this time last year"
		"first", "earliest", "last", "previous", "latest", "recent",
		// seasons and holidays without "day" in their name
		"spring", "summer", "autumn", "fall", "winter", "christmas", "xmas", "halloween", "nye",
		"easter", "thanksgiving", "juneteenth", "mayo",
		// "the holidays", "the holiday season", "the festive season"
		"holidays", "holiday", "festive",
		// quarters
		"quarter", "q1", "q2", "q3", "q4",
	} {
		m[w] = true
	}
	for w := range monthNames {
		m[w] = true
	}
	for w := range weekdayNames {
		m[w] = true
	}
	for w := range ordinalWords {
		m[w] = true
	}
	for w := range decadeWords {
		m[w] = true
	}
	return m
}()

// trigger reports whether token t can be the token every expression holds (see triggerWords).
func trigger(t token) bool {
	if !t.word {
		return false
	}
	if c := t.text[0]; c >= '0' && c <= '9' {
		return true
	}
	return triggerWords[t.text] || weekToken(t)
}

// weekToken reports whether t is a week number written as one token, "W46" or "KW46" (see
// weekNumber).
func weekToken(t token) bool {
	s := t.text
	if !t.upper || len(s) < 2 || len(s) > 4 {
		return false
	}
	if s[0] == 'k' {
		s = s[1:]
	}
	return len(s) >= 2 && len(s) <= 3 && s[0] == 'w' && s[1] >= '0' && s[1] <= '9'
}

// lastTrigger returns the index of the last trigger token, or -1.
func (p *parser) lastTrigger() int {
	for i := len(p.toks) - 1; i >= 0; i-- {
		if trigger(p.toks[i]) {
			return i
		}
	}
	return -1
}
