package memory

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/mneme-mcp/mneme/decay"
)

// normalizeText is the form used to find duplicates: Unicode NFC, case
// folded, surrounding space trimmed and inner runs of white space collapsed
// to one space.
func normalizeText(s string) string {
	s = norm.NFC.String(cases.Fold().String(norm.NFC.String(s)))
	return strings.Join(strings.Fields(s), " ")
}

// factKey is the normalised subject and predicate of a fact (nil for other
// kinds): a new fact with the same key and another object supersedes it.
func factKey(m Memory) any {
	if m.Kind != KindFact {
		return nil
	}
	return normalizeText(m.Subject) + "\x1f" + normalizeText(m.Predicate)
}

// newMemory turns a draft into a new memory with defaults filled in, or
// fails with ErrInvalid and a sentence saying what to fix.
func newMemory(d Draft, now time.Time, defaultScope string) (Memory, error) {
	if err := CheckScope(d.Scope); err != nil {
		return Memory{}, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Memory{}, fmt.Errorf("new id: %w", err)
	}
	m := Memory{
		ID:      id.String(),
		Scope:   strings.TrimSpace(d.Scope),
		Kind:    d.Kind,
		Content: d.Content,
		Tags:    d.Tags,

		Subject: d.Subject, Predicate: d.Predicate, Object: d.Object, Context: d.Context,
		Observation: d.Observation, Thoughts: d.Thoughts, Action: d.Action, Result: d.Result,

		Time:     d.Time,
		Created:  now,
		Updated:  now,
		Strength: decay.InitialStrength,
		Source:   strings.TrimSpace(d.Source),
		Thread:   d.Thread,
		Seq:      d.Seq,
		Meta:     d.Meta,
	}
	if m.Scope == "" {
		m.Scope = defaultScope
	}
	if m.Kind == "" {
		m.Kind = KindThought
	}
	if m.Time.IsZero() {
		m.Time = now
	}
	if m.Source == "" {
		m.Source = "mcp"
	}
	if err := finishMemory(&m); err != nil {
		return Memory{}, err
	}
	return m, nil
}

// mergeDraft applies an update draft to the stored memory old: fields the
// draft sets replace the old ones (Tags and Meta when non-nil), the rest
// stay. Content derived from the fact or episode fields is derived again
// when the draft gives none.
func mergeDraft(old Memory, d Draft, now time.Time) (Memory, error) {
	if err := CheckScope(d.Scope); err != nil {
		return Memory{}, err
	}
	m := old
	m.Tags = slices.Clone(old.Tags)
	set := func(dst *string, v string) {
		if strings.TrimSpace(v) != "" {
			*dst = v
		}
	}
	set(&m.Scope, strings.TrimSpace(d.Scope))
	if d.Kind != "" {
		m.Kind = d.Kind
	}
	for _, f := range []struct {
		dst *string
		v   string
	}{{&m.Subject, d.Subject}, {&m.Predicate, d.Predicate}, {&m.Object, d.Object}, {&m.Context, d.Context},
		{&m.Observation, d.Observation}, {&m.Thoughts, d.Thoughts}, {&m.Action, d.Action}, {&m.Result, d.Result},
		{&m.Source, strings.TrimSpace(d.Source)}, {&m.Thread, d.Thread}} {
		set(f.dst, f.v)
	}
	switch {
	case strings.TrimSpace(d.Content) != "":
		m.Content = d.Content
	case old.Content == derivedContent(old):
		m.Content = "" // derive again from the merged fields
	}
	if d.Tags != nil {
		m.Tags = d.Tags
	}
	if d.Meta != nil {
		m.Meta = d.Meta
	}
	if !d.Time.IsZero() {
		m.Time = d.Time
	}
	if d.Seq != 0 {
		m.Seq = d.Seq
	}
	m.Updated = now
	if err := finishMemory(&m); err != nil {
		return Memory{}, err
	}
	return m, nil
}

