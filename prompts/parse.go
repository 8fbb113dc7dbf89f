package prompts

// The parsers of the models' replies: strict, never panicking, returning
// what they could use together with a *ParseError listing what they could not.

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrMalformed is wrapped by every *ParseError.
var ErrMalformed = errors.New("malformed reply")

// ParseError lists what a parser could not use in a model's reply. The
// parsers return it together with everything they could use; lines that
// are plainly chatter around the answer ("Sure, here you go:") are skipped
// without a problem.
type ParseError struct {
	Prompt   Name
	Problems []string
}

// Error joins the problems.
func (e *ParseError) Error() string {
	return "parse " + string(e.Prompt) + " reply: " + strings.Join(e.Problems, "; ")
}

// Unwrap returns ErrMalformed.
func (e *ParseError) Unwrap() error { return ErrMalformed }

type problems struct {
	name Name
	list []string
}

func (p *problems) add(format string, args ...any) {
	p.list = append(p.list, fmt.Sprintf(format, args...))
}

func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return &ParseError{Prompt: p.name, Problems: p.list}
}

// short quotes a line for a problem message.
func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "..."
	}
	return strconv.Quote(s)
}

// replyLines splits a reply into trimmed, non-empty lines without code
// fences, list bullets or markdown emphasis.
func replyLines(reply string) []string {
	var out []string
	for _, l := range strings.Split(reply, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") {
			continue
		}
		l = strings.NewReplacer("**", "", "__", "", "`", "").Replace(l)
		for _, bullet := range []string{"- ", "* ", "• ", "> "} {
			l = strings.TrimPrefix(l, bullet)
		}
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// isWord reports whether l, stripped of punctuation, is the word w (any case).
func isWord(l, w string) bool {
	return strings.EqualFold(strings.Trim(l, " .!:\"'()[]"), w)
}

var tagRE = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// normTag lowercases a tag and strips quotes, '#' and trailing dots; ok is
// false when the result is not one lowercase word.
func normTag(s string) (string, bool) {
	t := strings.ToLower(strings.Trim(strings.TrimSpace(s), `"'#.`))
	return t, len(t) <= 40 && tagRE.MatchString(t)
}

// splitTags parses "tag, tag, tag" (at most max tags); bad entries are
// reported through p under label.
func splitTags(list string, max int, label string, p *problems) []string {
	tags := []string{}
	if isWord(list, "none") {
		return tags
	}
	for _, part := range strings.Split(list, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		t, ok := normTag(part)
		switch {
		case !ok:
			p.add("%s: %s is not one lowercase word", label, short(strings.TrimSpace(part)))
		case slices.Contains(tags, t):
		case len(tags) == max:
			p.add("%s: more than %d tags, kept the first %d", label, max, max)
			return tags
		default:
			tags = append(tags, t)
		}
	}
	return tags
}

var controllerRE = regexp.MustCompile(`(?i)^(?:q(?:uestion)?\s*)?([123])\s*[:.)=-]?\s*\(?([ab])\)?(?:$|[^a-z0-9])`)

// ParseController reads a memory-controller reply (lines "Q1: A" ...).
// needMemory is Q1 == A. source is SourceBoth when Q2 is A, else
// SourceLongTerm or SourceConversation from Q3; it is "" when memory is not
// needed or the reply does not say. A reply that is just "A" or "B" answers
// Q1.
func ParseController(reply string) (needMemory bool, source string, err error) {
	p := &problems{name: MemoryController}
	answers := map[string]string{}
	var conflicts []string
	var bare []string
	for _, l := range replyLines(reply) {
		if m := controllerRE.FindStringSubmatch(l); m != nil {
			q, a := m[1], strings.ToUpper(m[2])
			if prev, ok := answers[q]; ok && prev != a {
				p.add("Q%s answered both %s and %s", q, prev, a)
				conflicts = append(conflicts, q)
			}
			answers[q] = a
		} else if isWord(l, "a") || isWord(l, "b") {
			bare = append(bare, strings.ToUpper(strings.Trim(l, " .!:\"'()[]")))
		}
	}
	for _, q := range conflicts { // an answer given both ways is no answer
		delete(answers, q)
	}
	if len(answers) == 0 && len(conflicts) == 0 && len(bare) == 1 {
		answers["1"] = bare[0]
	}
	switch answers["1"] {
	case "":
		p.add("no answer to Q1 (want a line like \"Q1: A\")")
		return false, "", p.err()
	case "B":
		return false, "", p.err()
	}
	switch answers["2"] {
	case "A":
		return true, SourceBoth, p.err()
	case "":
		p.add("Q1 is A but Q2 is not answered")
		return true, "", p.err()
	}
	switch answers["3"] {
	case "A":
		return true, SourceLongTerm, p.err()
	case "B":
		return true, SourceConversation, p.err()
	}
	p.add("Q2 is B but Q3 is not answered")
	return true, "", p.err()
}

var numberedRE = regexp.MustCompile(`(?i)^(?:(?:item|text)\s*)?#?(\d+)\s*[:.)\]]\s*(.*)$`)

// ParseTags reads a select-tags reply for n texts: lines "N: tag, tag, tag"
// (or "N: NONE"). The result has n entries, nil for a text the reply does
// not cover; at most three tags each, lowercased, deduplicated, in the
// reply's order. Tags are not checked against the ontology: the caller
// does that. For n == 1 a bare "tag, tag" line is accepted too.
func ParseTags(reply string, n int) ([][]string, error) {
	p := &problems{name: SelectTags}
	if n < 1 {
		p.add("asked for %d items", n)
		return nil, p.err()
	}
	out := make([][]string, n)
	lines := replyLines(reply)
	numbered := false
	for _, l := range lines {
		m := numberedRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		numbered = true
		i, err := strconv.Atoi(m[1])
		switch {
		case err != nil || i < 1 || i > n:
			p.add("item %s is out of range 1-%d", m[1], n)
		case out[i-1] != nil:
			p.add("item %d answered twice, kept the first", i)
		default:
			out[i-1] = splitTags(m[2], 3, "item "+m[1], p)
		}
	}
	if !numbered && n == 1 {
		for _, l := range lines {
			if looksLikeTagList(l) {
				out[0] = splitTags(l, 3, "item 1", p)
				break
			}
		}
	}
	var missing []string
	for i, tags := range out {
		if tags == nil {
			missing = append(missing, strconv.Itoa(i+1))
		}
	}
	if len(missing) > 0 {
		p.add("no tags for item %s", strings.Join(missing, ", "))
	}
	return out, p.err()
}

// looksLikeTagList reports whether every comma-separated part of l is one
// word (so "Sure, here they are:" is not).
func looksLikeTagList(l string) bool {
	if isWord(l, "none") {
		return true
	}
	for _, part := range strings.Split(l, ",") {
		if _, ok := normTag(part); !ok {
			return false
		}
	}
	return true
}

var numberTokenRE = regexp.MustCompile(`^[#(\[]?(\d+)[)\].]?$`)

// ParseRelevant reads a relevance-filter reply for n memories: the numbers
// (1-based) of the relevant ones, in the reply's order without repeats, or
// none for NONE. Answer lines hold only numbers and separators (commas,
// spaces, "and", brackets), optionally after a label such as "Relevant:";
// other lines are skipped. Numbers outside 1..n are reported and dropped.
func ParseRelevant(reply string, n int) ([]int, error) {
	p := &problems{name: RelevanceFilter}
	var out []int
	none, found := false, false
	for _, l := range replyLines(reply) {
		if isWord(l, "none") {
			none = true
			continue
		}
		if i := strings.Index(l, ":"); i >= 0 && i < 30 && !strings.ContainsAny(l[:i], "0123456789") {
			l = l[i+1:] // a label
		}
		nums, ok := numberLine(l)
		if !ok {
			continue
		}
		found = true
		for _, v := range nums {
			switch {
			case v < 1 || v > n:
				p.add("memory %d is out of range 1-%d", v, n)
			case !slices.Contains(out, v):
				out = append(out, v)
			}
		}
	}
	switch {
	case found && none:
		p.add("the reply says NONE and lists numbers too")
	case !found && !none:
		p.add("no numbers and no NONE in the reply")
	}
	return out, p.err()
}

// numberLine parses a line made only of numbers and separators.
func numberLine(l string) ([]int, bool) {
	fields := strings.FieldsFunc(l, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '&' })
	var nums []int
	for _, f := range fields {
		if strings.EqualFold(f, "and") || f == "[" || f == "]" {
			continue
		}
		m := numberTokenRE.FindStringSubmatch(strings.Trim(f, "[]"))
		if m == nil {
			return nil, false
		}
		v, err := strconv.Atoi(m[1])
		if err != nil {
			return nil, false
		}
		nums = append(nums, v)
	}
	return nums, len(nums) > 0
}

