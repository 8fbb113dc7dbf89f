package timeexpr

import (
	"testing"
	"time"
)

// Holidays at the fixed clocks (Wednesday 2023-10-25): without a year the most recent one not
// after today, so Thanksgiving is 2022's.
var holidayCases = []exactCase{
	{"at Easter", "at Easter", "2023-04-09", "2023-04-10"},
	{"last Easter", "last Easter", "2023-04-09", "2023-04-10"},
	{"next Easter", "next Easter", "2024-03-31", "2024-04-01"},
	{"Easter 2019", "Easter 2019", "2019-04-21", "2019-04-22"},
	{"on Easter Sunday 2008", "on Easter Sunday 2008", "2008-03-23", "2008-03-24"},
	{"on Good Friday", "on Good Friday", "2023-04-07", "2023-04-08"},
	{"on Easter Monday", "on Easter Monday", "2023-04-10", "2023-04-11"},
	{"Easter weekend", "Easter weekend", "2023-04-07", "2023-04-11"},
	{"over the Easter weekend", "over the Easter weekend", "2023-04-07", "2023-04-11"},
	{"the week after Easter", "the week after Easter", "2023-04-10", "2023-04-17"},
	{"on Thanksgiving", "on Thanksgiving", "2022-11-24", "2022-11-25"},
	{"Thanksgiving 2023", "Thanksgiving 2023", "2023-11-23", "2023-11-24"},
	{"next Thanksgiving", "next Thanksgiving", "2023-11-23", "2023-11-24"},
	{"on Thanksgiving Day 2021", "on Thanksgiving Day 2021", "2021-11-25", "2021-11-26"},
	{"Thanksgiving weekend", "Thanksgiving weekend", "2022-11-24", "2022-11-28"},
	{"on Memorial Day", "on Memorial Day", "2023-05-29", "2023-05-30"},
	{"Memorial Day weekend", "Memorial Day weekend", "2023-05-27", "2023-05-30"},
	{"Labor Day weekend", "Labor Day weekend", "2023-09-02", "2023-09-05"},
	{"on Labour Day", "on Labour Day", "2023-09-04", "2023-09-05"},
	{"on Mother's Day", "on Mother's Day", "2023-05-14", "2023-05-15"},
	{"Mothers Day 2022", "Mothers Day 2022", "2022-05-08", "2022-05-09"},
	{"on Father's Day", "on Father's Day", "2023-06-18", "2023-06-19"},
	{"on Martin Luther King Jr. Day", "on Martin Luther King Jr. Day", "2023-01-16", "2023-01-17"},
	{"MLK Day 2024", "MLK Day 2024", "2024-01-15", "2024-01-16"},
	{"on Presidents' Day", "on Presidents' Day", "2023-02-20", "2023-02-21"},
	{"last President's Day", "last President's Day", "2023-02-20", "2023-02-21"},
	{"on St. Patrick's Day", "on St. Patrick's Day", "2023-03-17", "2023-03-18"},
	{"St Patricks Day 2022", "St Patricks Day 2022", "2022-03-17", "2022-03-18"},
	{"on Boxing Day", "on Boxing Day", "2022-12-26", "2022-12-27"},
	{"on Christmas Day", "on Christmas Day", "2022-12-25", "2022-12-26"},
	{"on New Year's Day", "on New Year's Day", "2023-01-01", "2023-01-02"},
	{"on Independence Day", "on Independence Day", "2023-07-04", "2023-07-05"},
	{"on the Fourth of July", "on the Fourth of July", "2023-07-04", "2023-07-05"},
	{"Fourth of July weekend", "Fourth of July weekend", "2023-07-01", "2023-07-05"}, // a Tuesday: Sat-Tue
	{"the Fourth of July weekend", "the Fourth of July weekend", "2023-07-01", "2023-07-05"},
	{"Christmas weekend", "Christmas weekend", "2022-12-24", "2022-12-26"},                       // a Sunday
	{"New Year's weekend 2021", "New Year's weekend 2021", "2021-01-01", "2021-01-04"},           // a Friday
	{"Valentine's Day weekend 2024", "Valentine's Day weekend 2024", "2024-02-17", "2024-02-19"}, // a Wednesday
	{"on Halloween", "on Halloween", "2022-10-31", "2022-11-01"},
	{"on Valentine's Day", "on Valentine's Day", "2023-02-14", "2023-02-15"},
	{"the weekend before Memorial Day", "the weekend before Memorial Day", "2023-05-27", "2023-05-29"},
}

func TestFindHolidays(t *testing.T) {
	checkExact(t, holidayCases, Options{})
	checkNone(t, []string{
		"Easter egg hunt",
		"we went on Easter egg hunts",
		"I found an Easter egg in the game",
		"a trip on Easter Island",
		"Thanksgiving dinner was great",
		"the labor day sale",
		"on Labor Day sale",
		"I watched Independence Day",
		"on Christmas tree duty",
		"my mother's day off",
		"Good Friday",
		"the Thanksgiving parade",
	}, Options{})
}