// finishMemory validates m and normalises its text fields and tags in place.
func finishMemory(m *Memory) error {
	switch m.Kind {
	case KindThought, KindFact, KindEpisode:
	default:
		return fmt.Errorf("%w: kind %s is not one of thought, fact, episode", ErrInvalid, Quote(string(m.Kind)))
	}
	if err := checkSizes(m); err != nil {
		return err
	}
	for _, f := range []*string{&m.Content, &m.Subject, &m.Predicate, &m.Object, &m.Context,
		&m.Observation, &m.Thoughts, &m.Action, &m.Result, &m.Thread} {
		*f = strings.TrimSpace(*f)
		if !utf8.ValidString(*f) {
			return fmt.Errorf("%w: text is not valid UTF-8: send it as UTF-8", ErrInvalid)
		}
	}
	tags, err := normalizeTags(m.Tags)
	if err != nil {
		return err
	}
	m.Tags = tags
	if m.Kind == KindFact {
		var missing []string
		for _, f := range []struct{ name, v string }{{"subject", m.Subject}, {"predicate", m.Predicate}, {"object", m.Object}} {
			if f.v == "" {
				missing = append(missing, f.name)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("%w: a fact needs a subject, a predicate and an object: give the %s", ErrInvalid, strings.Join(missing, " and the "))
		}
	}
	if m.Content == "" {
		m.Content = derivedContent(*m)
	}
	if m.Content == "" {
		if m.Kind == KindEpisode {
			return fmt.Errorf("%w: an episode needs content or at least one of observation, thoughts, action, result", ErrInvalid)
		}
		return fmt.Errorf("%w: content is empty: give the text to remember", ErrInvalid)
	}
	if n := len(m.Content); n > MaxContentBytes {
		return fmt.Errorf("%w: content is %d bytes, more than the limit of %d: split it into smaller memories", ErrInvalid, n, MaxContentBytes)
	}
	if m.Time.Before(minTime) || m.Time.After(maxTime) {
		return fmt.Errorf("%w: time %s is outside the years 1678 to 2262 the store can keep", ErrInvalid, m.Time.Format(time.RFC3339))
	}
	return nil
}

// derivedContent is the text of a fact or episode given without content:
// "subject predicate object" for a fact, the non-empty episode fields one
// per line for an episode, "" otherwise.
func derivedContent(m Memory) string {
	var parts []string
	switch m.Kind {
	case KindFact:
		parts = []string{m.Subject, m.Predicate, m.Object}
	case KindEpisode:
		parts = []string{m.Observation, m.Thoughts, m.Action, m.Result}
	}
	parts = slices.DeleteFunc(parts, func(s string) bool { return strings.TrimSpace(s) == "" })
	sep := " "
	if m.Kind == KindEpisode {
		sep = "\n"
	}
	return strings.Join(parts, sep)
}

// normalizeTags trims and lower-cases tags and drops repeats; a tag must
// then be one word of letters a-z and digits starting with a letter.
// It stops at the first tag past MaxTags, so a huge list costs no more
// than a short one.
func normalizeTags(tags []string) ([]string, error) {
	out := make([]string, 0, min(len(tags), MaxTags))
	for _, t := range tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if len(t) > MaxTagBytes {
			return nil, fmt.Errorf("%w: tag %s is %d bytes, more than the limit of %d: use one short word like \"food\"", ErrInvalid, Quote(t), len(t), MaxTagBytes)
		}
		if !isTag(t) {
			return nil, fmt.Errorf("%w: tag %s is not one lowercase word of letters and digits: use e.g. \"food\" or \"work2\"", ErrInvalid, Quote(t))
		}
		if slices.Contains(out, t) { // out holds at most MaxTags
			continue
		}
		if len(out) == MaxTags {
			return nil, fmt.Errorf("%w: more than %d different tags given, at most %d allowed: keep the most telling ones", ErrInvalid, MaxTags, MaxTags)
		}
		out = append(out, t)
	}
	return out, nil
}

