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
