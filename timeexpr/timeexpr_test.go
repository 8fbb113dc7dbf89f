package timeexpr

import (
	"strings"
	"testing"
	"time"
)

// The fixed clock: Wednesday 2023-10-25 14:00, in Berlin (CEST, four days before DST ends) and UTC.
func clocks(t *testing.T) map[string]time.Time {
	t.Helper()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatalf("load location: %v", err)
	}
	return map[string]time.Time{
		"Europe/Berlin": time.Date(2023, 10, 25, 14, 0, 0, 0, berlin),
		"UTC":           time.Date(2023, 10, 25, 14, 0, 0, 0, time.UTC),
	}
}

// at parses "2006-01-02" or "2006-01-02 15:04" in loc; "" is the zero time and "now" is now.
func at(t *testing.T, s string, now time.Time) time.Time {
	t.Helper()
	switch s {
	case "":
		return time.Time{}
	case "now":
		return now
	}
	layout := time.DateOnly
	if len(s) > 10 {
		layout = "2006-01-02 15:04"
	}
	v, err := time.ParseInLocation(layout, s, now.Location())
	if err != nil {
		t.Fatalf("bad test time %q: %v", s, err)
	}
	return v
}

type exactCase struct {
	in, expr, from, to string
}

var exactCases = []exactCase{
	// days
	{"what did we talk about today?", "today", "2023-10-25", "2023-10-26"},
	{"what did we talk about yesterday?", "yesterday", "2023-10-24", "2023-10-25"},
	{"Yesterday I said something", "Yesterday", "2023-10-24", "2023-10-25"},
	{"and on the day before yesterday", "on the day before yesterday", "2023-10-23", "2023-10-24"},
	{"day before yesterday", "day before yesterday", "2023-10-23", "2023-10-24"},
	{"tomorrow", "tomorrow", "2023-10-26", "2023-10-27"},
	{"the day after tomorrow", "the day after tomorrow", "2023-10-27", "2023-10-28"},
	{"what happened last night", "last night", "2023-10-24 18:00", "2023-10-25 06:00"},
	{"this morning I ate eggs", "this morning", "2023-10-25 05:00", "2023-10-25 12:00"},
	{"this afternoon", "this afternoon", "2023-10-25 12:00", "2023-10-25 18:00"},
	{"This evening", "This evening", "2023-10-25 17:00", "2023-10-26 00:00"},
	{"tonight", "tonight", "2023-10-25 18:00", "2023-10-26 06:00"},
	{"what did I say earlier today", "earlier today", "2023-10-25", "now"},
	{"yesterday morning", "yesterday morning", "2023-10-24 05:00", "2023-10-24 12:00"},
	{"yesterday in the afternoon", "yesterday in the afternoon", "2023-10-24 12:00", "2023-10-24 18:00"},
	{"3 days ago", "3 days ago", "2023-10-22", "2023-10-23"},
	{"three days ago we met", "three days ago", "2023-10-22", "2023-10-23"},
	{"a day ago", "a day ago", "2023-10-24", "2023-10-25"},
	{"twenty-one days ago", "twenty-one days ago", "2023-10-04", "2023-10-05"},
	{"10 days back", "10 days back", "2023-10-15", "2023-10-16"},
	// weeks, months, years
	{"last week", "last week", "2023-10-16", "2023-10-23"},
	{"during last week", "during last week", "2023-10-16", "2023-10-23"},
	{"this week", "this week", "2023-10-23", "2023-10-30"},
	{"next week", "next week", "2023-10-30", "2023-11-06"},
	{"the week before last", "the week before last", "2023-10-09", "2023-10-16"},
	{"earlier this week", "earlier this week", "2023-10-23", "now"},
	{"which restaurant did you recommend last month?", "last month", "2023-09-01", "2023-10-01"},
	{"this month", "this month", "2023-10-01", "2023-11-01"},
	{"next month", "next month", "2023-11-01", "2023-12-01"},
	{"the month before last", "the month before last", "2023-08-01", "2023-09-01"},
	{"last year", "last year", "2022-01-01", "2023-01-01"},
	{"this year", "this year", "2023-01-01", "2024-01-01"},
	{"earlier this year", "earlier this year", "2023-01-01", "now"},
	{"in the last week", "in the last week", "2023-10-18", "2023-10-26"},
	{"the past 3 days", "the past 3 days", "2023-10-22", "2023-10-26"},
	{"over the past two weeks", "over the past two weeks", "2023-10-11", "2023-10-26"},
	{"within the last month", "within the last month", "2023-09-25", "2023-10-26"},
	{"last 2 months", "last 2 months", "2023-08-25", "2023-10-26"},
	// weekends and weekdays (now is a Wednesday)
	{"last weekend", "last weekend", "2023-10-21", "2023-10-23"},
	{"this past weekend", "this past weekend", "2023-10-21", "2023-10-23"},
	{"this weekend", "this weekend", "2023-10-28", "2023-10-30"},
	{"next weekend", "next weekend", "2023-11-04", "2023-11-06"},
	{"what did we do over the weekend", "over the weekend", "2023-10-21", "2023-10-23"},
	{"on Monday", "on Monday", "2023-10-23", "2023-10-24"},
	{"what did I do Monday", "Monday", "2023-10-23", "2023-10-24"},
	{"last Monday", "last Monday", "2023-10-23", "2023-10-24"},
	{"on Wednesday", "on Wednesday", "2023-10-25", "2023-10-26"},
	{"last Wednesday", "last Wednesday", "2023-10-18", "2023-10-19"},
	{"on Thursday", "on Thursday", "2023-10-19", "2023-10-20"},
	{"this Friday", "this Friday", "2023-10-27", "2023-10-28"},
	{"next Monday", "next Monday", "2023-10-30", "2023-10-31"},
	{"Monday last week", "Monday last week", "2023-10-16", "2023-10-17"},
	{"on Friday of last week", "on Friday of last week", "2023-10-20", "2023-10-21"},
	{"Monday morning", "Monday morning", "2023-10-23 05:00", "2023-10-23 12:00"},
	{"last Friday night", "last Friday night", "2023-10-20 18:00", "2023-10-21 06:00"},
	{"on sat", "on sat", "2023-10-21", "2023-10-22"},
	// months
	{"in April", "in April", "2023-04-01", "2023-05-01"},
	{"in October", "in October", "2023-10-01", "2023-11-01"},
	{"in November", "in November", "2022-11-01", "2022-12-01"},
	{"in April 2023", "in April 2023", "2023-04-01", "2023-05-01"},
	{"April 2021", "April 2021", "2021-04-01", "2021-05-01"},
	{"during April of 2022", "during April of 2022", "2022-04-01", "2022-05-01"},
	{"in April last year", "in April last year", "2022-04-01", "2022-05-01"},
	{"last April", "last April", "2023-04-01", "2023-05-01"},
	{"last October", "last October", "2022-10-01", "2022-11-01"},
	{"this April", "this April", "2023-04-01", "2023-05-01"},
	{"next April", "next April", "2024-04-01", "2024-05-01"},
	{"in may", "in may", "2023-05-01", "2023-06-01"},
	{"in Sept.", "in Sept.", "2023-09-01", "2023-10-01"},
	{"early April", "early April", "2023-04-01", "2023-04-11"},
	{"in mid-May", "in mid-May", "2023-05-11", "2023-05-21"},
	{"late last month", "late last month", "2023-09-21", "2023-10-01"},
	{"at the end of February", "at the end of February", "2023-02-21", "2023-03-01"},
	{"the beginning of 2023", "the beginning of 2023", "2023-01-01", "2023-05-01"},
	// dates
	{"On May 4th I told you about a problem", "On May 4th", "2023-05-04", "2023-05-05"},
	{"May 4", "May 4", "2023-05-04", "2023-05-05"},
	{"4 May", "4 May", "2023-05-04", "2023-05-05"},
	{"May 4, 2023", "May 4, 2023", "2023-05-04", "2023-05-05"},
	{"on May 4 2022", "on May 4 2022", "2022-05-04", "2022-05-05"},
	{"the 4th of May", "the 4th of May", "2023-05-04", "2023-05-05"},
	{"on the fourth of July", "on the fourth of July", "2023-07-04", "2023-07-05"},
	{"May the 4th", "May the 4th", "2023-05-04", "2023-05-05"},
	{"July fourth", "July fourth", "2023-07-04", "2023-07-05"},
	{"twenty-first of June", "twenty-first of June", "2023-06-21", "2023-06-22"},
	{"4th May 2021", "4th May 2021", "2021-05-04", "2021-05-05"},
	{"on Oct 25", "on Oct 25", "2023-10-25", "2023-10-26"},
	{"on Oct 26", "on Oct 26", "2022-10-26", "2022-10-27"},
	{"Dec 31", "Dec 31", "2022-12-31", "2023-01-01"},
	{"Feb 29", "Feb 29", "2020-02-29", "2020-03-01"},
	{"Tuesday, May 2", "Tuesday, May 2", "2023-05-02", "2023-05-03"},
	{"what happened on the 4th?", "on the 4th", "2023-10-04", "2023-10-05"},
	{"on the 28th", "on the 28th", "2023-09-28", "2023-09-29"},
	{"2023-05-04", "2023-05-04", "2023-05-04", "2023-05-05"},
	{"on 2023/05/04.", "on 2023/05/04", "2023-05-04", "2023-05-05"},
	{"in 2023-05", "in 2023-05", "2023-05-01", "2023-06-01"},
	{"in 2022", "in 2022", "2022-01-01", "2023-01-01"},
	{"2023-05-04 10:30 was it", "2023-05-04 10:30", "2023-05-04 10:30", "2023-05-04 10:30"}, // To checked +1s below
	// seasons (October: summer has ended, autumn is under way)
	{"last summer", "last summer", "2023-06-01", "2023-09-01"},
	{"this summer", "this summer", "2023-06-01", "2023-09-01"},
	{"in summer", "in summer", "2023-06-01", "2023-09-01"},
	{"this spring", "this spring", "2023-03-01", "2023-06-01"},
	{"in winter", "in winter", "2022-12-01", "2023-03-01"},
	{"last winter", "last winter", "2022-12-01", "2023-03-01"},
	{"this winter", "this winter", "2023-12-01", "2024-03-01"},
	{"in the fall", "in the fall", "2023-09-01", "2023-12-01"},
	{"last autumn", "last autumn", "2022-09-01", "2022-12-01"},
	{"next summer", "next summer", "2024-06-01", "2024-09-01"},
	{"summer 2022", "summer 2022", "2022-06-01", "2022-09-01"},
	{"the summer of 2021", "the summer of 2021", "2021-06-01", "2021-09-01"},
	{"winter 2022", "winter 2022", "2022-12-01", "2023-03-01"},
	// ranges
	{"since March", "since March", "2023-03-01", "now"},
	{"since last week", "since last week", "2023-10-16", "now"},
	{"before May", "before May", "", "2023-05-01"},
	{"prior to May 4", "prior to May 4", "", "2023-05-04"},
	{"until yesterday", "until yesterday", "", "2023-10-25"},
	{"after June 3", "after June 3", "2023-06-04", ""},
	{"between April 1 and April 10", "between April 1 and April 10", "2023-04-01", "2023-04-11"},
	{"from April 1 to April 10", "from April 1 to April 10", "2023-04-01", "2023-04-11"},
	{"between May 1 and 5", "between May 1 and 5", "2023-05-01", "2023-05-06"},
	{"April 1-10", "April 1-10", "2023-04-01", "2023-04-11"},
	{"from 2023-04-01 to 2023-04-10", "from 2023-04-01 to 2023-04-10", "2023-04-01", "2023-04-11"},
	{"Dec 20 to Jan 5", "Dec 20 to Jan 5", "2022-12-20", "2023-01-06"},
	{"from Monday to Wednesday", "from Monday to Wednesday", "2023-10-23", "2023-10-26"},
	{"from last week", "from last week", "2023-10-16", "2023-10-23"},
	// times of day, holidays, extras
	{"yesterday at 3pm", "yesterday at 3pm", "2023-10-24 15:00", "2023-10-24 16:00"},
	{"at 3:30 p.m. yesterday", "at 3:30 p.m. yesterday", "2023-10-24 15:30", "2023-10-24 16:30"},
	{"15:00 on Monday", "15:00 on Monday", "2023-10-23 15:00", "2023-10-23 16:00"},
	{"on Monday at noon", "on Monday at noon", "2023-10-23 12:00", "2023-10-23 13:00"},
	{"at Christmas", "at Christmas", "2022-12-25", "2022-12-26"},
	{"last Christmas", "last Christmas", "2022-12-25", "2022-12-26"},
	{"on New Year's Eve", "on New Year's Eve", "2022-12-31", "2023-01-01"},
	{"Christmas 2021", "Christmas 2021", "2021-12-25", "2021-12-26"},
	{"next halloween", "next halloween", "2023-10-31", "2023-11-01"},
	{"on valentine's day", "on valentine's day", "2023-02-14", "2023-02-15"},
	{"the past fortnight", "the past fortnight", "2023-10-11", "2023-10-26"},
	{"back in 2021", "back in 2021", "2021-01-01", "2022-01-01"},
	{"the past weekend", "the past weekend", "2023-10-21", "2023-10-23"},
	// possessive
	{"in last week's meeting", "in last week's", "2023-10-16", "2023-10-23"},
}

