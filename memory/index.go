package memory

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"time"

	chromem "github.com/philippgille/chromem-go"

	"github.com/mneme-mcp/mneme/timeexpr"
)

// indexOptions configure newIndex.
type indexOptions struct {
	Ranking  Ranking
	Embed    chromem.EmbeddingFunc // the collections' embedding function; nil gets one that always fails
	Location *time.Location        // time zone of date words; nil = time.Local
	DayFirst bool                  // read an ambiguous numeric date day first
}

// index is the in-memory search index over every memory of a store: the
// memories themselves, a BM25 inverted index per scope over their terms
// (archived memories included, flagged) and a chromem-go collection per scope
// holding the vectors of the active ones. It is rebuilt from SQLite at open
// and kept in step by the store; nothing here is persisted.
//
// An index is safe for concurrent use: writers take its lock exclusively,
// searches share it.
type index struct {
	mu     sync.RWMutex
	opts   indexOptions
	db     *chromem.DB
	byID   map[string]*doc
	scopes map[string]*scopeIndex
}

// doc is one memory in the index.
type doc struct {
	m     Memory
	vec   []float32 // unit length; nil = none
	terms []termFreq
	refs  []span // times the text tells of ("last Friday" said on the 16th: the 10th), see readTimes
	timed bool   // its text states a time or a duration, see readTimes
	// speaker holds the lexical terms of a transcript line's "Name:" prefix
	// (see speaker), for the speaker prior; nil = not a transcript line.
	speaker []string
	scope   *scopeIndex
	slot    int32
}

// scopeIndex is the part of the index for one scope. Documents live in
// slots; what the hot loops of a search read per slot (length, time,
// archived, thread neighbours) is kept in flat slot-indexed slices rather
// than behind the doc pointers, which keeps those loops in cache.
type scopeIndex struct {
	name     string
	docs     []*doc    // by slot; nil = free slot
	length   []float32 // lexical length of the slot's doc
	when     []int64   // its event time, Unix microseconds
	gone     []bool    // archived (or a free slot)
	asks     []bool    // the slot's doc ends with a question (see asksQuestion)
	toldLo   []int64   // start of the hull of the times its text tells of (doc.refs), Unix µs; MaxInt64 = none
	toldHi   []int64   // end of that hull; MinInt64 = none
	prev     []int32   // slot of the previous turn of its thread, -1 = none
	next     []int32   // slot of the next turn of its thread, -1 = none
	free     []int32
	post     map[string][]posting
	live     int     // documents in the lexical index
	totalLen float64 // sum of their lengths
	threads  map[string][]int32
	coll     *chromem.Collection
}

// alloc places d in a free or new slot and fills the slot's flat fields.
func (sc *scopeIndex) alloc(d *doc, length float32) {
	if n := len(sc.free); n > 0 {
		d.slot = sc.free[n-1]
		sc.free = sc.free[:n-1]
		sc.docs[d.slot] = d
	} else {
		d.slot = int32(len(sc.docs))
		sc.docs = append(sc.docs, d)
		sc.length = append(sc.length, 0)
		sc.when = append(sc.when, 0)
		sc.gone = append(sc.gone, false)
		sc.asks = append(sc.asks, false)
		sc.toldLo = append(sc.toldLo, math.MaxInt64)
		sc.toldHi = append(sc.toldHi, math.MinInt64)
		sc.prev = append(sc.prev, -1)
		sc.next = append(sc.next, -1)
	}
	sc.length[d.slot] = length
	sc.when[d.slot] = d.m.Time.UnixMicro()
	sc.gone[d.slot] = d.m.IsArchived()
	sc.asks[d.slot] = asksQuestion(d.m.Content)
	sc.toldLo[d.slot], sc.toldHi[d.slot] = math.MaxInt64, math.MinInt64
	for _, r := range d.refs {
		sc.toldLo[d.slot] = min(sc.toldLo[d.slot], r.from.UnixMicro())
		sc.toldHi[d.slot] = max(sc.toldHi[d.slot], r.to.UnixMicro())
	}
	sc.prev[d.slot], sc.next[d.slot] = -1, -1
}

// release frees d's slot.
func (sc *scopeIndex) release(d *doc) {
	sc.docs[d.slot] = nil
	sc.gone[d.slot] = true
	sc.asks[d.slot] = false
	sc.toldLo[d.slot], sc.toldHi[d.slot] = math.MaxInt64, math.MinInt64
	sc.length[d.slot] = 0
	sc.free = append(sc.free, d.slot)
}

// errNoEmbedder is what the placeholder embedding function returns.
var errNoEmbedder = errors.New("index: no embedding function")