// KeyEvent is one item of a key-events reply: an inductive thought, or a
// fact triple (Fact true, Text "subject predicate object").
type KeyEvent struct {
	Text string
	Time string // as the model wrote it (the transcript's format); may be empty
	Tags []string

	Fact                       bool
	Subject, Predicate, Object string
}

// ParseKeyEvents reads a key-events reply: lines "thought;timestamp;tags"
// (tags optional: CAIM's "key piece;timestamp" is accepted) and
// "FACT;subject;predicate;object;timestamp" (optionally ";tags"). "NONE"
// means nothing to remember. Lines without ";" are skipped as chatter; lines
// with the wrong number of fields, empty parts or a timestamp without a
// digit are reported and dropped. Invalid tags are reported and dropped; an
// empty timestamp is reported but the event is kept.
func ParseKeyEvents(reply string) ([]KeyEvent, error) {
	p := &problems{name: KeyEvents}
	var out []KeyEvent
	none := false
	for _, l := range replyLines(reply) {
		if isWord(l, "none") {
			none = true
			continue
		}
		if !strings.Contains(l, ";") || reviewLineRE.MatchString(l) {
			continue
		}
		if ev, ok := parseEvent(l, p); ok {
			out = append(out, ev)
		}
	}
	if len(out) == 0 && !none {
		p.add("no key events and no NONE in the reply")
	}
	return out, p.err()
}