func TestFindExact(t *testing.T) {
	for name, now := range clocks(t) {
		for _, c := range exactCases {
			m, ok := Find(c.in, now, now.Location())
			if !ok {
				t.Errorf("%s: Find(%q): no match", name, c.in)
				continue
			}
			if m.Kind != Exact || m.Expr != c.expr || c.in[m.Start:m.End] != m.Expr {
				t.Errorf("%s: Find(%q) = %v %q [%d:%d], want exact %q", name, c.in, m.Kind, m.Expr, m.Start, m.End, c.expr)
				continue
			}
			from, to := at(t, c.from, now), at(t, c.to, now)
			if strings.HasPrefix(c.expr, "2023-05-04 ") { // an ISO date-time is a one-second window
				to = to.Add(time.Second)
			}
			if !m.From.Equal(from) || !m.To.Equal(to) {
				t.Errorf("%s: Find(%q) = [%v, %v), want [%v, %v)", name, c.in, m.From, m.To, from, to)
			}
		}
	}
}

type vagueCase struct {
	in, expr string
	back     time.Duration // anchor = now - back (for calendar offsets see anchorDate)
	spread   time.Duration
}

var vagueCases = []vagueCase{
	{"what did I say a few days ago", "a few days ago", 3 * day, 2 * day},
	{"a couple of days ago", "a couple of days ago", 2 * day, day},
	{"a couple days ago", "a couple days ago", 2 * day, day},
	{"several days ago", "several days ago", 5 * day, 3 * day},
	{"recently", "recently", 0, 7 * day},
	{"what have we discussed lately?", "lately", 0, 7 * day},
	{"a while back", "a while back", 30 * day, 30 * day},
	{"a while ago", "a while ago", 30 * day, 30 * day},
	{"the other day", "the other day", 3 * day, 3 * day},
	{"what did you say earlier?", "earlier", 3 * time.Hour, 3 * time.Hour},
	{"a long time ago", "a long time ago", 365 * day, 365 * day},
	{"not long ago", "not long ago", 7 * day, 7 * day},
	{"two weeks ago", "two weeks ago", 14 * day, 4 * day},
	{"a week ago", "a week ago", 7 * day, 3 * day},
	{"3 weeks ago", "3 weeks ago", 21 * day, 5 * day},
	{"a few weeks ago", "a few weeks ago", 21 * day, 7 * day},
	{"an hour ago", "an hour ago", time.Hour, 30 * time.Minute},
	{"2 hours ago", "2 hours ago", 2 * time.Hour, time.Hour},
	{"10 minutes ago", "10 minutes ago", 10 * time.Minute, 5 * time.Minute},
	{"just now", "just now", 0, 10 * time.Minute},
	{"a fortnight ago", "a fortnight ago", 14 * day, 4 * day},
}

