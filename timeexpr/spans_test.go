package timeexpr

import "testing"

// The clocks are Wednesday 2023-10-25 14:00 (see clocks).

// A day of a month counted from now: "the 21st of last month".
func TestFindDayOfMonthUnit(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did I do on the 21st of last month?", "on the 21st of last month", "2023-09-21", "2023-09-22"},
		{"the 3rd of this month", "the 3rd of this month", "2023-10-03", "2023-10-04"},
		{"the 15th of next month", "the 15th of next month", "2023-11-15", "2023-11-16"},
		{"on the 21st last month", "on the 21st last month", "2023-09-21", "2023-09-22"},
		{"the first of last month", "the first of last month", "2023-09-01", "2023-09-02"},
		{"the 1st of March", "the 1st of March", "2023-03-01", "2023-03-02"},
		// a day the month does not have leaves the month
		{"the 31st of last month", "last month", "2023-09-01", "2023-10-01"},
		// a count, not a day
		{"I came 21st last month", "last month", "2023-09-01", "2023-10-01"},
	}, Options{})
	checkNone(t, []string{"the 21st of last month of school"}, Options{})
}

// "two weeks ago on Saturday" and "Saturday two weeks ago" are the Saturday of the week two weeks
// back; "two weeks ago Saturday" (the idiom "a week ago Monday") counts from the most recent one.
func TestFindWeekdayWeeksAgo(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did I do 2 weeks ago on Saturday?", "2 weeks ago on Saturday", "2023-10-14", "2023-10-15"},
		{"Saturday two weeks ago", "Saturday two weeks ago", "2023-10-14", "2023-10-15"},
		{"on Saturday two weeks ago", "on Saturday two weeks ago", "2023-10-14", "2023-10-15"},
		{"two weeks ago Saturday", "two weeks ago Saturday", "2023-10-07", "2023-10-08"},
		{"a week ago on Monday", "a week ago on Monday", "2023-10-16", "2023-10-17"},
		{"Monday three weeks ago", "Monday three weeks ago", "2023-10-02", "2023-10-03"},
		{"two weeks ago on sat", "two weeks ago on sat", "2023-10-14", "2023-10-15"},
		{"Friday a fortnight ago", "Friday a fortnight ago", "2023-10-13", "2023-10-14"},
	}, Options{})
	for name, now := range clocks(t) {
		// a name is no weekday; the offset stays vague
		for _, in := range []string{"the Sunday Times two weeks ago", "every Saturday two weeks ago"} {
			if m, ok := Find(in, now, now.Location()); !ok || m.Kind != Vague {
				t.Errorf("%s: Find(%q) = %v, want vague two weeks ago", name, in, m)
			}
		}
	}
}

// The beginning, middle and end of a calendar week are Monday-Wednesday, Tuesday-Thursday and
// Friday-Sunday; "late last week" stays last week.
func TestFindPartOfWeek(t *testing.T) {
	checkExact(t, []exactCase{
		{"what happened at the end of last week?", "at the end of last week", "2023-10-20", "2023-10-23"},
		{"the start of last week", "the start of last week", "2023-10-16", "2023-10-19"},
		{"at the beginning of last week", "at the beginning of last week", "2023-10-16", "2023-10-19"},
		{"the middle of last week", "the middle of last week", "2023-10-17", "2023-10-20"},
		{"the end of this week", "the end of this week", "2023-10-27", "2023-10-30"},
		{"the end of the week", "the end of the week", "2023-10-27", "2023-10-30"},
		{"the end of next week", "the end of next week", "2023-11-03", "2023-11-06"},
		{"I was late last week", "last week", "2023-10-16", "2023-10-23"},
		{"the end of the week before last", "the week before last", "2023-10-09", "2023-10-16"},
	}, Options{})
	checkNone(t, []string{"the end of the week of school", "at the end of a week"}, Options{})
}

