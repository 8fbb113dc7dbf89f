package timeexpr

import (
	"testing"
	"time"
)

// The clocks are Wednesday 2023-10-25 14:00 (see clocks).

// "past week" without "the" reads as "the past week" when nothing makes "past" an adjective of
// some other period; "past weekend" is last weekend, as "the past weekend".
func TestFindBarePast(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did I say past week", "past week", "2023-10-18", "2023-10-26"},
		{"past month I was busy", "past month", "2023-09-25", "2023-10-26"},
		{"Past year was hard.", "Past year", "2022-10-25", "2023-10-26"},
		{"what happened over past fortnight?", "over past fortnight", "2023-10-11", "2023-10-26"},
		{"what did we do past weekend?", "past weekend", "2023-10-21", "2023-10-23"},
		{"past week's notes", "past week's", "2023-10-18", "2023-10-26"},
		// "the past week" and "this past week" are as before
		{"the past week", "the past week", "2023-10-18", "2023-10-26"},
		{"this past week", "this past week", "2023-10-16", "2023-10-23"},
	}, Options{})
	checkNone(t, []string{
		"a past year of growth", "each past month", "in past years", "half past ten",
		"we went past week three", "the past-year data", "any past week would do",
	}, Options{})
}

// "last evening" is yesterday evening; "my last evening in Paris" is not.
func TestFindLastEvening(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did we say last evening?", "last evening", "2023-10-24 17:00", "2023-10-25 00:00"},
		{"Last evening I cooked", "Last evening", "2023-10-24 17:00", "2023-10-25 00:00"},
		{"last evening at 8", "last evening at 8", "2023-10-24 20:00", "2023-10-24 21:00"},
	}, Options{})
	checkNone(t, []string{
		"my last evening in Paris", "the last evening of the trip", "our last evening together",
		"last evening of the festival",
	}, Options{})
}

// "the first|last day we spoke" is the conversational anchor, as "the first time we talked".
func TestFindDayWeSpoke(t *testing.T) {
	now := clocks(t)["UTC"]
	for _, c := range []struct {
		in, expr string
		kind     Kind
	}{
		{"the first day we spoke", "the first day we spoke", AnchorFirst},
		{"the first day we talked", "the first day we talked", AnchorFirst},
		{"what did you tell me on the first day we talked?", "on the first day we talked", AnchorFirst},
		{"the very first day we met", "the very first day we met", AnchorFirst},
		{"the first day you and I spoke", "the first day you and I spoke", AnchorFirst},
		{"the last day we spoke", "the last day we spoke", AnchorLast},
		{"what did I say the last day we chatted", "the last day we chatted", AnchorLast},
	} {
		m, ok := Find(c.in, now, time.UTC)
		if !ok || m.Kind != c.kind || m.Expr != c.expr {
			t.Errorf("Find(%q) = %v %q %v, want %v %q", c.in, m.Kind, m.Expr, ok, c.kind, c.expr)
		}
	}
	checkNone(t, []string{"the first day I went to school", "the first day", "the first day he spoke"}, Options{})
	// "the last day" alone stays the rolling day, "the first day of May" a date
	checkExact(t, []exactCase{
		{"the last day", "the last day", "2023-10-24", "2023-10-26"},
		{"the first day of May", "the first day of May", "2023-05-01", "2023-05-02"},
	}, Options{})
}