func TestFindVague(t *testing.T) {
	for name, now := range clocks(t) {
		for _, c := range vagueCases {
			m, ok := Find(c.in, now, now.Location())
			if !ok || m.Kind != Vague || m.Expr != c.expr {
				t.Errorf("%s: Find(%q) = %v %q, %v, want vague %q", name, c.in, m.Kind, m.Expr, ok, c.expr)
				continue
			}
			if want := now.Add(-c.back); !m.Anchor.Equal(want) || m.Spread != c.spread {
				t.Errorf("%s: Find(%q) anchor %v spread %v, want %v %v", name, c.in, m.Anchor, m.Spread, want, c.spread)
			}
			if m.From.IsZero() || m.To.IsZero() || !m.From.Before(m.To) || m.Anchor.Before(m.From) || !m.Anchor.Before(m.To) {
				t.Errorf("%s: Find(%q) window [%v, %v) does not hold anchor %v", name, c.in, m.From, m.To, m.Anchor)
			}
		}
	}
}

// Months and years back are calendar offsets (AddDate), not fixed durations.
func TestFindVagueCalendar(t *testing.T) {
	for name, now := range clocks(t) {
		for _, c := range []struct {
			in     string
			anchor time.Time
			spread time.Duration
		}{
			{"5 months ago", now.AddDate(0, -5, 0), 35 * day},
			{"a month ago", now.AddDate(0, -1, 0), 15 * day},
			{"two years ago", now.AddDate(-2, 0, 0), 120 * day},
			{"around May 4th", at(t, "2023-05-04 12:00", now), 2 * day},
			{"this time last year", now.AddDate(-1, 0, 0), 14 * day},
		} {
			m, ok := Find(c.in, now, now.Location())
			if !ok || m.Kind != Vague || !m.Anchor.Equal(c.anchor) || m.Spread != c.spread {
				t.Errorf("%s: Find(%q) = %v %v %v, want vague %v %v", name, c.in, m.Kind, m.Anchor, m.Spread, c.anchor, c.spread)
			}
		}
	}
}

