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
