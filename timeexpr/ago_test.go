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
	_ = time.Hour
}
