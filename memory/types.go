package memory

import (
	"errors"
	"time"
)

// Kind is the kind of a memory: a free thought, a subject-predicate-object
// fact, or an episode.
type Kind string

// The kinds of memory.
const (
	KindThought Kind = "thought"
	KindFact    Kind = "fact"
	KindEpisode Kind = "episode"
)

// Limits on what a memory may hold.
const (
	MaxContentBytes = 32 * 1024
	MaxTags         = 3
	MaxLimit        = 50
	DefaultLimit    = 5

	// MaxScopeBytes bounds a scope, which is also limited to letters,
	// digits and the characters : . _ - /.
	MaxScopeBytes = 64
	// MaxThreadBytes bounds a thread id and a source.
	MaxThreadBytes = 256
	// MaxTagBytes bounds one tag.
	MaxTagBytes = 32
	// MaxFactFieldBytes bounds each of subject, predicate, object and context.
	MaxFactFieldBytes = 1024
	// MaxEpisodeBytes bounds content, observation, thoughts, action and
	// result together (content derived from the episode fields counts once).
	MaxEpisodeBytes = 32 * 1024
	// MaxMetaBytes bounds the meta map encoded as JSON.
	MaxMetaBytes = 8 * 1024
)

// Sentinel errors returned by the Store. The MCP and CLI layers map them to
// messages the caller can act on; wrap with fmt.Errorf("op: %w", err).
var (
	ErrNotFound      = errors.New("memory not found")
	ErrInvalid       = errors.New("invalid input")
	ErrModelMismatch = errors.New("embedding model mismatch")
	ErrClosed        = errors.New("store closed")
)

// Memory is one stored memory, the system-of-record row.
type Memory struct {
	ID      string   `json:"id"`
	Scope   string   `json:"scope"`
	Kind    Kind     `json:"kind"`
	Content string   `json:"content"`
	Tags    []string `json:"tags"`

	// Fact fields (Think-in-Memory / three-tier semantic memory).
	Subject   string `json:"subject,omitempty"`
	Predicate string `json:"predicate,omitempty"`
	Object    string `json:"object,omitempty"`
	Context   string `json:"context,omitempty"`

	// Episode fields (three-tier episodic memory).
	Observation string `json:"observation,omitempty"`
	Thoughts    string `json:"thoughts,omitempty"`
	Action      string `json:"action,omitempty"`
	Result      string `json:"result,omitempty"`

	Time    time.Time `json:"time"`    // event time: when it happened
	Created time.Time `json:"created"` // ingest time
	Updated time.Time `json:"updated"`

	LastRecalled time.Time `json:"last_recalled,omitzero"`
	RecallCount  int       `json:"recall_count"`
	Strength     float64   `json:"strength"` // consolidation strength g_n, starts at 1

	Archived     time.Time `json:"archived,omitzero"`
	SupersededBy string    `json:"superseded_by,omitempty"`

	Source string            `json:"source,omitempty"` // who wrote it: "mcp", "cli", "import", "consolidate"
	Thread string            `json:"thread,omitempty"` // conversation it came from
	Seq    int               `json:"seq,omitempty"`    // order within the thread
	Meta   map[string]string `json:"meta,omitempty"`
}

// IsArchived reports whether the memory is archived (forgotten or superseded).
func (m Memory) IsArchived() bool { return !m.Archived.IsZero() }

// Version is one earlier state of a memory, kept when it is updated.
type Version struct {
	MemoryID string    `json:"memory_id"`
	Version  int       `json:"version"`
	Changed  time.Time `json:"changed"`
	Reason   string    `json:"reason"` // "update", "supersede", "merge", "archive", ...
	Memory   Memory    `json:"memory"` // the memory as it was before the change
}

// Draft is what a caller hands to Remember. Zero fields take defaults:
// Kind thought, Time now, Scope the store's default scope.
type Draft struct {
	ID      string // when set: update this memory, keeping the old state as history
	Scope   string
	Kind    Kind
	Content string
	Tags    []string

	Subject, Predicate, Object, Context   string
	Observation, Thoughts, Action, Result string

	Time   time.Time
	Source string
	Thread string
	Seq    int
	Meta   map[string]string

	// NoDedup stores the draft even if the same normalised text exists
	// (the bench uses it); normal callers leave it false.
	NoDedup bool
}

// Outcome says what Remember did besides storing.
type Outcome struct {
	Duplicate  bool     `json:"duplicate"`            // an existing memory was reinforced instead
	Updated    bool     `json:"updated,omitempty"`    // Draft.ID named an existing memory
	Superseded []string `json:"superseded,omitempty"` // facts archived by this one
}

// Query is a recall request.
type Query struct {
	Text            string
	When            string // a time expression ("yesterday", "in April"); "" = look for one in Text
	Tags            []string
	From, To        time.Time // explicit event-time window, zero = open; overrides When
	Scopes          []string  // searched scopes; empty = the store's default scope
	Limit           int       // default DefaultLimit, max MaxLimit
	Offset          int
	IDs             []string // fetch these memories whole, no ranking
	IncludeArchived bool
	Reinforce       bool      // update recall count, g and last-recalled of returned memories
	Now             time.Time // zero = the store's clock
	MinProbability  float64   // drop hits whose recall probability is below this
}

// Score explains a hit's rank.
type Score struct {
	Relevance   float64 `json:"relevance"`   // r in [0,1], fused lexical + vector relevance
	Probability float64 `json:"probability"` // p_n(t) from decay
	LogP        float64 `json:"-"`           // the ranking key, log p_n(t) computed stably
	Tags        float64 `json:"tags"`        // share of query tags the memory carries
	Lexical     float64 `json:"-"`
	Vector      float64 `json:"-"`
}

// Hit is one ranked memory.
type Hit struct {
	Memory Memory `json:"memory"`
	Score  Score  `json:"score"`
}

// Window says which time window a recall applied and how.
type Window struct {
	Expr    string    `json:"expr,omitempty"` // the time expression as the user wrote it
	From    time.Time `json:"from,omitzero"`  // half-open [From, To)
	To      time.Time `json:"to,omitzero"`
	Anchor  time.Time `json:"anchor,omitzero"` // vague expressions: centre of the boost
	Kind    string    `json:"kind"`            // "exact", "vague", "first", "last", "explicit"
	Applied string    `json:"applied"`         // "filter" (exact), "boost" (vague), "boost-fallback" (exact window held nothing the words match)
}

// Result is what Recall returns.
type Result struct {
	Hits   []Hit   `json:"hits"`
	More   bool    `json:"more"`             // more hits exist past Offset+Limit
	Total  int     `json:"total"`            // candidates that matched before paging
	Window *Window `json:"window,omitempty"` // the time window applied, if any
}

// ForgetRequest selects memories to archive or purge.
type ForgetRequest struct {
	IDs    []string
	Scope  string
	Tag    string
	Before time.Time
	DryRun bool
	Purge  bool // delete for good instead of archiving
}

// ForgetResult lists what was (or, on a dry run, would be) affected.
type ForgetResult struct {
	IDs    []string `json:"ids"`
	Purged bool     `json:"purged"`
	DryRun bool     `json:"dry_run"`
}

// Stats summarises the store.
type Stats struct {
	Memories int            `json:"memories"` // active
	Archived int            `json:"archived"`
	Store    string         `json:"store"` // path of the database file
	Model    string         `json:"model"` // embedding model id
	Scopes   map[string]int `json:"scopes"`
	Kinds    map[string]int `json:"kinds"`
}
