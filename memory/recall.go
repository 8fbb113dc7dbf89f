package memory

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mneme-mcp/mneme/timeexpr"
)

// Recall ranks the memories of the query's scopes (the default scope when
// it names none) for its text, tags and time, and returns the page
// [Offset, Offset+Limit) of the hits, best first (see rank.go for how).
//
// Time comes from q.From/q.To when set (an explicit window that filters),
// else from q.When (a time expression; one it cannot read is ErrInvalid with
// a sentence saying what it accepts), else from a time expression found in
// q.Text, which is then left out of the words matched. An explicit window
// (q.From/q.To) filters; an exact one read from a time expression filters
// a pure time question ("what did we do yesterday?") and boosts the
// memories inside it when the words match there ("which bug did we fix
// yesterday?"; people tell of events later than they happen); either
// becomes a strong boost when it holds nothing. A vague one ("a few days
// ago") boosts; "our first conversation" and "last time"
// resolve to the scopes' first or last conversation. Result.Window says what
// was applied.
//
// With q.IDs set, Recall returns exactly those memories (archived ones
// too), in that order, unranked; an unknown id is ErrNotFound.
//
// With q.Reinforce, the returned memories are reinforced (recall count,
// strength, last recalled) in one transaction; a failure to reinforce is
// logged and does not fail the recall. Recall is safe for concurrent use.
func (s *Store) Recall(ctx context.Context, q Query) (Result, error) {
	// No s.enter() here: sync and reinforce each enter the store, and a
	// nested read lock would deadlock against a Close waiting to write.
	if err := validate(&q); err != nil {
		return Result{}, fmt.Errorf("recall: %w", err)
	}
	if err := s.sync(ctx); err != nil {
		return Result{}, fmt.Errorf("recall: %w", err)
	}
	now := q.Now
	if now.IsZero() {
		now = s.opts.Now()
	}
	var res Result
	var err error
	if len(q.IDs) > 0 {
		res, err = s.recallIDs(q, now)
	} else {
		res, err = s.recallRanked(ctx, q, now)
	}
	if err != nil {
		return Result{}, fmt.Errorf("recall: %w", err)
	}
	if q.Reinforce && len(res.Hits) > 0 {
		ids := make([]string, len(res.Hits))
		for i, h := range res.Hits {
			ids[i] = h.Memory.ID
		}
		if err := s.reinforce(ctx, ids, now); err != nil {
			if ctx.Err() != nil {
				return Result{}, fmt.Errorf("recall: %w", ctx.Err())
			}
			s.opts.Logger.Warn("recall: reinforce failed", "ids", len(ids), "err", err)
		}
	}
	return res, nil
}

// validate checks a query and fills its default limit.
func validate(q *Query) error {
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	switch {
	case q.Limit < 1 || q.Limit > MaxLimit:
		return fmt.Errorf("%w: limit must be between 1 and %d", ErrInvalid, MaxLimit)
	case q.Offset < 0:
		return fmt.Errorf("%w: offset must not be negative", ErrInvalid)
	case len(q.Tags) > MaxTags:
		return fmt.Errorf("%w: at most %d tags may be given", ErrInvalid, MaxTags)
	case len(q.IDs) > MaxLimit:
		return fmt.Errorf("%w: at most %d ids may be fetched at once", ErrInvalid, MaxLimit)
	case !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To):
		return fmt.Errorf("%w: from must be before to", ErrInvalid)
	case !(q.MinProbability >= 0 && q.MinProbability <= 1):
		return fmt.Errorf("%w: min probability must be between 0 and 1", ErrInvalid)
	}
	return nil
}

// recallIDs returns the memories named by q.IDs, in order.
func (s *Store) recallIDs(q Query, now time.Time) (Result, error) {
	res := Result{Hits: make([]Hit, 0, len(q.IDs))}
	for _, id := range q.IDs {
		m, ok := s.idx.get(id)
		if !ok {
			return Result{}, fmt.Errorf("%s: %w", id, ErrNotFound)
		}
		lp := logP(1, m, now, s.opts.Ranking.DecayUnit)
		res.Hits = append(res.Hits, Hit{Memory: detach(m), Score: Score{Relevance: 1, LogP: lp, Probability: math.Exp(lp)}})
	}
	res.Total = len(res.Hits)
	return res, nil
}

