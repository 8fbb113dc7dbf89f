package timeexpr

import (
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
