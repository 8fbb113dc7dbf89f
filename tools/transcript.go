package tools

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// maxTurns bounds the turns of one transcript handed to consolidate.
const maxTurns = 1000

// TurnIn is one turn of a conversation handed to consolidate.
type TurnIn struct {
	Role    string `json:"role" jsonschema:"who spoke: user or assistant, or a person's name"`
	Content string `json:"content" jsonschema:"what was said"`
	Time    string `json:"time,omitempty" jsonschema:"when it was said: RFC 3339 like 2026-05-08T14:30:00+02:00; default the previous turn's time, or now"`
}

// turn is a validated turn.
type turn struct {
	Role    string
	Content string
	Time    time.Time
}

// line reads a transcript line: an optional "[time]", then "Role: content".
var line = regexp.MustCompile(`^\s*(?:\[([^\]]{4,40})\]\s*)?([\p{L}][\p{L}\p{N} ._'-]{0,39}):\s?(.*)$`)

// parseTranscript reads a transcript given as plain text: one turn per line
// as "Role: content", optionally starting with a time in brackets
// ("[2026-05-08T14:30:00+02:00] User: ..."). A line without a role continues
// the turn before it; blank lines are skipped.
func (d Deps) parseTranscript(text string) ([]TurnIn, error) {
	var out []TurnIn
	for i, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		m := line.FindStringSubmatch(l)
		if m == nil || strings.Contains(m[2], "://") {
			if len(out) == 0 {
				return nil, invalidf("text line %d has no speaker: write each turn as \"User: ...\" or \"Assistant: ...\", optionally starting with a time like [2026-05-08T14:30:00+02:00]", i+1)
			}
			out[len(out)-1].Content += "\n" + strings.TrimSpace(l)
			continue
		}
		out = append(out, TurnIn{Role: strings.TrimSpace(m[2]), Content: strings.TrimSpace(m[3]), Time: strings.TrimSpace(m[1])})
	}
	return out, nil
}

// checkTurns validates the turns and resolves their times: a turn without
// one takes the previous turn's time, the first one now.
func (d Deps) checkTurns(in []TurnIn) ([]turn, error) {
	if len(in) > maxTurns {
		return nil, invalidf("the transcript has %d turns, at most %d at a time: consolidate it in parts", len(in), maxTurns)
	}
	out := make([]turn, 0, len(in))
	at := d.Now()
	for i, t := range in {
		role := strings.TrimSpace(t.Role)
		content := strings.TrimSpace(t.Content)
		switch {
		case role == "":
			return nil, invalidf("transcript turn %d has no role: say who spoke, like user or assistant", i+1)
		case content == "":
			continue // nothing said
		case !utf8.ValidString(content) || !utf8.ValidString(role):
			return nil, invalidf("transcript turn %d is not valid UTF-8 text", i+1)
		case len(content) > 16*1024:
			return nil, invalidf("transcript turn %d is %d bytes, the limit is %d: split it", i+1, len(content), 16*1024)
		}
		if t.Time != "" {
			tt, err := d.parseTime(fmt.Sprintf("transcript turn %d time", i+1), t.Time, atStart)
			if err != nil {
				return nil, err
			}
			at = tt
		}
		out = append(out, turn{Role: role, Content: content, Time: at})
	}
	return out, nil
}
