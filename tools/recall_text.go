package tools

import (
	"fmt"
	"strings"
	"time"
)

// Sizes used when fitting a recall reply into the budget.
const (
	footerReserve = 400 // room kept for the paging and truncation notes
	lineOverhead  = 90  // number, date, age, tags and id around a content
	minContent    = 80  // no content is cut shorter than this to share the budget
	minFirst      = 40  // the first memory keeps at least this much
)

// fit renders ranked memories as a compact list within d.Budget characters:
// contents longer than their share are cut ("…", truncated), and once the
// budget is used the remaining memories are dropped (more, next_offset). It
// changes out to match what the text shows.
func (d Deps) fit(out *RecallOutput, now time.Time, offset int, more bool) string {
	var b strings.Builder
	b.WriteString(windowLine(out.Window))
	if len(out.Memories) == 0 {
		b.WriteString("no memories found: try other words, fewer tags or a wider time, or include_archived")
		if offset > 0 {
			b.WriteString(" (this page is past the last match)")
		}
		return b.String()
	}
	room := d.Budget - footerReserve
	used := chars(b.String())
	share := max((room-used)/len(out.Memories)-lineOverhead, minContent)
	kept := out.Memories[:0]
	var truncated []string
	dropped := false
	for i, m := range out.Memories {
		shown, cutShort := cutMemory(m, share)
		line := hitLine(offset+i+1, shown, shown.Content, d, now) + detailLines(shown)
		if used+chars(line) > room {
			if i > 0 {
				dropped = true
				break
			}
			// The first memory is shown anyway: its parts at their shortest,
			// its content in whatever room is left.
			var partsCut, contentCut bool
			shown, partsCut = cutMemory(m, minFirst)
			shown.Content = m.Content
			rest := chars(hitLine(offset+i+1, shown, "", d, now) + detailLines(shown))
			shown.Content, contentCut = cut(m.Content, max(room-used-rest, minFirst))
			cutShort = partsCut || contentCut
			line = hitLine(offset+i+1, shown, shown.Content, d, now) + detailLines(shown)
		}
		m = shown
		if cutShort {
			m.Truncated = true
			truncated = append(truncated, m.ID)
		}
		b.WriteString(line)
		used += chars(line)
		kept = append(kept, m)
	}
	out.Memories = kept
	if more || dropped {
		out.More = true
		out.NextOffset = offset + len(kept)
		fmt.Fprintf(&b, "more memories match: call recall again with the same arguments and offset=%d for the next page\n", out.NextOffset)
	}
	if len(truncated) > 0 {
		note := fmt.Sprintf("memories ending in … were cut to fit: fetch them whole with recall ids=[%s]\n", strings.Join(truncated, ", "))
		if chars(b.String())+chars(note) > d.Budget {
			note = "memories ending in … were cut to fit: fetch them whole with recall ids, using the id= of each line\n"
		}
		b.WriteString(note)
	}
	return strings.TrimRight(b.String(), "\n")
}

// hitLine is one memory of the compact list:
// "1. [2026-05-08, 3 days ago] (travel, work) content  id=...".
func hitLine(n int, m RecalledMemory, content string, d Deps, now time.Time) string {
	var b strings.Builder
	at, _ := time.Parse(time.RFC3339, m.Time)
	fmt.Fprintf(&b, "%d. [%s, %s] ", n, d.day(at), age(now, at))
	if m.Archived != "" {
		b.WriteString("(archived) ")
	}
	if len(m.Tags) > 0 {
		fmt.Fprintf(&b, "(%s) ", strings.Join(m.Tags, ", "))
	}
	b.WriteString(oneLine(content))
	fmt.Fprintf(&b, "  id=%s\n", m.ID)
	return b.String()
}

// detailLines are a fact's triple or an episode's parts, one indented line
// each:
//
//	fact: user — lives in — Berlin (since the move in 2025)
//	observation: ...
//	thoughts: ...
func detailLines(m RecalledMemory) string {
	var b strings.Builder
	if m.Subject != "" || m.Predicate != "" || m.Object != "" {
		fmt.Fprintf(&b, "   fact: %s — %s — %s", oneLine(m.Subject), oneLine(m.Predicate), oneLine(m.Object))
		if m.Context != "" {
			fmt.Fprintf(&b, " (%s)", oneLine(m.Context))
		}
		b.WriteByte('\n')
	}
	parts := []struct{ name, v string }{
		{"observation", m.Observation}, {"thoughts", m.Thoughts}, {"action", m.Action}, {"result", m.Result},
	}
	var derived []string // the content the store derives from the parts
	for _, f := range parts {
		if strings.TrimSpace(f.v) != "" {
			derived = append(derived, strings.TrimSpace(f.v))
		}
	}
	if len(derived) > 0 && strings.Join(derived, "\n") == strings.TrimSpace(m.Content) {
		return b.String() // the content already is the parts
	}
	for _, f := range parts {
		if strings.TrimSpace(f.v) != "" {
			fmt.Fprintf(&b, "   %s: %s\n", f.name, oneLine(f.v))
		}
	}
	return b.String()
}

// cutMemory cuts the content and every fact or episode part of m to at most
// n characters and reports whether anything was cut.
func cutMemory(m RecalledMemory, n int) (RecalledMemory, bool) {
	cutAny := false
	for _, f := range []*string{&m.Content, &m.Subject, &m.Predicate, &m.Object, &m.Context, &m.Observation, &m.Thoughts, &m.Action, &m.Result} {
		var c bool
		*f, c = cut(*f, n)
		cutAny = cutAny || c
	}
	return m, cutAny
}

// windowLine says which time window a recall applied, or "" when none.
func windowLine(w *WindowOut) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("time window")
	if w.Expr != "" {
		fmt.Fprintf(&b, " %q", w.Expr)
	}
	switch {
	case w.From != "" || w.To != "":
		fmt.Fprintf(&b, ": %s to %s", orOpen(w.From), orOpen(w.To))
	case w.Anchor != "":
		fmt.Fprintf(&b, ": around %s", w.Anchor)
	}
	fmt.Fprintf(&b, " (%s, %s)\n", w.Kind, w.Applied)
	return b.String()
}

func orOpen(s string) string {
	if s == "" {
		return "open"
	}
	return s
}

// fetchText renders memories fetched by id, whole, with their history.
func (d Deps) fetchText(out RecallOutput) string {
	now := d.Now()
	var b strings.Builder
	for i, m := range out.Memories {
		b.WriteString(hitLine(i+1, m, m.Content, d, now))
		b.WriteString(detailLines(m))
		if m.SupersededBy != "" {
			fmt.Fprintf(&b, "   superseded by %s\n", m.SupersededBy)
		}
		for _, v := range m.History {
			fmt.Fprintf(&b, "   v%d until %s (%s): %s\n", v.Version, v.Changed, v.Reason, oneLine(v.Memory.Content))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
