package memory

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"
)

func hitIDs(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Memory.ID
	}
	return out
}

func rankIDs(t *testing.T, ix *index, s search) ([]string, string) {
	t.Helper()
	if s.scopes == nil {
		s.scopes = []string{"s"}
	}
	if s.now.IsZero() {
		s.now = rankDay0.AddDate(0, 0, 30)
	}
	hits, total, applied, err := ix.rank(context.Background(), s, 0, 1000)
	if total != len(hits) {
		t.Errorf("total %d, %d hits", total, len(hits))
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if r := h.Score.Relevance; !(r > 0 && r <= 1) {
			t.Errorf("%s: relevance %v out of (0,1]", h.Memory.ID, r)
		}
		if p := h.Score.Probability; !(p >= 0 && p <= 1) || math.IsNaN(h.Score.LogP) {
			t.Errorf("%s: probability %v, log %v", h.Memory.ID, p, h.Score.LogP)
		}
	}
	return hitIDs(hits), applied
}

func TestRankLexical(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("paris", "We booked the flight to Paris for the conference", 0),
		rmem("cat", "The cat knocked the vase over", 0),
		rmem("paris2", "Paris was rainy", 0),
	)
	got, applied := rankIDs(t, ix, search{terms: queryTerms("flight to Paris"), qvec: unit(rankVec(t, "flight to Paris"))})
	if applied != "" {
		t.Errorf("applied = %q, want none", applied)
	}
	if len(got) < 2 || got[0] != "paris" || got[1] != "paris2" {
		t.Errorf("ranked %v, want paris, paris2 first", got)
	}
}

func TestRankDecayPrefersRecentAtEqualRelevance(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix, rmem("old", "standup notes", 0), rmem("new", "standup notes", 20))
	got, _ := rankIDs(t, ix, search{terms: queryTerms("standup")})
	if !slices.Equal(got, []string{"new", "old"}) {
		t.Errorf("ranked %v, want new before old", got)
	}
	// A stronger (often recalled) memory resists decay.
	strong := rmem("strong", "standup notes", 0)
	strong.Strength = 50
	putAll(t, ix, strong)
	got, _ = rankIDs(t, ix, search{terms: queryTerms("standup")})
	if got[0] != "strong" {
		t.Errorf("ranked %v, want strong first", got)
	}
}

func TestRankTieBreakDeterministic(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix, rmem("b", "same words", 0), rmem("a", "same words", 0), rmem("c", "same words", 0))
	for range 5 {
		got, _ := rankIDs(t, ix, search{terms: queryTerms("same words")})
		if !slices.Equal(got, []string{"a", "b", "c"}) {
			t.Fatalf("ranked %v, want a b c", got)
		}
	}
}

