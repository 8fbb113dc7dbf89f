package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/timeexpr"
)

// runRemember stores one memory: `mneme remember TEXT [flags]`.
func runRemember(a *app, args []string) error {
	fs := a.newFlagSet()
	var (
		tags                       stringList
		at, kind, scope, thread    string
		subject, predicate, object string
	)
	fs.Var(&tags, "tag", "tag `T` (repeatable, or comma-separated; at most 3)")
	fs.StringVar(&at, "time", "", "when it happened: RFC 3339, YYYY-MM-DD or words like \"yesterday\" (default now)")
	fs.StringVar(&kind, "kind", "", "thought, fact or episode (default thought, or fact with --subject/--predicate/--object)")
	fs.StringVar(&scope, "scope", "", "scope to store it in (default the configured scope)")
	fs.StringVar(&subject, "subject", "", "fact subject")
	fs.StringVar(&predicate, "predicate", "", "fact predicate")
	fs.StringVar(&object, "object", "", "fact object")
	fs.StringVar(&thread, "thread", "", "conversation `id` it came from")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	text := strings.TrimSpace(strings.Join(pos, " "))
	fact := subject != "" || predicate != "" || object != ""
	if text == "" && !fact {
		return usagef("nothing to remember: give the text as an argument")
	}
	switch memory.Kind(kind) {
	case "", memory.KindThought, memory.KindFact, memory.KindEpisode:
	default:
		return usagef("--kind %q: want thought, fact or episode", kind)
	}
	if kind == "" && fact {
		kind = string(memory.KindFact)
	}
	return a.withStore(func(e *env, st *memory.Store) error {
		var when time.Time
		if at != "" {
			t, err := parseTime(at, e.now(), timeexpr.Options{Location: e.loc, DayFirst: e.cfg.DayFirst()})
			if err != nil {
				return usagef("--time: %v", err)
			}
			when = t
		}
		m, out, err := st.Remember(a.ctx, memory.Draft{
			Scope:     scope,
			Kind:      memory.Kind(kind),
			Content:   text,
			Tags:      tags,
			Subject:   subject,
			Predicate: predicate,
			Object:    object,
			Time:      when,
			Source:    "cli",
			Thread:    thread,
		})
		if err != nil {
			return storeError("remember", err)
		}
		if a.g.json {
			return a.printJSON(struct {
				Memory memory.Memory `json:"memory"`
				memory.Outcome
			}{m, out})
		}
		if out.Duplicate {
			fmt.Fprintf(a.stdout, "already remembered %s; reinforced it\n", m.ID)
		} else {
			fmt.Fprintf(a.stdout, "remembered %s\n", m.ID)
		}
		for _, id := range out.Superseded {
			fmt.Fprintf(a.stdout, "superseded %s (archived, still in history)\n", id)
		}
		return nil
	})
}

// parseTime reads an RFC 3339 instant, a bare date (midnight in the zone),
// or a time expression such as "yesterday" or "last Monday at 3pm" (the
// start of an exact window, the centre of a vague one).
func parseTime(s string, now time.Time, o timeexpr.Options) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	m, err := timeexpr.ParseWith(s, now, o)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not RFC 3339 (2024-05-04T09:00:00Z), a date (2024-05-04) or a time expression I understand (\"yesterday\", \"last Monday\")", s)
	}
	if t := m.Instant(false); !t.IsZero() {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q does not name a point in time: give a date like 2024-05-04", s)
}