func TestFindAnchors(t *testing.T) {
	now := clocks(t)["UTC"]
	for _, c := range []struct {
		in, expr string
		kind     Kind
	}{
		{"what did we talk about in our first conversation?", "in our first conversation", AnchorFirst},
		{"the first time we talked", "the first time we talked", AnchorFirst},
		{"the first time we spoke, you said", "the first time we spoke", AnchorFirst},
		{"when we first met", "when we first met", AnchorFirst},
		{"when we first talked about Go", "when we first talked", AnchorFirst},
		{"the first time you and I talked", "the first time you and I talked", AnchorFirst},
		{"what did I tell you the first time?", "the first time", AnchorFirst},
		{"our very first chat", "our very first chat", AnchorFirst},
		{"what did you say last time?", "last time", AnchorLast},
		{"did we talk last time about paris?", "last time", AnchorLast},
		{"the last time we talked", "the last time we talked", AnchorLast},
		{"the last time I talked to you", "the last time I talked to you", AnchorLast},
		{"in our last conversation", "in our last conversation", AnchorLast},
		{"last conversation", "last conversation", AnchorLast},
		{"what was discussed in our previous chat", "in our previous chat", AnchorLast},
		{"our most recent session", "our most recent session", AnchorLast},
		{"when did we last speak", "we last speak", AnchorLast},
		// an exact window beats an anchor that comes later, and an anchor beats a vague expression
		{"recently, in our first conversation", "in our first conversation", AnchorFirst},
	} {
		m, ok := Find(c.in, now, time.UTC)
		if !ok || m.Kind != c.kind || m.Expr != c.expr || !m.From.IsZero() || !m.To.IsZero() {
			t.Errorf("Find(%q) = %v %q %v, want %v %q", c.in, m.Kind, m.Expr, ok, c.kind, c.expr)
		}
	}
}