func TestRankExactWindow(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("in", "lunch with Ana at the taco place", 5),
		rmem("out", "lunch with Ana at the sushi bar", 12),
		rmem("other", "fixed the bike", 5),
	)
	win := &window{from: rankDay0.AddDate(0, 0, 5), to: rankDay0.AddDate(0, 0, 6)}
	got, applied := rankIDs(t, ix, search{terms: queryTerms("lunch with Ana"), win: win})
	if applied != "filter" || !slices.Contains(got, "in") || slices.Contains(got, "out") {
		t.Errorf("filter: ranked %v applied %q", got, applied)
	}
	if got[0] != "in" {
		t.Errorf("filter: ranked %v, want in first", got)
	}

	// Words matching nothing inside it: a pure time question over the window
	// when they only ask about the conversation...
	putAll(t, ix, rmem("talk", "talked to Bob about the budget", 12))
	got, applied = rankIDs(t, ix, search{terms: queryTerms("what did we talk about"), win: win})
	if applied != "filter" || !slices.Equal(got, []string{"other", "in"}) && !slices.Equal(got, []string{"in", "other"}) {
		t.Errorf("no match inside: ranked %v applied %q, want other and in", got, applied)
	}
	ix.drop("talk")
	// ... but when they match a memory a week away, it follows the window's.
	got, applied = rankIDs(t, ix, search{terms: queryTerms("sushi"), win: win})
	if len(got) == 3 {
		slices.Sort(got[:2])
	}
	if applied != "boost-fallback" || !slices.Equal(got, []string{"in", "other", "out"}) {
		t.Errorf("match a week away: ranked %v applied %q, want in, other, then out", got, applied)
	}
	// An event told a week later is in the window by the time it tells of.
	putAll(t, ix, rmem("told", "lunch with Ana at the noodle bar last Monday", 12))
	got, applied = rankIDs(t, ix, search{terms: queryTerms("lunch with Ana"), win: win})
	if len(got) >= 2 {
		slices.Sort(got[:2])
	}
	if applied != "filter" || len(got) < 2 || slices.Contains(got, "out") || !slices.Equal(got[:2], []string{"in", "told"}) {
		t.Errorf("told later: got %v applied %q, want in and told first, out filtered", got, applied)
	}
	ix.drop("told")

	// A window that holds nothing boosts by closeness instead of answering nothing.
	win = &window{from: rankDay0.AddDate(0, 0, 13), to: rankDay0.AddDate(0, 0, 14)}
	got, applied = rankIDs(t, ix, search{terms: queryTerms("lunch with Ana"), win: win})
	if applied != "boost-fallback" || len(got) < 2 || got[0] != "out" {
		t.Errorf("fallback: ranked %v applied %q, want out (the nearest) first", got, applied)
	}
}

// TestRankDateSlightlyOff: words that match nothing in the window but a
// memory just outside it find that memory first, then the window's own.
func TestRankDateSlightlyOff(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("ana", "Lunch with Ana, she recommended the book Piranesi", 13), // Tuesday after the week
		rmem("bike", "fixed the bike", 6),
		rmem("far", "Ana recommended a podcast", 40),
	)
	win := &window{from: rankDay0.AddDate(0, 0, 5), to: rankDay0.AddDate(0, 0, 12)} // Monday 6 - Sunday 12 May
	got, applied := rankIDs(t, ix, search{terms: queryTerms("which book did Ana recommend"), win: win, now: rankDay0.AddDate(0, 0, 45)})
	if applied != "boost-fallback" || !slices.Equal(got, []string{"ana", "bike", "far"}) {
		t.Errorf("ranked %v applied %q, want ana, bike, far", got, applied)
	}
}

// TestRankToldWeight: within an exact window, a memory telling of a time in
// it ranks above one that was only said there (toldWeight), though the
// latter is more recent and shorter.
func TestRankToldWeight(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("said", "we went camping with the kids", 10),          // Friday 11 May
		rmem("told", "we went camping with the kids on Monday", 9), // Thursday 10 May, of Monday 6 May
		rmem("out", "we went camping with the kids", 20),
	)
	win := &window{from: rankDay0.AddDate(0, 0, 5), to: rankDay0.AddDate(0, 0, 12)} // Monday 6 - Sunday 12 May
	got, applied := rankIDs(t, ix, search{terms: queryTerms("camping with the kids"), win: win})
	if applied != "filter" || !slices.Equal(got, []string{"told", "said"}) {
		t.Errorf("ranked %v applied %q, want told, said", got, applied)
	}
	// A pure time question asks what was said: no preference.
	got, _ = rankIDs(t, ix, search{win: win})
	if !slices.Equal(got, []string{"said", "told"}) {
		t.Errorf("pure time: ranked %v, want said (the more recent), told", got)
	}
}

