package memory

// STUB: this file is a placeholder with the agreed API; the memory helper
// replaces it with the real implementation.

import (
	"context"
	"errors"
	"log/slog"
	"time"

	chromem "github.com/philippgille/chromem-go"
)

// DefaultScope is the personal scope used when a caller names none.
const DefaultScope = "personal"

// Ranking holds the tunable parameters of recall's ranking.
type Ranking struct {
	K1, B        float64       // BM25 parameters
	VectorWeight float64       // weight of the embedder's cosine in the fused relevance
	DecayUnit    time.Duration // time unit of t in p_n(t)
	PrevWeight   float64       // weight of the previous turn of the thread (issue 3)
	NextWeight   float64       // weight of the next turn of the thread (issue 3)
	DateWords    bool          // index the event date as words (issue 3)
	PRFTerms     int           // pseudo-relevance feedback expansion terms, 0 = off (issue 3)
	Candidates   int           // candidates taken from each retriever before fusion
}

// DefaultRanking returns the measured defaults.
func DefaultRanking() Ranking { return Ranking{K1: 1.0, B: 0.2, VectorWeight: 0.2, DecayUnit: 30 * 24 * time.Hour, Candidates: 100} }

// Options configure Open. Embed must not be nil.
type Options struct {
	Path         string                // database file path (created with its directory)
	ModelID      string                // embedding model id recorded with every vector
	Embed        chromem.EmbeddingFunc // embedding function; never nil
	Now          func() time.Time      // clock; nil = time.Now
	Location     *time.Location        // time zone for date words; nil = time.Local
	Logger       *slog.Logger          // nil = discard
	DefaultScope string                // "" = DefaultScope
	Ranking      Ranking               // zero = DefaultRanking()
	// AllowModelMismatch opens a store whose vectors were made by another
	// model (only Reembed is meaningful then).
	AllowModelMismatch bool
}

// Store is the memory store. All methods are safe for concurrent use.
type Store struct{}

var errStub = errors.New("not implemented")

// Open opens (creating if needed) the store at opts.Path.
func Open(ctx context.Context, opts Options) (*Store, error) { return nil, errStub }

// Close releases the store.
func (s *Store) Close() error { return errStub }

// Path returns the database file path.
func (s *Store) Path() string { return "" }

// ModelID returns the embedding model id of the store.
func (s *Store) ModelID() string { return "" }

// Remember stores a draft (or updates Draft.ID), deduplicating and superseding.
func (s *Store) Remember(ctx context.Context, d Draft) (Memory, Outcome, error) {
	return Memory{}, Outcome{}, errStub
}

// Get returns the memories with the given ids in that order; ErrNotFound names a missing one.
func (s *Store) Get(ctx context.Context, ids []string) ([]Memory, error) { return nil, errStub }

// Recall ranks memories for a query.
func (s *Store) Recall(ctx context.Context, q Query) (Result, error) { return Result{}, errStub }

// Forget archives (or purges) the selected memories.
func (s *Store) Forget(ctx context.Context, r ForgetRequest) (ForgetResult, error) {
	return ForgetResult{}, errStub
}

// History returns earlier versions of a memory, oldest first, plus the chain
// of memories it superseded.
func (s *Store) History(ctx context.Context, id string) ([]Version, error) { return nil, errStub }

// Stats summarises the store.
func (s *Store) Stats(ctx context.Context) (Stats, error) { return Stats{}, errStub }

// Reembed recomputes every vector with the store's current embedder and
// records its model id. progress may be nil.
func (s *Store) Reembed(ctx context.Context, progress func(done, total int)) error { return errStub }