// newIndex returns an empty index.
func newIndex(o indexOptions) *index {
	if o.Embed == nil {
		// chromem-go treats a nil function as "use OpenAI": never hand it one.
		o.Embed = func(context.Context, string) ([]float32, error) { return nil, errNoEmbedder }
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.Ranking == (Ranking{}) {
		o.Ranking = DefaultRanking()
	}
	return &index{
		opts:   o,
		db:     chromem.NewDB(),
		byID:   map[string]*doc{},
		scopes: map[string]*scopeIndex{},
	}
}

// len returns the number of memories in the index, archived ones included.
func (ix *index) len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.byID)
}

// get returns the memory with the given id.
func (ix *index) get(id string) (Memory, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	d, ok := ix.byID[id]
	if !ok {
		return Memory{}, false
	}
	return d.m, true
}

// put inserts a memory or replaces the one with its id (archived memories
// too). vec is its embedding, nil for none; it is stored as given, never
// recomputed. A replacement whose text, tags, time and thread position are
// unchanged (a reinforcement, say) only swaps the stored value.
func (ix *index) put(m Memory, vec []float32) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	vec = unit(vec)
	if old, ok := ix.byID[m.ID]; ok {
		if old.scope.name == m.Scope && sameText(old.m, m) {
			old.m = m
			old.vec = vec
			old.scope.gone[old.slot] = m.IsArchived()
			ix.syncVector(old)
			return
		}
		ix.remove(old)
	}
	sc := ix.scope(m.Scope)
	speaker := speakerTerms(m.Content)
	terms, length := analyze(m, speaker, ix.opts.Ranking.DateWords, ix.opts.Location)
	refs, timed := readTimes(m.Content, m.Time, timeexpr.Options{Location: ix.opts.Location, DayFirst: ix.opts.DayFirst})
	d := &doc{m: m, vec: vec, terms: terms, refs: refs, timed: timed, speaker: speaker, scope: sc}
	sc.alloc(d, length)
	for _, tf := range terms {
		sc.post[tf.term] = append(sc.post[tf.term], posting{slot: d.slot, tf: tf.tf})
	}
	sc.live++
	sc.totalLen += float64(length)
	sc.linkThread(d)
	ix.byID[m.ID] = d
	ix.syncVector(d)
}

// drop removes a memory for good (a purge). Unknown ids are ignored.
func (ix *index) drop(id string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if d, ok := ix.byID[id]; ok {
		ix.remove(d)
	}
}

// remove takes d out of every structure. The caller holds the write lock.
func (ix *index) remove(d *doc) {
	sc := d.scope
	for _, tf := range d.terms {
		ps := sc.post[tf.term]
		if i := slices.IndexFunc(ps, func(p posting) bool { return p.slot == d.slot }); i >= 0 {
			ps[i] = ps[len(ps)-1]
			ps = ps[:len(ps)-1]
		}
		if len(ps) == 0 {
			delete(sc.post, tf.term)
		} else {
			sc.post[tf.term] = ps
		}
	}
	sc.live--
	sc.totalLen -= float64(sc.length[d.slot])
	sc.unlinkThread(d)
	if !d.m.IsArchived() && d.vec != nil {
		_ = sc.coll.Delete(context.Background(), nil, nil, d.m.ID)
	}
	sc.release(d)
	delete(ix.byID, d.m.ID)
}

// scope returns the scope's index, creating it. The caller holds the write lock.
func (ix *index) scope(name string) *scopeIndex {
	if sc, ok := ix.scopes[name]; ok {
		return sc
	}
	// Collection names are free-form in an in-memory chromem DB, and the
	// function is never nil, so this cannot fail.
	coll, err := ix.db.GetOrCreateCollection(name, nil, ix.opts.Embed)
	if err != nil {
		panic("index: create collection: " + err.Error())
	}
	sc := &scopeIndex{name: name, post: map[string][]posting{}, threads: map[string][]int32{}, coll: coll}
	ix.scopes[name] = sc
	return sc
}

// sameText reports whether a and b index identically (same terms, time and
// thread position), so that replacing a by b needs no re-indexing.
func sameText(a, b Memory) bool {
	return a.Content == b.Content && slices.Equal(a.Tags, b.Tags) && a.Time.Equal(b.Time) &&
		a.Thread == b.Thread && a.Seq == b.Seq &&
		a.Subject == b.Subject && a.Predicate == b.Predicate && a.Object == b.Object && a.Context == b.Context &&
		a.Observation == b.Observation && a.Thoughts == b.Thoughts && a.Action == b.Action && a.Result == b.Result
}