// TestRankToldShare: a memory enters a window by a time it tells of only
// when at least toldShare of that time lies in the window: "this month"
// does not place a memory on one day of it.
func TestRankToldShare(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("month", "hosting a dance competition this month", 2),      // Friday 3 May, of May
		rmem("sunday", "the dance competition last Sunday was fun", 22), // Thursday 23 May, of Sunday 19 May
		rmem("week", "the dance competition is this week", 15),          // Thursday 16 May, of 13-19 May
	)
	day := func(n int) time.Time { return time.Date(2024, 5, 1+n, 0, 0, 0, 0, time.UTC) } // rankDay0 + n at midnight
	win := &window{from: day(18), to: day(19)}                                            // Sunday 19 May
	got, applied := rankIDs(t, ix, search{terms: queryTerms("dance competition"), win: win})
	if applied != "filter" || !slices.Equal(got, []string{"sunday"}) {
		t.Errorf("one day: ranked %v applied %q, want sunday alone", got, applied)
	}
	// The weekend of 18-19 May holds 2 of the 7 days of "this week".
	win = &window{from: day(17), to: day(19)}
	got, _ = rankIDs(t, ix, search{terms: queryTerms("dance competition"), win: win})
	slices.Sort(got)
	if !slices.Equal(got, []string{"sunday", "week"}) {
		t.Errorf("weekend: ranked %v, want sunday and week", got)
	}
}

func TestRankPureTimeQuestion(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("morning", "went running", 5),
		rmem("evening", "cooked pasta", 5),
		rmem("before", "read a book", 4),
	)
	ix.put(Memory{ID: "evening", Scope: "s", Content: "cooked pasta", Time: rankDay0.AddDate(0, 0, 5).Add(6 * time.Hour), Strength: 1}, nil)
	win := &window{from: rankDay0.AddDate(0, 0, 5).Truncate(24 * time.Hour), to: rankDay0.AddDate(0, 0, 6).Truncate(24 * time.Hour)}
	got, applied := rankIDs(t, ix, search{win: win})
	if applied != "filter" || !slices.Equal(got, []string{"evening", "morning"}) {
		t.Errorf("ranked %v applied %q, want evening morning by filter", got, applied)
	}
	// No window and no words: everything, most recent first.
	got, _ = rankIDs(t, ix, search{})
	if !slices.Equal(got, []string{"evening", "morning", "before"}) {
		t.Errorf("listing %v", got)
	}
	// An empty window in a pure time question: nearest memories first.
	got, applied = rankIDs(t, ix, search{win: &window{from: rankDay0.AddDate(0, 0, 3), to: rankDay0.AddDate(0, 0, 4)}})
	if applied != "boost-fallback" || len(got) != 3 || got[0] != "before" {
		t.Errorf("fallback listing %v applied %q", got, applied)
	}
}

func TestRankVagueBoost(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix, rmem("near", "dentist appointment", 10), rmem("far", "dentist appointment", 28))
	win := &window{vague: true, anchor: rankDay0.AddDate(0, 0, 10), spread: 2 * 24 * time.Hour}
	got, applied := rankIDs(t, ix, search{terms: queryTerms("dentist"), win: win})
	if applied != "boost" || !slices.Equal(got, []string{"near", "far"}) {
		t.Errorf("ranked %v applied %q, want near far boosted", got, applied)
	}
}

func TestRankTags(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("tagged", "deploy went fine", 0, "work/ops"),
		rmem("plain", "deploy went fine", 0),
		rmem("onlytag", "coffee machine broke", 0, "work"),
	)
	got, _ := rankIDs(t, ix, search{terms: queryTerms("deploy"), tags: []string{"work"}})
	if len(got) < 2 || got[0] != "tagged" {
		t.Errorf("ranked %v, want tagged first", got)
	}
	// A tag-only query ranks by tag match and leaves out untagged memories.
	got, _ = rankIDs(t, ix, search{tags: []string{"WORK"}})
	if !slices.Equal(got, []string{"onlytag", "tagged"}) && !slices.Equal(got, []string{"tagged", "onlytag"}) {
		t.Errorf("tag-only ranked %v", got)
	}
	if s := tagShare([]string{"work/ops", "home"}, []string{"work", "home", "x"}); math.Abs(s-2.0/3) > 1e-9 {
		t.Errorf("tagShare = %v", s)
	}
	if s := tagShare([]string{"workshop"}, []string{"work"}); s != 0 {
		t.Errorf("tagShare(workshop, work) = %v, want 0", s)
	}
}

