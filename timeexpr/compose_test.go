package timeexpr

import (
	"testing"
	"time"
)

// The clocks are Wednesday 2023-10-25. 23 January 2022 was a Sunday, 21 January 2022 a Friday,
// 6 November 2023 a Monday, 8 May 2023 a Monday, 3 March 2023 a Friday.
var composeCases = []exactCase{
	// a marker: the named day is when the expression was said
	{"What was Tim's huge writing issue last week, as mentioned on November 6, 2023?", "last week, as mentioned on November 6, 2023", "2023-10-30", "2023-11-06"},
	{"What did Jo say yesterday as said on March 3, 2023?", "yesterday as said on March 3, 2023", "2023-03-02", "2023-03-03"},
	{"What happened last weekend (said on 8 May 2023)?", "last weekend (said on 8 May 2023)", "2023-05-06", "2023-05-08"},
	{"what did she plan last month as of 3 March 2023", "last month as of 3 March 2023", "2023-02-01", "2023-03-01"},
	{"the day before yesterday, as I told you on 2023-05-04", "the day before yesterday, as I told you on 2023-05-04", "2023-05-02", "2023-05-03"},
	{"what was planned for next week, as discussed on 1 March 2023?", "for next week, as discussed on 1 March 2023", "2023-03-06", "2023-03-13"},
	{"this morning, mentioned on May 4, 2023", "this morning, mentioned on May 4, 2023", "2023-05-04 05:00", "2023-05-04 12:00"},
	{"three days ago as of October 1, 2023, by the way", "three days ago as of October 1, 2023", "2023-09-28", "2023-09-29"},
	{"last week, as mentioned on October 18", "last week, as mentioned on October 18", "2023-10-09", "2023-10-16"},
	// "on D" straight after: the reference point, unless D lies within R or R names D's weekday
	{"What did Joanna just finish last Friday on 23 January, 2022?", "last Friday on 23 January, 2022", "2022-01-21", "2022-01-22"},
	{"What did we do two days ago on 8 May 2023?", "two days ago on 8 May 2023", "2023-05-06", "2023-05-07"},
	{"What did he cook yesterday on May 4", "yesterday on May 4", "2023-05-03", "2023-05-04"},
	{"what was said last week on November 6, 2023?", "last week on November 6, 2023", "2023-10-30", "2023-11-06"},
	{"What did I do last week on October 18?", "last week on October 18", "2023-10-18", "2023-10-19"},
	{"What did Jo do last Friday on 21 January 2022?", "last Friday on 21 January 2022", "2022-01-21", "2022-01-22"},
	{"tomorrow on 8 May 2023", "tomorrow on 8 May 2023", "2023-05-09", "2023-05-10"},
	// an aside: the named day
	{"What did I tell you yesterday, on May 4?", "yesterday, on May 4", "2023-05-04", "2023-05-05"},
	{"What did I tell you yesterday, October 24?", "yesterday, October 24", "2023-10-24", "2023-10-25"},
	{"What did we do two days ago, on 8 May 2023?", "two days ago, on 8 May 2023", "2023-05-08", "2023-05-09"},
	{"What did I say yesterday (May 4)?", "yesterday (May 4)", "2023-05-04", "2023-05-05"},
	// a named period longer than a day: that period
	{"what happened last week, as mentioned in November 2022?", "last week, as mentioned in November 2022", "2022-11-01", "2022-12-01"},
	{"What did Tim say last week as of December 2022?", "last week as of December 2022", "2022-12-01", "2023-01-01"},
}

func TestFindComposed(t *testing.T) {
	checkExact(t, composeCases, Options{})
	now := clocks(t)["UTC"]
	m, ok := Find("a few days ago, as I told you on May 8, 2023", now, time.UTC)
	if want := time.Date(2023, 5, 5, 12, 0, 0, 0, time.UTC); !ok || m.Kind != Vague || !m.Anchor.Equal(want) || m.Expr != "a few days ago, as I told you on May 8, 2023" {
		t.Errorf("vague composed = %v %q %v, want around %v", m.Kind, m.Expr, m.Anchor, want)
	}
	for _, c := range []struct{ in, want string }{
		{"What did Joanna just finish last Friday on 23 January, 2022?", "What did Joanna just finish?"},
		{"What was Tim's huge writing issue last week, as mentioned on November 6, 2023?", "What was Tim's huge writing issue?"},
		{"What happened last weekend (said on 8 May 2023)?", "What happened?"},
	} {
		m, _ := Find(c.in, now, time.UTC)
		if got := Strip(c.in, m); got != c.want {
			t.Errorf("Strip(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if m, err := Parse("last Friday on 23 January, 2022", now, time.UTC); err != nil || !m.From.Equal(time.Date(2022, 1, 21, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Parse composed = %v, %v", m, err)
	}
}

// What is not composed stays two expressions (FindAll) and Find takes the named one.
func TestFindNotComposed(t *testing.T) {
	now := clocks(t)["UTC"]
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"yesterday, May 4 was fun", []string{"yesterday", "May 4"}},
		{"I went yesterday on the bus", []string{"yesterday"}},
		{"last Friday on 23 January 2022 at the office", []string{"last Friday", "on 23 January 2022"}},
		{"last week, in May 2023", []string{"last week", "in May 2023"}},
		{"last time, on May 4 2023", []string{"last time", "on May 4 2023"}},
		{"on May 4, as mentioned on June 1, 2022", []string{"on May 4", "on June 1, 2022"}},
		{"yesterday (on May 4", []string{"yesterday", "on May 4"}},
		{"yesterday, as mentioned, on May 4", []string{"yesterday", "on May 4"}},
		{"yesterday as I said", []string{"yesterday"}},
		{"I met him last week, told him on May 4 2023 about it", []string{"last week", "on May 4 2023"}},
	} {
		var got []string
		for _, m := range FindAll(c.in, now, time.UTC) {
			got = append(got, m.Expr)
		}
		if len(got) != len(c.want) {
			t.Errorf("FindAll(%q) = %q, want %q", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("FindAll(%q) = %q, want %q", c.in, got, c.want)
				break
			}
		}
	}
	m, ok := Find("last Friday on 23 January 2022 at the office", now, time.UTC)
	if !ok || m.Expr != "on 23 January 2022" {
		t.Errorf("Find = %q, want the named date", m.Expr)
	}
}

// At the clock the questions were asked on, 2024-01-21 (a Sunday).
func TestFindComposedJanuary(t *testing.T) {
	now := time.Date(2024, 1, 21, 14, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in       string
		from, to time.Time
	}{
		{"What did I tell you yesterday, on May 4?", time.Date(2023, 5, 4, 0, 0, 0, 0, time.UTC), time.Date(2023, 5, 5, 0, 0, 0, 0, time.UTC)},
		{"What did I tell you yesterday, January 20?", time.Date(2024, 1, 20, 0, 0, 0, 0, time.UTC), time.Date(2024, 1, 21, 0, 0, 0, 0, time.UTC)},
		{"What was Tim's huge writing issue last week, as mentioned on November 6, 2023?", time.Date(2023, 10, 30, 0, 0, 0, 0, time.UTC), time.Date(2023, 11, 6, 0, 0, 0, 0, time.UTC)},
	} {
		if m, ok := Find(c.in, now, time.UTC); !ok || !m.From.Equal(c.from) || !m.To.Equal(c.to) {
			t.Errorf("Find(%q) = %v, want [%v, %v)", c.in, m, c.from, c.to)
		}
	}
}
