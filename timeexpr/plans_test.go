package timeexpr

import (
	"testing"
	"time"
)

// In a clause about plans a date, month, season, holiday, weekday or weekend named without a year
// or last/this/next is the next one that has not ended. The clocks are Wednesday 2023-10-25.
var planCases = []exactCase{
	{"What are Melanie's plans for the summer?", "for the summer", "2024-06-01", "2024-09-01"},
	{"What is Caroline planning for the summer?", "for the summer", "2024-06-01", "2024-09-01"},
	{"Melanie will travel in May", "in May", "2024-05-01", "2024-06-01"},
	{"I'm going to Paris in May", "in May", "2024-05-01", "2024-06-01"},
	{"I won't go in May", "in May", "2024-05-01", "2024-06-01"},
	{"we'll meet in October", "in October", "2023-10-01", "2023-11-01"},
	{"we will meet on May 4", "on May 4", "2024-05-04", "2024-05-05"},
	{"shall we meet on 5/4?", "on 5/4", "2024-05-04", "2024-05-05"},
	{"I'll call you on Friday", "on Friday", "2023-10-27", "2023-10-28"},
	{"I'll call you on Wednesday", "on Wednesday", "2023-10-25", "2023-10-26"},
	{"we're gonna relax over the weekend", "over the weekend", "2023-10-28", "2023-10-30"},
	{"I'm going to Rome at Christmas", "at Christmas", "2023-12-25", "2023-12-26"},
	{"I'll pay on the 4th", "on the 4th", "2023-11-04", "2023-11-05"},
	{"I will visit the week before May 4", "the week before May 4", "2024-04-27", "2024-05-04"},
	{"I will be away from Dec 20 to Jan 5", "from Dec 20 to Jan 5", "2023-12-20", "2024-01-06"},
	{"we plan to go at the end of May", "at the end of May", "2024-05-21", "2024-06-01"},
	// a past tense, or a plan word only after the expression: the most recent one, as without plans
	{"What were Melanie's plans for the summer?", "for the summer", "2023-06-01", "2023-09-01"},
	{"I was going to Paris in May", "in May", "2023-05-01", "2023-06-01"},
	{"I met Will in May", "in May", "2023-05-01", "2023-06-01"},
	{"Will you tell me what I did in May?", "in May", "2023-05-01", "2023-06-01"},
	{"I want to know what I did in May", "in May", "2023-05-01", "2023-06-01"},
	{"What did she say she will do on Friday?", "on Friday", "2023-10-20", "2023-10-21"},
	{"In May I will go to Paris", "In May", "2023-05-01", "2023-06-01"},
	{"I'm going to get married in June", "in June", "2023-06-01", "2023-07-01"},
	{"we will meet, as we did in May", "in May", "2023-05-01", "2023-06-01"},
	{"What will Jo do tomorrow as said on May 4?", "tomorrow as said on May 4", "2023-05-05", "2023-05-06"},
}

func TestFindPlans(t *testing.T) {
	checkExact(t, planCases, Options{})
	for name, now := range clocks(t) {
		m, ok := Find("What will you do over the holidays?", now, now.Location())
		if want := time.Date(2023, 12, 28, 12, 0, 0, 0, now.Location()); !ok || m.Kind != Vague || !m.Anchor.Equal(want) {
			t.Errorf("%s: over the holidays, planned = %v, want around %v", name, m, want)
		}
	}
	// A memory said on 2023-01-10 about a trip in May tells of May 2023, not May 2022.
	said := time.Date(2023, 1, 10, 9, 0, 0, 0, time.UTC)
	if ms := FindAll("I'm going to Paris in May, we went to Rome in May", said, time.UTC); len(ms) != 2 ||
		ms[0].From.Year() != 2023 || ms[1].From.Year() != 2022 {
		t.Errorf("FindAll of a plan and a memory = %v", ms)
	}
	// while the holidays are under way, planned ones are these
	if m, ok := Find("what will we eat over the holidays?", time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC), time.UTC); !ok ||
		!m.Anchor.Equal(time.Date(2023, 12, 28, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("over the holidays on January 1 = %v", m)
	}
}