func TestRankArchivedAndMinProbability(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	a := rmem("gone", "secret plan", 0)
	a.Archived = rankDay0
	putAll(t, ix, a, rmem("kept", "plan for the weekend", 0))
	got, _ := rankIDs(t, ix, search{terms: queryTerms("secret plan"), qvec: unit(rankVec(t, "secret plan"))})
	if slices.Contains(got, "gone") {
		t.Errorf("archived memory returned: %v", got)
	}
	got, _ = rankIDs(t, ix, search{terms: queryTerms("secret plan"), archived: true})
	if len(got) == 0 || got[0] != "gone" {
		t.Errorf("with archived: %v", got)
	}
	got, _ = rankIDs(t, ix, search{terms: queryTerms("plan"), minP: 0.9999})
	if len(got) != 0 {
		t.Errorf("min probability kept %v", got)
	}
}

func TestRankScopesAreSeparate(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	m := rmem("x", "kubernetes upgrade", 0)
	m.Scope = "other"
	putAll(t, ix, m, rmem("y", "kubernetes upgrade", 0))
	got, _ := rankIDs(t, ix, search{terms: queryTerms("kubernetes")})
	if !slices.Equal(got, []string{"y"}) {
		t.Errorf("scope s ranked %v", got)
	}
	got, _ = rankIDs(t, ix, search{terms: queryTerms("kubernetes"), scopes: []string{"s", "other", "missing"}})
	if len(got) != 2 {
		t.Errorf("both scopes ranked %v", got)
	}
}

func TestRankNeighbours(t *testing.T) {
	rk := DefaultRanking()
	rk.PrevWeight, rk.NextWeight = 0.3, 0.1
	ix := newTestIndex(rk)
	putAll(t, ix,
		rturn("q", "Caroline: what instrument do you play?", 1),
		rturn("a", "Melanie: the violin, since I was six", 2),
		rturn("z", "Melanie: unrelated chatter about weather", 3),
	)
	got, _ := rankIDs(t, ix, search{terms: queryTerms("instrument")})
	if !slices.Contains(got, "a") {
		t.Errorf("answer turn not found through its question: %v", got)
	}

	// Two turns on (farNeighbour) still inherits a little; three do not.
	rk.VectorWeight, rk.PRFTerms = 0, 0
	ix = newTestIndex(rk)
	putAll(t, ix,
		rturn("q", "Caroline: the camping trip was fun.", 1),
		rturn("m", "Melanie: so good", 2),
		rturn("a", "Melanie: we roasted marshmallows by the fire", 3),
		rturn("z", "Caroline: sounds lovely, I baked bread", 4),
	)
	got, _ = rankIDs(t, ix, search{terms: queryTerms("camping trip")})
	if !slices.Equal(got, []string{"q", "m", "a"}) {
		t.Errorf("ranked %v, want q m a", got)
	}
}

