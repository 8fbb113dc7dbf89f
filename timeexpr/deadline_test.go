package timeexpr

import (
	"testing"
	"time"
)

// "by X", "as of X", "up to X", "up until X" end with X, as "until X" does. The clocks are
// Wednesday 2023-10-25.
var deadlineCases = []exactCase{
	{"What had she finished by July 10, 2022?", "by July 10, 2022", "", "2022-07-11"},
	{"as of December 2022", "as of December 2022", "", "2023-01-01"},
	{"By the end of May, what had she done?", "By the end of May", "", "2023-06-01"},
	{"up to March 2023", "up to March 2023", "", "2023-04-01"},
	{"up until last week", "up until last week", "", "2023-10-23"},
	{"up till yesterday", "up till yesterday", "", "2023-10-25"},
	{"as at 1 March 2023", "as at 1 March 2023", "", "2023-03-02"},
	{"I'll have it done by tomorrow", "by tomorrow", "", "2023-10-27"},
	{"by 2022 we had moved", "by 2022", "", "2023-01-01"},
	{"by the weekend", "by the weekend", "", "2023-10-23"},
	{"it will be finished by May 2024", "by May 2024", "", "2024-06-01"},
	{"it will be finished by tomorrow", "by tomorrow", "", "2023-10-27"},
	{"done by autumn", "by autumn", "", "2023-12-01"},
	{"as of today", "as of today", "", "2023-10-26"},
	// "by" after a verb it belongs to, and "up to" what someone does, are not deadlines
	{"stand by Friday", "Friday", "2023-10-20", "2023-10-21"},
	{"I stopped by yesterday", "yesterday", "2023-10-24", "2023-10-25"},
	{"she came by on Monday", "on Monday", "2023-10-23", "2023-10-24"},
	{"what were you up to last weekend?", "last weekend", "2023-10-21", "2023-10-23"},
	{"what did you get up to in May?", "in May", "2023-05-01", "2023-06-01"},
	{"what was Jo up to last week?", "last week", "2023-10-16", "2023-10-23"},
}

func TestFindDeadline(t *testing.T) {
	checkExact(t, deadlineCases, Options{})
	checkNone(t, []string{
		"by the way",
		"this is by far the best",
		"we won by 5 points",
		"won by 2000 votes",
		"up to 1500 people",
		"what have you been up to?",
		"as of now",
		"is it up to date?",
		"by then",
		"one by one",
		"by the time we left",
		"as far as I know",
		"up to you",
		"I'm feeling inspired by autumn",
		"a garden ravaged by the winter",
		"surprised by Christmas",
	}, Options{})
	now := clocks(t)["UTC"]
	if m, ok := Find("what have you been up to as of late?", now, time.UTC); !ok || m.Kind != Vague || m.Expr != "as of late" {
		t.Errorf("as of late = %v %q", m.Kind, m.Expr)
	}
	if m, ok := Find("what have you been up to lately?", now, time.UTC); !ok || m.Kind != Vague || m.Expr != "lately" {
		t.Errorf("up to lately = %v %q", m.Kind, m.Expr)
	}
}