// recallRanked ranks the query's scopes and returns the requested page.
func (s *Store) recallRanked(ctx context.Context, q Query, now time.Time) (Result, error) {
	scopes := q.Scopes
	if len(scopes) == 0 {
		scopes = []string{s.opts.DefaultScope}
	}
	win, info, text, err := s.resolveTime(q, now, scopes)
	if err != nil {
		return Result{}, err
	}
	sr := search{
		terms:    queryTerms(text),
		tags:     q.Tags,
		scopes:   scopes,
		now:      now,
		win:      win,
		archived: q.IncludeArchived,
		minP:     q.MinProbability,
		when:     asksWhen(q.Text),
	}
	if len(sr.terms) > 0 && s.opts.Ranking.VectorWeight > 0 {
		// Text without features embeds to an error: rank without a vector then.
		if v, err := s.opts.Embed(ctx, text); err == nil {
			sr.qvec = unit(v)
		} else if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
	}
	hits, total, applied, err := s.idx.rank(ctx, sr, q.Offset, q.Limit)
	if err != nil {
		return Result{}, err
	}
	res := Result{Hits: hits, Total: total, Window: info, More: q.Offset+q.Limit < total}
	if info != nil {
		info.Applied = applied
	}
	return res, nil
}

// resolveTime works out the query's time window: the window to rank with
// (nil = none), its description for Result.Window, and the text left for
// matching words once a time expression found in it is taken out.
func (s *Store) resolveTime(q Query, now time.Time, scopes []string) (*window, *Window, string, error) {
	loc := s.opts.Location
	if !q.From.IsZero() || !q.To.IsZero() {
		return &window{from: q.From, to: q.To}, &Window{From: q.From, To: q.To, Kind: "explicit"}, q.Text, nil
	}
	text := q.Text
	var m timeexpr.Match
	if q.When != "" {
		var err error
		if m, err = timeexpr.ParseWith(q.When, now, timeexpr.Options{Location: loc, DayFirst: s.opts.DayFirst}); err != nil {
			return nil, nil, "", fmt.Errorf("%w: %s", ErrInvalid, strings.TrimPrefix(err.Error(), "timeexpr: "))
		}
	} else {
		var ok bool
		if m, ok = timeexpr.FindWith(q.Text, now, timeexpr.Options{Location: loc, DayFirst: s.opts.DayFirst}); !ok {
			return nil, nil, text, nil
		}
		text = timeexpr.Strip(q.Text, m)
	}
	switch m.Kind {
	case timeexpr.Exact:
		return &window{from: m.From, to: m.To}, &Window{Expr: m.Expr, From: m.From, To: m.To, Kind: "exact"}, text, nil
	case timeexpr.Vague:
		w := &window{vague: true, anchor: m.Anchor, spread: m.Spread}
		return w, &Window{Expr: m.Expr, From: m.From, To: m.To, Anchor: m.Anchor, Kind: "vague"}, text, nil
	case timeexpr.AnchorFirst, timeexpr.AnchorLast:
		kind := "first"
		sp, ok := s.idx.firstSpan(scopes, loc)
		if m.Kind == timeexpr.AnchorLast {
			kind = "last"
			sp, ok = s.idx.lastSpan(scopes, now, loc)
		}
		if !ok {
			// No conversation to anchor to: rank the words alone.
			return nil, nil, text, nil
		}
		return &window{from: sp.from, to: sp.to}, &Window{Expr: m.Expr, From: sp.from, To: sp.to, Kind: kind}, text, nil
	}
	return nil, nil, text, nil
}

// detach returns m with its own copies of the slices and maps it shares
// with the index, so callers may modify what Recall returns.
func detach(m Memory) Memory {
	m.Tags = slices.Clone(m.Tags)
	m.Meta = maps.Clone(m.Meta)
	return m
}