func TestAsksWhen(t *testing.T) {
	for q, want := range map[string]bool{
		"When did Caroline go to the support group?":   true,
		"In what year did Jon open the studio?":        true,
		"How long has Melanie been painting?":          true,
		"How many weeks passed between the two trips?": true,
		"Which week did Tim visit the UK?":             true,
		"How many dogs does Maria have?":               false,
		"So when was the move?":                        true,
		"What did Caroline paint?":                     false,
		"Where does Jon live when he travels?":         false,
		"":                                             false,
	} {
		if got := asksWhen(q); got != want {
			t.Errorf("asksWhen(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestRankWhenPrefersMemoriesStatingATime(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("plain", "Ana: the pottery class was great fun", 0),
		rmem("timed", "Ana: the pottery class last Friday was great fun", 0),
	)
	for id, want := range map[string]bool{"timed": true, "plain": false} {
		if got := ix.byID[id].timed; got != want {
			t.Errorf("%s states a time: %v", id, got)
		}
	}
	got, _ := rankIDs(t, ix, search{terms: queryTerms("pottery class"), when: true})
	if !slices.Equal(got, []string{"timed", "plain"}) {
		t.Errorf("when: ranked %v, want timed first", got)
	}
	got, _ = rankIDs(t, ix, search{terms: queryTerms("pottery class")})
	if got[0] != "plain" {
		t.Errorf("not a when question: ranked %v, want plain (shorter) first", got)
	}
}

func TestRankPRF(t *testing.T) {
	rk := DefaultRanking()
	rk.PRFTerms = 5
	ix := newTestIndex(rk)
	putAll(t, ix,
		rmem("a", "hiking trip to the mountains with tents", 0),
		rmem("b", "camping in the mountains, pitched tents by the lake", 0),
		rmem("c", "bought new tents for camping", 0),
		rmem("d", "tax return filed", 0),
	)
	got, _ := rankIDs(t, ix, search{terms: queryTerms("hiking mountains")})
	// Feedback brings in c (camping, tents) though it shares no query word;
	// d only shares the date words, so it may come, but last.
	if len(got) < 3 || got[0] != "a" || !slices.Contains(got, "c") || (slices.Contains(got, "d") && got[len(got)-1] != "d") {
		t.Errorf("ranked %v", got)
	}
	rk.PRFTerms = 0
	ix = newTestIndex(rk)
	putAll(t, ix, rmem("a", "hiking trip to the mountains with tents", 0), rmem("c", "bought new tents for camping", 0))
	if got, _ := rankIDs(t, ix, search{terms: queryTerms("hiking mountains")}); slices.Contains(got, "c") {
		t.Errorf("without feedback ranked %v", got)
	}
}

func TestSpeaker(t *testing.T) {
	for in, want := range map[string]string{
		"Caroline: hi there":  "Caroline",
		"Dr Jane Roe: hello":  "Dr Jane Roe",
		"note: lowercase":     "",
		"Time: 10:00 meeting": "Time",
		"no colon here":       "",
		"A very long name that is not a name at all: x": "",
		"Caroline:no space":                             "",
	} {
		if got := speaker(in); got != want {
			t.Errorf("speaker(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAsksQuestion(t *testing.T) {
	for text, want := range map[string]bool{
		"Melanie: What got you into running?":                               true,
		"Caroline: Wow, nice! How are your pets? [shares a photo of a cat]": true,
		"Caroline: Wow, nice! How are your pets?  ":                         true,
		"Melanie: I run to clear my head.":                                  false,
		"Melanie: Is it? Yes, it is. [shares a photo of a question mark?]":  false,
		"": false,
	} {
		if got := asksQuestion(text); got != want {
			t.Errorf("asksQuestion(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestRankAnswerAfterQuestion(t *testing.T) {
	rk := DefaultRanking()
	rk.VectorWeight, rk.PRFTerms = 0, 0
	ix := newTestIndex(rk)
	putAll(t, ix,
		rturn("q", "Caroline: What got you into running?", 1),
		rturn("a", "Melanie: It clears my head after work, and I sleep better.", 2),
		rturn("s", "Melanie: I bought new shoes for running.", 3),
	)
	// The question shares the word but is penalised; its answer inherits
	// answerWeight of it and outranks it.
	got, _ := rankIDs(t, ix, search{terms: queryTerms("why running")})
	if i, j := slices.Index(got, "a"), slices.Index(got, "q"); i < 0 || j >= 0 && i > j {
		t.Errorf("ranked %v, want the answer a before the question q", got)
	}
}

func TestStatesDuration(t *testing.T) {
	for text, want := range map[string]bool{
		"Nate: I've had them for 3 years now!":      true,
		"Melanie: Seven years now, and I love it":   true,
		"we have lived here for a couple of months": true,
		"a year of painting":                        true,
		"Jon: I love the days at the studio":        false,
		"Gina: my favourite month is May":           false,
		"months":                                    false,
		"":                                          false,
	} {
		if got := statesDuration(text); got != want {
			t.Errorf("statesDuration(%q) = %v, want %v", text, got, want)
		}
	}
}

// A window matches a memory by when it was said or by a time its text tells
// of: "last Friday" said on Thursday 16 May 2024 is Friday 10 May.
func TestRankWindowMatchesToldTimes(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("said-in", "Tim: the castle tour in the UK was great", 8),
		rmem("told", "Tim: I visited a castle in the UK last Friday", 15),
		rmem("neither", "Tim: another castle in the UK, what a place", 40),
	)
	d := ix.byID["told"]
	wantFrom := time.Date(2024, 5, 10, 0, 0, 0, 0, time.UTC)
	if len(d.refs) != 1 || !d.refs[0].from.Equal(wantFrom) || !d.refs[0].to.Equal(wantFrom.AddDate(0, 0, 1)) {
		t.Fatalf("refs of %q = %v, want the Friday %v", d.m.Content, d.refs, wantFrom)
	}
	if !d.timed || ix.byID["neither"].timed {
		t.Errorf("timed: told %v, neither %v", d.timed, ix.byID["neither"].timed)
	}
	// The week of 6..12 May holds "said-in" by its time and "told" by its Friday.
	win := &window{from: time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC), to: time.Date(2024, 5, 13, 0, 0, 0, 0, time.UTC)}
	got, applied := rankIDs(t, ix, search{terms: queryTerms("castle"), win: win, now: rankDay0.AddDate(0, 0, 60)})
	slices.Sort(got)
	if applied != "filter" || !slices.Equal(got, []string{"said-in", "told"}) {
		t.Errorf("window: got %v (%s), want said-in and told", got, applied)
	}
}

// A query word the scope has never seen finds what the scope holds: a
// compound written together or apart, a typo.
func TestRankUnseenWords(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("roadtrip", "Mel: that roadtrip this past weekend was insane", 0),
		rmem("road", "Mel: the road to the lake was closed", 1),
		rmem("fest", "Caroline: we had a blast at the pride festival", 2),
		rmem("other", "Caroline: painting is my outlet", 3),
	)
	for q, want := range map[string]string{
		"road trip":            "roadtrip",
		"pride fesetival":      "fest",
		"when was the festivl": "fest",
	} {
		got, _ := rankIDs(t, ix, search{terms: queryTerms(q)})
		if len(got) == 0 || got[0] != want {
			t.Errorf("%q: ranked %v, want %s first", q, got, want)
		}
	}
	// Split: the scope holds "road" and "trip" but never "roadtrip".
	ix2 := newTestIndex(DefaultRanking())
	putAll(t, ix2, rmem("trip", "a long road trip to the coast", 0), rmem("x", "a quiet day at home", 1))
	if got, _ := rankIDs(t, ix2, search{terms: queryTerms("roadtrip")}); len(got) == 0 || got[0] != "trip" {
		t.Errorf("roadtrip: ranked %v, want trip", got)
	}
	// A short unseen word is not guessed at.
	if got, _ := rankIDs(t, ix2, search{terms: queryTerms("hime")}); len(got) != 0 {
		t.Errorf("hime: ranked %v, want nothing", got)
	}
}

// TestUnseenWordNearest checks that a typo stands for the nearest word of
// the scope whatever order the vocabulary is visited in (a map): words
// farther than the nearest, and before it in the alphabet, never win.
func TestUnseenWordNearest(t *testing.T) {
	ix := newTestIndex(DefaultRanking())
	putAll(t, ix,
		rmem("fest", "we had a blast at the festival", 0),
		rmem("a", "a fabric from the farmer", 1),
		rmem("b", "the fallow field", 2),
		rmem("c", "a fable of a falcon", 3),
	)
	sc := ix.scopes["s"] // rmem's scope
	for i := range 50 {  // map order varies between iterations
		got := expandUnseen(sc, []weightedTerm{{"fesetiv", 1}})
		if len(got) != 2 || got[1].term != "festiv" {
			t.Fatalf("run %d: expandUnseen(fesetiv) = %v, want fesetiv and festiv", i, got)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"festiv", "festiv", 2, 0},
		{"fesetiv", "festiv", 2, 1},
		{"festvi", "festiv", 2, 1}, // transposition
		{"abc", "xyz", 1, 2},       // over the limit: limit+1
		{"", "abc", 5, 3},
		{"kitten", "sitting", 5, 3},
	} {
		if got := editDistance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}
