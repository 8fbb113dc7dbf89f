package timeexpr

import (
	"testing"
	"time"
)

// checkExact runs exact cases at both fixed clocks (see clocks) with options.
func checkExact(t *testing.T, cases []exactCase, opt Options) {
	t.Helper()
	checkExactAt(t, clocks(t), cases, opt)
}

// checkExactAt is checkExact at the given clocks, each in its own location.
func checkExactAt(t *testing.T, nows map[string]time.Time, cases []exactCase, opt Options) {
	t.Helper()
	for name, now := range nows {
		o := opt
		o.Location = now.Location()
		for _, c := range cases {
			m, ok := FindWith(c.in, now, o)
			if !ok {
				t.Errorf("%s: Find(%q): no match", name, c.in)
				continue
			}
			if m.Kind != Exact || m.Expr != c.expr || c.in[m.Start:m.End] != m.Expr {
				t.Errorf("%s: Find(%q) = %v %q, want exact %q", name, c.in, m.Kind, m.Expr, c.expr)
				continue
			}
			if from, to := at(t, c.from, now), at(t, c.to, now); !m.From.Equal(from) || !m.To.Equal(to) {
				t.Errorf("%s: Find(%q) = [%v, %v), want [%v, %v)", name, c.in, m.From, m.To, from, to)
			}
		}
	}
}

// checkNone asserts that none of ins holds a time expression, at both clocks.
func checkNone(t *testing.T, ins []string, opt Options) {
	t.Helper()
	checkNoneAt(t, clocks(t), ins, opt)
}

// checkNoneAt is checkNone at the given clocks.
func checkNoneAt(t *testing.T, nows map[string]time.Time, ins []string, opt Options) {
	t.Helper()
	for name, now := range nows {
		o := opt
		o.Location = now.Location()
		for _, in := range ins {
			if ms := FindAllWith(in, now, o); len(ms) > 0 {
				t.Errorf("%s: FindAll(%q) = %v, want none", name, in, ms)
			}
		}
	}
}

// A full stop after a year or after "May" ends the sentence: it is not part of the expression
// ("May" is never abbreviated; "Sept." is).
func TestFindSentenceEnd(t *testing.T) {
	checkExact(t, []exactCase{
		{"I moved in 2022.", "in 2022", "2022-01-01", "2023-01-01"},
		{"We met in May.", "in May", "2023-05-01", "2023-06-01"},
		{"We met in Sept.", "in Sept.", "2023-09-01", "2023-10-01"},
	}, Options{})
}

// The clocks are Wednesday 2023-10-25 14:00; November has not come yet this year.
var partCases = []exactCase{
	{"in the second week of November", "in the second week of November", "2022-11-08", "2022-11-15"},
	{"the first week of May", "the first week of May", "2023-05-01", "2023-05-08"},
	{"during the last week of June 2023", "during the last week of June 2023", "2023-06-24", "2023-07-01"},
	{"the last week of February 2024", "the last week of February 2024", "2024-02-23", "2024-03-01"},
	{"the fourth week of October", "the fourth week of October", "2023-10-22", "2023-10-29"},
	{"the last week of October", "the last week of October", "2023-10-25", "2023-11-01"},
	{"the 2nd week of March", "the 2nd week of March", "2023-03-08", "2023-03-15"},
	{"the first week of next month", "the first week of next month", "2023-11-01", "2023-11-08"},
	{"in the first week of the year", "in the first week of the year", "2023-01-01", "2023-01-08"},
	{"the last week of the year", "the last week of the year", "2023-12-25", "2024-01-01"},
	{"the first half of 2023", "the first half of 2023", "2023-01-01", "2023-07-01"},
	{"the second half of last year", "the second half of last year", "2022-07-01", "2023-01-01"},
	{"the second half of May", "the second half of May", "2023-05-16", "2023-06-01"},
	{"the first half of the month", "the first half of the month", "2023-10-01", "2023-10-16"},
	{"the first few days of May", "the first few days of May", "2023-05-01", "2023-05-06"},
	{"the last few days of May", "the last few days of May", "2023-05-27", "2023-06-01"},
	{"the last few days of February 2024", "the last few days of February 2024", "2024-02-25", "2024-03-01"},
	{"at the end of the year", "at the end of the year", "2023-09-01", "2024-01-01"},
	{"the beginning of the month", "the beginning of the month", "2023-10-01", "2023-10-11"},
	{"Where was Dave in the last two weeks of August 2023?", "in the last two weeks of August 2023", "2023-08-18", "2023-09-01"},
	{"the first 10 days of May", "the first 10 days of May", "2023-05-01", "2023-05-11"},
	{"the first two weeks of 2023", "the first two weeks of 2023", "2023-01-01", "2023-01-15"},
	{"the last 10 days of the year", "the last 10 days of the year", "2023-12-22", "2024-01-01"},
	{"the first two months of 2023", "the first two months of 2023", "2023-01-01", "2023-03-01"},
	{"the last three months of the year", "the last three months of the year", "2023-10-01", "2024-01-01"},
	{"the last 31 days of May", "the last 31 days of May", "2023-05-01", "2023-06-01"},
	{"on the last day of February 2024", "on the last day of February 2024", "2024-02-29", "2024-03-01"},
	{"the first day of the year", "the first day of the year", "2023-01-01", "2023-01-02"},
}

