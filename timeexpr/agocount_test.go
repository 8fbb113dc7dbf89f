package timeexpr

import (
	"testing"
	"time"
)

// The clocks are Wednesday 2023-10-25 14:00 (see clocks).

// "a week ago today" is the day a week back; it read as today. "on this day last year" is that
// date a year back; it read as all of last year.
func TestFindAgoToday(t *testing.T) {
	checkExact(t, []exactCase{
		{"a week ago today", "a week ago today", "2023-10-18", "2023-10-19"},
		{"what did I do a year ago today?", "a year ago today", "2022-10-25", "2022-10-26"},
		{"a month ago today", "a month ago today", "2023-09-25", "2023-09-26"},
		{"two weeks ago yesterday", "two weeks ago yesterday", "2023-10-10", "2023-10-11"},
		{"a week ago yesterday", "a week ago yesterday", "2023-10-17", "2023-10-18"},
		{"3 days ago today", "3 days ago today", "2023-10-22", "2023-10-23"},
		{"what happened on this day last year", "on this day last year", "2022-10-25", "2022-10-26"},
		{"this date last year", "this date last year", "2022-10-25", "2022-10-26"},
		{"the same day last week", "the same day last week", "2023-10-18", "2023-10-19"},
		{"same day last month", "same day last month", "2023-09-25", "2023-09-26"},
	}, Options{})
	for name, now := range clocks(t) {
		m, ok := Find("same time last week", now, now.Location())
		if want := now.AddDate(0, 0, -7); !ok || m.Kind != Vague || !m.Anchor.Equal(want) || m.Expr != "same time last week" {
			t.Errorf("%s: Find(same time last week) = %v, want vague around %v", name, m, want)
		}
	}
}

// "three or four days ago", "2-3 weeks ago", "a week or two ago" span both counts; they read as
// the larger alone ("a day or two ago" as nothing). "a month or so ago" is "a month ago".
func TestFindAgoRange(t *testing.T) {
	checkExact(t, []exactCase{
		{"three or four days ago", "three or four days ago", "2023-10-21", "2023-10-23"},
		{"2-3 days ago", "2-3 days ago", "2023-10-22", "2023-10-24"},
		{"2 - 3 days ago", "2 - 3 days ago", "2023-10-22", "2023-10-24"},
		{"two to three days ago", "two to three days ago", "2023-10-22", "2023-10-24"},
		{"I saw her a day or two ago", "a day or two ago", "2023-10-23", "2023-10-25"},
		{"a day or two back", "a day or two back", "2023-10-23", "2023-10-25"},
	}, Options{})
	for name, now := range clocks(t) {
		between := func(t1, t2 time.Time) time.Time { return t2.Add(t1.Sub(t2) / 2) }
		m1, m2 := now.AddDate(0, -1, 0), now.AddDate(0, -2, 0)
		y1, y2 := now.AddDate(-1, 0, 0), now.AddDate(-2, 0, 0)
		for _, c := range []struct {
			in, expr string
			anchor   time.Time
			spread   time.Duration
		}{
			{"2-3 weeks ago", "2-3 weeks ago", now.Add(-35 * day / 2), 5*day + 7*day/2},
			{"2 or 3 weeks ago", "2 or 3 weeks ago", now.Add(-35 * day / 2), 5*day + 7*day/2},
			{"a week or two ago", "a week or two ago", now.Add(-21 * day / 2), 4*day + 7*day/2},
			{"a month or two ago", "a month or two ago", between(m1, m2), 20*day + m1.Sub(m2)/2},
			{"a year or two back", "a year or two back", between(y1, y2), 120*day + y1.Sub(y2)/2},
			{"3-4 hours ago", "3-4 hours ago", now.Add(-210 * time.Minute), 2*time.Hour + 30*time.Minute},
			{"a week or so ago", "a week or so ago", now.AddDate(0, 0, -7), 3 * day},
			{"a month or so ago", "a month or so ago", now.AddDate(0, -1, 0), 15 * day},
			{"a couple of weeks or so ago", "a couple of weeks or so ago", now.AddDate(0, 0, -14), 4 * day},
		} {
			m, ok := Find(c.in, now, now.Location())
			if !ok || m.Kind != Vague || m.Expr != c.expr || !m.Anchor.Equal(c.anchor) || m.Spread != c.spread {
				t.Errorf("%s: Find(%q) = %v %q %v ±%v, want vague %q %v ±%v", name, c.in, m.Kind, m.Expr, m.Anchor, m.Spread, c.expr, c.anchor, c.spread)
			}
		}
	}
	checkNone(t, []string{
		"one or two days", // a duration
		"I ran 2-3 miles",
	}, Options{})
}

