package timeexpr

import "testing"

// Numeric dates at the fixed clocks (Wednesday 2023-10-25), month first by default.
var numericCases = []exactCase{
	{"5/4/2023", "5/4/2023", "2023-05-04", "2023-05-05"},
	{"on 05/04/2023 we met", "on 05/04/2023", "2023-05-04", "2023-05-05"},
	{"25/4/2023", "25/4/2023", "2023-04-25", "2023-04-26"},
	{"4/25/2023", "4/25/2023", "2023-04-25", "2023-04-26"},
	{"4.5.2023", "4.5.2023", "2023-05-04", "2023-05-05"},
	{"am 04.05.2023.", "04.05.2023", "2023-05-04", "2023-05-05"},
	{"2023.05.04", "2023.05.04", "2023-05-04", "2023-05-05"},
	{"5/4/23", "5/4/23", "2023-05-04", "2023-05-05"},
	{"12/31/99", "12/31/99", "1999-12-31", "2000-01-01"},
	{"(5/4/2023)", "5/4/2023", "2023-05-04", "2023-05-05"},
	{"on 5/4", "on 5/4", "2023-05-04", "2023-05-05"},
	{"since 5/4", "since 5/4", "2023-05-04", "now"},
	{"on 10/26", "on 10/26", "2022-10-26", "2022-10-27"},
	{"on 31/12", "on 31/12", "2022-12-31", "2023-01-01"},
	{"5/4 at 3pm", "5/4 at 3pm", "2023-05-04 15:00", "2023-05-04 16:00"},
	{"from 5/4 to 5/10", "from 5/4 to 5/10", "2023-05-04", "2023-05-11"},
	{"between 5/4 and 5/10", "between 5/4 and 5/10", "2023-05-04", "2023-05-11"},
	{"5/4/2023 - 5/10/2023", "5/4/2023 - 5/10/2023", "2023-05-04", "2023-05-11"},
}

// With DayFirst the ambiguous slashed forms swap; a part above 12 and dotted forms do not.
var numericDayFirstCases = []exactCase{
	{"5/4/2023", "5/4/2023", "2023-04-05", "2023-04-06"},
	{"25/4/2023", "25/4/2023", "2023-04-25", "2023-04-26"},
	{"4/25/2023", "4/25/2023", "2023-04-25", "2023-04-26"},
	{"4.5.2023", "4.5.2023", "2023-05-04", "2023-05-05"},
	{"on 5/4", "on 5/4", "2023-04-05", "2023-04-06"},
	{"2023/05/04", "2023/05/04", "2023-05-04", "2023-05-05"},
}

var numericFalsePositives = []string{
	"3/4 of the team",
	"3/4 of us",
	"on 3/4 of the days",
	"won 3/2",
	"we won 3/2 on Sunday night", // "on Sunday night" is found, not 3/2: checked below
	"version 1.2.3",
	"version 2.1.0",
	"v1.2.2023",
	"scored 10/10",
	"score 10/10",
	"1/2 cup",
	"on 1/2 cup of flour",
	"cut by 1/2",
	"ratio 16:9",
	"1.5 kg",
	"rated 4.5/5",
	"13/13/2023",
	"2/30/2023",
	"on 0/5",
	"1/2/3",
	"2.5.2023.1",
	"1/5/4/2023",
	"on 24/7 support",
	"5/4/2023x",
	"2023.5",
	"3/4%",
}

func TestFindNumeric(t *testing.T) {
	checkExact(t, numericCases, Options{})
	checkExact(t, numericDayFirstCases, Options{DayFirst: true})
	fp := numericFalsePositives
	checkNone(t, append(fp[:4:4], fp[5:]...), Options{})
	checkNone(t, append(fp[:4:4], fp[5:]...), Options{DayFirst: true})
	now := clocks(t)["UTC"]
	if m, ok := Find(fp[4], now, nil); !ok || m.Expr != "on Sunday night" {
		t.Errorf("Find(%q) = %q, want on Sunday night", fp[4], m.Expr)
	}
}

func TestParseWithDayFirst(t *testing.T) {
	now := clocks(t)["UTC"]
	for _, c := range []struct {
		in       string
		dayFirst bool
		want     string
	}{
		{"5/4", false, "2023-05-04 (5/4)"},
		{"5/4", true, "2023-04-05 (5/4)"},
		{"4.5.2023", false, "2023-05-04 (4.5.2023)"},
	} {
		m, err := ParseWith(c.in, now, Options{DayFirst: c.dayFirst})
		if err != nil || m.String() != c.want {
			t.Errorf("ParseWith(%q, DayFirst %v) = %q, %v, want %q", c.in, c.dayFirst, m.String(), err, c.want)
		}
	}
}