func TestFindPartsOf(t *testing.T) {
	checkExact(t, partCases, Options{})
	checkNone(t, []string{
		"the first week of school",
		"the second half of the game",
		"the first few days of school",
		"the fifth week of May",
		"first half",
		"the first 2 months of May",
		"the first two weeks of school",
		"the last day of school",
		"the last week of school",
		"the past two weeks of rain",
	}, Options{})
}

// Wednesday 2023-10-25: last Friday was Oct 20, next Monday is Oct 30, Christmas without a year is
// 2022's (a Sunday), May 4 2023 was a Thursday.
var relativeCases = []exactCase{
	{"the week before 16 October 2023", "the week before 16 October 2023", "2023-10-09", "2023-10-16"},
	{"in the week before 16 November 2022", "in the week before 16 November 2022", "2022-11-09", "2022-11-16"},
	{"the day before May 4", "the day before May 4", "2023-05-03", "2023-05-04"},
	{"on the day after Christmas", "on the day after Christmas", "2022-12-26", "2022-12-27"},
	{"the week after May 4", "the week after May 4", "2023-05-05", "2023-05-12"},
	{"the week after October 25", "the week after October 25", "2023-10-26", "2023-11-02"},
	{"the weekend before Christmas", "the weekend before Christmas", "2022-12-17", "2022-12-19"},
	{"the weekend after May 4", "the weekend after May 4", "2023-05-06", "2023-05-08"},
	{"the weekend before 28 October 2023", "the weekend before 28 October 2023", "2023-10-21", "2023-10-23"},
	{"the weekend after 20 October 2023", "the weekend after 20 October 2023", "2023-10-21", "2023-10-23"},
	{"the weekend of 28 October 2023", "the weekend of 28 October 2023", "2023-10-28", "2023-10-30"},
	{"the weekend of May 4", "the weekend of May 4", "2023-05-06", "2023-05-08"},
	{"the week of May 4", "the week of May 4", "2023-05-01", "2023-05-08"},
	{"during the week of 29 October 2023", "during the week of 29 October 2023", "2023-10-23", "2023-10-30"},
	{"the week after the week of May 4", "the week after the week of May 4", "2023-05-08", "2023-05-15"},
	{"the Friday before last", "the Friday before last", "2023-10-13", "2023-10-14"},
	{"Friday before last", "Friday before last", "2023-10-13", "2023-10-14"},
	{"the Monday after next", "the Monday after next", "2023-11-06", "2023-11-07"},
	{"the Friday before Christmas", "the Friday before Christmas", "2022-12-23", "2022-12-24"},
	{"the Monday after Christmas", "the Monday after Christmas", "2022-12-26", "2022-12-27"},
	{"the weekend before last", "the weekend before last", "2023-10-14", "2023-10-16"},
	{"the weekend after next", "the weekend after next", "2023-11-11", "2023-11-13"},
	{"the week after next", "the week after next", "2023-11-06", "2023-11-13"},
	{"the month after next", "the month after next", "2023-12-01", "2024-01-01"},
	{"the night before last", "the night before last", "2023-10-23 18:00", "2023-10-24 06:00"},
	{"the night before Christmas", "the night before Christmas", "2022-12-24 18:00", "2022-12-25 06:00"},
	{"3 days before May 4", "3 days before May 4", "2023-05-01", "2023-05-02"},
	{"two days after May 4", "two days after May 4", "2023-05-06", "2023-05-07"},
	{"a week after May 4", "a week after May 4", "2023-05-11", "2023-05-12"},
	{"2 weeks before Christmas", "2 weeks before Christmas", "2022-12-11", "2022-12-12"},
	{"3 days from now", "3 days from now", "2023-10-28", "2023-10-29"},
	{"a week from today", "a week from today", "2023-11-01", "2023-11-02"},
	{"a week from tomorrow", "a week from tomorrow", "2023-11-02", "2023-11-03"},
	{"two weeks from Friday", "two weeks from Friday", "2023-11-10", "2023-11-11"},
	{"a weekend ago", "a weekend ago", "2023-10-21", "2023-10-23"},
	{"two weekends ago", "two weekends ago", "2023-10-14", "2023-10-16"},
	{"three weekends ago", "three weekends ago", "2023-10-07", "2023-10-09"},
	{"a week ago Monday", "a week ago Monday", "2023-10-16", "2023-10-17"},
	{"two weeks ago Friday", "two weeks ago Friday", "2023-10-06", "2023-10-07"},
	// the plain operators still work
	{"before May 4", "before May 4", "", "2023-05-04"},
	{"the day before yesterday", "the day before yesterday", "2023-10-23", "2023-10-24"},
	{"the week before last", "the week before last", "2023-10-09", "2023-10-16"},
}