// Ranges whose first end is a bare day or a weekday keep their start.
func TestFindRangeStarts(t *testing.T) {
	checkExact(t, []exactCase{
		{"between 1 and 5 May", "between 1 and 5 May", "2023-05-01", "2023-05-06"},
		{"what did I do from 1 to 5 May?", "from 1 to 5 May", "2023-05-01", "2023-05-06"},
		{"1-5 May", "1-5 May", "2023-05-01", "2023-05-06"},
		{"we were away 1st-5th May", "1st-5th May", "2023-05-01", "2023-05-06"},
		{"1st to 5th May", "1st to 5th May", "2023-05-01", "2023-05-06"},
		{"on 1–5 May 2022", "on 1–5 May 2022", "2022-05-01", "2022-05-06"},
		{"the 1st-5th of May 2022", "the 1st-5th of May 2022", "2022-05-01", "2022-05-06"},
		{"28-3 March", "28-3 March", "2023-02-28", "2023-03-04"},
		{"between May 1 and 5", "between May 1 and 5", "2023-05-01", "2023-05-06"},
		// weekdays: the second is the first such day after the first, as "between Monday and Friday"
		{"Monday to Friday", "Monday to Friday", "2023-10-23", "2023-10-28"},
		{"what did I do Monday through Friday?", "Monday through Friday", "2023-10-23", "2023-10-28"},
		{"Mon-Fri", "Mon-Fri", "2023-10-23", "2023-10-28"},
		{"Mon – Wed", "Mon – Wed", "2023-10-23", "2023-10-26"},
		{"Mon to Fri", "Mon to Fri", "2023-10-23", "2023-10-28"},
		{"Thursday to Saturday", "Thursday to Saturday", "2023-10-19", "2023-10-22"},
		{"between Monday and Friday", "between Monday and Friday", "2023-10-23", "2023-10-28"},
		{"I'll be away Monday to Friday", "Monday to Friday", "2023-10-30", "2023-11-04"},
		// not a range start: a count of days
		{"2-3 days ago", "2-3 days ago", "2023-10-22", "2023-10-24"},
	}, Options{})
	checkNone(t, []string{"won 3-5", "rated it 1-5", "between 1 and 5 days", "mon to fri", "1-5/10"}, Options{})
}

// "all of June" and "the whole of July" are the month, as "in June".
func TestFindWholeOf(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did I do all of June?", "all of June", "2023-06-01", "2023-07-01"},
		{"the whole of July", "the whole of July", "2023-07-01", "2023-08-01"},
		{"the entirety of last year", "the entirety of last year", "2022-01-01", "2023-01-01"},
		{"all of last week", "all of last week", "2023-10-16", "2023-10-23"},
		{"the whole of the summer", "the whole of the summer", "2023-06-01", "2023-09-01"},
	}, Options{})
	checkNone(t, []string{"all of may go", "all of them", "the whole of the team", "all of us"}, Options{})
}

// A fortnight has no calendar bounds: "last fortnight" is the rolling 14 days, as "the past
// fortnight", and "next fortnight" the next 14 days.
func TestFindFortnight(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did we discuss last fortnight?", "last fortnight", "2023-10-11", "2023-10-26"},
		{"the past fortnight", "the past fortnight", "2023-10-11", "2023-10-26"},
		{"previous fortnight", "previous fortnight", "2023-10-11", "2023-10-26"},
		{"this past fortnight", "this past fortnight", "2023-10-11", "2023-10-26"},
		{"next fortnight", "next fortnight", "2023-10-25", "2023-11-09"},
		{"over the next fortnight", "over the next fortnight", "2023-10-25", "2023-11-09"},
	}, Options{})
	checkNone(t, []string{"my last fortnight in Spain", "the last fortnight of June", "our next fortnight off"}, Options{})
}

// "at 3pm" alone is the most recent 3pm that has begun; a bare number, a habit or a score is no
// time.
func TestFindClockAlone(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did I say at 1pm?", "at 1pm", "2023-10-25 13:00", "2023-10-25 14:00"},
		{"what did I say at 3pm", "at 3pm", "2023-10-24 15:00", "2023-10-24 16:00"},
		{"at 14:00", "at 14:00", "2023-10-25 14:00", "2023-10-25 15:00"},
		{"at 3 pm.", "at 3 pm", "2023-10-24 15:00", "2023-10-24 16:00"},
		{"at 9:30 a.m.", "at 9:30 a.m.", "2023-10-25 09:30", "2023-10-25 10:30"},
		{"we had lunch at noon", "at noon", "2023-10-25 12:00", "2023-10-25 13:00"},
		{"at midnight", "at midnight", "2023-10-25 00:00", "2023-10-25 01:00"},
		{"I'll call you at 2pm", "at 2pm", "2023-10-25 14:00", "2023-10-25 15:00"},
		{"I'll call you at 1pm", "at 1pm", "2023-10-26 13:00", "2023-10-26 14:00"},
		{"at 3pm on the 5th", "at 3pm on the 5th", "2023-10-05 15:00", "2023-10-05 16:00"},
		// as before: with a day
		{"at 3pm yesterday", "at 3pm yesterday", "2023-10-24 15:00", "2023-10-24 16:00"},
		{"on Monday at 3pm", "on Monday at 3pm", "2023-10-23 15:00", "2023-10-23 16:00"},
	}, Options{})
	checkNone(t, []string{
		"at 3", "what did I say at 3", "the score was 3-2 at 3", "the odds at 11:10", "we led at 10:08",
		"I usually eat at 6pm", "at 6pm every day", "every day at noon", "at 10:30:15", "3pm",
	}, Options{})
}

