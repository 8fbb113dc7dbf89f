package timeexpr

import (
	"testing"
	"time"
)

// Decades (the clocks are in 2023): two digits are the most recent such decade that has started;
// early, mid and late are years 0-3, 4-6 and 7-9.
func TestFindDecades(t *testing.T) {
	checkExact(t, []exactCase{
		{"what music did I like in the 90s?", "in the 90s", "1990-01-01", "2000-01-01"},
		{"in the 1990s", "in the 1990s", "1990-01-01", "2000-01-01"},
		{"in the '90s", "in the '90s", "1990-01-01", "2000-01-01"},
		{"in the ’90s", "in the ’90s", "1990-01-01", "2000-01-01"},
		{"in the 90's", "in the 90's", "1990-01-01", "2000-01-01"},
		{"during the 2010s", "during the 2010s", "2010-01-01", "2020-01-01"},
		{"the early 2000s", "the early 2000s", "2000-01-01", "2004-01-01"},
		{"the late 80s", "the late 80s", "1987-01-01", "1990-01-01"},
		{"in the mid-90s", "in the mid-90s", "1994-01-01", "1997-01-01"},
		{"the mid 70s", "the mid 70s", "1974-01-01", "1977-01-01"},
		{"the 20s", "the 20s", "2020-01-01", "2030-01-01"},
		{"the 30s", "the 30s", "1930-01-01", "1940-01-01"},
		{"the 00s", "the 00s", "2000-01-01", "2010-01-01"},
		{"in the sixties", "in the sixties", "1960-01-01", "1970-01-01"},
		{"the late nineties", "the late nineties", "1997-01-01", "2000-01-01"},
		{"in 1980s", "in 1980s", "1980-01-01", "1990-01-01"},
		{"early 1990s", "early 1990s", "1990-01-01", "1994-01-01"},
		{"temperatures in the 90s", "in the 90s", "1990-01-01", "2000-01-01"},
		{"the 90s mark", "the 90s", "1990-01-01", "2000-01-01"},
		{"from the 80s to the 90s", "from the 80s to the 90s", "1980-01-01", "2000-01-01"},
		{"the 1990s: a decade", "the 1990s", "1990-01-01", "2000-01-01"},
	}, Options{})
	checkNone(t, []string{
		"I was in my 30s",
		"in her early 20s",
		"in their late forties",
		"90s",
		"1990s music",
		"the 90s days",
		"the 1900s",
		"in the 1800s",
		"the 95s",
		"the '1990s",
		"the 4th amendment",
	}, Options{})
	// two digits at another clock: in 2026 "the 20s" are the 2020s, "the 30s" the 1930s
	now := time.Date(2026, 11, 19, 15, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		in       string
		from, to int
	}{{"the 20s", 2020, 2030}, {"the 30s", 1930, 1940}, {"the early 2000s", 2000, 2004}} {
		m, ok := Find(c.in, now, time.UTC)
		if !ok || m.Kind != Exact || m.From.Year() != c.from || m.To.Year() != c.to || !midnight(m.From) || m.From.YearDay() != 1 {
			t.Errorf("Find(%q) at %v = %v, want %d-%d", c.in, now, m, c.from, c.to)
		}
	}
}
