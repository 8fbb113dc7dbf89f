package memory

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// recallClock is a settable test recallClock.
type recallClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *recallClock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *recallClock) set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// openRecallStore opens a throw-away store with the test embedder.
func openRecallStore(t *testing.T, c *recallClock) *Store {
	t.Helper()
	st, err := Open(context.Background(), Options{
		Path:     filepath.Join(t.TempDir(), "m.db"),
		ModelID:  rankEmbedder.ModelID,
		Embed:    rankEmbedder.Func,
		Now:      c.now,
		Location: time.UTC,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func rememberDraft(t *testing.T, st *Store, d Draft) Memory {
	t.Helper()
	d.NoDedup = true
	m, _, err := st.Remember(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRecallValidation(t *testing.T) {
	st := openRecallStore(t, &recallClock{t: rankDay0})
	ctx := context.Background()
	for _, tc := range []struct {
		q    Query
		want string
	}{
		{Query{Text: "x", Limit: 51}, "limit must be between 1 and 50"},
		{Query{Text: "x", Limit: -1}, "limit must be between 1 and 50"},
		{Query{Text: "x", Offset: -1}, "offset must not be negative"},
		{Query{Text: "x", Tags: []string{"a", "b", "c", "d"}}, "at most 3 tags"},
		{Query{Text: "x", From: rankDay0, To: rankDay0}, "from must be before to"},
		{Query{Text: "x", MinProbability: 2}, "min probability"},
		{Query{Text: "x", When: "when pigs fly"}, "not a time expression"},
	} {
		_, err := st.Recall(ctx, tc.q)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Recall(%+v) = %v, want ErrInvalid with %q", tc.q, err, tc.want)
		}
	}
}

func TestRecallRankedAndPaged(t *testing.T) {
	c := &recallClock{t: rankDay0}
	st := openRecallStore(t, c)
	ctx := context.Background()
	for i, text := range []string{
		"Ana recommended the book Dune",
		"Ana likes hiking in the Alps",
		"The printer on floor two is broken",
		"Ana's birthday is in June",
	} {
		rememberDraft(t, st, Draft{Content: text, Time: rankDay0.AddDate(0, 0, i)})
	}
	c.set(rankDay0.AddDate(0, 0, 10))
	res, err := st.Recall(ctx, Query{Text: "what book did Ana recommend?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Memory.Content, "Dune") {
		t.Fatalf("hits = %+v", res.Hits)
	}
	if res.Window != nil {
		t.Errorf("window = %+v, want none", res.Window)
	}
	all, _ := st.Recall(ctx, Query{Text: "Ana", Limit: 50})
	if all.Total < 3 || all.More || len(all.Hits) != all.Total {
		t.Fatalf("Ana: total %d more %v hits %d", all.Total, all.More, len(all.Hits))
	}
	for _, h := range all.Hits[:3] {
		if !strings.Contains(h.Memory.Content, "Ana") {
			t.Errorf("Ana: top 3 = %v", hitIDs(all.Hits))
		}
	}
	page, _ := st.Recall(ctx, Query{Text: "Ana", Limit: 2, Offset: 1})
	if !page.More == (1+2 < all.Total) || len(page.Hits) != 2 || page.Hits[0].Memory.ID != all.Hits[1].Memory.ID {
		t.Errorf("page = %v more %v, want %v", hitIDs(page.Hits), page.More, hitIDs(all.Hits)[1:])
	}
	past, _ := st.Recall(ctx, Query{Text: "Ana", Offset: 10})
	if len(past.Hits) != 0 || past.Hits == nil || past.More {
		t.Errorf("past the end: %+v", past)
	}
	// Returned memories are copies.
	res.Hits[0].Memory.Tags = append(res.Hits[0].Memory.Tags, "x")
	again, _ := st.Recall(ctx, Query{Text: "what book did Ana recommend?"})
	if slices.Contains(again.Hits[0].Memory.Tags, "x") {
		t.Error("caller's change leaked into the index")
	}
}

// TestRecallIrregularForms: a question in the base form ("did Ana go",
// "did she buy") finds the memory told in the past tense by its words
// (embed.LexicalTerms), not only through the vector; so does "mentorship"
// a memory of being "mentored".
func TestRecallIrregularForms(t *testing.T) {
	c := &recallClock{t: rankDay0}
	st := openRecallStore(t, c)
	ctx := context.Background()
	for i, text := range []string{
		"Ana: I went to Porto with my sister and we bought a tiny blue boat",
		"Ben: the printer on floor two is broken again",
		"Ana: my children swam in the lake all afternoon",
		"Jon: I got mentored by a retired baker on Tuesday",
	} {
		rememberDraft(t, st, Draft{Content: text, Time: rankDay0.AddDate(0, 0, i)})
	}
	c.set(rankDay0.AddDate(0, 0, 10))
	for _, tt := range []struct{ q, want string }{
		{"where did Ana go?", "Porto"},
		{"what did they buy?", "Porto"},
		{"who can swim?", "children"},
		{"tell me about the child", "children"},
		{"when did Jon receive mentorship?", "mentored"},
	} {
		res, err := st.Recall(ctx, Query{Text: tt.q})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Memory.Content, tt.want) || res.Hits[0].Score.Lexical == 0 {
			t.Errorf("%q: hits %v, want %q first, matched by its words", tt.q, hitIDs(res.Hits), tt.want)
		}
	}
}

// TestRecallSpeakerPrior: a question naming a speaker of transcript lines
// prefers that speaker's lines over another speaker's line sharing a
// rarer word (speakerPrior); lines without a speaker and questions naming
// every speaker are left alone.
func TestRecallSpeakerPrior(t *testing.T) {
	c := &recallClock{t: rankDay0}
	st := openRecallStore(t, c)
	ctx := context.Background()
	for i, text := range []string{
		"Nate: glad you found that quiet spot",
		"Joanna: I found a waterfall on the hike, so quiet",
		"Joanna: my new script is about a lighthouse keeper",
		"Nate: the turtles ate all their lettuce today",
		"Joanna: I watched a movie with my sister",
		"Nate: I won another gaming tournament",
	} {
		rememberDraft(t, st, Draft{Content: text, Time: rankDay0.AddDate(0, 0, i)})
	}
	c.set(rankDay0.AddDate(0, 0, 10))
	for _, tt := range []struct{ q, want string }{
		{"which quiet spot did Joanna find?", "Joanna: I found a waterfall"},
		{"which quiet spot did Nate find?", "Nate: glad you found"},
		// Naming both speakers names no one in particular: the rarer
		// word decides.
		{"which quiet spot did Joanna and Nate find?", "Nate: glad you found"},
	} {
		res, err := st.Recall(ctx, Query{Text: tt.q})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || !strings.HasPrefix(res.Hits[0].Memory.Content, tt.want) {
			t.Errorf("%q: first %v, want %q", tt.q, hitContents(res.Hits), tt.want)
		}
	}
}

func hitContents(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Memory.Content
	}
	return out
}

func TestNamedSpeakers(t *testing.T) {
	cands := []candidate{
		{d: &doc{speaker: []string{"joanna"}}},
		{d: &doc{speaker: []string{"nate"}}},
		{d: &doc{}},
	}
	terms := func(ws ...string) []weightedTerm {
		var out []weightedTerm
		for _, w := range ws {
			out = append(out, weightedTerm{w, 1})
		}
		return out
	}
	for _, tt := range []struct {
		q    []weightedTerm
		want []string
	}{
		{terms("spot", "joanna"), []string{"joanna"}},
		{terms("spot"), nil},
		{nil, nil},
		{terms("joanna", "nate"), nil}, // every speaker named: no prior
	} {
		got := slices.Sorted(maps.Keys(namedSpeakers(tt.q, cands)))
		if !slices.Equal(got, tt.want) {
			t.Errorf("namedSpeakers(%v) = %v, want %v", tt.q, got, tt.want)
		}
	}
	if got := speakerTerms("The: a line whose speaker is a stopword"); got != nil {
		t.Errorf("speakerTerms of a stopword name = %#v, want nil", got)
	}
	if got := namedSpeakers(terms("joanna"), cands[2:]); got != nil {
		t.Errorf("no transcript lines: %v, want nil", got)
	}
}

func TestRecallTimeExpressions(t *testing.T) {
	c := &recallClock{t: rankDay0}
	st := openRecallStore(t, c)
	ctx := context.Background()
	d := func(days int) time.Time { return rankDay0.AddDate(0, 0, days) }
	rememberDraft(t, st, Draft{Content: "We fixed the login bug", Time: d(-1), Thread: "t1"})
	rememberDraft(t, st, Draft{Content: "Lunch at the new ramen place", Time: d(-1), Thread: "t1", Seq: 1})
	rememberDraft(t, st, Draft{Content: "We fixed the cache bug", Time: d(-20), Thread: "t0"})
	rememberDraft(t, st, Draft{Content: "Talked about the roadmap", Time: d(0), Thread: "t2"})

	res, err := st.Recall(ctx, Query{Text: "which bug did we fix yesterday?"})
	if err != nil {
		t.Fatal(err)
	}
	// An exact expression filters: yesterday's bug, not the older one.
	if res.Window == nil || res.Window.Kind != "exact" || res.Window.Applied != "filter" || res.Window.Expr != "yesterday" {
		t.Fatalf("window = %+v", res.Window)
	}
	if len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Memory.Content, "login") {
		t.Fatalf("hits %v, want the login bug first", hitIDs(res.Hits))
	}
	for _, h := range res.Hits {
		if !h.Memory.Time.Equal(d(-1)) {
			t.Errorf("hit outside yesterday: %+v", h.Memory)
		}
	}

	// A pure time question lists the day, most recent first.
	res, _ = st.Recall(ctx, Query{Text: "what did we do yesterday?"})
	if len(res.Hits) != 2 {
		t.Errorf("yesterday listing = %+v", res.Hits)
	}

	// When overrides the text; a window with nothing in it falls back to a boost.
	res, _ = st.Recall(ctx, Query{Text: "bug", When: "2024-03-01"})
	if res.Window == nil || res.Window.Applied != "boost-fallback" || len(res.Hits) == 0 {
		t.Errorf("fallback: window %+v hits %v", res.Window, hitIDs(res.Hits))
	}

	// Explicit From/To.
	res, _ = st.Recall(ctx, Query{Text: "bug", From: d(-30), To: d(-10)})
	if res.Window == nil || res.Window.Kind != "explicit" || len(res.Hits) != 1 || !strings.Contains(res.Hits[0].Memory.Content, "cache") {
		t.Errorf("explicit: window %+v hits %+v", res.Window, res.Hits)
	}

	// Our first conversation is thread t0; last time is t1 (t2 is today).
	res, _ = st.Recall(ctx, Query{Text: "what did we talk about in our first conversation?"})
	if res.Window == nil || res.Window.Kind != "first" || len(res.Hits) != 1 || !strings.Contains(res.Hits[0].Memory.Content, "cache") {
		t.Errorf("first: window %+v hits %+v", res.Window, res.Hits)
	}
	res, _ = st.Recall(ctx, Query{Text: "what did we talk about last time?"})
	if res.Window == nil || res.Window.Kind != "last" || len(res.Hits) != 2 {
		t.Errorf("last: window %+v hits %+v", res.Window, res.Hits)
	}
}

func TestRecallIDsAndReinforce(t *testing.T) {
	c := &recallClock{t: rankDay0}
	st := openRecallStore(t, c)
	ctx := context.Background()
	a := rememberDraft(t, st, Draft{Content: "the wifi password is on the fridge", Time: rankDay0})
	b := rememberDraft(t, st, Draft{Content: "the spare key is under the pot", Time: rankDay0})

	res, err := st.Recall(ctx, Query{IDs: []string{b.ID, a.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitIDs(res.Hits); !slices.Equal(got, []string{b.ID, a.ID}) {
		t.Errorf("ids = %v", got)
	}
	if _, err := st.Recall(ctx, Query{IDs: []string{"nope"}}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}

	c.set(rankDay0.AddDate(0, 0, 3))
	res, err = st.Recall(ctx, Query{Text: "wifi password", Limit: 1, Reinforce: true})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("recall: %v %+v", err, res)
	}
	got, err := st.Get(ctx, []string{a.ID})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].RecallCount != 1 || !got[0].LastRecalled.Equal(rankDay0.AddDate(0, 0, 3)) || got[0].Strength <= 1 {
		t.Errorf("after reinforce: %+v", got[0])
	}
	other, _ := st.Get(ctx, []string{b.ID})
	if other[0].RecallCount != 0 {
		t.Errorf("unreturned memory reinforced: %+v", other[0])
	}
}

func TestRecallClosed(t *testing.T) {
	st := openRecallStore(t, &recallClock{t: rankDay0})
	st.Close()
	if _, err := st.Recall(context.Background(), Query{Text: "x"}); !errors.Is(err, ErrClosed) {
		t.Errorf("after close: %v", err)
	}
}

func TestRecallTagsVagueArchived(t *testing.T) {
	c := &recallClock{t: rankDay0}
	st := openRecallStore(t, c)
	ctx := context.Background()
	d := func(days int) time.Time { return rankDay0.AddDate(0, 0, days) }
	tagged := rememberDraft(t, st, Draft{Content: "Renewed the passport at the consulate", Tags: []string{"admin"}, Time: d(-3)})
	rememberDraft(t, st, Draft{Content: "Passport photo booth on Main Street", Time: d(-40)})
	gone := rememberDraft(t, st, Draft{Content: "Old passport number was X123", Time: d(-3)})
	if _, err := st.Forget(ctx, ForgetRequest{IDs: []string{gone.ID}}); err != nil {
		t.Fatal(err)
	}

	// Tag-only: ranks by tag match, untagged memories left out.
	res, err := st.Recall(ctx, Query{Tags: []string{"admin"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitIDs(res.Hits); !slices.Equal(got, []string{tagged.ID}) || res.Hits[0].Score.Tags != 1 {
		t.Errorf("tag-only: %v %+v", got, res.Hits)
	}

	// Vague: boosts by closeness, filters nothing.
	res, err = st.Recall(ctx, Query{Text: "what did I do about my passport a few days ago?", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Window == nil || res.Window.Kind != "vague" || res.Window.Applied != "boost" || res.Window.Anchor.IsZero() {
		t.Errorf("vague window = %+v", res.Window)
	}
	if len(res.Hits) != 2 || res.Hits[0].Memory.ID != tagged.ID {
		t.Errorf("vague hits = %v", hitIDs(res.Hits))
	}

	// Archived memories only on request.
	for _, h := range res.Hits {
		if h.Memory.ID == gone.ID {
			t.Error("archived memory returned")
		}
	}
	res, _ = st.Recall(ctx, Query{Text: "passport number", IncludeArchived: true})
	if len(res.Hits) == 0 || res.Hits[0].Memory.ID != gone.ID || !res.Hits[0].Memory.IsArchived() {
		t.Errorf("with archived: %+v", res.Hits)
	}
}

func TestRecallConcurrentWithWrites(t *testing.T) {
	c := &recallClock{t: rankDay0}
	st := openRecallStore(t, c)
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 15 {
				if w == 0 {
					rememberDraft(t, st, Draft{Content: "note about gardening " + strings.Repeat("x", i), Time: rankDay0})
					continue
				}
				if _, err := st.Recall(ctx, Query{Text: "gardening", Reinforce: i%2 == 0}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	res, err := st.Recall(ctx, Query{Text: "gardening", Limit: 50})
	if err != nil || res.Total != 15 {
		t.Errorf("after writes: total %d, %v", res.Total, err)
	}
}

// Options.DayFirst decides how an ambiguous numeric date reads, in the
// question and in the when argument alike.
func TestRecallDateOrder(t *testing.T) {
	ctx := context.Background()
	for dayFirst, want := range map[bool]time.Month{false: time.May, true: time.April} {
		opts := testOptions(filepath.Join(t.TempDir(), "m.db"), newTestClock())
		opts.DayFirst, opts.Location = dayFirst, time.UTC
		st := openTest(t, opts)
		for _, q := range []Query{{Text: "anything", When: "5/4/2023"}, {Text: "what happened on 5/4/2023?"}} {
			res, err := st.Recall(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if res.Window == nil || res.Window.From.Month() != want || res.Window.From.Year() != 2023 {
				t.Errorf("DayFirst %v, %+v: window %+v, want a day in %v 2023", dayFirst, q, res.Window, want)
			}
		}
	}
}

// TestRecallFeedbackOnlyForTopics: pseudo-relevance feedback brings in the
// words the best matches share ("shelter", "vet"), so a question about a
// topic also finds what was said around it; a question for a time, or one
// naming an exact day, looks for one event and ranks by its own words only.
func TestRecallFeedbackOnlyForTopics(t *testing.T) {
	c := &recallClock{t: rankDay0}
	st := openRecallStore(t, c)
	ctx := context.Background()
	for i, text := range []string{
		"Ana: we adopted a puppy",
		"Ana: the puppy came from the shelter, the vet there was kind",
		"Ana: the shelter vet said the puppy is healthy",
		"Ben: I volunteer at the shelter with the vet on Sundays",
		"Ben: my guitar lessons start again",
		"Ben: the new bakery sells rye bread",
	} {
		rememberDraft(t, st, Draft{Content: text, Time: rankDay0.Add(time.Duration(i) * time.Minute)})
	}
	c.set(rankDay0.AddDate(0, 0, 10))
	const fedBack = "Ben: I volunteer at the shelter"
	for _, tt := range []struct {
		q        string
		feedback bool
	}{
		{"tell me about Ana adopting the puppy", true},
		{"when did Ana adopt the puppy?", false},
		{"what did Ana adopt on May 1st?", false},
	} {
		res, err := st.Recall(ctx, Query{Text: tt.q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Memory.Content != "Ana: we adopted a puppy" {
			t.Errorf("%q: first %v, want the adoption", tt.q, hitContents(res.Hits))
		}
		lexical := false
		for _, h := range res.Hits {
			if strings.HasPrefix(h.Memory.Content, fedBack) {
				lexical = h.Score.Lexical > 0
			}
		}
		if lexical != tt.feedback {
			t.Errorf("%q: %q matched by words %v, want %v (feedback)", tt.q, fedBack, lexical, tt.feedback)
		}
	}
}