func parseEvent(l string, p *problems) (KeyEvent, bool) {
	f := strings.Split(l, ";")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	var ev KeyEvent
	var tags string
	if strings.EqualFold(f[0], "fact") {
		if len(f) != 5 && len(f) != 6 {
			p.add("%s: a fact needs FACT;subject;predicate;object;timestamp", short(l))
			return ev, false
		}
		ev.Fact, ev.Subject, ev.Predicate, ev.Object, ev.Time = true, f[1], f[2], f[3], f[4]
		if ev.Subject == "" || ev.Predicate == "" || ev.Object == "" {
			p.add("%s: empty subject, predicate or object", short(l))
			return ev, false
		}
		ev.Text = ev.Subject + " " + ev.Predicate + " " + ev.Object
		if len(f) == 6 {
			tags = f[5]
		}
	} else {
		if len(f) > 3 {
			p.add("%s: too many fields (is there a \";\" inside the thought?)", short(l))
			return ev, false
		}
		ev.Text, ev.Time = f[0], f[1]
		if len(f) == 3 {
			tags = f[2]
		}
		if ev.Text == "" {
			p.add("%s: empty thought", short(l))
			return ev, false
		}
	}
	switch {
	case ev.Time == "":
		p.add("%s: no timestamp", short(l))
	case !strings.ContainsAny(ev.Time, "0123456789"):
		p.add("%s: %s is not a timestamp", short(l), short(ev.Time))
		return ev, false
	}
	ev.Tags = splitTags(tags, 3, short(l), p)
	if len(ev.Tags) == 0 {
		ev.Tags = nil
	}
	return ev, true
}

// ReviewOp is one operation of a review-memories reply.
type ReviewOp struct {
	Op   string   // "merge", "supersede" or "keep"
	IDs  []string // merge: the merged ids (two or more); keep: the ids kept, if the reply named any
	Text string   // merge: the merged text
	Old  string   // supersede: the superseded id
	New  string   // supersede: the id that replaces it
}