// Calendar quarters: a yearless one is the most recent that has started (Q4 is under way).
func TestFindQuarter(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did we ship in Q1?", "in Q1", "2023-01-01", "2023-04-01"},
		{"Q3 2023", "Q3 2023", "2023-07-01", "2023-10-01"},
		{"in Q4", "in Q4", "2023-10-01", "2024-01-01"},
		{"Q1 results were good", "Q1", "2023-01-01", "2023-04-01"},
		{"(Q2)", "Q2", "2023-04-01", "2023-07-01"},
		{"Q4 of last year", "Q4 of last year", "2022-10-01", "2023-01-01"},
		{"in the first quarter", "in the first quarter", "2023-01-01", "2023-04-01"},
		{"the third quarter", "the third quarter", "2023-07-01", "2023-10-01"},
		{"the 2nd quarter of 2021", "the 2nd quarter of 2021", "2021-04-01", "2021-07-01"},
		{"the last quarter of 2022", "the last quarter of 2022", "2022-10-01", "2023-01-01"},
		{"the first quarter of the year", "the first quarter of the year", "2023-01-01", "2023-04-01"},
		{"last quarter", "last quarter", "2023-07-01", "2023-10-01"},
		{"in the last quarter", "last quarter", "2023-07-01", "2023-10-01"},
		{"this quarter", "this quarter", "2023-10-01", "2024-01-01"},
		{"next quarter", "next quarter", "2024-01-01", "2024-04-01"},
		{"I will ship it in Q1", "in Q1", "2024-01-01", "2024-04-01"},
	}, Options{})
	checkNone(t, []string{"q1x", "Q10 is a part", "see q1.txt", "x_q1", "q1-2", "in the first quarter of the game",
		"a quarter of an hour", "quarter past three", "the living quarters", "the Latin Quarter"}, Options{})
}

// "the first|last days of X" are "the first|last few days of X": 5 days.
func TestFindFirstDaysOf(t *testing.T) {
	checkExact(t, []exactCase{
		{"during the first days of January", "during the first days of January", "2023-01-01", "2023-01-06"},
		{"the last days of May", "the last days of May", "2023-05-27", "2023-06-01"},
		{"the final days of 2022", "the final days of 2022", "2022-12-27", "2023-01-01"},
		{"the first days of last month", "the first days of last month", "2023-09-01", "2023-09-06"},
	}, Options{})
	checkNone(t, []string{"the last days of Pompeii", "the first days of school", "the second days of May"}, Options{})
}

// "over <holiday>" is its long weekend, as "<holiday> weekend"; "at|on <holiday>" and a name that
// says the day stay the day.
func TestFindOverHoliday(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did we do over Easter?", "over Easter", "2023-04-07", "2023-04-11"},
		{"at Easter", "at Easter", "2023-04-09", "2023-04-10"},
		{"on Easter", "on Easter", "2023-04-09", "2023-04-10"},
		{"over Christmas", "over Christmas", "2022-12-24", "2022-12-26"},
		{"over Thanksgiving", "over Thanksgiving", "2022-11-24", "2022-11-28"},
		{"over Easter 2022", "over Easter 2022", "2022-04-15", "2022-04-19"},
		{"over Christmas Day", "over Christmas Day", "2022-12-25", "2022-12-26"},
		{"over Easter Sunday", "over Easter Sunday", "2023-04-09", "2023-04-10"},
		{"over New Year's Eve", "over New Year's Eve", "2022-12-31", "2023-01-01"},
		{"we talked over Thanksgiving dinner", "over Thanksgiving", "2022-11-24", "2022-11-25"},
	}, Options{})
	checkNone(t, []string{"we argued over Easter eggs", "over Christmas trees"}, Options{})
}

