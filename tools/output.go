package tools

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mneme-mcp/mneme/memory"
)

// MemoryOut is a memory as the tools show it: flat, times in RFC 3339 in
// Deps.Location, empty optional fields left out.
type MemoryOut struct {
	ID      string   `json:"id" jsonschema:"the memory's id: pass it to recall ids, remember id (update) or forget"`
	Content string   `json:"content" jsonschema:"the memory's text"`
	Kind    string   `json:"kind" jsonschema:"thought, fact or episode"`
	Tags    []string `json:"tags" jsonschema:"the memory's tags"`
	Time    string   `json:"time" jsonschema:"when it happened (event time, RFC 3339)"`
	Scope   string   `json:"scope" jsonschema:"the scope it belongs to"`

	Subject   string `json:"subject,omitempty" jsonschema:"fact: who or what it is about"`
	Predicate string `json:"predicate,omitempty" jsonschema:"fact: the attribute or relation"`
	Object    string `json:"object,omitempty" jsonschema:"fact: the value"`
	Context   string `json:"context,omitempty" jsonschema:"fact: the circumstances it holds in"`

	Observation string `json:"observation,omitempty" jsonschema:"episode: what was observed"`
	Thoughts    string `json:"thoughts,omitempty" jsonschema:"episode: what was thought about it"`
	Action      string `json:"action,omitempty" jsonschema:"episode: what was done"`
	Result      string `json:"result,omitempty" jsonschema:"episode: what came of it"`

	Thread       string  `json:"thread,omitempty" jsonschema:"the conversation it came from"`
	Created      string  `json:"created" jsonschema:"when it was stored (RFC 3339)"`
	Updated      string  `json:"updated" jsonschema:"when it was last changed (RFC 3339)"`
	RecallCount  int     `json:"recall_count" jsonschema:"how often it was recalled"`
	Strength     float64 `json:"strength" jsonschema:"consolidation strength, grows with each recall"`
	Archived     string  `json:"archived,omitempty" jsonschema:"when it was archived (forgotten or superseded), if it was"`
	SupersededBy string  `json:"superseded_by,omitempty" jsonschema:"the id of the newer fact that replaced it"`
}

// memoryOut converts a stored memory for output.
func (d Deps) memoryOut(m memory.Memory) MemoryOut {
	tags := m.Tags
	if tags == nil {
		tags = []string{}
	}
	return MemoryOut{
		ID: m.ID, Content: m.Content, Kind: string(m.Kind), Tags: tags,
		Time: d.stamp(m.Time), Scope: m.Scope,
		Subject: m.Subject, Predicate: m.Predicate, Object: m.Object, Context: m.Context,
		Observation: m.Observation, Thoughts: m.Thoughts, Action: m.Action, Result: m.Result,
		Thread: m.Thread, Created: d.stamp(m.Created), Updated: d.stamp(m.Updated),
		RecallCount: m.RecallCount, Strength: round3(m.Strength),
		Archived: d.stamp(m.Archived), SupersededBy: m.SupersededBy,
	}
}

// stamp formats t in RFC 3339 in Deps.Location; the zero time is "".
func (d Deps) stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(d.Location).Format(time.RFC3339)
}

// day formats the date of t in Deps.Location.
func (d Deps) day(t time.Time) string {
	if t.IsZero() {
		return "undated"
	}
	return t.In(d.Location).Format("2006-01-02")
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// age says how long before now t was, the way a person would: "just now",
// "5 minutes ago", "yesterday", "3 days ago", "2 weeks ago", "in 4 days".
func age(now, t time.Time) string {
	if t.IsZero() {
		return "undated"
	}
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	var s string
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		s = plural(int(d/time.Minute), "minute")
	case d < 24*time.Hour:
		s = plural(int(d/time.Hour), "hour")
	case d < 48*time.Hour:
		if future {
			return "tomorrow"
		}
		return "yesterday"
	case d < 14*24*time.Hour:
		s = plural(int(d/(24*time.Hour)), "day")
	case d < 60*24*time.Hour:
		s = plural(int(d/(7*24*time.Hour)), "week")
	case d < 365*24*time.Hour:
		s = plural(int(d/(30*24*time.Hour)), "month")
	default:
		s = plural(int(d/(365*24*time.Hour)), "year")
	}
	if future {
		return "in " + s
	}
	return s + " ago"
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// cut shortens s to at most n characters, ending at a word boundary when one
// is near and marking the cut with "…". It reports whether it cut.
func cut(s string, n int) (string, bool) {
	if n < 2 {
		n = 2
	}
	if chars(s) <= n {
		return s, false
	}
	head := string([]rune(s)[:n-1])
	if i := strings.LastIndexAny(head, " \n\t"); i > 0 && chars(head[i:]) <= n/5 {
		head = head[:i]
	}
	return strings.TrimRight(head, " \n\t") + "…", true
}

// oneLine folds line breaks so each memory stays on one line of a list.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// chars counts characters, as budgets do.
func chars(s string) int { return utf8.RuneCountInString(s) }