func TestFindRelative(t *testing.T) {
	checkExact(t, relativeCases, Options{})
	checkNone(t, []string{
		"the day before I left",
		"a week after we met",
		"the week of hell",
		"the night after the party",
		"the sun before noon",
		"every day after work",
	}, Options{})
}

// At other clocks: on a Saturday the weekend under way has not ended, so "a weekend ago" is the
// previous one; "the Friday before last" is one week before last Friday.
func TestFindRelativeOtherClocks(t *testing.T) {
	utc := func(y int, mo time.Month, d int) time.Time { return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC) }
	sat := time.Date(2023, 10, 28, 9, 0, 0, 0, time.UTC)
	tue := time.Date(2023, 11, 21, 14, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		now      time.Time
		in       string
		from, to time.Time
	}{
		{sat, "a weekend ago", utc(2023, 10, 21), utc(2023, 10, 23)},
		{sat, "two weekends ago", utc(2023, 10, 14), utc(2023, 10, 16)},
		{sat, "the Friday before last", utc(2023, 10, 20), utc(2023, 10, 21)},
		{tue, "the Friday before last", utc(2023, 11, 10), utc(2023, 11, 11)},
		{tue, "two weekends ago", utc(2023, 11, 11), utc(2023, 11, 13)},
		{tue, "the week before 16 November 2023", utc(2023, 11, 9), utc(2023, 11, 16)},
		{tue, "in the second week of November", utc(2023, 11, 8), utc(2023, 11, 15)},
		{tue, "two weeks from Friday", utc(2023, 12, 8), utc(2023, 12, 9)},
		{tue, "the Monday after next", utc(2023, 12, 4), utc(2023, 12, 5)},
		// a range's end weekday comes after its start
		{tue, "from Monday to Wednesday", utc(2023, 11, 20), utc(2023, 11, 23)},
		{tue, "between Friday and Monday", utc(2023, 11, 17), utc(2023, 11, 21)},
		{tue, "from Monday to Sunday", utc(2023, 11, 20), utc(2023, 11, 27)},
	} {
		m, ok := Find(c.in, c.now, time.UTC)
		if !ok || m.Kind != Exact || !m.From.Equal(c.from) || !m.To.Equal(c.to) {
			t.Errorf("at %v Find(%q) = %v [%v, %v), want [%v, %v)", c.now, c.in, m.Kind, m.From, m.To, c.from, c.to)
		}
	}
}

var futureCases = []exactCase{
	{"in 2 days", "in 2 days", "2023-10-27", "2023-10-28"},
	{"In 2 days I ran 20 km", "In 2 days", "2023-10-27", "2023-10-28"},
	{"see you in 3 days", "in 3 days", "2023-10-28", "2023-10-29"},
	{"I'll finish it in 2 days", "in 2 days", "2023-10-27", "2023-10-28"},
	{"my exam is in four days", "in four days", "2023-10-29", "2023-10-30"},
	{"we fly to Rome in 5 days' time", "in 5 days' time", "2023-10-30", "2023-10-31"},
	{"the next 3 days", "the next 3 days", "2023-10-25", "2023-10-29"},
	{"over the next two weeks", "over the next two weeks", "2023-10-25", "2023-11-09"},
	{"in the next few days", "in the next few days", "2023-10-25", "2023-10-29"},
	{"next 3 days", "next 3 days", "2023-10-25", "2023-10-29"},
	{"next week", "next week", "2023-10-30", "2023-11-06"},
}