// A holiday whose name says a day and no thing stands alone at the end of a clause; "Christmas
// tree", "Halloween costume" and greetings stay none.
func TestFindBareHoliday(t *testing.T) {
	checkExact(t, []exactCase{
		{"Christmas Day", "Christmas Day", "2022-12-25", "2022-12-26"},
		{"What did we do Christmas Day?", "Christmas Day", "2022-12-25", "2022-12-26"},
		{"Christmas Eve, we ate goose", "Christmas Eve", "2022-12-24", "2022-12-25"},
		{"New Year's Day", "New Year's Day", "2023-01-01", "2023-01-02"},
		{"New Years Eve.", "New Years Eve", "2022-12-31", "2023-01-01"},
		{"Valentine's Day", "Valentine's Day", "2023-02-14", "2023-02-15"},
		{"Halloween", "Halloween", "2022-10-31", "2022-11-01"},
		{"what did I wear Halloween?", "Halloween", "2022-10-31", "2022-11-01"},
		// as before
		{"on Christmas Day", "on Christmas Day", "2022-12-25", "2022-12-26"},
	}, Options{})
	checkNone(t, []string{
		"Christmas tree", "Easter egg", "Halloween costume", "a Halloween costume party",
		"Christmas Day dinner", "Happy Halloween!", "Merry Christmas!", "Christmas", "Easter",
		"Independence Day", "Valentine's Day cards",
	}, Options{})
}

// saturdayClocks are Saturday 2026-11-21 15:30 in UTC and in Berlin: the 20th was a Friday, the
// 16th a Monday, the 7th a Saturday.
func saturdayClocks(t *testing.T) map[string]time.Time {
	t.Helper()
	nows := map[string]time.Time{}
	for name, now := range clocks(t) {
		nows[name] = time.Date(2026, 11, 21, 15, 30, 0, 0, now.Location())
	}
	return nows
}

// "the weekend of the 7th" is the weekend holding that day, as "the weekend of November 7th"; a
// Friday's is the one after it, a Monday's the one before it.
func TestFindWeekendOfDay(t *testing.T) {
	checkExactAt(t, saturdayClocks(t), []exactCase{
		{"what did we do the weekend of the 7th?", "the weekend of the 7th", "2026-11-07", "2026-11-09"},
		{"over the weekend of the 8th", "over the weekend of the 8th", "2026-11-07", "2026-11-09"},
		{"the weekend of the 6th", "the weekend of the 6th", "2026-11-07", "2026-11-09"},
		{"the weekend of the 9th", "the weekend of the 9th", "2026-11-07", "2026-11-09"},
		{"the weekend of the 11th", "the weekend of the 11th", "2026-11-14", "2026-11-16"},
		{"the weekend of 7th", "the weekend of 7th", "2026-11-07", "2026-11-09"},
		{"the weekend of the seventh", "the weekend of the seventh", "2026-11-07", "2026-11-09"},
		{"the weekend of the 21st", "the weekend of the 21st", "2026-11-21", "2026-11-23"},
		// a day not yet come this month is last month's: October 31 was a Saturday
		{"the weekend of the 31st", "the weekend of the 31st", "2026-10-31", "2026-11-02"},
		{"the weekend of November 7th", "the weekend of November 7th", "2026-11-07", "2026-11-09"},
		{"the weekend of 7 November", "the weekend of 7 November", "2026-11-07", "2026-11-09"},
		{"the weekend of Monday November 9th", "the weekend of Monday November 9th", "2026-11-07", "2026-11-09"},
		{"the weekend of Memorial Day", "the weekend of Memorial Day", "2026-05-23", "2026-05-25"},
		{"the week of the 7th", "the week of the 7th", "2026-11-02", "2026-11-09"},
		{"the weekend of the 7th and 8th", "the weekend of the 7th and 8th", "2026-11-07", "2026-11-09"},
		{"the weekend of the 7th-8th?", "the weekend of the 7th-8th", "2026-11-07", "2026-11-09"},
		{"the weekend of the 7th and the 8th", "the weekend of the 7th and the 8th", "2026-11-07", "2026-11-09"},
		{"the weekend of the 7th and 9th", "the weekend", "2026-11-21", "2026-11-23"},
		// as before
		{"the weekend", "the weekend", "2026-11-21", "2026-11-23"},
		{"the weekend of the 7th of November", "the weekend of the 7th of November", "2026-11-07", "2026-11-09"},
		{"the weekend of the 7th birthday", "the weekend", "2026-11-21", "2026-11-23"},
		{"the weekend of 7", "the weekend", "2026-11-21", "2026-11-23"},
	}, Options{})
	checkNoneAt(t, saturdayClocks(t), []string{"a weekend of fun", "weekend of the 7th"}, Options{})
}