// A bare ordinal day in a range takes the month of the other end; two bare days are the most
// recent first one (as "on the 4th") and the second in its month. "of the month" is this month.
func TestFindOrdinalDayRange(t *testing.T) {
	checkExact(t, []exactCase{
		{"from October 1st through the 10th", "from October 1st through the 10th", "2023-10-01", "2023-10-11"},
		{"from May 1st to the 3rd", "from May 1st to the 3rd", "2023-05-01", "2023-05-04"},
		{"what did I do from the 1st to the 10th of October?", "from the 1st to the 10th of October", "2023-10-01", "2023-10-11"},
		{"from the 28th to the 3rd of March", "from the 28th to the 3rd of March", "2023-02-28", "2023-03-04"},
		{"from the 1st to the 5th of last month", "from the 1st to the 5th of last month", "2023-09-01", "2023-09-06"},
		{"between the 3rd and the 5th", "between the 3rd and the 5th", "2023-10-03", "2023-10-06"},
		{"between the 3rd and 5th I was ill", "between the 3rd and 5th", "2023-10-03", "2023-10-06"},
		{"between the 28th and the 3rd", "between the 28th and the 3rd", "2023-09-28", "2023-10-04"},
		{"from the 1st-10th of May", "from the 1st-10th of May", "2023-05-01", "2023-05-11"},
		{"between May 1 and 5", "between May 1 and 5", "2023-05-01", "2023-05-06"},
		// "of the month" is this month
		{"on the first of the month", "on the first of the month", "2023-10-01", "2023-10-02"},
		{"the 1st of the month", "the 1st of the month", "2023-10-01", "2023-10-02"},
		{"the 15th of the month", "the 15th of the month", "2023-10-15", "2023-10-16"},
		{"the 15th of this month", "the 15th of this month", "2023-10-15", "2023-10-16"},
	}, Options{})
	checkNone(t, []string{
		"from the 1st to the 10th floor",
		"between the 1st and 2nd place",
		"between the 3rd and 5",
		"the 4th amendment",
		"what did I say about the 4th amendment",
		"the first of many",
	}, Options{})
}

// "the prior week", "the week prior" and "the previous week" are the rolling 7 days, as "the past
// week"; "this past week" and "previous week" are last calendar week. "prior to X" after a unit is
// "before X".
func TestFindPrior(t *testing.T) {
	checkExact(t, []exactCase{
		{"the previous week", "the previous week", "2023-10-18", "2023-10-26"},
		{"what did I do the prior week?", "the prior week", "2023-10-18", "2023-10-26"},
		{"the week prior", "the week prior", "2023-10-18", "2023-10-26"},
		{"this past week", "this past week", "2023-10-16", "2023-10-23"},
		{"previous week", "previous week", "2023-10-16", "2023-10-23"},
		{"the previous day", "the previous day", "2023-10-24", "2023-10-25"},
		{"the prior day", "the prior day", "2023-10-24", "2023-10-25"},
		{"the day prior", "the day prior", "2023-10-24", "2023-10-25"},
		{"in the prior two weeks", "in the prior two weeks", "2023-10-11", "2023-10-26"},
		{"the week prior to May 4", "the week prior to May 4", "2023-04-27", "2023-05-04"},
		{"the day prior to Christmas", "the day prior to Christmas", "2022-12-24", "2022-12-25"},
		{"the Friday prior to Christmas", "the Friday prior to Christmas", "2022-12-23", "2022-12-24"},
		{"the weekend prior to Christmas", "the weekend prior to Christmas", "2022-12-17", "2022-12-19"},
		{"3 days prior to May 4", "3 days prior to May 4", "2023-05-01", "2023-05-02"},
		{"prior to May 4", "prior to May 4", "", "2023-05-04"},
	}, Options{})
	checkNone(t, []string{"prior week", "the prior owner", "a prior commitment"}, Options{})
}

