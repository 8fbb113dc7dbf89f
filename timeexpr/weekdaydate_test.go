package timeexpr

import "testing"

// The clocks are Wednesday 2023-10-25 14:00 (see clocks).

// "Monday the 2nd" is the 2nd that is a Monday; it read as the most recent Monday. "Weds" is
// Wednesday, and "Tues", "Weds", "Thur", "Thurs" stand alone like a full name.
func TestFindWeekdayAndDay(t *testing.T) {
	checkExact(t, []exactCase{
		{"on Monday the 2nd", "on Monday the 2nd", "2023-10-02", "2023-10-03"},
		{"Friday the 13th", "Friday the 13th", "2023-10-13", "2023-10-14"},
		{"on Tuesday the 17th, we met", "on Tuesday the 17th", "2023-10-17", "2023-10-18"},
		{"on Thursday, the 1st", "on Thursday, the 1st", "2023-06-01", "2023-06-02"},
		{"Sunday 15th", "Sunday 15th", "2023-10-15", "2023-10-16"},
		{"on Weds", "on Weds", "2023-10-25", "2023-10-26"},
		{"last Weds", "last Weds", "2023-10-18", "2023-10-19"},
		{"I went swimming Thurs", "Thurs", "2023-10-19", "2023-10-20"},
		{"we talked Tues evening", "Tues evening", "2023-10-24 17:00", "2023-10-25 00:00"},
	}, Options{})
	checkExact(t, []exactCase{
		{"I'll call on Friday the 3rd", "on Friday the 3rd", "2023-11-03", "2023-11-04"},
	}, Options{})
}
