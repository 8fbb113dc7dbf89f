package timeexpr

import (
	"fmt"
	"testing"
	"time"
)

// The clocks are Wednesday 2023-10-25 14:00 (see clocks).

// A holiday's break, vacation or holidays is longer than its day: "during Christmas break" read
// as December 25 alone, "over the Christmas break" as nothing.
func TestFindHolidayBreak(t *testing.T) {
	for name, now := range clocks(t) {
		for _, c := range []struct {
			in, expr string
			anchor   string
			spread   time.Duration
		}{
			{"during Christmas break", "during Christmas break", "2022-12-28 12:00", 3 * day},
			{"over the Christmas break", "over the Christmas break", "2022-12-28 12:00", 3 * day},
			{"over Xmas vacation", "over Xmas vacation", "2022-12-28 12:00", 3 * day},
			{"during winter break", "during winter break", "2022-12-28 12:00", 3 * day},
			{"over the winter break", "over the winter break", "2022-12-28 12:00", 3 * day},
			{"what did we do last Christmas break", "last Christmas break", "2022-12-28 12:00", 3 * day},
			{"what did we do over Thanksgiving break", "over Thanksgiving break", "2022-11-26 00:00", 3 * day},
			{"during the Easter holidays", "during the Easter holidays", "2023-04-09 00:00", 3 * day},
			{"over Easter break", "over Easter break", "2023-04-09 00:00", 3 * day},
		} {
			m, ok := Find(c.in, now, now.Location())
			if want := at(t, c.anchor, now); !ok || m.Kind != Vague || m.Expr != c.expr || !m.Anchor.Equal(want) || m.Spread != c.spread {
				t.Errorf("%s: Find(%q) = %v, want vague %q around %v ±%v", name, c.in, m, c.expr, want, c.spread)
			}
		}
	}
	checkNone(t, []string{
		"I need a Christmas break",
		"Easter break plans", // no preposition: a thing
	}, Options{})
}

// The turn of the year is vague around the midnight that begins the most recent January 1 (2023's
// at the clocks), ±3 days: "over New Year" was the long weekend of January 1, which leaves out New
// Year's Eve, and "around New Year" January 1 at midday ±2 days.
func TestFindTurnOfYear(t *testing.T) {
	for name, now := range clocks(t) {
		for _, c := range []struct {
			in, expr, anchor string
		}{
			{"the turn of the year", "the turn of the year", "2023-01-01"},
			{"what happened at the turn of the year", "at the turn of the year", "2023-01-01"},
			{"around the turn of the year", "around the turn of the year", "2023-01-01"},
			{"over the new year", "over the new year", "2023-01-01"},
			{"over New Year", "over New Year", "2023-01-01"},
			{"around New Year", "around New Year", "2023-01-01"},
			{"around New Year's", "around New Year's", "2023-01-01"},
			{"around the New Year", "around the New Year", "2023-01-01"},
			{"over New Year 2021", "over New Year 2021", "2021-01-01"},
			{"I'll see you over the new year", "over the new year", "2024-01-01"},
		} {
			m, ok := Find(c.in, now, now.Location())
			if want := at(t, c.anchor, now); !ok || m.Kind != Vague || m.Expr != c.expr || !m.Anchor.Equal(want) || m.Spread != 3*day {
				t.Errorf("%s: Find(%q) = %v, want vague %q around %v ±3d", name, c.in, m, c.expr, want)
				continue
			}
			if y := m.Anchor.Year(); !m.From.Equal(at(t, fmt.Sprintf("%d-12-26", y-1), now)) || !m.To.Equal(at(t, fmt.Sprintf("%d-01-08", y), now)) {
				t.Errorf("%s: Find(%q) window [%v, %v), want December 26 to January 7", name, c.in, m.From, m.To)
			}
		}
	}
	checkExact(t, []exactCase{
		{"since the turn of the year", "since the turn of the year", "2023-01-01", "now"},
		{"over New Year's Day", "over New Year's Day", "2023-01-01", "2023-01-02"},
		{"New Year's weekend 2021", "New Year's weekend 2021", "2021-01-01", "2021-01-04"},
	}, Options{})
	checkNone(t, []string{
		"my new year resolution",
		"over the new year resolutions",
		"the new year brought rain",
		"the turn of the tide",
	}, Options{})
}
