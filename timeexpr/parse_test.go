package timeexpr

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	now := clocks(t)["Europe/Berlin"]
	loc := now.Location()
	for _, c := range []struct {
		in       string
		kind     Kind
		from, to time.Time
	}{
		{"2023-05-04", Exact, time.Date(2023, 5, 4, 0, 0, 0, 0, loc), time.Date(2023, 5, 5, 0, 0, 0, 0, loc)},
		{"2023-05-04T10:00:00Z", Exact, time.Date(2023, 5, 4, 10, 0, 0, 0, time.UTC), time.Date(2023, 5, 4, 10, 0, 1, 0, time.UTC)},
		{"2023-05-04T10:00:00.5+05:30", Exact, time.Date(2023, 5, 4, 4, 30, 0, 5e8, time.UTC), time.Date(2023, 5, 4, 4, 30, 1, 5e8, time.UTC)},
		{"2023-05-04T10:00", Exact, time.Date(2023, 5, 4, 10, 0, 0, 0, loc), time.Date(2023, 5, 4, 10, 0, 1, 0, loc)},
		{"2023-05-04 10:00:30", Exact, time.Date(2023, 5, 4, 10, 0, 30, 0, loc), time.Date(2023, 5, 4, 10, 0, 31, 0, loc)},
		{"2023-05", Exact, time.Date(2023, 5, 1, 0, 0, 0, 0, loc), time.Date(2023, 6, 1, 0, 0, 0, 0, loc)},
		{"2022", Exact, time.Date(2022, 1, 1, 0, 0, 0, 0, loc), time.Date(2023, 1, 1, 0, 0, 0, 0, loc)},
		{"May", Exact, time.Date(2023, 5, 1, 0, 0, 0, 0, loc), time.Date(2023, 6, 1, 0, 0, 0, 0, loc)},
		{"summer", Exact, time.Date(2023, 6, 1, 0, 0, 0, 0, loc), time.Date(2023, 9, 1, 0, 0, 0, 0, loc)},
		{"  Yesterday. ", Exact, time.Date(2023, 10, 24, 0, 0, 0, 0, loc), time.Date(2023, 10, 25, 0, 0, 0, 0, loc)},
		{"now", Exact, now, now.Add(time.Second)},
		{"since 2023-01-01", Exact, time.Date(2023, 1, 1, 0, 0, 0, 0, loc), now},
		{"until 2023-02-01", Exact, time.Time{}, time.Date(2023, 2, 2, 0, 0, 0, 0, loc)},
		{"a few days ago", Vague, time.Date(2023, 10, 18, 0, 0, 0, 0, loc), time.Date(2023, 10, 26, 0, 0, 0, 0, loc)},
		{"our first conversation", AnchorFirst, time.Time{}, time.Time{}},
		{"last time", AnchorLast, time.Time{}, time.Time{}},
	} {
		m, err := Parse(c.in, now, loc)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if m.Kind != c.kind || !m.From.Equal(c.from) || !m.To.Equal(c.to) {
			t.Errorf("Parse(%q) = %v [%v, %v), want %v [%v, %v)", c.in, m.Kind, m.From, m.To, c.kind, c.from, c.to)
		}
		if m.Kind == Exact && !m.From.IsZero() && m.From.Location() != loc {
			t.Errorf("Parse(%q) From in %v, want %v", c.in, m.From.Location(), loc)
		}
	}
}

func TestParseErrors(t *testing.T) {
	now := clocks(t)["UTC"]
	for _, c := range []struct{ in, says string }{
		{"", "empty"},
		{"   ", "empty"},
		{"blah", `"blah" is not a time expression`},
		{"yesterday and blah", `not "and blah"`},
		{"May I", `not "I"`},
		{"2023-05-04T25:00", "not a time expression"},
		{"2023-02-30", "not a time expression"},
		{"42", "not a time expression"},
	} {
		_, err := Parse(c.in, now, time.UTC)
		if err == nil {
			t.Errorf("Parse(%q): no error", c.in)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.says) || !strings.Contains(msg, `"2023-05-04"`) || !strings.Contains(msg, "last week") {
			t.Errorf("Parse(%q) error %q should say %q and give examples", c.in, msg, c.says)
		}
		if msg != strings.ToLower(msg[:1])+msg[1:] || strings.HasSuffix(msg, ".") {
			t.Errorf("Parse(%q) error %q: want lower case, no trailing period", c.in, msg)
		}
	}
}

func TestString(t *testing.T) {
	now := clocks(t)["UTC"]
	for _, c := range []struct{ in, want string }{
		{"yesterday", "2023-10-24 (yesterday)"},
		{"2023-05-04", "2023-05-04"},
		{"between April 1 and April 10", "2023-04-01 .. 2023-04-10 (between April 1 and April 10)"},
		{"last month", "2023-09 (last month)"},
		{"in 2022", "2022 (in 2022)"},
		{"last night", "2023-10-24 18:00 .. 2023-10-25 06:00 (last night)"},
		{"before May", "until 2023-04-30 (before May)"},
		{"after June 3", "since 2023-06-04 (after June 3)"},
		{"since March", "2023-03-01 .. 2023-10-25 14:00 (since March)"},
		{"a few days ago", "around 2023-10-22 14:00 ±2d (a few days ago)"},
		{"2 hours ago", "around 2023-10-25 12:00 ±1h (2 hours ago)"},
		{"our first conversation", "first conversation (our first conversation)"},
		{"last conversation", "last conversation"},
		{"2023-05-04T10:00:00Z", "2023-05-04T10:00:00Z"},
	} {
		m, err := Parse(c.in, now, time.UTC)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := m.String(); got != c.want {
			t.Errorf("String of %q = %q, want %q", c.in, got, c.want)
		}
	}
	if got := (Match{}).String(); got != "no time expression" {
		t.Errorf("zero Match String = %q", got)
	}
	for k, want := range map[Kind]string{None: "none", Exact: "exact", Vague: "vague", AnchorFirst: "anchor-first", AnchorLast: "anchor-last", Kind(9): "kind(9)"} {
		if k.String() != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), k.String(), want)
		}
	}
}

// TestMatchInstant: the one instant of a match, for a memory's time and the bounds of a range.
func TestMatchInstant(t *testing.T) {
	now := time.Date(2026, 11, 19, 15, 30, 0, 0, time.UTC) // a Thursday
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		in         string
		start, end time.Time
	}{
		{"yesterday", day(11, 18), day(11, 19)},
		{"last week", day(11, 9), day(11, 16)},
		{"a few days ago", now.AddDate(0, 0, -3), now.AddDate(0, 0, -3)},
		{"before May", time.Time{}, day(5, 1)},
		{"our first conversation", time.Time{}, time.Time{}},
	} {
		m, err := Parse(c.in, now, time.UTC)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.in, err)
		}
		if got := m.Instant(false); !got.Equal(c.start) {
			t.Errorf("%q: Instant(false) = %v, want %v", c.in, got, c.start)
		}
		if got := m.Instant(true); !got.Equal(c.end) {
			t.Errorf("%q: Instant(true) = %v, want %v", c.in, got, c.end)
		}
	}
}