var (
	reviewRE = regexp.MustCompile(`(?i)^(merge|supersede|keep)\b\s*(.*)$`)
	// reviewLineRE: a review operation as the prompts ask for it (upper case),
	// skipped by ParseKeyEvents when both kinds of line share a reply.
	reviewLineRE = regexp.MustCompile(`^(MERGE|SUPERSEDE|KEEP)\b`)
	idRE         = regexp.MustCompile(`^[A-Za-z0-9_.:-]+$`)
	arrowRE      = regexp.MustCompile(`\s*(?:=>|->|→)\s*`)
)

// ParseReview reads a review-memories reply: lines "MERGE id,id => text",
// "SUPERSEDE old => new" and "KEEP" (optionally "KEEP id,id"). Ids are
// returned as written; the caller maps them to memories and must check that
// they exist. Malformed operations and operations reusing an id already
// used by an earlier one are reported and dropped; other lines are skipped.
func ParseReview(reply string) ([]ReviewOp, error) {
	return parseReview(replyLines(reply), &problems{name: ReviewMemories})
}

func parseReview(lines []string, p *problems) ([]ReviewOp, error) {
	var out []ReviewOp
	used := map[string]bool{}
	claim := func(ids ...string) bool {
		for _, id := range ids {
			if used[id] {
				p.add("id %s is used by more than one operation", id)
				return false
			}
		}
		for _, id := range ids {
			used[id] = true
		}
		return true
	}
	for _, l := range lines {
		m := reviewRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rest := strings.TrimSpace(m[2])
		switch strings.ToLower(m[1]) {
		case "keep":
			op := ReviewOp{Op: "keep"}
			if rest != "" {
				ids, ok := idList(rest)
				if !ok {
					p.add("%s: want KEEP or KEEP id,id", short(l))
					continue
				}
				op.IDs = ids
			}
			out = append(out, op)
		case "merge":
			parts := arrowRE.Split(rest, 2)
			if len(parts) != 2 {
				p.add("%s: want MERGE id,id => merged text", short(l))
				continue
			}
			ids, ok := idList(parts[0])
			text := strings.TrimSpace(parts[1])
			if !ok || len(ids) < 2 || text == "" {
				p.add("%s: want MERGE id,id => merged text (two or more ids)", short(l))
				continue
			}
			if claim(ids...) {
				out = append(out, ReviewOp{Op: "merge", IDs: ids, Text: text})
			}
		case "supersede":
			parts := arrowRE.Split(rest, 2)
			if len(parts) != 2 {
				p.add("%s: want SUPERSEDE old => new", short(l))
				continue
			}
			old, nw := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
			if !idRE.MatchString(old) || !idRE.MatchString(nw) || old == nw {
				p.add("%s: want SUPERSEDE old => new with two different ids", short(l))
				continue
			}
			if claim(old) {
				out = append(out, ReviewOp{Op: "supersede", Old: old, New: nw})
			}
		}
	}
	if len(out) == 0 && len(p.list) == 0 {
		p.add("no MERGE, SUPERSEDE or KEEP line in the reply")
	}
	return out, p.err()
}