func TestFindFuture(t *testing.T) {
	checkExact(t, futureCases, Options{})
	checkNone(t, []string{
		"I'm in 3 bands",
		"I finished the book in 2 days",
		"I ran 20 km in 2 hours",
		"Rome wasn't built in a day",
		"I learned Go in a week",
		"she read it in three days",
		"back in a minute",
		"in a second",
		"in a few minutes",
		"in 3 parts",
	}, Options{})
	for name, now := range clocks(t) {
		for _, c := range []struct {
			in     string
			anchor time.Time
			spread time.Duration
		}{
			{"in three weeks", now.AddDate(0, 0, 21), 5 * day},
			{"in a month", now.AddDate(0, 1, 0), 15 * day},
			{"a week from now", now.AddDate(0, 0, 7), 3 * day},
			{"in two weeks' time", now.AddDate(0, 0, 14), 4 * day},
			{"in a week's time", now.AddDate(0, 0, 7), 3 * day},
			{"in a few days", now.Add(3 * day), 2 * day},
			{"in 2 hours", now.Add(2 * time.Hour), time.Hour},
			{"in 5 years", now.AddDate(5, 0, 0), 300 * day},
			{"a month after May 4", time.Date(2023, 6, 4, 12, 0, 0, 0, now.Location()), 15 * day},
		} {
			m, ok := Find(c.in, now, now.Location())
			if !ok || m.Kind != Vague || m.Expr != c.in || !m.Anchor.Equal(c.anchor) || m.Spread != c.spread {
				t.Errorf("%s: Find(%q) = %v %q %v ±%v, want vague %v ±%v", name, c.in, m.Kind, m.Expr, m.Anchor, m.Spread, c.anchor, c.spread)
				continue
			}
			if !m.From.Before(m.Anchor) || !m.Anchor.Before(m.To) {
				t.Errorf("%s: Find(%q) window [%v, %v) does not hold %v", name, c.in, m.From, m.To, m.Anchor)
			}
		}
	}
}

// New forms count calendar days in the location: windows across the end of summer time in Berlin
// (Sunday 2023-10-29) are an hour longer, across its start (2023-03-26) an hour shorter.
func TestDSTNewForms(t *testing.T) {
	now := clocks(t)["Europe/Berlin"]
	for _, c := range []struct {
		in    string
		hours float64
	}{
		{"the last week of October", 7*24 + 1},
		{"the last week of March", 7*24 - 1},
		{"the weekend of 28 October 2023", 49},
		{"the week after October 25", 7*24 + 1},
		{"the week of 29 October 2023", 7*24 + 1},
		{"the day after 28 October 2023", 25},
		{"in 4 days", 25},
		{"over the next two weeks", 15*24 + 1},
		{"the second half of March", 16*24 - 1},
	} {
		m, ok := Find(c.in, now, now.Location())
		if !ok || m.Kind != Exact || m.To.Sub(m.From).Hours() != c.hours || !midnight(m.From) || !midnight(m.To) {
			t.Errorf("Find(%q) = %v [%v, %v), want %vh from midnight to midnight", c.in, m.Kind, m.From, m.To, c.hours)
		}
	}
}

// Find prefers an expression fixed by a named date over one counted from now, and an exact one over
// a vague one; anchors rank with named dates; within a rank the earliest wins.
func TestFindChoosesNamed(t *testing.T) {
	checkExact(t, []exactCase{
		{"what happened yesterday and on May 4?", "on May 4", "2023-05-04", "2023-05-05"},
		{"what did we do last week, in May 2023?", "in May 2023", "2023-05-01", "2023-06-01"},
		{"the past 3 days or since March", "since March", "2023-03-01", "now"},
		{"last Friday, or the day before Christmas", "the day before Christmas", "2022-12-24", "2022-12-25"},
		{"yesterday and last week", "yesterday", "2023-10-24", "2023-10-25"},
		{"in 2022 and on May 4", "in 2022", "2022-01-01", "2023-01-01"},
		{"a few days ago, at the end of May", "at the end of May", "2023-05-21", "2023-06-01"},
	}, Options{})
	now := clocks(t)["UTC"]
	for _, c := range []struct {
		in, expr string
		kind     Kind
	}{
		{"recently, around May 4th", "around May 4th", Vague},
		{"in our first conversation on May 4 2023", "in our first conversation", AnchorFirst},
		{"on May 4 2023, in our first conversation", "on May 4 2023", Exact},
		{"yesterday, in our last conversation", "in our last conversation", AnchorLast},
	} {
		if m, ok := Find(c.in, now, time.UTC); !ok || m.Kind != c.kind || m.Expr != c.expr {
			t.Errorf("Find(%q) = %v %q, want %v %q", c.in, m.Kind, m.Expr, c.kind, c.expr)
		}
	}
}

