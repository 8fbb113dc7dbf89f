package timeexpr

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// fuzzClock maps any int64 to a time between 1970 and 2170 in berlin or UTC.
func fuzzClock(berlin *time.Location, sec int64) (time.Time, *time.Location) {
	const span = 200 * 365 * 24 * 3600
	sec %= span
	if sec < 0 {
		sec += span
	}
	loc := time.UTC
	if sec%2 == 1 {
		loc = berlin
	}
	return time.Unix(sec, 0).In(loc), loc
}

func checkMatch(t *testing.T, text string, m Match) {
	t.Helper()
	if m.Kind == None {
		t.Fatalf("%q: a match of kind none", text)
	}
	if m.Start < 0 || m.Start > m.End || m.End > len(text) {
		t.Fatalf("%q: offsets [%d, %d) out of bounds", text, m.Start, m.End)
	}
	if text[m.Start:m.End] != m.Expr {
		t.Fatalf("%q: Expr %q is not text[%d:%d]", text, m.Expr, m.Start, m.End)
	}
	if !m.From.IsZero() && !m.To.IsZero() && m.To.Before(m.From) {
		t.Fatalf("%q: window [%v, %v) ends before it starts", text, m.From, m.To)
	}
	switch m.Kind {
	case Vague:
		if m.Spread <= 0 || m.Anchor.IsZero() {
			t.Fatalf("%q: vague match without anchor or spread: %+v", text, m)
		}
	case AnchorFirst, AnchorLast:
		if !m.From.IsZero() || !m.To.IsZero() {
			t.Fatalf("%q: anchor with a window: %+v", text, m)
		}
	}
	_ = m.String()
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{"what did we talk about yesterday?", "between April 1 and 10", "May I ask", "2023-05-04T10:00:00Z",
		"the week before 16 November 2023", "on 5/4 at 3pm", "Memorial Day weekend", "in 2 days",
		"the 21st of last month", "two weeks ago on Saturday", "the end of last week", "Q3 2023", "q1x", "the first days of May",
		"over Easter", "How many days ago did I buy the car?", "1.5 years ago", "a year and a half ago",
		"between the 3rd and the 5th", "the week prior to May 4", "last week on Friday evening", "the late 80s",
		"the night of the 12th", "a week ago today", "three or four days ago", "a week or two ago", "less than a week ago",
		"in recent weeks", "Monday the 2nd", "during Christmas break", "over Thanksgiving break", "last night at 11",
		"at 2am last night", "on this day last year", "around 3pm yesterday", "in week 46", "W46", "2026-W46-3",
		"week 46 of 2025", "the week 1 meeting", "week 3 of May", "the third week of 2023", "on the May bank holiday",
		"over the August bank holiday", "Canadian Thanksgiving weekend", "on Indigenous Peoples' Day", "on Cinco de Mayo",
		"over the new year", "around New Year's", "since the turn of the year", "the weekend of the 7th",
		"last week Tuesday", "last week Mon-Wed", "two Mondays ago", "two summers back.", "one of these days",
		"a weekend back home", "a few weeks back I said", "Monday to Friday last week"} {
		f.Add(s, int64(1698235200))
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, sec int64) {
		now, loc := fuzzClock(berlin, sec)
		for _, dayFirst := range []bool{false, true} {
			opt := Options{Location: loc, DayFirst: dayFirst}
			if got, want := findAll(text, now, opt, true), findAll(text, now, opt, false); !reflect.DeepEqual(got, want) {
				t.Fatalf("FindAll(%q) with the pre-check = %v, without = %v", text, got, want)
			}
		}
		m, ok := Find(text, now, loc)
		if !ok {
			if m != (Match{}) {
				t.Fatalf("%q: no match but a non-zero Match %+v", text, m)
			}
			return
		}
		checkMatch(t, text, m)
		stripped := Strip(text, m)
		if len(stripped) > len(text) {
			t.Fatalf("Strip(%q) = %q grew", text, stripped)
		}
		if strings.Contains(stripped, "  ") {
			t.Fatalf("Strip(%q) = %q left double spaces", text, stripped)
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2023-05-04", "last week", "our first conversation", "since March", "25/4/2023",
		"the second half of May", "two weeks from Friday", "at Easter",
		"the 3rd of this month", "Saturday two weeks ago", "the start of next week", "the third quarter", "the last days of May",
		"over Thanksgiving", "half an hour ago", "the 1st of the month", "the prior week", "in the '90s",
		"the morning of the 5th", "KW 46 2024", "2020-W53", "week 53", "Juneteenth 2021", "the spring bank holiday 2022",
		"the turn of the year", "the weekend of 7th", "next week Friday", "a Monday ago", "three winters ago",
		"nowadays", "two weekends back", "Mon-Fri this week"} {
		f.Add(s, int64(1698235200))
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string, sec int64) {
		now, loc := fuzzClock(berlin, sec)
		m, err := Parse(s, now, loc)
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, "e.g.") {
				t.Fatalf("Parse(%q) error without examples: %q", s, msg)
			}
			return
		}
		checkMatch(t, s, m)
	})
}

// lexRunes is lex as first written, decoding every rune: the reference for lex's ASCII fast path.
func lexRunes(s string) []token {
	var toks []token
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		if !isWordRune(r) {
			toks = append(toks, token{text: s[i : i+size], start: i, end: i + size})
			i += size
			continue
		}
		j := i + size
		for j < len(s) {
			r2, sz := utf8.DecodeRuneInString(s[j:])
			if !isWordRune(r2) {
				break
			}
			j += sz
		}
		toks = append(toks, token{text: strings.ToLower(s[i:j]), start: i, end: j, word: true, upper: unicode.IsUpper(r)})
		i = j
	}
	return toks
}

func FuzzLex(f *testing.F) {
	for _, s := range []string{"Yesterday, at 3:30 p.m.", "naïve Größe über 5/4/2023\xff\u00a0x", "İstanbul\u0085ǅ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, want := lex(s), lexRunes(s)
		if len(got) != len(want) {
			t.Fatalf("lex(%q) = %d tokens, reference %d", s, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("lex(%q)[%d] = %+v, reference %+v", s, i, got[i], want[i])
			}
		}
	})
}
