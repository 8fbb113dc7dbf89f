// Package timeexpr finds natural-language time expressions ("yesterday", "last week", "on May 4th",
// "a few days ago", "our first conversation") in text and turns them into time windows.
//
// # Why own rules
//
// The Go date parsers that read free text (github.com/olebedev/when and its forks) resolve an
// expression to one instant and lean to the future, as a scheduler wants ("next wednesday at 2pm").
// Memory recall needs calendar windows ("last week" is the previous Monday-to-Sunday week, "in April"
// is the whole most recent April), ranges, seasons, vague spans and conversational anchors, and must
// refuse "May I ask" or "we march on". None of that fits those libraries, so this package has its own
// small token-based rules and imports nothing outside the standard library.
//
// # Semantics
//
// Windows are half-open [From, To) in the *time.Location given to Find or Parse, or as
// Options.Location to FindWith, FindAllWith or ParseWith (a nil location means now's). A zero From
// or To means the window is open on that side. Days are built with time.Date in that location, so a
// day across a daylight-saving change is 23 or 25 hours long. Weeks run Monday to Sunday.
//
// Exact expressions (Kind Exact) filter:
//   - "today", "yesterday", "the day before yesterday", "tomorrow", "N days ago" (also "a day ago",
//     "three days ago"): that calendar day. "earlier today": [today 00:00, now).
//     "N days|weeks|months|years ago today|yesterday" is the day that far before today or
//     yesterday ("a week ago today", "a year ago yesterday"), and so are "(on) this day|date last
//     year" and "(the) same day last week|month|year". A range of days ago ("three or four days
//     ago", "2-3 days ago", "a day or two ago") is those days; "N days or so ago" also the day
//     either side.
//   - Parts of a day: morning [05:00, 12:00), afternoon [12:00, 18:00), evening [17:00, 24:00),
//     night [18:00, next day 06:00). "last night" is yesterday's night, "tonight" today's, "last
//     evening" yesterday's evening (not after a determiner or before "of": "my last evening in
//     Paris", "the last evening of the trip"); they also
//     refine any single day ("yesterday morning", "Monday evening", "the evening of May 4", "on the
//     morning of the 5th", "the night of the 12th"; a bare ordinal day as "on the 4th"). A time of
//     day narrows a part to its hour when it lies in it: "this morning at 9", "at 9am this
//     morning" are [09:00, 10:00), "last night at 11" 23:00 (a bare hour after "at" or "around"
//     is am or pm as the part says), "last night at 2am" the next day's 02:00; "this morning at
//     3pm" stays the morning.
//   - "last/this/next week|month|year": the previous, current or next calendar unit, e.g. "this week"
//     is [Monday 00:00, next Monday 00:00). "the week before last" is the week before last week.
//     "earlier this week|month|year" (also "earlier in the week|month|year", "earlier in the
//     day"): from the unit's start to now.
//   - "the past/last N days|weeks|months|years" (and "the past week", "the last month", "the past few
//     days"): rolling, from the start of the day N units ago to the end of today. Note "last week"
//     without "the" is the calendar week, "the last week" the rolling 7 days. So are "the previous
//     week", "the prior week" and "the week prior" (also day, month and year: "the previous day",
//     "the prior day" and "the day prior" are yesterday alone, the day before today; "the prior 3
//     days"), while
//     "this past week" and "previous week" without "the" are the calendar week before this one.
//     A fortnight has no calendar bounds, so "last|previous fortnight" and "this past fortnight"
//     are "the past fortnight", the rolling 14 days, and "(the) next fortnight" the next 14 days.
//     Without "the" or a count, "past week|fortnight|month|year" is "the past ..." ("what did I
//     say past week") unless a determiner, a number or "half" comes before ("a past year", "each
//     past month") or a number after ("past week 3"); "past weekend" is last weekend, as "the past
//     weekend".
//     "in|over|during recent days|weeks|months|years" is "the past few" of them (3). "less than N units ago"
//     (also "under", "no|not more than") is "the past N units"; "just|slightly under ..." is not
//     read that way (it is about N units ago).
//   - Weekends: "last weekend" is Saturday and Sunday of the previous Monday-Sunday week, "this
//     weekend" of the current one, "next weekend" of the next one; "the weekend" / "over the weekend"
//     is the most recent weekend that has started.
//   - Weekdays: "Monday" / "on Monday" is the most recent Monday not after today (today, if today is
//     Monday); "last Monday" the most recent Monday before today; "this Monday" the Monday of the
//     current week (may be in the future); "next Monday" the first Monday after today; "Monday last
//     week" the Monday of last week, and so are "on Monday last week", "Monday of last week",
//     "last week on Monday" and "last week Monday" ("this|next week (on) Friday" likewise; "last
//     week on Friday evening" is its evening; without "on" the name must be no other word: "last
//     week sat down" is last week). "last week Monday to Wednesday" ("last week Mon-Wed") is
//     those days of last week, and so are "Monday to Wednesday (of) last week" and "Mon-Wed last
//     week" ("this|next week" likewise, in a clause about plans or not).
//     "Monday the 2nd" ("Friday the 13th", "Tuesday, the 17th", "Sunday 15th") is the most recent
//     2nd not after today that is a Monday, searching three years back (else the 2nd alone, as "on
//     the 2nd"). Abbreviations that are no other word ("Tues", "Weds", "Thur", "Thurs") stand
//     alone like a full name; "Mon", "Wed", "Sat", "Sun" need a preposition or last/this/next.
//   - "the Friday before last" is the Friday a week before "last Friday" (on a Saturday, 8 days
//     back), "the Monday after next" the Monday a week after "next Monday"; "the weekend before last"
//     the weekend of the week before last; "the week|weekend|month|year after next" the one after
//     the next; "the night before last" the night of the day before yesterday.
//   - "a weekend ago", "N weekends ago": counted back from last weekend (the most recent one that
//     has ended), which is one weekend ago, so on a Tuesday "two weekends ago" is the Saturday and
//     Sunday 10 and 9 days back. "a Monday ago", "N Mondays ago" are counted back likewise from
//     the most recent Monday before today, so "a Monday ago" is "last Monday" and "two Mondays
//     ago" "the Monday before last"; "N summers ago" (springs, autumns, falls, winters) from last
//     summer, the most recent that has ended: in November 2026 "two summers ago" is the summer
//     of 2025 (an exact season, where "N years ago" is vague around a point). "a week ago Monday" is the Monday a week before "Monday"
//     (the American idiom: on a Thursday "two weeks ago Saturday" is 19 days back). "two weeks ago on
//     Saturday" and "Saturday two weeks ago" are the Saturday of the Monday-Sunday week two weeks
//     before this one (on a Thursday 12 days back); the two readings agree for a weekday not later
//     in the week than today.
//   - Relative to another expression X, any exact window with both ends ("May 4", "16 November
//     2023", "Christmas", "last week"): "the day before X" is the day before X's first day, "the day
//     after X" the day after its last, "the night before X" the night of the day before; "the week
//     before X" the 7 days before X's first day, "the week after X" the 7 days after its last; "the
//     weekend before X" the last Saturday-Sunday that ends before X begins, "the weekend after X"
//     the first that begins after X ends; "the Friday before|after X" the nearest Friday before X
//     or after it ("(the) last weekend|Friday before X" and "the first|next weekend|Friday after
//     X" say the same); "the week of X" (X one day) the Monday-Sunday week holding X, "the weekend
//     of X" that week's Saturday and Sunday, but a Monday's the weekend just before it, as a
//     holiday Monday ends its long weekend ("the weekend of Memorial Day"; a Friday's is the one
//     after it). X may be a bare day here: "the weekend of the 7th" (also "of 7th", and two days
//     in a row, "the weekend of the 7th and 8th", "of the 7th-8th") is the weekend of the most
//     recent 7th not after today, as "on the 7th" ("the weekend of the 7th birthday" is "the
//     weekend"). "N days|weeks before X" is the day N days or weeks before
//     X's first day, "N days|weeks after|from X" the day N days or weeks after its last ("a week
//     from today"; in "two weeks from Friday" a bare weekday is the coming one); "N months|years
//     before|after X" is vague around that day's midday with the spread of "N months ago".
//     "prior to" is "before" in all of these ("the week prior to May 4", "3 days prior to X"). These
//     are longer than the "before X" and "after X" operators below and win over them: "the week
//     before May 4" is [Apr 27, May 4), not everything before May 4.
//   - Months: "in April" (a bare month needs a preposition, "last/this/next", "early/mid/late", a day
//     or a year) is the most recent April that has started; "last April" the most recent April that
//     has ended; "this April" April of this year; "next April" the first April after now; "April 2023",
//     "in April last year". "early/mid/late April" are days 1-10, 11-20 and 21-end. "all of X",
//     "the whole of X" and "the entirety of X" are X, taken as after a preposition, for any exact
//     window X with both ends ("all of June" is "in June", "the whole of last year" last year; a
//     lower-case "all of may" is the verb).
//   - Parts of a month counted in days: "the first|second|third|fourth week of May" (also "1st" to
//     "4th") are days 1-7, 8-14, 15-21 and 22-28, "the last|final week of May" its final 7 days. A
//     person counting weeks of a month means these blocks, not ISO or Monday-Sunday weeks (the
//     first of those may start in April). "the first|second half of May" are days 1-15 and 16-end,
//     "the first|last (few) days of May" the first and the final 5 days, "the first|last day of May"
//     that day, "the first|last N days|weeks of May" the first or final N or 7N days ("the last two weeks of August" is August
//     18-31; longer than the month is none). The month may be anything "in" takes ("May", "May
//     2023", "last month") or "the month" (this one). Of a year: "the first half of 2023" is
//     January-June, "the second half" July-December, "the first|last week of the year" January
//     1-7 and December 25-31, "the first|last few days" the first and final 5 days, "the
//     first|last N days|weeks|months of 2023" likewise, and "the second|third|fourth week of
//     2023" are January 8-14, 15-21 and 22-28, counted from January 1 like the first (the ISO week
//     is "week 3 of 2023", below). Of anything else it is none: "the last week of school" is
//     neither last week nor the past 7 days.
//   - Decades: "in the 90s", "the 1990s", "the '90s", "the 90's", "the nineties", "during the
//     2010s": [1990-01-01, 2000-01-01) and so on; "the early|mid|late 2000s" (also "the mid-90s")
//     are its years 0-3, 4-6 and 7-9 ("the late 80s" is 1987-1989). Two digits need "the" and are
//     the most recent such decade that has started ("the 20s" in 2026 are the 2020s, "the 30s"
//     the 1930s); four need "the", a preposition or early/mid/late ("in 1990s"). An age ("my 30s",
//     "her early 20s") has no "the" and is none; "temperatures in the 90s" reads as the decade.
//     Not decades: one followed by a unit ("the 90s days"), "the 1900s" and other centuries.
//   - Quarters are January-March, April-June, July-September and October-December: "Q3 2023",
//     "Q4 of last year", "the first|second|third|fourth quarter" (also "2nd"), "the last quarter
//     of 2022", "the first quarter of the year". Without a year, like a month, the most recent
//     one that has started ("in Q1", "Q1 results"; a bare "Q1" needs no preposition, but "q1x",
//     "Q10", "q1.txt" are not quarters). "last|this|next quarter" (also "the last quarter") are
//     the previous, current and next calendar quarter; "the first quarter of the game" is none.
//   - Week numbers are ISO 8601 weeks, Monday to Sunday, week 1 the one holding the year's first
//     Thursday: "week 46", "in week 46", "wk 46", "KW 46", "W46", "KW46", "2026-W46", with a year
//     "week 46 of 2025", "week 46 2025", "week 46, 2025", "week 46 last year"; "2026-W46-3" is
//     that week's third day (Wednesday). Without a year, like a month, the most recent such week
//     that has started (in a clause about plans the first that has not ended); "week 53" is the
//     most recent year's that has one, and a year without it ("2025-W53") is none. To keep a
//     week of something else out, the number is one or two digits from 1 to 53 standing alone
//     ("week 3.5", "week 3-4", "W46.txt" are none), followed by no unit ("week 3 days") and no
//     "of" but before a year or a month ("week 3 of the course" is none), and "week" has no
//     determiner or possessive before it ("the week 1 meeting", "my week 3 check-in", "per week
//     40 hours"). "week 3 of May" is a week of a month, days 15-21 as "the third week of May";
//     "week 3 of the year" the ISO week.
//     "W46" and "KW46" need an upper-case W or K and two digits, or a preposition for one ("in
//     W7"; "my W2 form" is a tax form); "2026-W46" has exactly two.
//   - "early/mid/late", "the beginning/middle/end of" also take "the month" and "the year" (the
//     current ones): "at the end of the year" is September-December. "the beginning|start of",
//     "the middle of" and "the end of" a calendar week ("last|this|next week", "the week") are its
//     Monday-Wednesday, Tuesday-Thursday and Friday-Sunday: "the end of last week" is last week's
//     Friday to Sunday. "early|mid|late last week" are not read that way ("I was late last week"
//     is last week).
//   - Dates: "May 4th", "May 4", "4 May", "May 4, 2023", "the 4th of May", "on the 4th", ISO
//     "2023-05-04" and "2023/05/04": that day; without a year, the most recent such day not after today.
//     ISO months "2023-05", years "in 2022" (a bare year needs a preposition). "the 21st of last
//     month", "the 3rd of this month", "the 15th of next month" (also "the 21st last month"), "the
//     1st of the month" (this one): that day of that calendar month; a day the month lacks ("the
//     31st of" a 30-day month) leaves the month alone.
//   - Numeric dates "5/4/2023", "25/4/2023", "5/4/23", "4.5.2023", "2023.05.04": that day. A part
//     above 12 is the day; otherwise dotted dates are day first (4.5.2023 is 4 May, the European
//     convention) and slashed ones month first (5/4/2023 is May 4, US English) unless
//     Options.DayFirst is set. A two-digit year is the nearest one at most 20 years ahead. Without a
//     year ("5/4") only after on, since, until, till, from, before, after or between, before a time
//     of day ("5/4 at 3pm") or at the end of a range ("from 5/4 to 5/10"); then the most recent
//     such day not after today. Not dates: "3/4 of", "won 3/2", "scored 10/10", "1/2 cup", "cut by
//     1/2" (so "by 5/4" is not read either), "version 1.2.3", "1.5", "24/7".
//   - Seasons are meteorological, northern hemisphere: spring Mar-May, summer Jun-Aug, autumn/fall
//     Sep-Nov, winter Dec-Feb (named by the year of its December: "winter 2022" is Dec 2022-Feb 2023).
//     "in (the) summer" is the most recent summer that has started; "last summer" the most recent one
//     that has ended (in October that is this year's, in July last year's); "this summer" the summer
//     under way, else the one that starts in this calendar year (in October "this spring" is last
//     March-May, "this winter" the coming December-February); "next summer" the
//     first one that starts after now.
//   - Ranges: "between X and Y", "from X to|until|through Y", "X - Y" for two dates ("April 1-10"): from
//     the start of X to the end of Y, so "between April 1 and April 10" is [Apr 1, Apr 11); a
//     weekday Y comes after X ("from Monday to Wednesday" on a Tuesday ends tomorrow). Two
//     weekdays need no "from" or "between": "Monday to Friday", "Monday through Friday",
//     "Monday-Friday", "Mon-Fri" (abbreviations need a dash or capitals: "Mon to Fri") start at
//     the weekday the first alone names, or in the week named after them ("Monday to Friday last
//     week", "Mon-Fri this week", "Monday through Wednesday of next week"). A bare day at either end takes the other end's month:
//     "from October 1st through the 10th", "from the 1st to the 10th of October", "between 1
//     and 5 October", "1-5 October", "1st-5th October" are October 1-10 or 1-5 ("from the 28th
//     to the 3rd of March" starts on February 28); without "from" or "between" the first day
//     needs a dash or, as an ordinal, "to" ("1st to 5th May"; "1 to 5 May" is May 5 alone), and
//     the end a day-first date. Between two bare ordinals ("between the 3rd and the 5th")
//     the first is the most recent such day, as "on the 4th", and the second in its month, or the
//     next when it is smaller. "since X" is
//     [start of X, now); "after X" is [end of X, open); "before X" is [open, start of X); "until X" is
//     [open, end of X), and so are "by X", "as of X", "as at X", "up until X" and "up to X" ("by
//     July 10, 2022", "as of December 2023", "by the end of May"). Not deadlines: "by" after a verb
//     whose particle it is ("stopped by yesterday" is yesterday, "stand by Friday" Friday), "up
//     to X" after be or get or with X counted from now ("what have you been up to last week" is
//     last week), a bare year followed by a noun ("won by 2000 votes"), a bare month, season or
//     holiday after a participle that says who or what did it ("inspired by autumn"; "finished by
//     May" and other participles of getting done are deadlines), "as of late" (vague, as
//     "lately").
//   - Future offsets: "in 2 days", "2 days from now|today", "in 5 days' time": that calendar day.
//     "the next N days|weeks|months" (also "the coming two weeks", "the next few days"): from the
//     start of today to the end of the day N units on, the mirror of "the past N days"; "the next
//     week" without a count stays the calendar week. "In" followed by a span is also how a duration
//     is said, so it is no match when the nearest deciding word before it in its clause is a
//     past-tense verb or a number ("I read it in 2 days", "ran 20 km in 2 hours"); after a future
//     marker (will, 'll, going, is, ...), at the start of a clause or otherwise it is a future time.
//     "in a second|minute" are idioms.
//   - ISO date-times ("2023-05-04T10:00:00Z", "2023-05-04 10:00" in the location): [t, t+1s).
//   - A time of day with a single day ("yesterday at 3pm", "15:00 on Monday", "May 4 at noon"): the
//     hour [t, t+1h). A time of day alone is not a date, except after "at": "at 3pm", "at 15:00",
//     "at noon" are the hour of the most recent such time that has begun (today's if it has,
//     else yesterday's; in a clause about plans the first whose hour has not ended), "at 3pm on
//     the 5th" that day's. A bare number ("at 3"), a habit ("I usually eat at 6pm", "at 6pm every
//     day") and a score after score words ("the odds at 11:10", "we led at 10:08") are none.
//   - Holidays need a preposition, last/this/next or a year: "at Christmas", "on New Year's Eve",
//     "last Halloween", "Valentine's Day 2022", "at Easter"; or, for a name that says a day and no
//     thing (Christmas Day, Christmas Eve, New Year's Day, New Year's Eve, Valentine's Day,
//     Halloween), the end of a clause after it ("What did we do Christmas Day?"; "Christmas Day
//     dinner", "Happy Halloween!" are none); like dates, without a year the most
//     recent one not after today, "last Easter" the most recent before today, "next Easter" the
//     first after today. Fixed: Christmas (Eve, Day), New Year's (Eve, Day), Halloween, Valentine's
//     Day, St. Patrick's Day, Independence Day and the Fourth of July (US), Boxing Day (December
//     26), Juneteenth (June 19), Veterans Day (November 11), Groundhog Day (February 2), Earth Day
//     (April 22), Cinco de Mayo (May 5). Movable: Easter (Sunday; Gregorian computus), Good
//     Friday, Easter Monday, and the US Thanksgiving (fourth Thursday of November), Memorial Day
//     (last Monday of May), Labor Day (first Monday of September), Mother's Day (second Sunday of
//     May), Father's Day (third Sunday of June), Martin Luther King Jr. Day (third Monday of
//     January), Presidents' Day (third Monday of February), Columbus Day and Indigenous Peoples'
//     Day (second Monday of October), Canadian Thanksgiving (second Monday of October, only so
//     named), and the UK bank holidays, which take "the": "the (early) May bank holiday" (first
//     Monday of May), "the spring|late May bank holiday" (last Monday of May), "the August bank
//     holiday" (last Monday of August; "over the August bank holiday" is its long weekend, a bare
//     "the bank holiday" none). Lunar holidays (Diwali, Hanukkah) are not understood.
//     "<holiday> weekend" needs nothing before it: "Easter weekend" is Good Friday to Easter Monday;
//     otherwise the long weekend the holiday makes by its weekday: Thursday or Friday to Sunday
//     ("Thanksgiving weekend" Thursday-Sunday), Saturday to Monday or Tuesday ("Memorial Day
//     weekend" Saturday-Monday, "Fourth of July weekend" on a Tuesday Saturday-Tuesday), the
//     Saturday-Sunday it falls on, and for a Wednesday the weekend after. "over Easter", "over
//     Christmas", "over Thanksgiving" are that long weekend too, since "over" says a span ("over
//     Easter" is Good Friday to Easter Monday); "at|on Easter" is the day, and so is "over" a name
//     that says the day ("over Christmas Day", "over Easter Sunday") or a holiday followed by a
//     meal ("over Thanksgiving dinner"). A holiday followed by a
//     thing ("Easter egg", "Christmas tree", "Easter Island") is not a date.
//   - "back in April" is "in April"; a possessive 's belongs to the expression ("last week's").
//   - "back" is "ago" ("two weekends back", "10 days back", "a while back") where it ends the
//     clause, a new one starts with a subject ("a few weeks back I said"), "about" follows ("a while
//     back about the move") or a day ("a week back today"); else it is where someone went or is,
//     no time: "a weekend back home", "two weeks back at work", "some time back with my parents".
//
// Vague expressions (Kind Vague) should only boost by closeness to Anchor, falling off over Spread;
// From/To give a plausible window (Anchor ± 2·Spread, widened to whole days when Spread is a day or
// more, ending no later than the end of today):
//   - "a few days ago" (now-3d, 2d), "a couple of days ago" (now-2d, 1d), "several days ago" (now-5d,
//     3d), "the other day" (now-3d, 3d), "recently" / "lately" / "these days" / "nowadays" (now,
//     7d; not "one of these days", some day to come, or "on|for|during (all) these days", days
//     named before), "a while back|ago" (now-30d, 30d), "a long time ago" (now-1y, 1y),
//     "earlier" at the end of a clause (now-3h, 3h).
//   - "N weeks ago" (now-7N days, (2+N) days, at most 14d), "N months ago" (now-N months,
//     (10+5N) days, at most 60d), "N years ago" (now-N years, 60N days, at most 365d), "N hours ago",
//     "N minutes ago", "weeks ago", "a few months ago", "a fortnight ago", "this time last year"
//     (a year back, 14d), "around May 4th" (any exact window prefixed with "around" becomes vague
//     around its middle, spread half the window but at least 2d; a time of day, "around 3pm
//     yesterday", is vague around that minute ±1h).
//   - A range of counts, "2-3 weeks ago", "two or three months ago", "a week or two ago", "3 to 4
//     years back": around the middle of the two, with the larger count's spread plus half the gap
//     ("2-3 weeks ago" is now-17.5d ±8.5d). "or so" after a count changes nothing ("a month or so
//     ago" is "a month ago"; days see above).
//   - Halves: "half a year ago" (also "a half year ago"), "a year and a half ago", "one and a half
//     years ago", "1.5 years ago", "two and a half weeks ago", "half an hour ago", and ahead "in a
//     year and a half", "a year and a half from now": around that point. A half is counted in a
//     smaller unit where one fits, with that unit's spread: half a year is 6 months ("half a year
//     ago" is "6 months ago", "1.5 years ago" is "18 months ago"), half a fortnight a week, half a
//     day 12 hours, half an hour 30 minutes (±15m). Half a month is 15 days and half a week 3.5
//     days, spread halfway between N and N+1 units ("two and a half weeks ago" is now-17.5d
//     ±4.5d). A number glued after "digit." is the fraction of a decimal, never a count of its
//     own: "1.5 years ago" is not "5 years ago", and other decimals ("1.25 years ago") are not
//     read. "in half a minute" is an idiom.
//   - A question for a count of units ago asks for the time and restricts none: "how many days ago
//     did I buy the car?", "how many weeks ago", "how long ago did I ...?" are no match. "many
//     years ago" in a statement ("I met him many years ago") is "years ago".
//   - Future: "in N weeks|months|years|hours|minutes", "N weeks from now", "in a few days|weeks",
//     "in two weeks' time": the mirror of "N units ago", N units after now with the same spread
//     ("in three weeks" is now+21d ±5d).
//   - "the holidays", "the holiday season", "the Christmas|winter holidays", "the festive season"
//     after a preposition ("over the holidays"): around the most recent Christmas Eve to New
//     Year's Day that has begun, December 28 at midday ±3d (window December 22 to January 3).
//     Vague because "the holidays" may be a summer's too; "the summer holidays" is the summer.
//     So are "(the) Christmas|Xmas|winter break|vacation|holidays|holiday" after a preposition
//     ("during Christmas break"; "last Christmas break" the most recent that has ended). Another
//     holiday's break ("over Thanksgiving break", "during the Easter holidays") is around the
//     middle of its long weekend ("<holiday> weekend") ±3d: schools' and firms' breaks vary.
//   - "the turn of the year" (with a preposition or none: "at|around|since the turn of the year"),
//     "over|around (the) New Year('s)": around the midnight that begins the most recent January 1
//     not after today (in a clause about plans the coming one; "over New Year 2021" that year's),
//     ±3d, so a window from December 26 to January 7. "over New Year" is not the long weekend of
//     January 1, which would leave out New Year's Eve; "over|around New Year's Day|Eve" and "at
//     New Year" are the holiday, "in the new year" and "my new year resolution" no time.
//
// # Plans
//
// Without a year or last/this/next, a date, month, season, holiday, weekday, "the weekend", "on the
// 4th" and "the holidays" are the most recent one that has begun, as above. In a clause about
// plans they are the next one that has not ended (the one under way, else the coming one): "What
// are Melanie's plans for the summer?" asked in October is next summer, "I'll call you on Friday"
// the coming Friday, "I'm going to Paris in May" said in January this May. A clause is about plans
// when, back to its start (a punctuation mark, at most 15 words), it has a plan word (will, 'll,
// won't, shall, gonna, going to, plan, plans, planning) and no past tense (was, were, did, had,
// said, told, an irregular past such as went, or any word ending in -ed): "What were Melanie's
// plans for the summer?" and "I was going to Paris in May" keep the most recent one. A wrong
// future reading moves a window a year on, so the rule leans to the past: "want", "hope" and
// "expect" do not count ("I want to know what I did in May"), a capitalised "Will" inside a
// sentence is a name, and these are not handled: plan words after the expression ("In May I will
// go"), the present for the future ("we're flying out in May"), adjectives ending in -ed ("I'm
// going to get married in June" keeps last June).
//
// # Said on a named day
//
// Questions often say when something was said: "What did Joanna finish last Friday on 23 January,
// 2022?", "Tim's writing issue last week, as mentioned on November 6, 2023". An expression R
// counted from now (not fixed by a named date: "yesterday", "last Friday", "last week", "two days
// ago", "this morning", "in 2 days") followed by a named date D (a date, month, season, holiday or
// year, see Find) is one match covering both, so Strip removes both. What joins them decides:
//   - A marker that D is when R was said: "as of D", "as at D", "as mentioned|said|told|... on|in
//     D" (also "as I told you on D"), "said|mentioned|... on|in D", with or without a comma or
//     "(...)" around it. R is read as if said at midday on D: "last week, as mentioned on November
//     6, 2023" is October 30 to November 5, 2023.
//   - "on D" straight after R: D is the reference point too ("last Friday on 23 January, 2022" is
//     Friday 21 January 2022; "yesterday on May 4" is May 3), unless D lies within R read from
//     now (then R and D say the same day or D narrows R: "last week on October 18" is October 18)
//     or R names D's weekday ("last Friday on 21 January 2022", a Friday, is that Friday).
//   - ", on D", ", D" or "(D)" with nothing else: an aside. If D lies within R read from now they
//     say the same day ("yesterday, May 4" said on May 5), else the reading is ambiguous ("What did
//     I tell you yesterday, on May 4?" asked in January: May 3 or May 4?); either way the window
//     is D, the more informative.
//
// D must span one calendar day to be a reference point; a longer D ("last week, as mentioned in
// November 2022") gives D's window alone. Without a marker D must end its clause (a punctuation
// mark or the end follows), so "yesterday, May 4 was fun" stays two expressions; "(D" needs its
// ")". Find prefers such a match over any other (see Find).
//
// Not understood (left for later): holidays of other countries than those listed, lunar ones (Diwali, Hanukkah), "N days later" counted from a story's own time,
// languages other than English.
//
// Conversational anchors (Kind AnchorFirst, AnchorLast) cannot be resolved here: "our first
// conversation", "the first time we talked", "when we first met", "last time", "the last time we
// spoke", "our last conversation", "previous chat", "(on) the first|last day we spoke" (a day needs
// its clause: "the first day I went to school" is none, "the last day" the rolling day). They carry
// no window; the caller resolves them against its first or last conversation.
//
// All functions are pure and safe to call concurrently. Text without a word any expression needs (a
// digit, a unit, a month, a weekday, ...) is not matched against the rules at all, so FindAll over
// many short texts costs little more than splitting them into words.
package timeexpr