// Questions from real use. The clocks are Wednesday 2023-10-25; 25 October 2022 was a Tuesday,
// 10 April 2023 a Monday.
var questionCases = []exactCase{
	{"the Sunday before October 25, 2022", "the Sunday before October 25, 2022", "2022-10-23", "2022-10-24"},
	{"what did we do last weekend before April 10, 2023?", "last weekend before April 10, 2023", "2023-04-08", "2023-04-10"},
	{"the last weekend before April 10, 2023", "the last weekend before April 10, 2023", "2023-04-08", "2023-04-10"},
	{"the weekend before April 10, 2023", "the weekend before April 10, 2023", "2023-04-08", "2023-04-10"},
	{"the last Friday before Christmas", "the last Friday before Christmas", "2022-12-23", "2022-12-24"},
	{"the first Monday after May 4", "the first Monday after May 4", "2023-05-08", "2023-05-09"},
	{"the next Friday after Christmas", "the next Friday after Christmas", "2022-12-30", "2022-12-31"},
	{"two weeks before August 11, 2023", "two weeks before August 11, 2023", "2023-07-28", "2023-07-29"},
	{"the week before August 3, 2023", "the week before August 3, 2023", "2023-07-27", "2023-08-03"},
	{"on December 1,2023", "on December 1,2023", "2023-12-01", "2023-12-02"},
	{"8th December, 2023", "8th December, 2023", "2023-12-08", "2023-12-09"},
	{"in the beginning of November 2022", "in the beginning of November 2022", "2022-11-01", "2022-11-11"},
	{"at the start of 2023", "at the start of 2023", "2023-01-01", "2023-05-01"},
	{"during the first half of September 2022", "during the first half of September 2022", "2022-09-01", "2022-09-16"},
	{"What kind of deal did John get in December?", "in December", "2022-12-01", "2023-01-01"},
	{"in summer 2021", "in summer 2021", "2021-06-01", "2021-09-01"},
	{"how many times did I run in 2023", "in 2023", "2023-01-01", "2024-01-01"},
}

func TestFindQuestions(t *testing.T) {
	checkExact(t, questionCases, Options{})
	checkNone(t, []string{
		"I went on holiday",
		"holiday plans",
		"the holidays were fun",
		"a holiday inn",
	}, Options{})
	for name, now := range clocks(t) {
		loc := now.Location()
		for _, in := range []string{"What did X do over the holidays?", "during the holiday season", "over the Christmas holidays", "for the festive season"} {
			m, ok := Find(in, now, loc)
			if want := time.Date(2022, 12, 28, 12, 0, 0, 0, loc); !ok || m.Kind != Vague || !m.Anchor.Equal(want) || m.Spread != 3*day ||
				!m.From.Equal(time.Date(2022, 12, 22, 0, 0, 0, 0, loc)) || !m.To.Equal(time.Date(2023, 1, 4, 0, 0, 0, 0, loc)) {
				t.Errorf("%s: Find(%q) = %v %v ±%v [%v, %v), want around %v", name, in, m.Kind, m.Anchor, m.Spread, m.From, m.To, want)
			}
		}
	}
	// in January "in December" is last month and "the holidays" the ones just past
	jan := time.Date(2024, 1, 21, 14, 0, 0, 0, time.UTC)
	if m, ok := Find("What kind of deal did John get in December?", jan, time.UTC); !ok || !m.From.Equal(time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("in December on 2024-01-21 = %v", m)
	}
	if m, ok := Find("over the holidays", jan, time.UTC); !ok || !m.Anchor.Equal(time.Date(2023, 12, 28, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("over the holidays on 2024-01-21 = %v", m)
	}
}