// "or so" after a count of days widens it by a day either side; "just under a month ago" is about
// a month ago, not the past month.
func TestFindAgoOrSo(t *testing.T) {
	checkExact(t, []exactCase{
		{"a day or so ago", "a day or so ago", "2023-10-23", "2023-10-26"},
		{"3 days or so ago", "3 days or so ago", "2023-10-21", "2023-10-24"},
	}, Options{})
	for name, now := range clocks(t) {
		m, ok := Find("just under a month ago", now, now.Location())
		if want := now.AddDate(0, -1, 0); !ok || m.Kind != Vague || !m.Anchor.Equal(want) {
			t.Errorf("%s: Find(just under a month ago) = %v, want vague around %v", name, m, want)
		}
	}
}

// "less than a week ago" is the past week; it read as around a week ago. "in recent weeks" is the
// past few weeks, and "earlier in the week" is "earlier this week"; they matched nothing.
func TestFindWithinAgo(t *testing.T) {
	checkExact(t, []exactCase{
		{"less than a week ago", "less than a week ago", "2023-10-18", "2023-10-26"},
		{"under a month ago", "under a month ago", "2023-09-25", "2023-10-26"},
		{"no more than 3 days ago", "no more than 3 days ago", "2023-10-22", "2023-10-26"},
		{"not more than two weeks ago", "not more than two weeks ago", "2023-10-11", "2023-10-26"},
		{"what have I read in recent weeks?", "in recent weeks", "2023-10-04", "2023-10-26"},
		{"over recent months", "over recent months", "2023-07-25", "2023-10-26"},
		{"in recent days", "in recent days", "2023-10-22", "2023-10-26"},
		{"what did I say earlier in the week?", "earlier in the week", "2023-10-23", "now"},
		{"earlier in the month", "earlier in the month", "2023-10-01", "now"},
		{"earlier in the year", "earlier in the year", "2023-01-01", "now"},
		{"what did I say earlier in the day", "earlier in the day", "2023-10-25", "now"},
	}, Options{})
	checkNone(t, []string{
		"my recent trip",
		"the most recent version",
	}, Options{})
}

// "around 3pm yesterday" is within hours of 3pm; it was ±2 days.
func TestFindAroundClock(t *testing.T) {
	for name, now := range clocks(t) {
		for _, c := range []struct {
			in, expr string
			anchor   string
			spread   time.Duration
		}{
			{"around 3pm yesterday", "around 3pm yesterday", "2023-10-24 15:00", time.Hour},
			{"at around 10am on Monday", "around 10am on Monday", "2023-10-23 10:00", time.Hour},
			{"around noon yesterday", "around noon yesterday", "2023-10-24 12:00", time.Hour},
		} {
			m, ok := Find(c.in, now, now.Location())
			if want := at(t, c.anchor, now); !ok || m.Kind != Vague || m.Expr != c.expr || !m.Anchor.Equal(want) || m.Spread != c.spread {
				t.Errorf("%s: Find(%q) = %v, want vague %q around %v ±%v", name, c.in, m, c.expr, want, c.spread)
			}
		}
	}
}

// "recent weeks" needs a preposition: "my recent weeks at the gym" may be any weeks.
func TestFindRecentNeedsPreposition(t *testing.T) {
	checkNone(t, []string{"my recent weeks at the gym", "recent years have been hard"}, Options{})
}
