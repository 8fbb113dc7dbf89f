package timeexpr

import (
	"testing"
	"time"
)

// The clocks are Wednesday 2023-10-25 14:00 (see clocks).

// "How many days ago ...?" and "how long ago ...?" ask for a time; they restrict none. "many years
// ago" in a statement stays vague.
func TestFindHowManyAgo(t *testing.T) {
	checkNone(t, []string{
		"How many days ago did I buy the car?",
		"How many weeks ago did I start yoga?",
		"how many months ago did we move to Lisbon?",
		"how many years ago did I graduate",
		"how long ago did I buy the car?",
		"How many days ago",
		"how many hours back did you say that?",
		"how many fortnights ago",
	}, Options{})
	for name, now := range clocks(t) {
		for _, c := range []struct{ in, expr string }{
			{"I met him many years ago", "years ago"},
			{"a long time ago, I was told", "a long time ago"},
			{"so long ago", "long ago"},
		} {
			if m, ok := Find(c.in, now, now.Location()); !ok || m.Kind != Vague || m.Expr != c.expr {
				t.Errorf("%s: Find(%q) = %v %q, want vague %q", name, c.in, m.Kind, m.Expr, c.expr)
			}
		}
	}
	// a count of units ago after "how many" in another clause is still read
	checkExact(t, []exactCase{
		{"how many did I buy 3 days ago?", "3 days ago", "2023-10-22", "2023-10-23"},
	}, Options{})
}

// A half is counted in a smaller unit where one fits (half a year is 6 months, with the spread of
// "6 months ago"); half a month is 15 days, half a week 3.5 days. "1.5 years" is never "5 years".
func TestFindHalves(t *testing.T) {
	for name, now := range clocks(t) {
		for _, c := range []struct {
			in, expr string
			anchor   time.Time
			spread   time.Duration
		}{
			{"half a year ago", "half a year ago", now.AddDate(0, -6, 0), 40 * day},
			{"a half year ago", "a half year ago", now.AddDate(0, -6, 0), 40 * day},
			{"I moved here a year and a half ago", "a year and a half ago", now.AddDate(0, -18, 0), 60 * day},
			{"one and a half years ago", "one and a half years ago", now.AddDate(0, -18, 0), 60 * day},
			{"1.5 years ago", "1.5 years ago", now.AddDate(0, -18, 0), 60 * day},
			{"2.5 years back", "2.5 years back", now.AddDate(0, -30, 0), 60 * day},
			{"two and a half weeks ago", "two and a half weeks ago", now.AddDate(0, 0, -17).Add(-12 * time.Hour), 9 * day / 2},
			{"a week and a half ago", "a week and a half ago", now.AddDate(0, 0, -10).Add(-12 * time.Hour), 7 * day / 2},
			{"a month and a half ago", "a month and a half ago", now.AddDate(0, -1, -15), 35 * day / 2},
			{"half an hour ago", "half an hour ago", now.Add(-30 * time.Minute), 15 * time.Minute},
			{"an hour and a half ago", "an hour and a half ago", now.Add(-90 * time.Minute), 45 * time.Minute},
			{"a day and a half ago", "a day and a half ago", now.Add(-36 * time.Hour), 12 * time.Hour},
			{"a fortnight and a half ago", "a fortnight and a half ago", now.AddDate(0, 0, -21), 5 * day},
			{"in half an hour", "in half an hour", now.Add(30 * time.Minute), 15 * time.Minute},
			{"we'll move in a year and a half", "in a year and a half", now.AddDate(0, 18, 0), 60 * day},
			{"a year and a half from now", "a year and a half from now", now.AddDate(0, 18, 0), 60 * day},
		} {
			m, ok := Find(c.in, now, now.Location())
			if !ok || m.Kind != Vague || m.Expr != c.expr || !m.Anchor.Equal(c.anchor) || m.Spread != c.spread {
				t.Errorf("%s: Find(%q) = %v %q %v ±%v, want vague %q %v ±%v", name, c.in, m.Kind, m.Expr, m.Anchor, m.Spread, c.expr, c.anchor, c.spread)
			}
		}
	}
	checkNone(t, []string{
		"1.25 years ago", // a decimal that is not a half: not "25 years ago"
		"version 1.2 days ago",
		"in half a minute",
		"I ran it in an hour and a half",
		"half a cake ago",
		"the second half of the game",
	}, Options{})
	checkExact(t, []exactCase{
		{"3 days ago", "3 days ago", "2023-10-22", "2023-10-23"},
		{"v2 was out 3 days ago", "3 days ago", "2023-10-22", "2023-10-23"},
	}, Options{})
}