// "last week on Tuesday" is the Tuesday of last week, as "on Tuesday last week" (it is one
// expression, not "last week" composed with a day it was said on).
func TestFindWeekOnWeekday(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did I do last week on Tuesday?", "last week on Tuesday", "2023-10-17", "2023-10-18"},
		{"last week on Monday", "last week on Monday", "2023-10-16", "2023-10-17"},
		{"on Tuesday last week", "on Tuesday last week", "2023-10-17", "2023-10-18"},
		{"last week on Friday evening", "last week on Friday evening", "2023-10-20 17:00", "2023-10-21 00:00"},
		{"last week on Friday at 3pm", "last week on Friday at 3pm", "2023-10-20 15:00", "2023-10-20 16:00"},
		{"this week on Monday", "this week on Monday", "2023-10-23", "2023-10-24"},
		{"next week on Friday", "next week on Friday", "2023-11-03", "2023-11-04"},
		{"previous week on sat", "previous week on sat", "2023-10-21", "2023-10-22"},
		// a named day after it still wins, as before
		{"last week on October 18", "last week on October 18", "2023-10-18", "2023-10-19"},
		{"last week on Tuesday, October 17", "last week on Tuesday, October 17", "2023-10-17", "2023-10-18"},
	}, Options{})
}

// "the morning|afternoon|evening|night of X" is that part of the day X; a bare ordinal is read as
// "on the 5th".
func TestFindDayPartOf(t *testing.T) {
	checkExact(t, []exactCase{
		{"what did I eat on the morning of the 5th?", "on the morning of the 5th", "2023-10-05 05:00", "2023-10-05 12:00"},
		{"the evening of May 4", "the evening of May 4", "2023-05-04 17:00", "2023-05-05 00:00"},
		{"the night of the 12th", "the night of the 12th", "2023-10-12 18:00", "2023-10-13 06:00"},
		{"the night of the 28th", "the night of the 28th", "2023-09-28 18:00", "2023-09-29 06:00"},
		{"on the afternoon of the 3rd of March", "on the afternoon of the 3rd of March", "2023-03-03 12:00", "2023-03-03 18:00"},
		{"the morning of yesterday", "the morning of yesterday", "2023-10-24 05:00", "2023-10-24 12:00"},
		{"the evening of last Friday", "the evening of last Friday", "2023-10-20 17:00", "2023-10-21 00:00"},
	}, Options{})
	checkNone(t, []string{"the night of the party", "the morning of the 5th floor", "the morning of my wedding"}, Options{})
}

// A time of day narrows a part of a day to its hour: "this morning at 9" is 09:00, "last night
// at 11pm" and "at 11 last night" 23:00, "last night at 2am" the next day's 02:00; they read as
// the whole part. One outside the part ("this morning at 3pm") leaves the part.
func TestFindClockInPart(t *testing.T) {
	checkExact(t, []exactCase{
		{"this morning at 9", "this morning at 9", "2023-10-25 09:00", "2023-10-25 10:00"},
		{"at 9am this morning", "at 9am this morning", "2023-10-25 09:00", "2023-10-25 10:00"},
		{"last night at 11pm", "last night at 11pm", "2023-10-24 23:00", "2023-10-25 00:00"},
		{"at 11pm last night", "at 11pm last night", "2023-10-24 23:00", "2023-10-25 00:00"},
		{"last night at 11", "last night at 11", "2023-10-24 23:00", "2023-10-25 00:00"},
		{"last night at 2am", "last night at 2am", "2023-10-25 02:00", "2023-10-25 03:00"},
		{"this afternoon around 2", "this afternoon around 2", "2023-10-25 14:00", "2023-10-25 15:00"},
		{"Monday evening at 8", "Monday evening at 8", "2023-10-23 20:00", "2023-10-23 21:00"},
		{"this morning at 3pm", "this morning", "2023-10-25 05:00", "2023-10-25 12:00"},
		{"this evening at 9am", "this evening", "2023-10-25 17:00", "2023-10-26 00:00"},
		{"this morning at 9 people came", "this morning", "2023-10-25 05:00", "2023-10-25 12:00"},
	}, Options{})
}