func TestFindPrefersExact(t *testing.T) {
	now := clocks(t)["UTC"]
	m, ok := Find("a few days ago I mentioned what happened on May 4th", now, time.UTC)
	if !ok || m.Kind != Exact || m.Expr != "on May 4th" {
		t.Fatalf("got %v %q, want the exact date", m.Kind, m.Expr)
	}
	m, ok = Find("yesterday and last week", now, time.UTC)
	if !ok || m.Expr != "yesterday" {
		t.Fatalf("got %q, want the first exact expression", m.Expr)
	}
}

func TestFindFalsePositives(t *testing.T) {
	now := clocks(t)["UTC"]
	for _, in := range []string{
		"May I ask you something?",
		"I may have told you about it",
		"you may 4 times",
		"we march on",
		"I want to march in the parade",
		"March 3 days later",
		"the march of time",
		"I saw Sunday Times",
		"Black Friday deals",
		"every Monday",
		"on Mondays",
		"on a second thought",
		"wait a second",
		"second week",
		"first of all",
		"I have 42 apples",
		"2022",
		"4th",
		"the 4th item",
		"on the 4th floor",
		"on the second try",
		"I sat down",
		"the sun was out",
		"I fall down",
		"spring cleaning",
		"the last time I went running",
		"last time I checked",
		"I tried sushi for the first time",
		"next time",
		"an earlier version",
		"in a second",
		"I'll be there in 5",
		"2023-13-01",
		"2023-02-30",
		"Feb 29, 2023",
		"10:30",
		"in the morning",
		"the last meeting with my boss",
		"Mayday",
		"the Christmas tree",
		"I said 3pm",
		"meet at 12",
		"",
	} {
		if m, ok := Find(in, now, time.UTC); ok {
			t.Errorf("Find(%q) = %v %q, want no match", in, m.Kind, m.Expr)
		}
	}
}