func isTag(t string) bool {
	if t == "" || t[0] < 'a' || t[0] > 'z' {
		return false
	}
	for _, c := range []byte(t) {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// MaxQuoted is how many bytes of a caller's value an error message quotes.
const MaxQuoted = 80

// Clip returns s cut to about MaxQuoted bytes (at a rune boundary) with
// "…" appended when it was cut, so that an error message naming a value the
// caller sent stays short however large the value was.
func Clip(s string) string {
	if len(s) <= MaxQuoted {
		return s
	}
	n := MaxQuoted
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Quote is %q of Clip(s) with the size when it was cut: the way every error
// message, in memory and at the tool boundary, quotes a value the caller
// sent, so a huge argument never comes back whole into the model's context.
// Clip and Quote are pure and safe for concurrent use.
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(Clip(s)) + fmt.Sprintf(" (%d bytes)", len(s))
}

// CheckScope checks a scope a caller names ("" is the default scope): at
// most MaxScopeBytes of letters, digits and : . _ - /. Remember, Apply and
// Import check every scope they write with it; a caller can check a
// configured scope up front. It is ErrInvalid with a sentence saying what
// to change, and safe to call concurrently.
func CheckScope(scope string) error {
	scope = strings.TrimSpace(scope)
	if len(scope) > MaxScopeBytes {
		return fmt.Errorf("%w: scope %s is %d bytes, more than the limit of %d: name the scope in a word or two, like personal or project:mneme", ErrInvalid, Quote(scope), len(scope), MaxScopeBytes)
	}
	for _, r := range scope {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(":._-/", r) {
			return fmt.Errorf("%w: scope %s has the character %q: a scope is letters, digits and : . _ - / only, like personal or project:mneme", ErrInvalid, Quote(scope), r)
		}
	}
	return nil
}

// checkSizes checks the sizes of m's fields other than its scope and tags.
func checkSizes(m *Memory) error {
	for _, f := range []struct {
		name string
		v    string
		max  int
	}{
		{"subject", m.Subject, MaxFactFieldBytes}, {"predicate", m.Predicate, MaxFactFieldBytes},
		{"object", m.Object, MaxFactFieldBytes}, {"context", m.Context, MaxFactFieldBytes},
		{"thread", m.Thread, MaxThreadBytes}, {"source", m.Source, MaxThreadBytes},
	} {
		if len(f.v) > f.max {
			return fmt.Errorf("%w: %s is %d bytes, more than the limit of %d: keep it to a few words", ErrInvalid, f.name, len(f.v), f.max)
		}
	}
	if n := len(m.Content); n > MaxContentBytes {
		return fmt.Errorf("%w: content is %d bytes, more than the limit of %d: split it into smaller memories", ErrInvalid, n, MaxContentBytes)
	}
	n := 0
	for _, f := range []string{m.Observation, m.Thoughts, m.Action, m.Result} {
		n += len(f)
	}
	if n > 0 && strings.TrimSpace(m.Content) != derivedContent(*m) {
		n += len(m.Content)
	}
	if n > MaxEpisodeBytes {
		return fmt.Errorf("%w: content, observation, thoughts, action and result are %d bytes together, more than the limit of %d: shorten them or split the episode into several memories", ErrInvalid, n, MaxEpisodeBytes)
	}
	if len(m.Meta) > 0 {
		data, err := json.Marshal(m.Meta)
		if err != nil {
			return fmt.Errorf("%w: meta: %v", ErrInvalid, err)
		}
		if len(data) > MaxMetaBytes {
			return fmt.Errorf("%w: meta is %d bytes as JSON, more than the limit of %d: keep fewer or shorter entries", ErrInvalid, len(data), MaxMetaBytes)
		}
	}
	return nil
}

// Check validates the draft's sizes and scope as Remember, Apply and Import
// will, without touching a store: callers can reject a huge draft before
// doing any work on it. It is ErrInvalid with a sentence naming the field
// and its limit. It is safe to call concurrently.
func (d Draft) Check() error {
	if err := CheckScope(d.Scope); err != nil {
		return err
	}
	if len(d.Tags) > 0 {
		if _, err := normalizeTags(d.Tags); err != nil {
			return err
		}
	}
	m := Memory{Kind: d.Kind, Content: d.Content,
		Subject: d.Subject, Predicate: d.Predicate, Object: d.Object, Context: d.Context,
		Observation: d.Observation, Thoughts: d.Thoughts, Action: d.Action, Result: d.Result,
		Thread: d.Thread, Source: d.Source, Meta: d.Meta}
	return checkSizes(&m)
}
