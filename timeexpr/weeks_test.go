package timeexpr

import (
	"testing"
	"time"
)

// ISO 8601 week numbers at the fixed clocks (Wednesday 2023-10-25, in week 43 of 2023, which began
// on Monday January 2). Without a year the most recent such week that has started: week 43 is this
// one, week 44 last year's.
var weekNumberCases = []exactCase{
	{"what did I do in week 42", "in week 42", "2023-10-16", "2023-10-23"},
	{"week 43", "week 43", "2023-10-23", "2023-10-30"},
	{"in week 44", "in week 44", "2022-10-31", "2022-11-07"},
	{"Week 44 was busy", "Week 44", "2022-10-31", "2022-11-07"},
	{"during wk 40", "during wk 40", "2023-10-02", "2023-10-09"},
	{"in W7", "in W7", "2023-02-13", "2023-02-20"},
	{"the notes from W43", "from W43", "2023-10-23", "2023-10-30"},
	{"during W43", "during W43", "2023-10-23", "2023-10-30"},
	{"(in W07)", "in W07", "2023-02-13", "2023-02-20"},
	{"KW46", "KW46", "2022-11-14", "2022-11-21"},
	{"KW 46 2024", "KW 46 2024", "2024-11-11", "2024-11-18"},
	{"2023-W01", "2023-W01", "2023-01-02", "2023-01-09"},
	{"in 2020-W53.", "in 2020-W53", "2020-12-28", "2021-01-04"},
	{"2026-W46-3", "2026-W46-3", "2026-11-11", "2026-11-12"},
	{"on 2023-W01-1", "on 2023-W01-1", "2023-01-02", "2023-01-03"},
	{"week 46 of 2025", "week 46 of 2025", "2025-11-10", "2025-11-17"},
	{"week 46 2025", "week 46 2025", "2025-11-10", "2025-11-17"},
	{"in week 46, 2025", "in week 46, 2025", "2025-11-10", "2025-11-17"},
	{"week 1 of 2021", "week 1 of 2021", "2021-01-04", "2021-01-11"},
	{"week 12 last year", "week 12 last year", "2022-03-21", "2022-03-28"},
	{"week 53", "week 53", "2020-12-28", "2021-01-04"}, // the most recent year with one
	{"I'll be away in week 44", "in week 44", "2023-10-30", "2023-11-06"},
	{"between week 40 and week 42", "between week 40 and week 42", "2023-10-02", "2023-10-23"},
	{"since week 40", "since week 40", "2023-10-02", "now"},
	// a week of a year said with an ordinal counts days from January 1, as "the first week of
	// the year" and the weeks of a month do; the ISO week is "week 3 of 2023"
	{"the third week of 2023", "the third week of 2023", "2023-01-15", "2023-01-22"},
	{"in the second week of the year", "in the second week of the year", "2023-01-08", "2023-01-15"},
	{"week 3 of 2023", "week 3 of 2023", "2023-01-16", "2023-01-23"},
	{"week 3 of the year", "week 3 of the year", "2023-01-16", "2023-01-23"},
	// a week of a month is counted in days, as "the third week of May" ("3 of May" is not May 3)
	{"in week 3 of May", "in week 3 of May", "2023-05-15", "2023-05-22"},
	{"week 5 of May", "week 5 of May", "2023-05-29", "2023-06-01"},
	{"week 2 of last month", "week 2 of last month", "2023-09-08", "2023-09-15"},
}

func TestFindWeekNumber(t *testing.T) {
	checkExact(t, weekNumberCases, Options{})
	checkNone(t, []string{
		"week 3 of the course",
		"in week 3 of my diet",
		"it took 3 weeks",
		"the week 1 meeting",
		"my week 3 check-in",
		"the course's week 3",
		"I work 40 hours per week 2 of them at home",
		"week 3.5",
		"week 3-4",
		"week 54",
		"week 0",
		"week 3 days",
		"week 53 of 2023", // 2023 has 52
		"W46.txt",
		"x.W46",
		"w46",
		"W460",
		"my W2 form",
		"the W43 notes",
		"(W07)",
		"room W12",
		"upgrade to W10",
		"I bought a W12 engine",
		"2025-W53",
		"2023-W5",
		"2023-W01-8",
		"2023-W01x",
		"kw 46",
	}, Options{})
}

// Thursday 2026-11-19 15:30 UTC is in week 47 of 2026, a year of 53 weeks whose week 53 has not
// begun.
func TestFindWeekNumberNovember2026(t *testing.T) {
	now := time.Date(2026, 11, 19, 15, 30, 0, 0, time.UTC)
	utc := func(y int, mo time.Month, d int) time.Time { return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		in       string
		from, to time.Time
	}{
		{"week 46", utc(2026, 11, 9), utc(2026, 11, 16)},
		{"week 47", utc(2026, 11, 16), utc(2026, 11, 23)},
		{"week 48", utc(2025, 11, 24), utc(2025, 12, 1)},
		{"week 53", utc(2020, 12, 28), utc(2021, 1, 4)},
		{"2026-W53", utc(2026, 12, 28), utc(2027, 1, 4)},
		{"we will meet in week 53", utc(2026, 12, 28), utc(2027, 1, 4)},
	} {
		m, ok := Find(c.in, now, time.UTC)
		if !ok || m.Kind != Exact || !m.From.Equal(c.from) || !m.To.Equal(c.to) {
			t.Errorf("Find(%q) = %v, want [%v, %v)", c.in, m, c.from, c.to)
		}
	}
}

// isoMonday against the standard library's ISOWeek over two centuries.
func TestISOMonday(t *testing.T) {
	p := newParser("", time.Date(2023, 10, 25, 0, 0, 0, 0, time.UTC), Options{}, false)
	for y := 1950; y <= 2150; y++ {
		for w := 1; w <= weeksIn(y); w++ {
			m := isoMonday(p, y, w)
			if gy, gw := m.ISOWeek(); gy != y || gw != w || m.Weekday() != time.Monday {
				t.Fatalf("isoMonday(%d, %d) = %v, in week %d-W%02d", y, w, m, gy, gw)
			}
		}
		if _, w := time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC).ISOWeek(); w != 1 && w != weeksIn(y) {
			t.Fatalf("weeksIn(%d) = %d, December 31 is in week %d", y, weeksIn(y), w)
		}
	}
}