// Days are calendar days in the location: across a DST change they are 23 or 25 hours long.
func TestDST(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	// DST ended on Sunday 2023-10-29 at 03:00 CEST.
	now := time.Date(2023, 10, 30, 10, 0, 0, 0, berlin)
	for _, c := range []struct {
		in       string
		from, to time.Time
		hours    float64
	}{
		{"yesterday", time.Date(2023, 10, 29, 0, 0, 0, 0, berlin), time.Date(2023, 10, 30, 0, 0, 0, 0, berlin), 25},
		{"last week", time.Date(2023, 10, 23, 0, 0, 0, 0, berlin), time.Date(2023, 10, 30, 0, 0, 0, 0, berlin), 7*24 + 1},
		{"last weekend", time.Date(2023, 10, 28, 0, 0, 0, 0, berlin), time.Date(2023, 10, 30, 0, 0, 0, 0, berlin), 49},
		{"2 days ago", time.Date(2023, 10, 28, 0, 0, 0, 0, berlin), time.Date(2023, 10, 29, 0, 0, 0, 0, berlin), 24},
	} {
		m, ok := Find(c.in, now, berlin)
		if !ok || !m.From.Equal(c.from) || !m.To.Equal(c.to) || m.To.Sub(m.From).Hours() != c.hours {
			t.Errorf("Find(%q) = [%v, %v), want [%v, %v) of %vh", c.in, m.From, m.To, c.from, c.to, c.hours)
		}
	}
	// DST began on Sunday 2023-03-26 at 02:00 CET.
	now = time.Date(2023, 3, 27, 10, 0, 0, 0, berlin)
	m, ok := Find("yesterday", now, berlin)
	if !ok || m.To.Sub(m.From) != 23*time.Hour || m.From.Day() != 26 {
		t.Errorf("yesterday across spring DST = [%v, %v)", m.From, m.To)
	}
	m, ok = Find("last night", now, berlin)
	if !ok || !m.From.Equal(time.Date(2023, 3, 26, 18, 0, 0, 0, berlin)) || !m.To.Equal(time.Date(2023, 3, 27, 6, 0, 0, 0, berlin)) {
		t.Errorf("last night = [%v, %v)", m.From, m.To)
	}
}

// Weekday and season edge cases at other clocks.
func TestFindOtherClocks(t *testing.T) {
	utc := func(y int, mo time.Month, d int) time.Time { return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		now      time.Time
		in       string
		from, to time.Time
	}{
		// today is Monday: "on Monday" is today, "last Monday" a week ago
		{time.Date(2023, 10, 23, 9, 0, 0, 0, time.UTC), "on Monday", utc(2023, 10, 23), utc(2023, 10, 24)},
		{time.Date(2023, 10, 23, 9, 0, 0, 0, time.UTC), "last Monday", utc(2023, 10, 16), utc(2023, 10, 17)},
		// today is Sunday: "this weekend" is now, "last weekend" the one before
		{time.Date(2023, 10, 29, 9, 0, 0, 0, time.UTC), "this weekend", utc(2023, 10, 28), utc(2023, 10, 30)},
		{time.Date(2023, 10, 29, 9, 0, 0, 0, time.UTC), "last weekend", utc(2023, 10, 21), utc(2023, 10, 23)},
		{time.Date(2023, 10, 29, 9, 0, 0, 0, time.UTC), "over the weekend", utc(2023, 10, 28), utc(2023, 10, 30)},
		// in July "last summer" is last year's, "this summer" the current one
		{time.Date(2023, 7, 10, 9, 0, 0, 0, time.UTC), "last summer", utc(2022, 6, 1), utc(2022, 9, 1)},
		{time.Date(2023, 7, 10, 9, 0, 0, 0, time.UTC), "this summer", utc(2023, 6, 1), utc(2023, 9, 1)},
		// in February winter is under way
		{time.Date(2024, 2, 10, 9, 0, 0, 0, time.UTC), "this winter", utc(2023, 12, 1), utc(2024, 3, 1)},
		{time.Date(2024, 2, 10, 9, 0, 0, 0, time.UTC), "in winter", utc(2023, 12, 1), utc(2024, 3, 1)},
		{time.Date(2024, 2, 10, 9, 0, 0, 0, time.UTC), "last winter", utc(2022, 12, 1), utc(2023, 3, 1)},
		// in March "this summer" is still to come
		{time.Date(2024, 3, 10, 9, 0, 0, 0, time.UTC), "this summer", utc(2024, 6, 1), utc(2024, 9, 1)},
		// in April "in April" is this April; in January "last month" is December
		{time.Date(2023, 4, 10, 9, 0, 0, 0, time.UTC), "in April", utc(2023, 4, 1), utc(2023, 5, 1)},
		{time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC), "last month", utc(2023, 12, 1), utc(2024, 1, 1)},
		// early January: yearless ranges across the year end
		{time.Date(2024, 1, 2, 9, 0, 0, 0, time.UTC), "between Dec 20 and Jan 1", utc(2023, 12, 20), utc(2024, 1, 2)},
		// a range whose end has not come yet this year moves forward, not back
		{time.Date(2023, 4, 5, 9, 0, 0, 0, time.UTC), "between April 1 and April 10", utc(2023, 4, 1), utc(2023, 4, 11)},
	} {
		m, ok := Find(c.in, c.now, time.UTC)
		if !ok || m.Kind != Exact || !m.From.Equal(c.from) || !m.To.Equal(c.to) {
			t.Errorf("at %v Find(%q) = %v [%v, %v), want [%v, %v)", c.now, c.in, m.Kind, m.From, m.To, c.from, c.to)
		}
	}
}