// "last week Tuesday" is Tuesday of last week, as "last week on Tuesday" and "Tuesday of last
// week"; "this|next week Friday" likewise.
func TestFindWeekThenWeekday(t *testing.T) {
	checkExactAt(t, saturdayClocks(t), []exactCase{
		{"what did I do last week Tuesday?", "last week Tuesday", "2026-11-10", "2026-11-11"},
		{"last week Tuesday evening", "last week Tuesday evening", "2026-11-10 17:00", "2026-11-11 00:00"},
		{"this week Monday", "this week Monday", "2026-11-16", "2026-11-17"},
		{"I'll call you next week Friday", "next week Friday", "2026-11-27", "2026-11-28"},
		{"next week Friday at 3pm", "next week Friday at 3pm", "2026-11-27 15:00", "2026-11-27 16:00"},
		{"last week Tues", "last week Tues", "2026-11-10", "2026-11-11"},
		// a range of weekdays after the week is in it, not the day alone
		{"last week Monday to Wednesday", "last week Monday to Wednesday", "2026-11-09", "2026-11-12"},
		{"last week on Mon-Fri", "last week on Mon-Fri", "2026-11-09", "2026-11-14"},
		{"last week Mon-Wed", "last week Mon-Wed", "2026-11-09", "2026-11-12"},
		{"next week Monday through Friday", "next week Monday through Friday", "2026-11-23", "2026-11-28"},
		// as before
		{"last week on Tuesday", "last week on Tuesday", "2026-11-10", "2026-11-11"},
		{"Tuesday of last week", "Tuesday of last week", "2026-11-10", "2026-11-11"},
		{"Monday last week", "Monday last week", "2026-11-09", "2026-11-10"},
		{"last week", "last week", "2026-11-09", "2026-11-16"},
		{"last week, Tuesday", "last week", "2026-11-09", "2026-11-16"},
		{"last week sat down", "last week", "2026-11-09", "2026-11-16"},
		{"the last week Tuesday", "the last week", "2026-11-14", "2026-11-22"},
	}, Options{})
}

