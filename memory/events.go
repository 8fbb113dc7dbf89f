package memory

import (
	"time"

	"github.com/mneme-mcp/mneme/timeexpr"
)

// readTimes reads the times a memory's text tells of, with the memory's
// own time as now: "I went to the UK last Friday" said on Thursday the 16th
// tells of Friday the 10th, "my game there next month" said in July of
// August. A person asked "where was Tim in the second week of November?"
// thinks of the trip, not of the day it was mentioned, so a time window
// also matches these spans (see window.closenessOf and filter.pass).
// Open-ended expressions ("since 2019", "before May") and conversational
// anchors say too little about when and give no span.
//
// timed reports whether the text states a time or a duration at all
// ("yesterday", "last May", "for 3 years"): the answers to "when" and "how
// long" questions do (see whenWeight). Reading a text costs about 3 µs
// without a time word and 14 µs with one, done once when the memory enters
// the index (not when a recall reinforces it: the text is unchanged then).
func readTimes(text string, said time.Time, o timeexpr.Options) (refs []span, timed bool) {
	ms := timeexpr.FindAllWith(text, said, o)
	for _, m := range ms {
		if !said.IsZero() && (m.Kind == timeexpr.Exact || m.Kind == timeexpr.Vague) && !m.From.IsZero() && !m.To.IsZero() {
			refs = append(refs, span{m.From, m.To})
		}
	}
	return refs, len(ms) > 0 || statesDuration(text)
}