// idList parses "id, id, id".
func idList(s string) ([]string, bool) {
	var ids []string
	for _, part := range strings.Split(s, ",") {
		id := strings.Trim(strings.TrimSpace(part), "[]")
		if !idRE.MatchString(id) {
			return nil, false
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, len(ids) > 0
}

// Proposal is one new tag proposed by an ontology-expansion reply: Tag
// under Path (a category, or category/subcategory).
type Proposal struct {
	Path []string
	Tag  string
}

var expansionRE = regexp.MustCompile(`^([^:\s]+)\s*:\s*(.+)$`)

// ParseExpansion reads an ontology-expansion reply: lines "path: tag" (path
// "category" or "category/subcategory"; several comma-separated tags are
// accepted), or "OK" when nothing is missing. Lowercases everything; paths
// and tags must be single words. Whether the path exists and the tag is new
// is for the caller (ontology.Manager.Add) to check.
func ParseExpansion(reply string) ([]Proposal, error) {
	p := &problems{name: OntologyExpansion}
	var out []Proposal
	ok := false
	for _, l := range replyLines(reply) {
		if isWord(l, "ok") || isWord(l, "none") {
			ok = true
			continue
		}
		m := expansionRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		path := strings.Split(strings.ToLower(strings.Trim(m[1], "/")), "/")
		valid := len(path) == 1 || len(path) == 2
		for _, seg := range path {
			valid = valid && tagRE.MatchString(seg)
		}
		if !valid {
			p.add("%s: want category: tag or category/subcategory: tag", short(l))
			continue
		}
		for _, t := range splitTags(m[2], 10, short(l), p) {
			out = append(out, Proposal{Path: slices.Clone(path), Tag: t})
		}
	}
	if len(out) == 0 && !ok && len(p.list) == 0 {
		p.add("no proposals and no OK in the reply")
	}
	return out, p.err()
}

// ParseTimeFilter reads a time-filter reply: "start;end" (YYYY-MM-DD or
// YYYY-MM-DDTHH:MM, optionally with seconds and a zone; both ends included)
// or NONE. It returns the window [from, to): to is the end of the last day,
// minute or second written. Times without a zone are in loc (UTC when nil).
func ParseTimeFilter(reply string, loc *time.Location) (from, to time.Time, found bool, err error) {
	p := &problems{name: TimeFilter}
	if loc == nil {
		loc = time.UTC
	}
	for _, l := range replyLines(reply) {
		if isWord(l, "none") {
			return time.Time{}, time.Time{}, false, nil
		}
		parts := strings.Split(l, ";")
		if len(parts) != 2 {
			continue
		}
		f, _, okF := parseTime(strings.TrimSpace(parts[0]), loc)
		t, step, okT := parseTime(strings.TrimSpace(parts[1]), loc)
		switch {
		case !okF || !okT:
			p.add("%s: want YYYY-MM-DD;YYYY-MM-DD or with THH:MM", short(l))
		case t.Before(f):
			p.add("%s: the end is before the start", short(l))
		default:
			return f, t.Add(step), true, nil
		}
	}
	if len(p.list) == 0 {
		p.add("no start;end line and no NONE in the reply")
	}
	return time.Time{}, time.Time{}, false, p.err()
}

// parseTime parses one end of a window and says how long a unit it names.
func parseTime(s string, loc *time.Location) (time.Time, time.Duration, bool) {
	layouts := []struct {
		layout string
		step   time.Duration
	}{
		{time.RFC3339, time.Second}, {"2006-01-02T15:04:05", time.Second}, {"2006-01-02 15:04:05", time.Second},
		{"2006-01-02T15:04Z07:00", time.Minute}, {"2006-01-02T15:04", time.Minute}, {"2006-01-02 15:04", time.Minute},
		{"2006-01-02", 24 * time.Hour},
	}
	for _, l := range layouts {
		if t, err := time.ParseInLocation(l.layout, s, loc); err == nil {
			if l.step == 24*time.Hour {
				return t, t.AddDate(0, 0, 1).Sub(t), true // a calendar day (DST-safe)
			}
			return t, l.step, true
		}
	}
	return time.Time{}, 0, false
}

// ParsePostThinking reads a post-thinking reply: key-event lines under
// EVENTS and review operations under REVIEW (see ParseKeyEvents and
// ParseReview). Without the headers the whole reply is read for both.
func ParsePostThinking(reply string) ([]KeyEvent, []ReviewOp, error) {
	lines := replyLines(reply)
	events, review := lines, lines
	for i, l := range lines {
		if isWord(l, "review") {
			events, review = lines[:i], lines[i+1:]
			break
		}
	}
	evs, errE := ParseKeyEvents(strings.Join(events, "\n"))
	var ops []ReviewOp
	var errR error
	if slices.ContainsFunc(review, reviewRE.MatchString) {
		ops, errR = parseReview(review, &problems{name: PostThinking})
	}
	return evs, ops, errors.Join(errE, errR)
}