// "two Mondays ago" is the Monday before last, counted back from the most recent Monday before
// today ("a Monday ago"); "two summers ago" the summer before last summer.
func TestFindCountedWeekdaysAndSeasons(t *testing.T) {
	checkExactAt(t, saturdayClocks(t), []exactCase{
		{"what did we do 2 Mondays ago?", "2 Mondays ago", "2026-11-09", "2026-11-10"},
		{"two Mondays ago", "two Mondays ago", "2026-11-09", "2026-11-10"},
		{"the Monday before last", "the Monday before last", "2026-11-09", "2026-11-10"},
		{"a Friday ago", "a Friday ago", "2026-11-20", "2026-11-21"},
		{"1 Friday ago", "1 Friday ago", "2026-11-20", "2026-11-21"},
		{"two Fridays ago", "two Fridays ago", "2026-11-13", "2026-11-14"},
		{"3 Fridays ago", "3 Fridays ago", "2026-11-06", "2026-11-07"},
		// today is not one ago: "a Saturday ago" is last Saturday
		{"a Saturday ago", "a Saturday ago", "2026-11-14", "2026-11-15"},
		{"three Sundays back.", "three Sundays back", "2026-11-01", "2026-11-02"},
		{"two Mondays ago in the evening", "two Mondays ago in the evening", "2026-11-09 17:00", "2026-11-10 00:00"},
		// seasons: last summer is the most recent that has ended, one summer ago
		{"last summer", "last summer", "2026-06-01", "2026-09-01"},
		{"a summer ago", "a summer ago", "2026-06-01", "2026-09-01"},
		{"what did I do two summers ago?", "two summers ago", "2025-06-01", "2025-09-01"},
		{"3 summers ago", "3 summers ago", "2024-06-01", "2024-09-01"},
		{"two winters ago", "two winters ago", "2024-12-01", "2025-03-01"},
		{"two springs ago", "two springs ago", "2025-03-01", "2025-06-01"},
		{"two autumns ago", "two autumns ago", "2024-09-01", "2024-12-01"},
		{"two falls ago", "two falls ago", "2024-09-01", "2024-12-01"},
		{"a few summers back, two summers back.", "two summers back", "2025-06-01", "2025-09-01"},
		// as before
		{"two weekends ago", "two weekends ago", "2026-11-07", "2026-11-09"},
		{"Monday", "Monday", "2026-11-16", "2026-11-17"},
	}, Options{})
	checkNoneAt(t, saturdayClocks(t), []string{
		"I swim on Mondays", "Mondays ago", "summers ago", "many summers ago",
		"a summers ago", "two summer ago", "every two Mondays", "two Mondays back to back",
		"two summers back home", "how many Mondays ago", "two weekdays ago",
	}, Options{})
	// on Wednesday 2023-10-25 (see clocks) today is no Wednesday ago
	checkExact(t, []exactCase{
		{"a Wednesday ago", "a Wednesday ago", "2023-10-18", "2023-10-19"},
		{"two Wednesdays ago", "two Wednesdays ago", "2023-10-11", "2023-10-12"},
		{"two summers ago", "two summers ago", "2022-06-01", "2022-09-01"},
		{"two winters ago", "two winters ago", "2021-12-01", "2022-03-01"},
	}, Options{})
}

// "these days" and "nowadays" are "lately": vague around now; "one of these days" (some day to
// come), "on these days" (days named before) and "in those days" are no time.
func TestFindTheseDays(t *testing.T) {
	for name, now := range saturdayClocks(t) {
		for _, c := range []struct{ in, expr string }{
			{"what am I reading these days?", "these days"},
			{"These days I cook a lot", "These days"},
			{"what do I do for fun nowadays?", "nowadays"},
			{"Nowadays, I run", "Nowadays"},
			{"in these days of remote work", "in these days"},
			{"what have you been up to lately?", "lately"}, // as before
		} {
			m, ok := Find(c.in, now, now.Location())
			if !ok || m.Kind != Vague || m.Expr != c.expr || !m.Anchor.Equal(now) || m.Spread != 7*day {
				t.Errorf("%s: Find(%q) = %v %q %v ±%v, want vague %q around now ±7d", name, c.in, m.Kind, m.Expr, m.Anchor, m.Spread, c.expr)
			}
		}
	}
	checkNoneAt(t, saturdayClocks(t), []string{
		"one of these days", "One of these days I'll learn Go", "some of these days", "in those days",
		"those days are gone", "I work on these days", "on all these days", "for these days we booked",
		"any of these days", "during these days",
	}, Options{})
}