func TestNilLocationUsesNow(t *testing.T) {
	now := clocks(t)["Europe/Berlin"]
	m, ok := Find("yesterday", now, nil)
	if !ok || m.From.Location() != now.Location() || !m.From.Equal(time.Date(2023, 10, 24, 0, 0, 0, 0, now.Location())) {
		t.Fatalf("got %v", m.From)
	}
}

func TestStrip(t *testing.T) {
	now := clocks(t)["UTC"]
	for _, c := range []struct{ in, want string }{
		{"What did we do yesterday?", "What did we do?"},
		{"On May 4th I told you about a problem", "I told you about a problem"},
		{"which restaurant did you recommend last month?", "which restaurant did you recommend?"},
		{"Yesterday, what did we eat?", "what did we eat?"},
		{"what did we eat, yesterday?", "what did we eat?"},
		{"what did we talk about in our first conversation", "what did we talk about"},
		{"notes from   last week  about the trip", "notes about the trip"},
		{"yesterday", ""},
		{"tell me about last week's meeting", "tell me about meeting"},
	} {
		m, ok := Find(c.in, now, time.UTC)
		if !ok {
			t.Errorf("Find(%q): no match", c.in)
			continue
		}
		if got := Strip(c.in, m); got != c.want {
			t.Errorf("Strip(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Strip("keep  me ", Match{}); got != "keep  me " {
		t.Errorf("Strip with no match changed the text: %q", got)
	}
	if got := Strip("short", Match{Kind: Exact, Start: 3, End: 99}); got != "short" {
		t.Errorf("Strip with a foreign match changed the text: %q", got)
	}
}

func BenchmarkFind(b *testing.B) {
	now := time.Date(2023, 10, 25, 14, 0, 0, 0, time.UTC)
	text := "Hey, can you remind me which restaurant you recommended to me last month when we talked about the trip to Lisbon and the 4 hotels?"
	for b.Loop() {
		Find(text, now, time.UTC)
	}
}

// FindAll returns every expression, in order, as Find would read each.
func TestFindAll(t *testing.T) {
	now := clocks(t)["UTC"]
	text := "A few days ago I told you what happened on May 4th; yesterday and last week were quiet. May I ask?"
	ms := FindAll(text, now, time.UTC)
	var got []string
	for _, m := range ms {
		got = append(got, m.Kind.String()+" "+m.Expr)
		if text[m.Start:m.End] != m.Expr {
			t.Errorf("%q: offsets %d..%d do not hold it", m.Expr, m.Start, m.End)
		}
	}
	want := []string{"vague A few days ago", "exact on May 4th", "exact yesterday", "exact last week"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("FindAll = %q, want %q", got, want)
	}
	if y := ms[2]; !y.From.Equal(at(t, "2023-10-24", now)) || !y.To.Equal(at(t, "2023-10-25", now)) {
		t.Errorf("yesterday = %v..%v", y.From, y.To)
	}
	if FindAll("nothing to see here", now, time.UTC) != nil {
		t.Error("FindAll of text without a time expression is not empty")
	}
}