// threadLess orders the turns of a thread: by Seq, then time, then id.
func threadLess(a, b *doc) int {
	if c := cmp.Compare(a.m.Seq, b.m.Seq); c != 0 {
		return c
	}
	if c := a.m.Time.Compare(b.m.Time); c != 0 {
		return c
	}
	return cmp.Compare(a.m.ID, b.m.ID)
}

// linkThread inserts d into its thread's order and links its neighbours.
func (sc *scopeIndex) linkThread(d *doc) {
	if d.m.Thread == "" {
		return
	}
	th := sc.threads[d.m.Thread]
	i, _ := slices.BinarySearchFunc(th, d, func(s int32, d *doc) int { return threadLess(sc.docs[s], d) })
	th = slices.Insert(th, i, d.slot)
	sc.threads[d.m.Thread] = th
	sc.relink(th, i-1, i+1)
}

// unlinkThread takes d out of its thread's order and relinks its neighbours.
func (sc *scopeIndex) unlinkThread(d *doc) {
	if d.m.Thread == "" {
		return
	}
	th := sc.threads[d.m.Thread]
	i := slices.Index(th, d.slot)
	if i < 0 {
		return
	}
	th = slices.Delete(th, i, i+1)
	if len(th) == 0 {
		delete(sc.threads, d.m.Thread)
		return
	}
	sc.threads[d.m.Thread] = th
	sc.relink(th, i-1, i)
}

// relink sets prev/next of the thread positions lo..hi from their places.
func (sc *scopeIndex) relink(th []int32, lo, hi int) {
	for i := max(lo, 0); i <= hi && i < len(th); i++ {
		slot := th[i]
		sc.prev[slot], sc.next[slot] = -1, -1
		if i > 0 {
			sc.prev[slot] = th[i-1]
		}
		if i+1 < len(th) {
			sc.next[slot] = th[i+1]
		}
	}
}

// span is a half-open time range [from, to).
type span struct{ from, to time.Time }

// firstSpan returns the time range of the scopes' first conversation: the
// earliest thread (from its first to its last turn, whole days in loc), or
// the first day holding a memory when none has a thread.
func (ix *index) firstSpan(scopes []string, loc *time.Location) (span, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var best span
	found := false
	for _, name := range scopes {
		sc := ix.scopes[name]
		if sc == nil {
			continue
		}
		for _, th := range sc.threads {
			s, ok := sc.threadSpan(th)
			if ok && (!found || s.from.Before(best.from)) {
				best, found = s, true
			}
		}
		if len(sc.threads) > 0 {
			continue
		}
		for _, d := range sc.docs {
			if d != nil && !d.m.IsArchived() && !d.m.Time.IsZero() && (!found || d.m.Time.Before(best.from)) {
				best, found = span{d.m.Time, d.m.Time}, true
			}
		}
	}
	if !found {
		return span{}, false
	}
	return days(best, loc), true
}

// lastSpan returns the time range of the scopes' last conversation before
// the day of now: the latest thread that began before that day, or the
// latest earlier day holding a memory when none has a thread.
func (ix *index) lastSpan(scopes []string, now time.Time, loc *time.Location) (span, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	today := startOfDay(now, loc)
	var best span
	found := false
	for _, name := range scopes {
		sc := ix.scopes[name]
		if sc == nil {
			continue
		}
		for _, th := range sc.threads {
			s, ok := sc.threadSpan(th)
			if ok && s.from.Before(today) && (!found || s.from.After(best.from)) {
				best, found = s, true
			}
		}
		if len(sc.threads) > 0 {
			continue
		}
		for _, d := range sc.docs {
			if d != nil && !d.m.IsArchived() && !d.m.Time.IsZero() && d.m.Time.Before(today) && (!found || d.m.Time.After(best.to)) {
				best, found = span{d.m.Time, d.m.Time}, true
			}
		}
	}
	if !found {
		return span{}, false
	}
	return days(best, loc), true
}

// threadSpan returns the first and last event time of a thread's active turns.
func (sc *scopeIndex) threadSpan(th []int32) (span, bool) {
	var s span
	found := false
	for _, slot := range th {
		d := sc.docs[slot]
		if d.m.IsArchived() || d.m.Time.IsZero() {
			continue
		}
		if !found || d.m.Time.Before(s.from) {
			s.from = d.m.Time
		}
		if !found || d.m.Time.After(s.to) {
			s.to = d.m.Time
		}
		found = true
	}
	return s, found
}

// days widens s to whole days in loc: [start of from's day, start of the day after to's).
func days(s span, loc *time.Location) span {
	return span{startOfDay(s.from, loc), startOfDay(s.to, loc).AddDate(0, 0, 1)}
}

// startOfDay returns midnight of t's day in loc.
func startOfDay(t time.Time, loc *time.Location) time.Time {
	t = t.In(loc)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
}
