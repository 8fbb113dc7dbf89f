package tools

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/timeexpr"
)

// badInput is an error the model can fix by calling again differently. Its
// text goes back to the model as a tool result with IsError set, so it says
// what to change.
type badInput struct{ msg string }

func (e *badInput) Error() string { return e.msg }

// invalidf returns a badInput with a formatted message.
func invalidf(format string, args ...any) error {
	return &badInput{msg: fmt.Sprintf(format, args...)}
}

// failure turns err into what the handler returns: a tool error result for
// anything the model can act on (bad arguments, unknown ids, input the store
// rejects), a Go error for infrastructure and bugs, which the server reports
// as an internal error.
func (d Deps) failure(op string, err error) (*mcp.CallToolResult, error) {
	var bad *badInput
	switch {
	case errors.As(err, &bad):
		return mcp.NewToolResultError(bounded(bad.msg)), nil
	case errors.Is(err, memory.ErrNotFound):
		return mcp.NewToolResultError(bounded(err.Error()) + ": check the id (recall without ids lists memories with their ids)"), nil
	case errors.Is(err, memory.ErrInvalid):
		return mcp.NewToolResultError(bounded(err.Error()) + ": fix the argument and call again"), nil
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	d.Logger.Error("tool failed", "tool", op, "err", err)
	return nil, fmt.Errorf("%s: %w", op, err)
}

// tagPattern is one lowercase word as the store accepts it: ASCII letters
// and digits, starting with a letter.
var tagPattern = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// checkTag validates one tag. Case is forgiven ("Travel" is "travel"), as
// the store forgives it; anything that is not one word is not.
func checkTag(t string) (string, error) {
	norm := strings.ToLower(strings.TrimSpace(t))
	if len(norm) > memory.MaxTagBytes {
		return "", invalidf("tag %s is %d bytes, the limit is %d: tags are single short words like \"travel\" or \"work\"", memory.Quote(t), len(norm), memory.MaxTagBytes)
	}
	if !tagPattern.MatchString(norm) {
		return "", invalidf("tag %s is not one lowercase word: tags are single words of letters and digits, like \"travel\" or \"work\" (no spaces, hyphens or punctuation)", memory.Quote(t))
	}
	return norm, nil
}

// checkTags validates tags (at most memory.MaxTags single lowercase words)
// and returns them lower-cased without duplicates, never nil. A longer list
// is rejected before any tag is looked at.
func checkTags(tags []string) ([]string, error) {
	if len(tags) > memory.MaxTags {
		return nil, invalidf("%d tags given, at most %d allowed: keep the %d that best say what it is about", len(tags), memory.MaxTags, memory.MaxTags)
	}
	out := make([]string, 0, len(tags))
	seen := make(map[string]bool, len(tags))
	for _, t := range tags {
		norm, err := checkTag(t)
		if err != nil {
			return nil, err
		}
		if !seen[norm] {
			seen[norm] = true
			out = append(out, norm)
		}
	}
	return out, nil
}

// checkIDs trims ids and drops repeats, keeping the first of each; at most
// limit may be given (checked before any id is looked at), none may be
// empty. what names the argument in messages, like "ids".
func checkIDs(what string, ids []string, limit int, split string) ([]string, error) {
	if len(ids) > limit {
		return nil, invalidf("%d %s given, at most %d per call: %s", len(ids), what, limit, split)
	}
	out := make([]string, 0, len(ids))
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" {
			return nil, invalidf("%s contains an empty id: pass the ids shown by recall", what)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// maxErrorText bounds the text of a tool error: a message built from
// values the store or a library quoted whole is cut in the middle.
const maxErrorText = 1000

// bounded cuts msg to at most about maxErrorText bytes, keeping its start
// and its end (which says what to do).
func bounded(msg string) string {
	if len(msg) <= maxErrorText {
		return msg
	}
	head, tail := maxErrorText*2/3, maxErrorText/4
	for head > 0 && !utf8.RuneStart(msg[head]) {
		head--
	}
	start := len(msg) - tail
	for start < len(msg) && !utf8.RuneStart(msg[start]) {
		start++
	}
	return msg[:head] + " … " + msg[start:]
}

// checkContent validates the text of a memory.
func checkContent(content string) error {
	if strings.TrimSpace(content) == "" {
		return invalidf("content is empty: write the memory as one short self-contained statement that names its subject")
	}
	if len(content) > memory.MaxContentBytes {
		return invalidf("content is %d bytes, the limit is %d: split it into several shorter memories, one fact each", len(content), memory.MaxContentBytes)
	}
	if !utf8.ValidString(content) {
		return invalidf("content is not valid UTF-8 text")
	}
	return nil
}

// maxTimeBytes bounds a time argument: no date or time expression is longer.
const maxTimeBytes = 200

// timeBound says which end of a time window a time argument takes.
type timeBound int

const (
	atStart timeBound = iota // event times, from, before: the start of "May 4th"
	atEnd                    // to: the end of "May 4th", so that day is included
)

// parseTime reads a time argument: RFC 3339, a date or date-time without a
// zone (read in Deps.Location), or a time expression such as "yesterday" or
// "last Monday" (timeexpr), taking the start or end of its window as bound
// says, or the centre of a vague one ("a few days ago").
func (d Deps) parseTime(field, s string, bound timeBound) (time.Time, error) {
	s = strings.TrimSpace(s)
	if len(s) > maxTimeBytes {
		return time.Time{}, invalidf("%s %s is too long to be a time: use RFC 3339 like 2026-05-08T14:30:00+02:00, a date like 2026-05-08, or words like \"yesterday\"", field, memory.Quote(s))
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	m, err := timeexpr.ParseWith(s, d.Now(), timeexpr.Options{Location: d.Location, DayFirst: d.DayFirst})
	if err != nil {
		return time.Time{}, invalidf("%s %s is not a time I understand: use RFC 3339 like 2026-05-08T14:30:00+02:00, a date like 2026-05-08, or words like \"yesterday\" or \"last Monday\"", field, memory.Quote(s))
	}
	t := m.Instant(bound == atEnd)
	if t.IsZero() {
		return time.Time{}, invalidf("%s %s does not name a point in time: give a date like 2026-05-08 or a time like 2026-05-08T14:30:00+02:00", field, memory.Quote(s))
	}
	return t, nil
}
