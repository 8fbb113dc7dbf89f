package timeexpr

import (
	"testing"
)

// checkExact runs exact cases at both fixed clocks (see clocks) with options.
func checkExact(t *testing.T, cases []exactCase, opt Options) {
	t.Helper()
	for name, now := range clocks(t) {
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
	for name, now := range clocks(t) {
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
}

func TestFindPartsOf(t *testing.T) {
	checkExact(t, partCases, Options{})
	checkNone(t, []string{
		"the third week of 2023", // a week number: not understood
		"the first week of school",
		"the second half of the game",
		"the first few days of school",
		"the fifth week of May",
		"first half",
	}, Options{})
}