import (
	"fmt"
	"strings"
	"time"
)

// Kind says how a Match should be used.
type Kind int

const (
	// None means no time expression.
	None Kind = iota
	// Exact means the window [From, To) should filter.
	Exact
	// Vague means results should be boosted by closeness to Anchor over Spread.
	Vague
	// AnchorFirst means the caller's first conversation.
	AnchorFirst
	// AnchorLast means the caller's most recent (previous) conversation.
	AnchorLast
)

// String returns a lower-case name of the kind.
func (k Kind) String() string {
	switch k {
	case None:
		return "none"
	case Exact:
		return "exact"
	case Vague:
		return "vague"
	case AnchorFirst:
		return "anchor-first"
	case AnchorLast:
		return "anchor-last"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Match is one time expression found in a text.
type Match struct {
	Kind     Kind
	Expr     string        // the matched text as it appeared in the input
	From, To time.Time     // half-open window; zero means open on that side (Exact; also set for Vague as the plausible window)
	Anchor   time.Time     // Vague: the centre of the boost
	Spread   time.Duration // Vague: the scale of the boost (closeness falls off over this)
	Start    int           // byte offset of Expr in the input
	End      int           // byte offset just past Expr in the input
}

// Options configure how text is read. The zero value reads in now's location, month first.
type Options struct {
	// Location is where days begin and end; nil means now.Location().
	Location *time.Location
	// DayFirst reads an ambiguous slashed date such as "5/4/2023" as day/month (4 May), the British
	// and European order; by default it is month/day (US, 5 April is "4/5/2023"). A part above 12
	// decides either way, and dotted dates ("4.5.2023") are always day first.
	DayFirst bool
}

// Find returns the most informative time expression in text, or ok=false. It prefers, in this
// order: an expression composed with the day it was said on (see the package documentation);
// exact windows fixed by a named date (a date, month, season, holiday or year named
// without last/this/next: "on May 4", "in 2022", "the week before May 4") and conversational
// anchors; exact windows counted from now ("yesterday", "last week", "last April"); vague
// expressions fixed by a named date ("around May 4th"); other vague ones. Within a rank the
// earliest wins ("yesterday and last week" is yesterday). A nil loc means now.Location().
func Find(text string, now time.Time, loc *time.Location) (Match, bool) {
	return FindWith(text, now, Options{Location: loc})
}

// FindWith is Find with options.
func FindWith(text string, now time.Time, opt Options) (Match, bool) {
	p := newParser(text, now, opt, false)
	return p.find()
}

// FindAll returns every time expression in text, left to right, none overlapping (at each position
// the longest). A nil loc means now.Location().
func FindAll(text string, now time.Time, loc *time.Location) []Match {
	return FindAllWith(text, now, Options{Location: loc})
}

// FindAllWith is FindAll with options.
func FindAllWith(text string, now time.Time, opt Options) []Match {
	p := newParser(text, now, opt, false)
	var out []Match
	p.scan(func(m Match, _ result) { out = append(out, m) })
	return out
}

// Strip returns text with the matched expression removed and whitespace and punctuation tidied
// ("What did we do yesterday?" -> "What did we do?"). A Match that does not fit text leaves it as is.
func Strip(text string, m Match) string {
	if m.Kind == None || m.Start < 0 || m.End > len(text) || m.Start >= m.End {
		return text
	}
	return tidy(text[:m.Start] + " " + text[m.End:])
}

// tidy collapses whitespace, removes spaces before punctuation, commas left dangling before other
// punctuation, and punctuation left at the start.
func tidy(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' && i+1 < len(s) && strings.IndexByte(",.?!;:)", s[i+1]) >= 0 {
			continue
		}
		if c == ',' {
			j := i + 1
			for j < len(s) && s[j] == ' ' {
				j++
			}
			if j == len(s) || strings.IndexByte(",.?!;:)", s[j]) >= 0 {
				i = j - 1
				continue
			}
			if b.Len() == 0 { // nothing before the comma
				i = j - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return strings.TrimLeft(strings.TrimSpace(b.String()), ",;: ")
}

// examples lists accepted forms for error messages.
const examples = `e.g. "2023-05-04", "2023-05-04T10:00:00Z", "2023-05", "yesterday", "last week", ` +
	`"3 days ago", "in April 2023", "May 4th", "last Monday", "since March", "between April 1 and April 10", ` +
	`"a few days ago", "our first conversation"`

// Parse parses a whole string that is only a time expression or a timestamp: RFC 3339, an ISO date,
// an ISO date-time without zone (read in loc), or any expression Find understands. A bare month, year
// or season is accepted here ("May", "2022", "summer"). For a point in time use From for Exact
// windows and Anchor for Vague ones. A nil loc means now.Location().
func Parse(s string, now time.Time, loc *time.Location) (Match, error) {
	return ParseWith(s, now, Options{Location: loc})
}

// ParseWith is Parse with options.
func ParseWith(s string, now time.Time, opt Options) (Match, error) {
	loc := opt.Location
	if loc == nil {
		loc = now.Location()
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return Match{}, fmt.Errorf("timeexpr: empty time expression; use %s", examples)
	}
	if ts, err := time.Parse(time.RFC3339Nano, t); err == nil {
		ts = ts.In(loc)
		off := strings.Index(s, t)
		return Match{Kind: Exact, Expr: t, From: ts, To: ts.Add(time.Second), Start: off, End: off + len(t)}, nil
	}
	p := newParser(s, now, Options{Location: loc, DayFirst: opt.DayFirst}, true)
	m, ok := p.find()
	if !ok {
		return Match{}, fmt.Errorf("timeexpr: %q is not a time expression I understand; use %s", t, examples)
	}
	if rest := strings.Trim(tidy(s[:m.Start]+" "+s[m.End:]), " .?!"); rest != "" {
		return Match{}, fmt.Errorf("timeexpr: understood %q but not %q in %q; give only a time, %s",
			m.Expr, rest, t, examples)
	}
	return m, nil
}

// Instant returns the one instant the match names where a single time is wanted (a memory's
// time, a bound of a range): an exact window's From, or its To when atEnd; a vague expression's
// Anchor. It is zero for a side the window leaves open ("before May" has no From) and for the
// conversational anchors, whose time only the caller knows.
func (m Match) Instant(atEnd bool) time.Time {
	switch m.Kind {
	case Exact:
		if atEnd {
			return m.To
		}
		return m.From
	case Vague:
		return m.Anchor
	}
	return time.Time{}
}

// String renders the match for people, e.g. "2023-05-04 (yesterday)", "2023-04-01 .. 2023-04-10",
// "around 2023-10-22 ±2d (a few days ago)" or "first conversation".
func (m Match) String() string {
	var w string
	switch m.Kind {
	case None:
		return "no time expression"
	case AnchorFirst:
		w = "first conversation"
	case AnchorLast:
		w = "last conversation"
	case Vague:
		w = "around " + fmtPoint(m.Anchor) + " ±" + fmtSpread(m.Spread)
	default:
		w = fmtWindow(m.From, m.To)
	}
	if m.Expr != "" && !strings.EqualFold(m.Expr, w) {
		w += " (" + m.Expr + ")"
	}
	return w
}

func fmtWindow(from, to time.Time) string {
	switch {
	case from.IsZero() && to.IsZero():
		return "any time"
	case from.IsZero() && midnight(to):
		y, mo, d := to.Date()
		return "until " + time.Date(y, mo, d-1, 0, 0, 0, 0, to.Location()).Format(time.DateOnly)
	case from.IsZero():
		return "before " + fmtPoint(to)
	case to.IsZero():
		return "since " + fmtPoint(from)
	}
	if to.Sub(from) <= time.Second {
		return from.Format(time.RFC3339)
	}
	if midnight(from) && midnight(to) {
		y, mo, d := from.Date()
		loc := from.Location()
		switch {
		case to.Equal(time.Date(y, mo, d+1, 0, 0, 0, 0, loc)):
			return from.Format(time.DateOnly)
		case d == 1 && to.Equal(time.Date(y, mo+1, 1, 0, 0, 0, 0, loc)):
			return from.Format("2006-01")
		case d == 1 && mo == 1 && to.Equal(time.Date(y+1, 1, 1, 0, 0, 0, 0, loc)):
			return from.Format("2006")
		}
		ty, tm, td := to.Date()
		return from.Format(time.DateOnly) + " .. " + time.Date(ty, tm, td-1, 0, 0, 0, 0, to.Location()).Format(time.DateOnly)
	}
	return fmtPoint(from) + " .. " + fmtPoint(to)
}

func fmtPoint(t time.Time) string {
	if midnight(t) {
		return t.Format(time.DateOnly)
	}
	return t.Format("2006-01-02 15:04")
}

func fmtSpread(d time.Duration) string {
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd", int((d+12*time.Hour)/(24*time.Hour)))
	case d >= time.Hour:
		return fmt.Sprintf("%dh", int((d+30*time.Minute)/time.Hour))
	}
	return fmt.Sprintf("%dm", int((d+30*time.Second)/time.Minute))
}

func midnight(t time.Time) bool {
	h, mi, s := t.Clock()
	return h == 0 && mi == 0 && s == 0 && t.Nanosecond() == 0
}