// "back" says how long ago only where it ends the clause, a new clause starts after it or a day
// follows, as "two Mondays back"; else it is where someone went ("a weekend back home").
func TestFindBackEndsClause(t *testing.T) {
	checkExactAt(t, saturdayClocks(t), []exactCase{
		{"two weekends back", "two weekends back", "2026-11-07", "2026-11-09"},
		{"a weekend back, we went hiking", "a weekend back", "2026-11-14", "2026-11-16"},
		{"two weekends back we hiked", "two weekends back", "2026-11-07", "2026-11-09"},
		{"10 days back.", "10 days back", "2026-11-11", "2026-11-12"},
		{"a week back today", "a week back today", "2026-11-14", "2026-11-15"},
		{"three Mondays back, I think", "three Mondays back", "2026-11-02", "2026-11-03"},
		{"two Mondays back I called", "two Mondays back", "2026-11-09", "2026-11-10"},
	}, Options{})
	for name, now := range saturdayClocks(t) {
		for _, c := range []struct{ in, expr string }{
			{"two weeks back", "two weeks back"},
			{"a few weeks back I told you", "a few weeks back"},
			{"what did I say a while back about the move?", "a while back"},
			{"a year and a half back, we moved", "a year and a half back"},
			{"some time back, she called", "some time back"},
		} {
			m, ok := Find(c.in, now, now.Location())
			if !ok || m.Kind != Vague || m.Expr != c.expr {
				t.Errorf("%s: Find(%q) = %v %q %v, want vague %q", name, c.in, m.Kind, m.Expr, ok, c.expr)
			}
		}
	}
	checkNoneAt(t, saturdayClocks(t), []string{
		"I spent a weekend back home with my parents", "a weekend back home",
		"two weekends back at my parents'", "a weekend back and forth",
		"two weeks back at work", "I've been two weeks back at work", "10 days back home",
		"a month back in Paris", "a few weeks back home", "several weeks back there",
		"we came a week back from Rome", "a year and a half back home", "I spent some time back home",
		"a while back home", "a little while back with my parents", "a long time back in school",
		"two days back to back", "three Mondays back home", "two summers back home",
		"spent a weekend back when we were kids",
	}, Options{})
}

// "Monday to Friday last week" is those days of last week, as "last week Monday to Friday" and
// "Monday last week"; "this|next week" likewise, plans or not.
func TestFindWeekdayRangeThenWeek(t *testing.T) {
	checkExactAt(t, saturdayClocks(t), []exactCase{
		{"what did I do Monday to Friday last week?", "Monday to Friday last week", "2026-11-09", "2026-11-14"},
		{"Monday-Friday last week", "Monday-Friday last week", "2026-11-09", "2026-11-14"},
		{"Mon to Fri last week", "Mon to Fri last week", "2026-11-09", "2026-11-14"},
		{"Monday to Friday of last week", "Monday to Friday of last week", "2026-11-09", "2026-11-14"},
		{"Tuesday to Thursday this past week", "Tuesday to Thursday this past week", "2026-11-10", "2026-11-13"},
		{"Mon-Fri this week", "Mon-Fri this week", "2026-11-16", "2026-11-21"},
		{"I'll be away Monday through Wednesday next week", "Monday through Wednesday next week", "2026-11-23", "2026-11-26"},
		{"Monday through Wednesday next week", "Monday through Wednesday next week", "2026-11-23", "2026-11-26"},
		{"Mon-Fri next week at 9", "Mon-Fri next week", "2026-11-23", "2026-11-28"},
		// the second name is the first such day on or after the first
		{"Friday to Monday last week", "Friday to Monday last week", "2026-11-13", "2026-11-17"},
		// as before
		{"last week Monday to Friday", "last week Monday to Friday", "2026-11-09", "2026-11-14"},
		{"Tuesday last week", "Tuesday last week", "2026-11-10", "2026-11-11"},
		{"Monday to Friday", "Monday to Friday", "2026-11-16", "2026-11-21"},
		{"Monday to Friday, last week", "Monday to Friday", "2026-11-16", "2026-11-21"},
		{"Monday to Friday last month", "Monday to Friday", "2026-11-16", "2026-11-21"},
		{"Monday to Friday the last week", "Monday to Friday", "2026-11-16", "2026-11-21"},
		{"Monday to Friday last weekend", "Monday to Friday", "2026-11-16", "2026-11-21"},
		{"Monday to Friday last weeks", "Monday to Friday", "2026-11-16", "2026-11-21"},
	}, Options{})
}