// Holidays added with the UK bank holidays, at the fixed clocks (Wednesday 2023-10-25): Columbus
// Day and Canadian Thanksgiving were Monday October 9, Veterans Day is 2022's.
var moreHolidayCases = []exactCase{
	{"on Canadian Thanksgiving", "on Canadian Thanksgiving", "2023-10-09", "2023-10-10"},
	{"Canadian Thanksgiving weekend", "Canadian Thanksgiving weekend", "2023-10-07", "2023-10-10"},
	{"Canadian Thanksgiving Day 2022", "Canadian Thanksgiving Day 2022", "2022-10-10", "2022-10-11"},
	{"on Columbus Day", "on Columbus Day", "2023-10-09", "2023-10-10"},
	{"on Indigenous Peoples' Day 2022", "on Indigenous Peoples' Day 2022", "2022-10-10", "2022-10-11"},
	{"on Indigenous People's Day", "on Indigenous People's Day", "2023-10-09", "2023-10-10"},
	{"on Veterans Day", "on Veterans Day", "2022-11-11", "2022-11-12"},
	{"next Veterans' Day", "next Veterans' Day", "2023-11-11", "2023-11-12"},
	{"on Juneteenth", "on Juneteenth", "2023-06-19", "2023-06-20"},
	{"Juneteenth 2021", "Juneteenth 2021", "2021-06-19", "2021-06-20"},
	{"on Groundhog Day", "on Groundhog Day", "2023-02-02", "2023-02-03"},
	{"on Earth Day", "on Earth Day", "2023-04-22", "2023-04-23"},
	{"on Cinco de Mayo", "on Cinco de Mayo", "2023-05-05", "2023-05-06"},
	{"on the May bank holiday", "on the May bank holiday", "2023-05-01", "2023-05-02"},
	{"the early May bank holiday 2022", "the early May bank holiday 2022", "2022-05-02", "2022-05-03"},
	{"on the spring bank holiday", "on the spring bank holiday", "2023-05-29", "2023-05-30"},
	{"on the late May bank holiday", "on the late May bank holiday", "2023-05-29", "2023-05-30"},
	{"on the August bank holiday", "on the August bank holiday", "2023-08-28", "2023-08-29"},
	{"on August bank holiday Monday", "on August bank holiday Monday", "2023-08-28", "2023-08-29"},
	{"over the August bank holiday", "over the August bank holiday", "2023-08-26", "2023-08-29"},
	{"the May bank holiday weekend", "the May bank holiday weekend", "2023-04-29", "2023-05-02"},
	{"last August bank holiday", "last August bank holiday", "2023-08-28", "2023-08-29"},
	// "Columbus" is also a city
	{"I was in Columbus day before yesterday", "day before yesterday", "2023-10-23", "2023-10-24"},
}

func TestFindMoreHolidays(t *testing.T) {
	checkExact(t, moreHolidayCases, Options{})
	checkNone(t, []string{
		"I watched Groundhog Day",
		"it felt like Groundhog Day",
		"the Veterans Day parade",
		"the spring bank holiday", // a holiday needs a preposition, as "the Christmas tree"
		"pass the mayo",
		"on the bank holiday", // which one is not said
		"the Canadian Thanksgiving sale",
	}, Options{})
}

// The computus against published Easter dates, including the earliest and latest possible.
func TestEaster(t *testing.T) {
	for y, want := range map[int]string{
		1818: "03-22", 1943: "04-25", 2000: "04-23", 2001: "04-15", 2008: "03-23", 2011: "04-24",
		2019: "04-21", 2023: "04-09", 2024: "03-31", 2025: "04-20", 2038: "04-25", 2285: "03-22",
	} {
		m, d := easter(0).on(y)
		if got := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Format("01-02"); got != want {
			t.Errorf("Easter %d = %s, want %s", y, got, want)
		}
	}
}

// Holidays by weekday rules in other years.
func TestNthWeekday(t *testing.T) {
	for _, c := range []struct {
		h    holidaySpec
		y    int
		want string
	}{
		{thanksgiving, 2024, "11-28"},
		{nth(-1, time.Monday, time.May), 2022, "05-30"},
		{nth(1, time.Monday, time.September), 2024, "09-02"},
		{nth(3, time.Monday, time.January), 2022, "01-17"},
		{nth(3, time.Monday, time.February), 2021, "02-15"},
		{nth(2, time.Sunday, time.May), 2024, "05-12"},
		{nth(3, time.Sunday, time.June), 2024, "06-16"},
		{nth(2, time.Monday, time.October), 2024, "10-14"}, // Canadian Thanksgiving, Columbus Day
		{bankHoliday(1, time.May), 2020, "05-04"},
		{bankHoliday(-1, time.May), 2021, "05-31"},
		{bankHoliday(-1, time.August), 2024, "08-26"},
	} {
		m, d := c.h.on(c.y)
		if got := time.Date(c.y, m, d, 0, 0, 0, 0, time.UTC).Format("01-02"); got != c.want {
			t.Errorf("%d: %s, want %s", c.y, got, c.want)
		}
	}
}
